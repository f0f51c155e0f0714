import Foundation
internal import GRDB

extension ArchiveStore {
    /// Which anomalies to list.
    public struct AnomalyFilter: Sendable {
        public var includeResolved = false
        /// At or above this severity.
        public var minimumSeverity: Severity?
        public var type: AnomalyType?
        /// Of this sample type only (a HealthKit identifier).
        public var sampleType: String?
        public var captureID: Int64?

        public init(
            includeResolved: Bool = false, minimumSeverity: Severity? = nil, type: AnomalyType? = nil,
            captureID: Int64? = nil
        ) {
            self.includeResolved = includeResolved
            self.minimumSeverity = minimumSeverity
            self.type = type
            self.captureID = captureID
        }
    }

    /// Anomalies, oldest first.
    public func fetchAnomalies(_ filter: AnomalyFilter = AnomalyFilter()) throws -> [Anomaly] {
        var clauses: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        if !filter.includeResolved { clauses.append(AnomalyRecovery.openCondition) }
        if let minimum = filter.minimumSeverity {
            let allowed = Severity.allCases.filter { $0 >= minimum }.map(\.rawValue)
            clauses.append("severity IN (\(allowed.map { _ in "?" }.joined(separator: ",")))")
            arguments += allowed as [DatabaseValueConvertible]
        }
        if let type = filter.type {
            clauses.append("type = ?")
            arguments.append(type.rawValue)
        }
        if let sampleType = filter.sampleType {
            clauses.append("sampleType = ?")
            arguments.append(sampleType)
        }
        if let capture = filter.captureID {
            clauses.append("captureId = ?")
            arguments.append(capture)
        }
        let whereClause = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        return try read { db in
            try Anomaly.fetchAll(
                db, sql: "SELECT * FROM anomaly \(whereClause) ORDER BY id",
                arguments: StatementArguments(arguments.map { $0.databaseValue }))
        }
    }

    public func fetchAnomaly(id: Int64) throws -> Anomaly? {
        try read { db in try Anomaly.fetchOne(db, sql: "SELECT * FROM anomaly WHERE id = ?", arguments: [id]) }
    }

    /// A record an anomaly is about, as a report shows it (decoded from its row by column name).
    /// In JSON (`show --format json`, the assistant's `get_anomaly`), its times in ISO 8601.
    public struct AnomalyRecord: Sendable, Encodable, Equatable, RowDecodable {
        public var recordId: Int64
        public var role: String
        public var type: String
        public var sourceName: String?
        public var startDate: Double?
        public var endDate: Double?
        public var unit: String?
        /// The value as read; shown only when asked for.
        public var value: String?

        init(row: Row) throws {
            recordId = row["recordId"]
            role = row["role"]
            type = row["type"]
            sourceName = row["sourceName"]
            startDate = row["startDate"]
            endDate = row["endDate"]
            unit = row["unit"]
            value = row["value"]
        }

        private enum CodingKeys: String, CodingKey {
            case recordId, role, type, sourceName, startDate, endDate, unit, value
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(recordId, forKey: .recordId)
            try container.encode(role, forKey: .role)
            try container.encode(type, forKey: .type)
            try container.encodeIfPresent(sourceName, forKey: .sourceName)
            try container.encodeIfPresent(startDate.map { UTCText.iso8601(seconds: $0) }, forKey: .startDate)
            try container.encodeIfPresent(endDate.map { UTCText.iso8601(seconds: $0) }, forKey: .endDate)
            try container.encodeIfPresent(unit, forKey: .unit)
            try container.encodeIfPresent(value, forKey: .value)
        }
    }

    /// The records of anomaly `id` in time order, at most `limit` after the first `offset`; and
    /// how many in all. At one time, `before` comes ahead of `after`, so that a changed value reads
    /// as its pair.
    public func fetchAnomalyRecords(id: Int64, limit: Int, offset: Int = 0) throws
        -> (records: [AnomalyRecord], total: Int)
    {
        try read { db in
            let total =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM anomalyRecord WHERE anomalyId = ?", arguments: [id]) ?? 0
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT l.recordId, l.role, r.type, r.sourceName, r.startDate, r.endDate, r.unit, r.value,
                        r.kind, r.details
                    FROM anomalyRecord AS l JOIN record AS r ON r.id = l.recordId
                    WHERE l.anomalyId = ?
                    ORDER BY r.startDate, r.endDate, l.role = 'after', l.role, r.id LIMIT ? OFFSET ?
                    """, arguments: [id, limit, max(0, offset)])
            // A workout has no single value: its duration, distance and energy stand for it.
            let records = try rows.map { row in
                var record = try AnomalyRecord(row: row)
                if record.value == nil, (row["kind"] as String?) == "workout" {
                    record.value = WorkoutSummary.text(details: row["details"])
                }
                return record
            }
            return (records, total)
        }
    }

    /// Marks anomalies resolved, with an audit entry each. Every id must exist, else nothing is
    /// changed. Resolving one already resolved changes nothing.
    public func resolveAnomalies(ids: [Int64]) throws -> [Anomaly] {
        try setResolved(ids: ids, resolved: true)
    }

    /// Opens resolved anomalies again (a resolution made by mistake): they are back in the
    /// default lists and the status, and the trail says so.
    public func reopenAnomalies(ids: [Int64]) throws -> [Anomaly] {
        try setResolved(ids: ids, resolved: false)
    }

    private func setResolved(ids: [Int64], resolved: Bool) throws -> [Anomaly] {
        try write { db in
            let known = Set(
                try Int64.fetchAll(
                    db, sql: "SELECT id FROM anomaly WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ",")))",
                    arguments: StatementArguments(ids)))
            let unknown = ids.filter { !known.contains($0) }
            guard unknown.isEmpty else { throw ArchiveError.unknownAnomalies(unknown.map(String.init)) }
            let now = Date().timeIntervalSince1970
            for id in Set(ids).sorted() {
                if resolved {
                    try db.execute(
                        sql: "UPDATE anomaly SET resolvedAt = ? WHERE id = ? AND resolvedAt IS NULL",
                        arguments: [now, id])
                } else {
                    try db.execute(
                        sql: "UPDATE anomaly SET resolvedAt = NULL WHERE id = ? AND resolvedAt IS NOT NULL",
                        arguments: [id])
                }
                if db.changesCount > 0 {
                    try AuditLog.append(
                        db, event: resolved ? .anomalyResolved : .anomalyReopened,
                        message: "anomaly \(id) \(resolved ? "resolved" : "reopened")")
                }
            }
            return try Anomaly.fetchAll(
                db,
                sql: "SELECT * FROM anomaly WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ","))) ORDER BY id",
                arguments: StatementArguments(ids))
        }
    }

    /// Appends an audit entry from outside a capture (a refused input, an opened archive).
    public func recordInAuditTrail(_ event: AuditLog.Event, message: String) throws {
        try write { db in try AuditLog.append(db, event: event, message: message) }
    }
}
