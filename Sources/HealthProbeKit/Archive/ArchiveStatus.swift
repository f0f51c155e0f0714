import Foundation
import GRDB

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
    /// `ok`, or what SQLite's integrity check found.
    public var integrity: String
    /// `healthy`, `warning`, `critical` or `unknown`: what the dashboard's status shows.
    public var status: String
    /// The status for people: the reason when unknown.
    public var statusMessage: String
}

extension ArchiveStore {
    /// Everything `healthprobe status` shows; runs (and records) the integrity check, so it reads
    /// the whole archive.
    public func status() throws -> ArchiveStatus {
        let integrity = try checkIntegrity().result
        let health = try fetchOverview().status
        return try writer.read { db in
            let last = try CaptureSummary.fetchOne(
                db, sql: "SELECT * FROM capture WHERE status = 'complete' ORDER BY id DESC LIMIT 1")
            var types: [ArchiveStatus.TypeCount] = []
            if let last {
                let rows = try Row.fetchAll(
                    db, sql: "SELECT type, count, sourceCounts FROM typeSnapshot WHERE captureId = ? ORDER BY type",
                    arguments: [last.id])
                types = rows.map { row in
                    let sources: String = row["sourceCounts"]
                    return ArchiveStatus.TypeCount(
                        type: row["type"], count: row["count"],
                        sources: (try? JSONDecoder().decode([String: Int].self, from: Data(sources.utf8))) ?? [:])
                }
            }
            let open = try Row.fetchAll(
                db, sql: "SELECT severity, COUNT(*) AS n FROM anomaly WHERE resolvedAt IS NULL GROUP BY severity")
            return ArchiveStatus(
                path: path,
                captures: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM capture WHERE status = 'complete'") ?? 0,
                lastCapture: last, types: types,
                recordsEverSeen: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") ?? 0,
                recordsGone: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NOT NULL")
                    ?? 0,
                openAnomalies: Dictionary(
                    uniqueKeysWithValues: open.map { ($0["severity"] as String, $0["n"] as Int) }),
                archiveBytes: fileBytes(), integrity: integrity, status: health.label, statusMessage: health.message)
        }
    }

    func fileBytes() -> Int64 {
        guard let path else { return 0 }
        return [path, path + "-wal"].reduce(Int64(0)) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }
}
