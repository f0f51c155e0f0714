import AppleHealthExport
import Foundation
import HealthProbeArchive
import HealthProbeKit
import NIOConcurrencyHelpers

/// Checks of uploaded exports, one at a time, each on a thread of its own so that pages stay
/// served meanwhile; a job's page follows its progress until the result. The uploaded file is
/// deleted when its check ends, whatever the outcome.
final class CheckJobs: Sendable {
    enum State: Sendable {
        case running(ImportProgress?)
        /// The command line's words for a refused input or an archive that could not be used,
        /// whether the archive was verified unchanged after it, and the way on the refusal offers.
        case failed(String, archiveUnchanged: Bool, wayOn: WayOn?)
        case done(CaptureSummary, [Anomaly], notes: [String])
    }

    struct Job: Sendable {
        var id: String
        var inputName: String
        var state: State
    }

    private let jobs = NIOLockedValueBox<[String: Job]>([:])
    private let running = NIOLockedValueBox<String?>(nil)

    /// The job checking now, if any.
    var runningJobID: String? { running.withLockedValue { $0 } }

    func job(_ id: String) -> Job? { jobs.withLockedValue { $0[id] } }

    /// Starts checking `file` unless a check is running (then nil). `folder` is removed after.
    /// `allowOlder` and `allowUnrelated` are the command line's `--allow-older` and
    /// `--allow-unrelated`, chosen on the page of a check that refused the same file.
    func start(
        file: URL, folder: URL, inputName: String, access: ArchiveAccess, allowOlder: Bool = false,
        allowUnrelated: Bool = false
    ) -> String? {
        let id = Secrets.token().prefix(16).description
        let claimed = running.withLockedValue { current -> Bool in
            guard current == nil else { return false }
            current = id
            return true
        }
        guard claimed else {
            try? FileManager.default.removeItem(at: folder)
            return nil
        }
        jobs.withLockedValue { $0[id] = Job(id: id, inputName: inputName, state: .running(nil)) }
        Task {
            let state = await Self.run(
                file: file, access: access, allowOlder: allowOlder, allowUnrelated: allowUnrelated
            ) { progress in
                self.jobs.withLockedValue { $0[id]?.state = .running(progress) }
            }
            try? FileManager.default.removeItem(at: folder)
            self.jobs.withLockedValue { $0[id]?.state = state }
            self.running.withLockedValue { $0 = nil }
        }
        return id
    }

    /// Opens the upload (a Health database is copied into a private folder as it is, with
    /// `healthdb.sqlite` beside it when that was uploaded too) and checks it, each on a thread
    /// of its own, and tells how it ended.
    private static func run(
        file: URL, access: ArchiveAccess, allowOlder: Bool, allowUnrelated: Bool,
        progress: @escaping @Sendable (ImportProgress) -> Void
    ) async -> State {
        let opened = await onOwnThread {
            Result { () throws(CheckFailure) in try ArchiveCheck.open(file.path, archivePath: access.path) }
        }
        let check: ArchiveCheck
        switch opened {
        case .success(let opened): check = opened
        case .failure(let failure):
            return .failed(failure.message, archiveUnchanged: failure.archiveUnchanged, wayOn: failure.wayOn)
        }
        let store: ArchiveStore
        do {
            store = try await access.forCheck()
        } catch {
            // The archive's errors come in words already (``Refusal``).
            let refusal = error as? any Refusal
            return .failed(
                refusal?.message ?? error.localizedDescription, archiveUnchanged: true, wayOn: refusal?.wayOn)
        }
        let outcome = await onOwnThread {
            Result { () throws(CheckFailure) in
                try check.run(into: store, allowOlder: allowOlder, allowUnrelated: allowUnrelated, progress: progress)
            }
        }
        await access.checkEnded()
        switch outcome {
        case .success(let found):
            return .done(found.capture, found.anomalies, notes: found.sentences)
        case .failure(let failure):
            return .failed(failure.message, archiveUnchanged: failure.archiveUnchanged, wayOn: failure.wayOn)
        }
    }

    /// Runs blocking work on a thread of its own, off Swift's cooperative pool.
    private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "healthprobe-check"
            thread.start()
        }
    }
}
