#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import BackgroundTasks
    import Dispatch
    import Foundation
    import HealthProbeKit

    /// Scheduled exports on iPhone: a `BGProcessingTask` (minutes, while the phone is idle) and a
    /// foreground fallback, both calling `ExportScheduler.runDue`, which runs one catch-up export
    /// when a slot is owed. No logic here.
    public final class ScheduledExportTask: Sendable {
        public static let identifier = "org.healthprobe.export"
        private let scheduler: ExportScheduler
        /// The task's handler runs here, off the main thread: the export is synchronous work.
        private let queue = DispatchQueue(label: "org.healthprobe.export", qos: .utility)

        /// `folder` holds the exports, kept out of backups. Its files are protected until the
        /// phone is first unlocked after a restart (`completeUntilFirstUserAuthentication`):
        /// an export writes, closes and reopens its files while the phone is locked, which is
        /// when background processing runs, and `completeUnlessOpen` forbids the reopening.
        public init(archive: ArchiveStore, folder: URL) throws {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true,
                attributes: [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication])
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            var excluded = folder
            try? excluded.setResourceValues(values)
            scheduler = ExportScheduler(
                archive: archive,
                files: PartialExportFiles(
                    registryFolder: folder.appendingPathComponent(".partial").path)
            ) { account in
                try KeychainPassword.read(account: account)
            }
        }

        /// Call before the app finishes launching. The export runs in the handler, on this
        /// class's queue; expiration cancels it (it leaves no file and the slot stays owed), and
        /// the task reports whether an owed export completed.
        public func register() {
            let scheduler = scheduler
            _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: queue) { task in
                let cancellation = CancellationFlag()
                task.expirationHandler = { cancellation.cancel() }
                let outcome = try? scheduler.runDue(cancellation: cancellation)
                Self.submitNext(scheduler)
                task.setTaskCompleted(success: outcome?.succeeded ?? false)
            }
        }

        /// Asks iOS for the next run at the next slot.
        public func submitNext() {
            Self.submitNext(scheduler)
        }

        private static func submitNext(_ scheduler: ExportScheduler) {
            guard let schedule = try? scheduler.schedule() else { return }
            let request = BGProcessingTaskRequest(identifier: identifier)
            request.earliestBeginDate = schedule.nextSlot(after: Date())
            request.requiresExternalPower = false
            try? BGTaskScheduler.shared.submit(request)
        }

        /// The foreground fallback: when the app becomes active, run what is owed.
        public func runOverdueInForeground() async {
            _ = try? scheduler.runDue()
        }
    }
#endif
