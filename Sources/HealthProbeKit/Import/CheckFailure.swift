import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Why a check — of an export, a Health database or a backup — failed, and whether the archive
/// was verified unchanged afterwards.
public struct CheckFailure: Error, LocalizedError {
    /// An ``AppleExportError``, a ``HealthDatabaseError`` or a ``PhoneBackupError`` (the input
    /// was refused), an ``OlderExportRefusal``, an ``UnrelatedCaptureRefusal``, an ``ArchiveError`` or a cancellation.
    public let underlying: any Error
    public let archiveUnchanged: Bool

    public init(underlying: any Error, archiveUnchanged: Bool) {
        self.underlying = underlying
        self.archiveUnchanged = archiveUnchanged
    }

    public var isRefusedInput: Bool {
        underlying is AppleExportError || underlying is HealthDatabaseError || underlying is PhoneBackupError
            || underlying is OlderExportRefusal || underlying is UnrelatedCaptureRefusal
    }
    public var errorDescription: String? { underlying.localizedDescription }
}

extension ArchiveStore {
    /// Runs a check's write into this archive, one way for every kind of input: a failure comes
    /// back as a ``CheckFailure`` saying whether the archive was left as it was (its footprint the
    /// same before and after); `noting` may first write the failure to the trail (a refused
    /// input). The archive's own errors come in words already: a capture's write says them.
    func checking<Result>(
        _ write: () throws -> Result, noting: (any Error) -> Void = { _ in }
    ) throws(CheckFailure) -> Result {
        let before = try? footprint()
        do {
            return try write()
        } catch {
            let after = try? footprint()
            noting(error)
            throw CheckFailure(underlying: error, archiveUnchanged: before != nil && before == after)
        }
    }
}
