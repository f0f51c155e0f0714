import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The history is a function of its included captures (docs/DESIGN.md §7): after any sequence of
/// checks, set-asides, takings-back, resolves, backups and verifications, the archive holds what a
/// fresh archive fed only its included captures, in order, holds — plus the user's resolves —
/// and each capture's counts are those an independent model works out from the exports alone. A
/// step the archive refuses changes nothing.
///
/// Random sequences over one person's family of exports (``ExportFamily``), each replayable from
/// the seed a failure prints:
///
///     HEALTHPROBE_HISTORY_SEED=N HEALTHPROBE_HISTORY_SEQUENCES=1 swift test --filter ArchiveHistoryModel
///
/// `HEALTHPROBE_HISTORY_SEQUENCES` (default 150) and `HEALTHPROBE_HISTORY_STEPS` (default 8) make a
/// longer run.
@Suite("The archive's history against a model, over random sequences")
struct ArchiveHistoryModelTests {
    private static let environment = ProcessInfo.processInfo.environment
    private static let firstSeed = UInt64(environment["HEALTHPROBE_HISTORY_SEED"] ?? "") ?? 20_001
    private static let sequences = Int(environment["HEALTHPROBE_HISTORY_SEQUENCES"] ?? "") ?? 150
    private static let steps = Int(environment["HEALTHPROBE_HISTORY_STEPS"] ?? "") ?? 8
    /// Whether a step in four is first made by the binary with a fault injected at a random write.
    private static let faults = environment["HEALTHPROBE_HISTORY_FAULTS"] != "0"

    @Test func everySequenceEndsAsAFreshArchiveFedItsIncludedCaptures() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let family = ExportFamily()
        let exports = try (0..<family.exports.count).map { try family.export($0).write(to: folder, name: "e\($0).xml") }
        let fresh = FreshArchives(folder: folder, exports: exports)
        var failures: [String] = []
        for seed in Self.firstSeed..<(Self.firstSeed + UInt64(Self.sequences)) {
            if let failure = try Self.run(
                seed: seed, in: folder, exports: exports, family: family, fresh: fresh, faults: Self.faults)
            {
                failures.append(failure)
                if failures.count == 3 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// One sequence; what went wrong, with the steps to replay it, or nil.
    private static func run(
        seed: UInt64, in folder: URL, exports: [URL], family: ExportFamily, fresh: FreshArchives, faults: Bool
    ) throws -> String? {
        var generator = SeededGenerator(seed: seed, stream: 0)
        let path = folder.appendingPathComponent("archive-\(seed).sqlite").path
        var checks: [Int64: HistoryStep] = [:]
        var resolvedByUser: Set<String> = []
        var taken: [String] = []
        var lastCapture: Int64 = 0
        var lastAnomaly: Int64 = 0
        func failure(_ what: String) -> String {
            "seed \(seed) (HEALTHPROBE_HISTORY_SEED=\(seed) HEALTHPROBE_HISTORY_SEQUENCES=1), after "
                + taken.joined(separator: "; ") + ":\n" + what
        }
        for _ in 0..<steps {
            let step = HistoryStep.random(captures: lastCapture, anomalies: lastAnomaly, using: &generator)
            taken.append(step.description)
            let before = try HistoryState.footprint(path)
            if faults, Int.random(in: 0..<4, using: &generator) == 0 {
                let fault = InjectedFault.random(for: step, using: &generator)
                taken[taken.count - 1] += " (\(fault))"
                let backup = folder.appendingPathComponent("faulted-\(seed)-\(taken.count).sqlite").path
                let beforeFault = try HistoryState.readIfPresent(path)
                let run = try CommandRunner.run(
                    step.arguments(archive: path, exports: exports, backup: backup), environment: fault.environment)
                // Whatever the fault, the next command opens the archive.
                let reopened = try CommandRunner.run(["status", "--archive", path])
                guard reopened.status == 0 || !FileManager.default.fileExists(atPath: path) else {
                    return failure(
                        "after the fault (exit \(run.status): \(run.stderr)), status exits \(reopened.status): \(reopened.stderr)"
                    )
                }
                let afterFault = try HistoryState.readIfPresent(path)
                let unchanged =
                    before == nil
                    ? (afterFault?.included ?? []).isEmpty && (afterFault?.lines ?? []).isEmpty
                    : try HistoryState.footprint(path) == before
                if !unchanged {
                    // The step was made before the fault came (or the fault came after it was).
                    if case .check = step, let made = afterFault?.included.last,
                        !(beforeFault?.included ?? []).contains(made)
                    {
                        checks[made] = step
                        lastCapture = max(lastCapture, made)
                    }
                    if case .resolve(let anomaly) = step, let key = try Self.anomalyKey(path, anomaly) {
                        resolvedByUser.insert(key)
                    }
                    if case .reopen(let anomaly) = step, let key = try Self.anomalyKey(path, anomaly) {
                        resolvedByUser.remove(key)
                    }
                }
                if let wrong = try compare() { return failure(wrong) }
                if !unchanged { continue }
            }
            do {
                // Only a check creates an archive; every other command wants one.
                var creates = false
                if case .check = step { creates = true }
                let store = try ArchiveStore.open(at: path, creating: creates)
                switch step {
                case .check(let variant, let older, let unrelated):
                    let check = try ArchiveCheck.open(exports[variant].path, archivePath: path)
                    let result = try check.run(into: store, allowOlder: older, allowUnrelated: unrelated)
                    checks[result.capture.id] = step
                    lastCapture = max(lastCapture, result.capture.id)
                case .exclude(let capture):
                    try store.setCaptureAside(capture, reason: "not this person's")
                case .include(let capture):
                    try store.includeCapture(capture)
                case .resolve(let anomaly), .reopen(let anomaly):
                    let key = try Self.anomalyKey(path, anomaly)
                    if case .resolve = step {
                        _ = try store.resolveAnomalies(ids: [anomaly])
                        key.map { _ = resolvedByUser.insert($0) }
                    } else {
                        _ = try store.reopenAnomalies(ids: [anomaly])
                        key.map { _ = resolvedByUser.remove($0) }
                    }
                case .backup:
                    let copy = folder.appendingPathComponent("backup-\(seed)-\(taken.count).sqlite").path
                    _ = try store.copy(to: copy)
                    guard try HistoryState.read(copy) == HistoryState.read(path) else {
                        return failure("the backup does not hold the archive's history")
                    }
                case .verify:
                    let verification = try store.verify()
                    guard verification.isIntact else {
                        return failure("archive verify: \(verification.problems.joined(separator: "; "))")
                    }
                }
            } catch {
                guard Self.isRefusal(error) else { return failure("failed instead of refusing: \(error)") }
                let after = try HistoryState.footprint(path)
                guard after == before else { return failure("refused (\(error)) but changed the archive") }
            }
            if let wrong = try compare() { return failure(wrong) }
        }
        return nil

        /// The archive against the fresh one and the model; what differs, or nil.
        func compare() throws -> String? {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            lastAnomaly = Int64(try ArchiveInspection.scalar(path, "SELECT IFNULL(MAX(id), 0) FROM anomaly"))
            let state = try HistoryState.read(path)
            guard state.included.allSatisfy({ checks[$0] != nil }) else {
                return "captures \(state.included) are included, but only \(checks.keys.sorted()) were checked"
            }
            let expected = try fresh.state(after: state.included.map { checks[$0]! })
            if let expected, state.lines != expected.lines {
                return state.difference(from: expected).joined(separator: "\n")
            }
            if expected == nil, !state.lines.isEmpty {
                return "no capture is included, yet: " + state.lines.prefix(4).joined(separator: "\n")
            }
            if state.resolved != resolvedByUser.intersection(state.visible) {
                return "resolved \(state.resolved.sorted()), the user resolved \(resolvedByUser.sorted())"
            }
            let verification = try ArchiveStore.open(at: path, creating: false).verify(recording: false)
            guard verification.isIntact else {
                return "archive verify: \(verification.problems.joined(separator: "; "))"
            }
            return try Self.countsAgainstModel(path, state, checks: checks, family: family)
        }
    }

    private static func anomalyKey(_ path: String, _ anomaly: Int64) throws -> String? {
        try ArchiveInspection.text(
            path, "SELECT captureId || ' ' || type || ' ' || sampleType FROM anomaly WHERE id = \(anomaly)")
    }

    /// Each included capture's counts against the model's; nil when they agree.
    private static func countsAgainstModel(
        _ path: String, _ state: HistoryState, checks: [Int64: HistoryStep], family: ExportFamily
    ) throws -> String? {
        let variants = state.included.map { id -> Int in
            guard case .check(let variant, _, _) = checks[id]! else { return -1 }
            return variant
        }
        let expected = HistoryModel.counts(of: variants, in: family)
        let captures = try ArchiveStore.open(at: path).fetchCaptures()
        for (capture, counts) in zip(captures, expected) {
            let found = HistoryModel.Counts(
                records: capture.records, new: capture.new, gone: capture.gone, unchanged: capture.unchanged)
            guard found == counts else { return "capture \(capture.id): \(found), the model says \(counts)" }
        }
        let present = try ArchiveInspection.scalar(
            path, "SELECT COUNT(*) FROM record WHERE goneCapture IS NULL AND goneReason IS NOT 'aside'")
        let modelPresent = HistoryModel.present(after: variants, in: family)
        return present == modelPresent ? nil : "\(present) records present, the model says \(modelPresent)"
    }

    /// What the archive may answer a step with: a refusal that says why, never SQLite's error.
    private static func isRefusal(_ error: any Error) -> Bool {
        let underlying = (error as? CheckFailure)?.underlying ?? error
        switch underlying as? ArchiveError {
        case .unknownAnomalies, .missing: return true
        default: break
        }
        return underlying is CaptureSetAsideRefusal || underlying is OlderExportRefusal
            || underlying is UnrelatedCaptureRefusal
    }
}
