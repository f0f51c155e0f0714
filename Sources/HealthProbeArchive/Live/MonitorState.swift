import Foundation
internal import GRDB

/// What the monitor keeps between launches, in the archive: the anchors (saved with each
/// completed capture) and a few settings — so a restart resumes where the last check ended.
public struct MonitorState: Sendable {
    public var anchors: [String: HealthAnchor] = [:]
    public var checksSinceVerification = 0
    public var lastCheckedAt: Double?
    public var lastVerifiedAt: Double?
    public var status: MonitorStatus?

    static let prefix = "live."

    public static func load(_ store: ArchiveStore) throws -> MonitorState {
        try store.read { db in
            var state = MonitorState()
            for row in try Row.fetchAll(
                db, sql: "SELECT sampleType, value FROM anchor WHERE origin = ?",
                arguments: [LiveCapture.origin.rawValue])
            {
                state.anchors[row["sampleType"]] = HealthAnchor(data: row["value"])
            }
            let settings = try SettingRows.values(db, prefix: prefix)
            state.checksSinceVerification = settings[prefix + "checksSinceVerification"].flatMap(Int.init) ?? 0
            state.lastCheckedAt = settings[prefix + "lastCheckedAt"].flatMap(Double.init)
            state.lastVerifiedAt = settings[prefix + "lastVerifiedAt"].flatMap(Double.init)
            state.status = settings[prefix + "status"].flatMap {
                try? JSONDecoder().decode(MonitorStatus.self, from: Data($0.utf8))
            }
            return state
        }
    }

    public mutating func record(check at: Double, verified: Bool, status: MonitorStatus) {
        lastCheckedAt = at
        checksSinceVerification = verified ? 0 : checksSinceVerification + 1
        if verified { lastVerifiedAt = at }
        self.status = status
    }

    public func save(_ store: ArchiveStore) throws {
        let status = try self.status.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let values: [(String, String?)] = [
            ("checksSinceVerification", String(checksSinceVerification)),
            ("lastCheckedAt", lastCheckedAt.map { "\($0)" }),
            ("lastVerifiedAt", lastVerifiedAt.map { "\($0)" }), ("status", status),
        ]
        try store.write { db in
            // What is not known yet is left as it was, not forgotten.
            for case (let key, let value?) in values { try SettingRows.set(db, Self.prefix + key, value) }
        }
    }
}
