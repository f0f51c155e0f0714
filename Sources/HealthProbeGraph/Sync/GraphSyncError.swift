import Foundation
import HealthProbeArchive

/// Why a graph sync could not run or did not complete; each says so in one line.
public enum GraphSyncError: Refusal, Equatable, CustomStringConvertible {
    /// The destination URL cannot be used (exit 64).
    case badDestination(String)
    /// The destination URL carries a password, which never travels in a URL (exit 64).
    case passwordInURL
    /// Neo4j was named without credentials (exit 64).
    case credentialsNeeded
    /// The archive holds no completed capture yet.
    case nothingCaptured
    /// A capture is still running (a live check waiting for its next window, or an import).
    case captureRunning(Int64)
    /// The destination could not be reached, refused, or failed a statement (exit 74).
    case destination(String, problem: String)
    /// Neo4j refused, failed or could not be reached (exit 74).
    case neo4j(Neo4jError)

    /// The exit code the command line gives it: 64 for a destination that cannot be used as
    /// given, 74 for one that failed or an archive not ready.
    public var exitCode: Int32 {
        switch self {
        case .badDestination, .passwordInURL, .credentialsNeeded: 64
        default: 74
        }
    }

    public var message: String { description }

    public var wayOn: WayOn? {
        switch self {
        case .nothingCaptured: .checkFirst
        case .passwordInURL: .passwordOutsideURL
        case .credentialsNeeded: .giveCredentials
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .badDestination(let problem): problem
        case .passwordInURL: "the URL holds a password, which never travels in a URL"
        case .credentialsNeeded: "Neo4j needs credentials"
        case .nothingCaptured: "the archive holds no completed check yet"
        case .captureRunning(let id):
            "capture \(id) is still running: sync the graph after that check completes"
        case .destination(let name, let problem): "\(name): \(problem)"
        case .neo4j(let error): error.description
        }
    }
}
