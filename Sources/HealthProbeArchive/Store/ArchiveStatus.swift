import Foundation
internal import GRDB

/// What `healthprobe status` shows: the last capture, per-type counts, size and integrity.
public struct ArchiveStatus: Sendable, Codable {
    public struct TypeCount: Sendable, Codable, Equatable {
        public var type: String
        public var count: Int
        public var sources: [String: Int]
    }

    public var path: String?
    public var captures: Int
    public var lastCapture: CaptureSummary?
    /// Per sample type, as of the last complete capture.
    public var types: [TypeCount]
    /// Every record the archive has ever seen, gone ones included.
    public var recordsEverSeen: Int
    public var recordsGone: Int
    /// Unresolved anomalies by severity (`critical`, `warning`, `info`).
    public var openAnomalies: [String: Int]
    /// The file and its write-ahead log, in bytes.
    public var archiveBytes: Int64
    /// The last verification (`archive verify`, or the dashboard's check): `ok`, or what it
    /// found; nil when the archive has never been verified. `status` does not verify, since that
    /// reads every page (seconds on a large archive).
    public var integrity: String?
    public var integrityCheckedAt: Date?
    /// `healthy`, `warning`, `critical` or `unknown`: what the dashboard's status shows.
    public var status: String
    /// The status for people: the reason when unknown.
    public var statusMessage: String
}

extension ArchiveStore {
    /// Everything `healthprobe status` shows: the overview the screens read, plus per-source
    /// counts, counts over every record and the last verification's result. Reads only.
    public func status() throws -> ArchiveStatus {
        let overview = try fetchOverview()
        return try read { db in
            var types: [ArchiveStatus.TypeCount] = []
            if let last = overview.lastCapture {
                types = try Row.fetchAll(
                    db, sql: "SELECT type, count, sourceCounts FROM typeSnapshot WHERE captureId = ? ORDER BY type",
                    arguments: [last.id]
                ).map { row in
                    ArchiveStatus.TypeCount(
                        type: row["type"], count: row["count"], sources: Self.sourceCounts(row["sourceCounts"]))
                }
            }
            let health = overview.status
            return ArchiveStatus(
                path: path, captures: overview.captures, lastCapture: overview.lastCapture, types: types,
                // The records only a capture set aside held count as never seen.
                recordsEverSeen: try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM record WHERE goneReason IS NOT \(GoneReason.setAside.sqlLiteral)")
                    ?? 0,
                recordsGone: try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM record
                        WHERE goneCapture IS NOT NULL AND goneReason <> \(GoneReason.setAside.sqlLiteral)
                        """) ?? 0,
                openAnomalies: Dictionary(
                    uniqueKeysWithValues: overview.openAnomalies.map { ($0.key.rawValue, $0.value) }),
                archiveBytes: overview.archiveBytes, integrity: overview.integrity?.result,
                integrityCheckedAt: overview.integrity?.checkedAt, status: health.label,
                statusMessage: health.message)
        }
    }

    /// Records present now (seen and not gone), counted over the records: seconds at millions.
    public func countPresentRecords() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NULL") ?? 0
        }
    }

    /// A capture's per-source counts of a type (canonical JSON, `{"source": n}`).
    static func sourceCounts(_ json: String) -> [String: Int] {
        (try? JSONDecoder().decode([String: Int].self, from: Data(json.utf8))) ?? [:]
    }

    func fileBytes() -> Int64 {
        guard let path else { return 0 }
        return [path, path + "-wal"].reduce(Int64(0)) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }
}

extension ArchiveStore {
    /// The sample types an archive knows: what its captures held, and the live path's catalog.
    public func knownSampleTypes() throws -> [String] {
        let stored = try read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT type FROM typeSnapshot")
        }
        return Array(Set(stored + HealthKitCatalog.types.map(\.identifier))).sorted()
    }

    /// The sample types the latest capture held, by identifier: what a day of every type
    /// shows, read from the capture's per-type counts (no record is counted).
    public func heldSampleTypes() throws -> [String] {
        try read { db in
            guard let last = try LatestCapture.id(db) else { return [] }
            return try String.fetchAll(
                db, sql: "SELECT type FROM typeSnapshot WHERE captureId = ? ORDER BY type", arguments: [last])
        }
    }
}
