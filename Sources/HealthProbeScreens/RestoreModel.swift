import Foundation
import HealthProbeArchive
import HealthProbeKit
import Observation
import Synchronization

/// Putting back what vanished, on the phone: from an anomaly's detail ("Restore 240 records") or
/// from a restore file opened with the app. It says what it will write and what it cannot, asks
/// Health only for the types it holds that apps may write, writes with progress and a cancel, and
/// ends with a summary; the trail keeps the counts, never a value.
@MainActor @Observable
public final class RestoreModel {
    public enum Phase: Sendable, Equatable {
        /// Nothing chosen yet.
        case idle
        /// The plan is shown: the person may start.
        case ready
        case writing
        case finished
    }

    /// What a restore will do, in words.
    public struct Plan: Sendable, Equatable {
        /// "Restore 240 records".
        public var title: String
        /// Per type: "Heart rate: 240 records, 2000-02-18 – 2000-02-27".
        public var types: [String]
        /// What it will not write and why: "1 record of ECG: Health keeps these for itself".
        public var notWritten: [String]
        /// What the losses hold that the file leaves out ("3 records deleted on the phone …").
        public var leftOut: [String]
        /// Records it will write.
        public var records: Int
    }

    public private(set) var phase = Phase.idle
    public private(set) var plan: Plan?
    /// Samples done of those to write.
    public private(set) var done = 0
    public private(set) var total = 0
    /// What the restore did, for the summary.
    public private(set) var summary: [String] = []
    public private(set) var errorMessage: String?
    /// An encrypted file opened without its password: the screen asks for it (``unlock(password:)``).
    public private(set) var needsPassword = false

    private var lockedFile: URL?
    /// The file opened is the app's own temporary copy (of one opened in place): removed once
    /// read, or when the screen is put away, so no copy of health records is left behind.
    private var removesFile = false
    private let archive: ArchiveStore
    private let destination: any RestoreDestination
    private let format: ScreenFormat
    private var file: RestoreFile?
    private let stop = CancelFlag()

    public init(archive: ArchiveStore, destination: any RestoreDestination, format: ScreenFormat = ScreenFormat()) {
        self.archive = archive
        self.destination = destination
        self.format = format
    }

    /// Prepares a restore of what anomalies `ids` lost (an anomaly's detail's button).
    public func prepare(anomalies ids: [Int64]) {
        if let lockedFile { forget(lockedFile) }
        errorMessage = failureMessage { show(RestoreFile(try archive.lostRecords(anomalies: ids))) }
    }

    /// Prepares a restore from a file opened with the app; `password` for an encrypted one.
    /// `temporaryCopy`: the file is the app's own copy, removed once it is read.
    public func open(_ url: URL, password: [UInt8]? = nil, temporaryCopy: Bool = false) {
        if let lockedFile, lockedFile != url { forget(lockedFile) }
        removesFile = temporaryCopy
        do {
            let file = try RestoreFileReader.read(url, password: password)
            forget(url)
            errorMessage = nil
            show(file)
        } catch RestoreFileRefusal.needsPassword {
            (needsPassword, lockedFile) = (true, url)
            errorMessage = RestoreFileRefusal.needsPassword.message
        } catch {
            // A wrong password may be given again; any other refusal ends with the file.
            if !needsPassword { forget(url) }
            errorMessage = words(for: error)
        }
    }

    /// Opens the encrypted file that asked for a password with `password`.
    public func unlock(password: String) {
        guard let lockedFile else { return }
        open(lockedFile, password: Array(password.utf8), temporaryCopy: removesFile)
    }

    /// Done with the file opened: no password is asked for it any more, and the app's copy goes.
    private func forget(_ url: URL) {
        if removesFile { try? FileManager.default.removeItem(at: url) }
        (needsPassword, lockedFile, removesFile) = (false, nil, false)
    }

    /// Puts the screen away: what was prepared is forgotten (nothing was written unless started).
    public func dismiss() {
        guard phase != .writing else { return }
        if let lockedFile { forget(lockedFile) }
        (phase, plan, file, summary, errorMessage) = (.idle, nil, nil, [], nil)
    }

    /// Writes the plan's samples, telling the progress as it goes; a cancel stops between two.
    public func start() async {
        guard phase == .ready, let file, let plan else { return }
        phase = .writing
        done = 0
        total = plan.records
        let stop = stop
        do {
            let outcome = try await RestoreApplier(file).apply(
                to: destination,
                progress: { finished, _ in Task { @MainActor [weak self] in self?.advance(to: finished) } },
                isCancelled: { stop.isSet })
            done = outcome.written + outcome.alreadyThere + outcome.failed + outcome.refused.values.reduce(0, +)
            summary = Self.summaryLines(outcome)
            try? archive.recordInAuditTrail(.restoreApplied, message: Self.trailLine(outcome, file: file))
        } catch {
            errorMessage = words(for: error)
        }
        phase = .finished
    }

    /// Stops the restore after the sample being written (before the first, when asked before it
    /// starts); what was written stays, and the next
    /// restore of the same records finishes the rest.
    public func cancel() { stop.set() }

    private func advance(to finished: Int) { done = max(done, finished) }

    private func show(_ file: RestoreFile) {
        guard !file.records.isEmpty else {
            showNothingToPutBack(file)
            return
        }
        self.file = file
        stop.reset()
        plan = Self.plan(file, format: format)
        phase = .ready
        summary = []
    }

    private func showNothingToPutBack(_ file: RestoreFile) {
        plan = nil
        self.file = nil
        phase = .idle
        errorMessage = RestoreWriteFailure.nothingToPutBack(anomalies: file.anomalies, leftOut: file.leftOut).message
    }

    static func plan(_ file: RestoreFile, format: ScreenFormat) -> Plan {
        let (samples, notWritable) = RestoreApplier(file).plan()
        let byType = Dictionary(grouping: samples, by: \.type).sorted {
            HealthKitCatalog.displayName(of: $0.key) < HealthKitCatalog.displayName(of: $1.key)
        }
        let types = byType.map { type, samples in
            let days = samples.map { format.day($0.startDate) }
            let first = days.min() ?? ""
            let last = days.max() ?? ""
            return "\(HealthKitCatalog.displayName(of: type)): \(RestoreWords.records(samples.count)), "
                + (first == last ? first : "\(first) – \(last)")
        }
        let notWritten = notWritable.sorted { $0.key < $1.key }.map { type, count in
            "\(RestoreWords.records(count)) of \(HealthKitCatalog.displayName(of: type)): "
                + Self.reason(HealthKitWriting.verdict(for: type))
        }
        return Plan(
            title: "Restore \(RestoreWords.records(samples.count))", types: types, notWritten: notWritten,
            leftOut: file.leftOut.words, records: samples.count)
    }

    static func reason(_ verdict: HealthKitWriting.Verdict) -> String {
        switch verdict {
        case .readOnly(let reason): reason
        case .unknown, .writable: "this version does not know that apps may write it, so it is not attempted"
        }
    }

    /// The summary: "240 records written back into Health", what was there already, refused,
    /// not writable, failed, and whether it was stopped.
    static func summaryLines(_ outcome: RestoreOutcome) -> [String] {
        var lines = ["\(RestoreWords.records(outcome.written)) written back into Health, each once."]
        if outcome.alreadyThere > 0 {
            lines.append("\(RestoreWords.records(outcome.alreadyThere)) were there already from an earlier restore.")
        }
        let refused = outcome.refused.values.reduce(0, +)
        if refused > 0 {
            let names = outcome.refused.keys.map(HealthKitCatalog.displayName).sorted().joined(separator: ", ")
            lines.append(
                "\(RestoreWords.records(refused)) not written: Health did not allow \(names) "
                    + "(Settings > Health > Data Access & Devices > HealthProbe).")
        }
        let notWritable = outcome.notWritable.values.reduce(0, +)
        if notWritable > 0 { lines.append("\(RestoreWords.records(notWritable)) of types apps may not write.") }
        if outcome.failed > 0 { lines.append("\(RestoreWords.records(outcome.failed)) could not be saved.") }
        if outcome.cancelled { lines.append("Stopped: restore again to write the rest; nothing is written twice.") }
        return lines
    }

    /// The trail's line: counts and anomaly ids only.
    static func trailLine(_ outcome: RestoreOutcome, file: RestoreFile) -> String {
        "restore into Health of \(RestoreWords.anomalies(file.anomalies)): \(outcome.written) written, "
            + "\(outcome.alreadyThere) already there, \(outcome.refused.values.reduce(0, +)) refused, "
            + "\(outcome.notWritable.values.reduce(0, +)) not writable, \(outcome.failed) failed"
            + (outcome.cancelled ? ", stopped by the person" : "")
    }
}

/// A cancel asked from the main actor and read between saves.
final class CancelFlag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
    func reset() { value.withLock { $0 = false } }
}
