import Foundation
import HealthProbeSimulation
import TestSupport

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The generator a sequence is drawn from: replayed from its seed.
typealias SeededGenerator = SplitMix64

/// One thing a user does to the archive.
enum HistoryStep: CustomStringConvertible {
    case check(variant: Int, allowOlder: Bool, allowUnrelated: Bool)
    case exclude(capture: Int64)
    case include(capture: Int64)
    case resolve(anomaly: Int64)
    case reopen(anomaly: Int64)
    case backup
    case verify

    var description: String {
        switch self {
        case .check(let variant, let older, let unrelated):
            "check \(ExportFamily.Variant(rawValue: variant)!)" + (older ? " --allow-older" : "")
                + (unrelated ? " --allow-unrelated" : "")
        case .exclude(let capture): "captures exclude \(capture)"
        case .include(let capture): "captures include \(capture)"
        case .resolve(let anomaly): "resolve \(anomaly)"
        case .reopen(let anomaly): "resolve \(anomaly) --reopen"
        case .backup: "archive backup"
        case .verify: "archive verify"
        }
    }

    /// A step a user might take next, given the captures and anomalies the archive holds.
    static func random(captures: Int64, anomalies: Int64, using generator: inout SeededGenerator) -> HistoryStep {
        let roll = Int.random(in: 0..<100, using: &generator)
        let capture = Int64.random(in: 1...(captures + 1), using: &generator)
        let anomaly = Int64.random(in: 1...(anomalies + 1), using: &generator)
        switch roll {
        case 0..<42:
            return .check(
                variant: Int.random(in: 0..<ExportFamily.Variant.allCases.count, using: &generator),
                allowOlder: Int.random(in: 0..<3, using: &generator) == 0,
                allowUnrelated: Int.random(in: 0..<3, using: &generator) == 0)
        case 42..<64: return .exclude(capture: capture)
        case 64..<84: return .include(capture: capture)
        case 84..<91: return .resolve(anomaly: anomaly)
        case 91..<95: return .reopen(anomaly: anomaly)
        case 95..<98: return .backup
        default: return .verify
        }
    }
}

/// Fresh archives fed only a list of checks, in order, made once each: the one for a list is the
/// one for the list less its last check, copied, with that check made on it.
final class FreshArchives {
    private let folder: URL
    private let exports: [URL]
    private var states: [String: HistoryState] = [:]
    private var paths: [String: String] = [:]

    init(folder: URL, exports: [URL]) {
        self.folder = folder
        self.exports = exports
    }

    /// The history of an archive fed `checks` in order; nil for an empty one.
    func state(after checks: [HistoryStep]) throws -> HistoryState? {
        guard !checks.isEmpty else { return nil }
        let key = checks.map(\.description).joined(separator: "; ")
        if let state = states[key] { return state }
        let path = folder.appendingPathComponent("fresh-\(states.count).sqlite").path
        if checks.count > 1 {
            _ = try state(after: Array(checks.dropLast()))
            let parent = paths[checks.dropLast().map(\.description).joined(separator: "; ")]!
            _ = try ArchiveStore.open(at: parent).copy(to: path)
        }
        guard case .check(let variant, let older, let unrelated) = checks.last! else {
            preconditionFailure("only checks feed a fresh archive")
        }
        let check = try ArchiveCheck.open(exports[variant].path, archivePath: path)
        _ = try check.run(into: try ArchiveStore.open(at: path), allowOlder: older, allowUnrelated: unrelated)
        let state = try HistoryState.read(path)
        states[key] = state
        paths[key] = path
        return state
    }
}

/// A fault at one write of a step made by the real binary: the disk full, an I/O error, the file
/// read-only, or the process killed there (`HEALTHPROBE_TEST_FAULT`, CSQLiteSettings).
struct InjectedFault: CustomStringConvertible {
    let kind: String
    let write: Int

    /// A check writes a few hundred times into a new archive (migrations, then the load), fewer
    /// into one that holds records; the other steps a few dozen times.
    static func random(for step: HistoryStep, using generator: inout SeededGenerator) -> InjectedFault {
        var writes = 80
        if case .check = step { writes = 600 }
        return InjectedFault(
            kind: ["full", "ioerr", "readonly", "kill"].randomElement(using: &generator)!,
            write: Int.random(in: 1...writes, using: &generator))
    }

    var environment: [String: String] { ["HEALTHPROBE_TEST_FAULT": "\(kind):\(write)"] }
    var description: String { "\(kind) at write \(write)" }
}

extension HistoryStep {
    /// The command line that takes this step.
    func arguments(archive: String, exports: [URL], backup: String) -> [String] {
        let options = ["--archive", archive]
        switch self {
        case .check(let variant, let older, let unrelated):
            return ["check", exports[variant].path] + options + (older ? ["--allow-older"] : [])
                + (unrelated ? ["--allow-unrelated"] : [])
        case .exclude(let capture): return ["captures", "exclude", "\(capture)", "--reason", "not mine"] + options
        case .include(let capture): return ["captures", "include", "\(capture)"] + options
        case .resolve(let anomaly): return ["resolve", "\(anomaly)"] + options
        case .reopen(let anomaly): return ["resolve", "\(anomaly)", "--reopen"] + options
        case .backup: return ["archive", "backup", backup] + options
        case .verify: return ["archive", "verify"] + options
        }
    }
}
