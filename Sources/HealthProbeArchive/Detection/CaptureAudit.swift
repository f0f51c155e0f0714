import Foundation
internal import GRDB

/// Runs every detector on a completed capture against the previous full capture, in the order
/// that explains each record once — updates first, then rewrites, duplicates and overlaps, then
/// backfills, and what is left of the vanished records is silent deletion — and stores the
/// anomalies with the records they are about.
public enum CaptureAudit {
    /// What the audit of one capture found.
    public struct Report: Sendable {
        public var anomalies: [Anomaly]
        /// What the audit could not judge, for people ("divergence not tested: …").
        public var notes: [String]
        /// How long detection took, in seconds.
        public var seconds: Double

        public init(anomalies: [Anomaly], notes: [String], seconds: Double) {
            self.anomalies = anomalies
            self.notes = notes
            self.seconds = seconds
        }
    }

    /// Audits capture `captureID`, whose never-seen records are the rows above `recordIDFloor`.
    /// Runs inside the caller's transaction: the capture and its anomalies land together.
    /// `streamed` is the timeline a first capture's records were followed in as they came, when
    /// its row numbers are their ids (``StreamedTimeline``).
    static func run(
        _ db: Database, captureID: Int64, recordIDFloor: Int64, thresholds: Thresholds,
        streamed: StreamedTimeline? = nil
    ) throws -> Report {
        let started = Date()
        let pair = try CapturePair.load(db, captureID: captureID, recordIDFloor: recordIDFloor)
        let previousCounts = try pair.typeCounts(db, capture: pair.previous?.id)
        let currentCounts = try pair.typeCounts(db, capture: pair.current.id)
        var findings: [Finding] = []
        if pair.previous != nil {
            try CaptureDiff.build(db, pair: pair)
            if pair.previous?.origin == .backup {
                // A backup could not hold what a Health database does not describe: its first
                // sighting is no arrival to judge.
                try db.execute(
                    sql: """
                        UPDATE temp.arrival SET explanation = 'notInBackups'
                        WHERE NOT (\(HealthDatabaseTypes.describedRecordsSQL))
                        """)
            }
            try RestoredRecords.match(db, pair: pair)
            try SyncReplacementMatcher().run(db, pair: pair)
            try ReissueMatcher().run(db, pair: pair)
            findings += try ValueModifiedDetector(pair: pair, thresholds: thresholds)
                .detect(db, previousCounts: previousCounts)
            findings += try TimesModifiedDetector(pair: pair, thresholds: thresholds)
                .detect(db, previousCounts: previousCounts)
        }
        var duplicates = DuplicateDetector(pair: pair, thresholds: thresholds)
        var overlaps = SourceOverlapDetector(pair: pair)
        try SampleGroupScan(pair: pair).forEachGroup(db) { rows in
            duplicates.consume(rows)
            overlaps.consume(rows, taken: duplicates.surplusIDs)
        }
        findings += duplicates.findings(currentCounts: currentCounts)
        findings += overlaps.findings()
        var (selfOverlaps, conflicts, names) = try readTimeline(db, pair: pair, thresholds: thresholds, streamed)
        findings += selfOverlaps.findings(pair: pair, names: names)
        findings += conflicts.findings(pair: pair, names: names)
        if pair.previous != nil {
            try CaptureDiff.explain(db, table: "arrival", ids: Array(duplicates.surplusIDs), as: "duplicate")
            try CaptureDiff.explain(db, table: "arrival", ids: Array(overlaps.surplusIDs), as: "overlap")
            try CaptureDiff.explain(db, table: "arrival", ids: selfOverlaps.involvedArrivals, as: "selfOverlap")
            try CaptureDiff.explain(db, table: "arrival", ids: conflicts.involvedArrivals, as: "conflict")
            findings += try HistoricalInsertionDetector(pair: pair, thresholds: thresholds).detect(db)
            try recordReturns(db, pair: pair)
            findings += try SilentDeletionDetector(pair: pair, thresholds: thresholds)
                .detect(db, previousCounts: previousCounts, currentCounts: currentCounts)
            findings += try BulkDeletionDetector(pair: pair, thresholds: thresholds)
                .detect(db, previousCounts: previousCounts)
            findings += try ReferencedFileDetector(pair: pair).detect(db)
        }
        let divergence = try DivergenceDetector(pair: pair, thresholds: thresholds)
            .detect(db, explained: Set(findings.map(\.sampleType)))
        findings += divergence.findings
        var notes: [String] = []
        if !divergence.untested.isEmpty {
            let names = divergence.untested.map(HealthKitCatalog.displayName).sorted()
            let named =
                names.prefix(4).joined(separator: ", ") + (names.count > 4 ? " and \(names.count - 4) more" : "")
            let note =
                "divergence not tested for \(named): "
                + "fewer than \(thresholds.divergenceMinimumBaselineDays) days of history before the last "
                + "\(thresholds.divergenceRecentDays) days"
            notes.append(note)
            try AuditLog.append(
                db, event: .detectorSkipped, captureID: captureID, message: "capture \(captureID): \(note)")
        }
        findings = try UnrelatedCaptureFinding.fold(findings, db, pair: pair)
        let anomalies = try AnomalyWriter.store(findings, captureID: captureID, db)
        try CaptureDiff.drop(db)
        return Report(anomalies: anomalies, notes: notes, seconds: Date().timeIntervalSince(started))
    }

    /// The timeline detectors, having read what C holds in time order: from the stream when a
    /// first capture was followed under these thresholds, else from the archive.
    private static func readTimeline(
        _ db: Database, pair: CapturePair, thresholds: Thresholds, _ streamed: StreamedTimeline?
    ) throws -> (SelfOverlapDetector, ConflictingValuesDetector, [UInt64: (type: String, source: String?)]) {
        if pair.previous == nil, var streamed, streamed.thresholds == thresholds {
            try streamed.settle(db, pair: pair)
            return (streamed.selfOverlaps, streamed.conflicts, streamed.names)
        }
        return try scanTimeline(db, pair: pair, thresholds: thresholds)
    }

    /// The timeline detectors, having read what C holds in time order from the archive.
    static func scanTimeline(
        _ db: Database, pair: CapturePair, thresholds: Thresholds
    ) throws -> (SelfOverlapDetector, ConflictingValuesDetector, [UInt64: (type: String, source: String?)]) {
        var selfOverlaps = SelfOverlapDetector(thresholds: thresholds)
        var conflicts = ConflictingValuesDetector(thresholds: thresholds)
        var timeline = TimelineScan(pair: pair, summedTypes: thresholds.selfOverlapSummedTypes)
        try timeline.forEachRow(db) { row in
            selfOverlaps.consume(row)
            conflicts.consume(row)
        }
        return (selfOverlaps, conflicts, timeline.names)
    }

    /// Records that had gone and came back: an audit entry, not an anomaly.
    private static func recordReturns(_ db: Database, pair: CapturePair) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT type, COUNT(*) AS n FROM temp.arrival WHERE returned = 1 GROUP BY type ORDER BY type")
        for row in rows {
            try AuditLog.append(
                db, event: .recordsReturned, captureID: pair.current.id,
                message:
                    "capture \(pair.current.id): \(EvidenceText.records(row["n"], of: row["type"])) that had gone came back"
            )
        }
    }
}

/// Stores findings as anomalies with their record links and an audit entry.
enum AnomalyWriter {
    static func store(_ findings: [Finding], captureID: Int64, _ db: Database) throws -> [Anomaly] {
        let now = Date().timeIntervalSince1970
        var ids: [Int64] = []
        for finding in findings {
            let evidence = CanonicalJSON.object(
                finding.evidence.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }
            ).text
            try db.execute(
                sql: """
                    INSERT INTO anomaly (captureId, detectedAt, type, severity, sampleType, summary, recordCount, evidence)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    captureID, now, finding.type.rawValue, finding.severity.rawValue, finding.sampleType,
                    finding.summary, finding.recordCount, evidence,
                ])
            let anomalyID = db.lastInsertedRowID
            ids.append(anomalyID)
            for link in finding.records { try store(link, anomalyID: anomalyID, db) }
        }
        if !findings.isEmpty {
            let bySeverity = Dictionary(grouping: findings, by: \.severity)
            let counts = Severity.allCases.reversed().compactMap { severity in
                bySeverity[severity].map { "\($0.count) \(severity.rawValue)" }
            }
            try AuditLog.append(
                db, event: .anomaliesDetected, captureID: captureID,
                message:
                    "capture \(captureID): \(findings.count) anomalies detected (\(counts.joined(separator: ", ")))")
        }
        guard !ids.isEmpty else { return [] }
        return try Anomaly.fetchAll(
            db, sql: "SELECT * FROM anomaly WHERE id IN (\(ids.map(String.init).joined(separator: ","))) ORDER BY id")
    }

    private static func store(_ link: Finding.RecordLink, anomalyID: Int64, _ db: Database) throws {
        switch link {
        case .ids(let role, let ids):
            let statement = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO anomalyRecord (anomalyId, recordId, role) VALUES (?, ?, ?)")
            for id in ids { try statement.execute(arguments: [anomalyID, id, role]) }
        case .query(let role, let sql, let arguments):
            try db.execute(
                sql: "INSERT OR IGNORE INTO anomalyRecord (anomalyId, recordId, role) SELECT ?, id, ? FROM (\(sql))",
                arguments: StatementArguments([anomalyID.databaseValue, role.databaseValue] + arguments))
        }
    }
}
