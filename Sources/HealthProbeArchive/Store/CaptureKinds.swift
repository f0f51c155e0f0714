internal import GRDB

/// Where a capture's records came from, as stored in `capture.origin` and shown in `--json`.
public enum CaptureOrigin: String, Sendable, Codable, StoredWord {
    /// An Apple Health export (`healthprobe check FILE`).
    case export
    /// HealthKit, read by the app's monitor.
    case healthkit
    /// An iPhone's Health database, from a backup (`healthprobe check healthdb_secure.sqlite`,
    /// its folder, or an encrypted backup folder).
    case backup

    /// Exports and backups are both whole pictures of the phone's Health data, taken by the
    /// user: each is compared with the latest of either (docs/BACKUP.md).
    static let snapshots: [CaptureOrigin] = [.export, .backup]
}

/// How much of the data a capture read: everything (`full`: an export, a verification scan), or
/// what changed since the last check (`delta`).
public enum CaptureScope: String, Sendable, Codable, StoredWord {
    case full, delta
}

/// A capture is `running` while it is written (a live check may run across windows) and
/// `complete` once its records, counts and audit are in; one the user set aside (the wrong
/// file) is `aside`, kept but left out of every comparison (``CaptureSetAside``).
enum CaptureStatus: String, Sendable, DatabaseValueConvertible {
    case running, complete
    case setAside = "aside"
}

/// Why a record is gone: not in a capture that should hold it (`absent`), reported deleted by
/// HealthKit (`deleted`), or taken for an earlier version of a record that arrived in its place
/// (`replaced`: a higher sync version; `reissued`: the same sample under a new identity;
/// `modified`: the same record with another value), or held only by a capture the user set
/// aside (`aside`: never in the archive as far as any comparison knows).
public enum GoneReason: String, Sendable, Codable, StoredWord {
    case absent, deleted, replaced, reissued, modified
    case setAside = "aside"
}

/// A word the archive stores in a text column. Statements spell it as an SQL string literal
/// (``sqlLiteral``) so that they stay fixed text, prepared once and cached; the raw values are
/// plain lowercase words, never quoted.
protocol ArchiveKeyword: RawRepresentable where RawValue == String {}

extension ArchiveKeyword {
    /// `'complete'`, `'absent'`, …
    var sqlLiteral: String { "'\(rawValue)'" }
}

extension CaptureOrigin: ArchiveKeyword {}
extension CaptureScope: ArchiveKeyword {}
extension CaptureStatus: ArchiveKeyword {}
extension GoneReason: ArchiveKeyword {}
extension AttachedFile.Kind: ArchiveKeyword {}
