import Foundation
internal import GRDB

/// How far a live check has read one sample type, kept in the archive with the pages it
/// stored (`liveProgress`): what lets a check cut off in one background window resume in the
/// next exactly after its last stored page.
public struct LiveProgress: Sendable, Equatable {
    /// The position in the type's change history after the last page of changes read.
    public var changeAnchor: HealthAnchor?
    /// Whether the change read reached the end once in this check: what changes after it is the
    /// next check's to read (a scan still to finish meets it in its own pages).
    public var changesDone = false
    /// A verification scan's position, how many samples it met, and whether it reached the end.
    public var scanAnchor: HealthAnchor?
    public var scanSeen = 0
    public var scanDone = false
    /// The live records of the type held before this check when its scan began, and how many of
    /// them the scan met (all of them once its digest matched the archive's): all of them, and
    /// nothing is missing — without touching a record. When the two differ, the scan is read
    /// again noting each held record it meets (`scanMarking`, the notes in `liveScanMet`), and
    /// what it did not meet is gone.
    public var scanHeld: Int?
    public var scanMatched = 0
    public var scanMarking = false
    /// What the scan met, added up (its count is `scanSeen`), while it only compares: a scan of a
    /// type with records held first adds up the UUIDs it meets and compares them with those the
    /// archive holds; only when they differ is the type read again, marking.
    var scanDigest: UInt64 = 0

    /// A scan that adds up what it meets: the archive held records of the type, and the scan has
    /// not been found short.
    public var comparesDigests: Bool { (scanHeld ?? 0) > 0 && !scanMarking }
    /// Samples read as added, objects read as deleted, and samples stored by this check.
    public var added = 0
    var deleted = 0
    var stored = 0

    /// Where the next check reads this type's changes from, once this capture completes: after
    /// the scan when it finished (it read last), else after the changes read.
    /// A type not read yet.
    public init() {}

    public var anchorToSave: HealthAnchor? { scanDone ? scanAnchor ?? changeAnchor : changeAnchor }

    static func load(_ db: Database, capture: Int64) throws -> [String: LiveProgress] {
        var progress: [String: LiveProgress] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM liveProgress WHERE captureId = ?", arguments: [capture]) {
            var entry = LiveProgress()
            entry.changeAnchor = (row["changeAnchor"] as Data?).map(HealthAnchor.init(data:))
            entry.changesDone = row["changesDone"]
            entry.scanAnchor = (row["scanAnchor"] as Data?).map(HealthAnchor.init(data:))
            (entry.scanSeen, entry.scanDone, entry.scanHeld) = (row["scanSeen"], row["scanDone"], row["scanHeld"])
            (entry.scanMatched, entry.scanMarking) = (row["scanMatched"], row["scanMarking"])
            entry.scanDigest = UInt64(row["scanDigest"] as String, radix: 16) ?? 0
            (entry.added, entry.deleted, entry.stored) = (row["added"], row["deleted"], row["stored"])
            progress[row["sampleType"]] = entry
        }
        return progress
    }

    func save(_ db: Database, capture: Int64, type: String) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO liveProgress
                    (captureId, sampleType, changeAnchor, changesDone, scanAnchor, scanSeen, scanDone, scanHeld,
                    scanMatched, scanMarking, scanDigest, added, deleted, stored)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                capture, type, changeAnchor?.data, changesDone, scanAnchor?.data, scanSeen, scanDone, scanHeld,
                scanMatched, scanMarking, String(scanDigest, radix: 16), added, deleted, stored,
            ])
    }
}

extension Dictionary where Key == String, Value == LiveProgress {
    public var added: Int { values.reduce(0) { $0 + $1.added } }
    public var deleted: Int { values.reduce(0) { $0 + $1.deleted } }
    public var stored: Int { values.reduce(0) { $0 + $1.stored } }
}
