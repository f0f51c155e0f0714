import AppleHealthExport
import Foundation

/// Something HealthProbe declined to do, told by the refusal itself: the one line every face
/// shows, the exit code the command line ends with (docs/DESIGN.md §9), the line the audit trail
/// keeps when it refused an input, whether the archive is as it was, and the way to go on. A face
/// words the way on in its own terms (a flag, a button) and decides nothing else: an error that
/// is not a refusal is translated once, where it crosses into the face.
public protocol Refusal: Error {
    /// One line: what was refused and why, naming the file or the capture.
    var message: String { get }
    /// `RefusalCode`: 64 for a request that cannot be met as made, 65 for an input that is not
    /// what it should be, 74 for an archive or a destination that could not be used.
    var exitCode: Int32 { get }
    /// Whether the archive is known to be as it was: the refusal came before any write, or it
    /// was read again after and found the same.
    var archiveLeftAsItWas: Bool { get }
    /// The way to go on, if there is one.
    var wayOn: WayOn? { get }
    /// The audit trail's line for `input` refused this way ("refused export.zip: …"), or nil
    /// when the trail keeps none (the refusal is not of an input).
    func trailLine(for input: URL) -> String?
    /// ``message`` as a face shows it for `input`: named, when the message does not name it.
    func message(naming input: URL) -> String
}

/// The exit codes a refusal carries (docs/DESIGN.md §9).
public enum RefusalCode {
    public static let usage: Int32 = 64
    public static let unreadableInput: Int32 = 65
    public static let unusable: Int32 = 74
}

/// What a person can do next about a refusal, said once by the refusal and worded by each face.
public enum WayOn: Sendable, Equatable {
    /// Check an export made before the one last checked all the same.
    case allowOlder
    /// Check an export or backup that shares almost nothing with the archive all the same.
    case allowUnrelated
    /// Name another file as the archive.
    case nameAnotherArchive
    /// Name a place the archive can be created.
    case nameWritablePlace
    /// Check an export first, or name an archive that exists.
    case checkFirstOrNameArchive
    /// List the anomalies there are.
    case listAnomalies
    /// Name what is damaged, and restore from a backup of the archive.
    case verifyThenRestore
    /// Check the archive's file.
    case verifyArchive
    /// Check an export before asking for what needs one.
    case checkFirst
    /// Give the graph's password where it is kept apart from the URL.
    case passwordOutsideURL
    /// Give the graph's credentials.
    case giveCredentials
    /// Replace the file that is there.
    case replaceOutput
}

extension Refusal {
    public var archiveLeftAsItWas: Bool { false }
    public var wayOn: WayOn? { nil }
    public func trailLine(for input: URL) -> String? { nil }
    public func message(naming input: URL) -> String { message }

    /// "refused NAME: message", naming the input once when the message names it already (by its
    /// name or its path).
    public func inputTrailLine(for input: URL) -> String {
        let name = input.lastPathComponent
        return "refused " + (message.hasPrefix(name) || message.hasPrefix(input.path) ? message : "\(name): \(message)")
    }
}

extension AppleExportError: Refusal {
    public var message: String { errorDescription ?? "the export could not be read" }
    public var exitCode: Int32 { RefusalCode.unreadableInput }
    public var archiveLeftAsItWas: Bool { true }
    public func trailLine(for input: URL) -> String? { inputTrailLine(for: input) }
}
