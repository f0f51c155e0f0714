import Foundation
import HealthProbeArchive

/// Why a check failed, and whether the archive was verified unchanged afterwards: the refusal a
/// face shows, carrying what it wraps.
public struct CheckFailure: Refusal, LocalizedError {
    /// A ``Refusal`` (the input, or the archive, refused), a ``CheckCancelled``, or what the
    /// password's reading threw.
    public let underlying: any Error
    /// Measured: the archive's footprint was the same before and after.
    public let archiveUnchanged: Bool
    /// The file or folder checked.
    public let input: URL?

    public init(underlying: any Error, archiveUnchanged: Bool, input: URL? = nil) {
        self.underlying = underlying
        self.archiveUnchanged = archiveUnchanged
        self.input = input
    }

    private var refusal: (any Refusal)? { underlying as? any Refusal }

    public var message: String {
        guard let refusal else { return underlying.localizedDescription }
        return input.map { refusal.message(naming: $0) } ?? refusal.message
    }
    public var exitCode: Int32 { refusal?.exitCode ?? RefusalCode.unusable }
    public var archiveLeftAsItWas: Bool { archiveUnchanged }
    public var wayOn: WayOn? { refusal?.wayOn }
    /// Whether the input itself was refused (not the archive, nor a stop).
    public var isRefusedInput: Bool { refusal?.exitCode == RefusalCode.unreadableInput }
    public var errorDescription: String? { message }
}
