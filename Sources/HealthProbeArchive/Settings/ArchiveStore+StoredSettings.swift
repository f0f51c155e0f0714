import Foundation
internal import GRDB

extension ArchiveStore {
    /// The text kept under `key` in the archive's settings (a schedule as JSON, say); nil when
    /// none is.
    public func storedSetting(_ key: String) throws -> String? {
        try read { db in try SettingRows.value(db, key) }
    }

    /// Keeps each value under its key, or forgets the key for nil, in one transaction, with
    /// `auditMessage` in the trail as a settings change when given.
    public func storeSettings(_ values: [String: String?], auditMessage: String? = nil) throws {
        try write { db in
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { try SettingRows.set(db, key, value) }
            if let auditMessage { try AuditLog.append(db, event: .settingsChanged, message: auditMessage) }
        }
    }
}
