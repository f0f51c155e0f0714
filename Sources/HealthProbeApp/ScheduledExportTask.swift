#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import BackgroundTasks
    import Dispatch
    import Foundation
    import HealthProbeKit
    import HealthProbeArchive

    /// Scheduled exports on iPhone: a `BGProcessingTask` (minutes, while the phone is idle) and a
    /// foreground fallback, both calling `ExportScheduler.runDue`, which runs one catch-up export
    /// when a slot is owed. No logic here.
    public final class ScheduledExportTask: Sendable {
        public static let identifier = "org.healthprobe.export"
        public let scheduler: ExportScheduler
        /// Where the exports are written.
        public let folder: URL
        /// Exports run here, off the main thread and off the cooperative pool: an export is
        /// synchronous work that may take minutes.
        private let queue = DispatchQueue(label: "org.healthprobe.export", qos: .utility)

        /// `folder` holds the exports, kept out of backups. Its files are protected until the
        /// phone is first unlocked after a restart (`completeUntilFirstUserAuthentication`):
        /// an export writes, closes and reopens its files while the phone is locked, which is
        /// when background processing runs, and `completeUnlessOpen` forbids the reopening.
        public init(archive: ArchiveStore, folder: URL) throws {
            let protection: [FileAttributeKey: Any] = [
                .protectionKey: FileProtectionType.completeUntilFirstUserAuthentication
            ]
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: protection)
            // A folder an older build made keeps the class it was made with: set it each launch.
            try FileManager.default.setAttributes(protection, ofItemAtPath: folder.path)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            var excluded = folder
            try? excluded.setResourceValues(values)
            self.folder = folder
            // The app's container, asked for at each launch: iOS moves it on an update or a
            // restore (TN2406), so the schedule keeps its folder relative to it.
            scheduler = ExportScheduler(
                archive: archive,
                files: PartialExportFiles(
                    registryFolder: folder.appendingPathComponent(".partial").path),
                container: URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
            ) { account in
                try KeychainPassword.read(account: account)
            }
        }

        /// Call before the app finishes launching, with how to reach the exports once the archive
        /// is open. The handler only starts the export on the exports' queue and returns, so that
        /// the expiration handler — called on whatever queue iOS chooses, the handler's own
        /// included — is never waiting behind the export it must stop: it cancels it (no file is
        /// left and the slot stays owed), and the task reports whether an owed export completed.
        static func register(resolving exports: @escaping @Sendable () async throws -> ScheduledExportTask) {
            _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                let cancellation = CancellationFlag()
                task.expirationHandler = { cancellation.cancel() }
                let completion = BackgroundTaskCompletion(task)
                Task {
                    guard let exports = try? await exports() else { return completion.complete(success: false) }
                    exports.runInBackground(cancellation: cancellation, completion: completion)
                }
            }
        }

        private func runInBackground(cancellation: CancellationFlag, completion: BackgroundTaskCompletion) {
            let scheduler = scheduler
            queue.async {
                let outcome = try? scheduler.runDue(cancellation: cancellation)
                Self.submitNext(scheduler)
                completion.complete(success: outcome?.succeeded ?? false)
            }
        }

        /// Asks iOS for the next run: the next slot, or soon when a slot is owed (a failed or
        /// expired run retries after a lengthening wait instead of a whole period).
        public func submitNext() {
            Self.submitNext(scheduler)
        }

        /// With no schedule (turned off), the request asked for earlier is withdrawn.
        private static func submitNext(_ scheduler: ExportScheduler) {
            guard let schedule = try? scheduler.schedule() else {
                return BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: identifier)
            }
            let request = BGProcessingTaskRequest(identifier: identifier)
            request.earliestBeginDate = (try? scheduler.nextTry()) ?? schedule.nextSlot(after: Date())
            request.requiresExternalPower = false
            try? BGTaskScheduler.shared.submit(request)
        }

        /// The foreground fallback: when the app becomes active, run what is owed, on the export
        /// queue (one export at a time with the background task's), not on the cooperative pool.
        /// `cancellation` stops it cleanly (no file left, the slot still owed) when the time iOS
        /// gave to finish after the user left runs out.
        public func runOverdueInForeground(cancellation: CancellationFlag) async {
            let scheduler = scheduler
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                queue.async {
                    _ = try? scheduler.runDue(cancellation: cancellation)
                    done.resume()
                }
            }
        }
    }
#endif
