#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import BackgroundTasks
    import Foundation
    import HealthProbeKit
    import HealthProbeArchive

    /// The app's launch. The background tasks' handlers are registered at once (iOS wants them
    /// before launching ends); the archive is opened off the main thread, because after an update
    /// its migrations can outlast the launch watchdog; the environment is made from it on the main
    /// actor. The handlers and the screens wait for it; if it cannot be made, each handler ends
    /// its task at once and the screen says why.
    public final class AppLaunch: Sendable {
        private let opening: Task<AppEnvironment, any Error>

        @MainActor
        public init() {
            opening = Task { @MainActor in
                var folder = try FileManager.default.url(
                    for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
                // Health data never goes into the phone's iCloud or computer backups (App Review
                // 5.1.3(ii)): the folder is excluded with everything in it — the archive, and the
                // `-wal` and `-shm` files SQLite makes and removes beside it, which a flag on the
                // file alone would miss. Set at each launch: a folder an older build made had none.
                var excluded = URLResourceValues()
                excluded.isExcludedFromBackup = true
                try folder.setResourceValues(excluded)
                let path = folder.appendingPathComponent("archive.sqlite").path
                let archive = try await Task.detached(priority: .userInitiated) {
                    try ArchiveStore.open(at: path)
                }.value
                let environment = try AppEnvironment(archive: archive)
                environment.launch()
                return environment
            }
            registerBackgroundTasks()
        }

        /// The environment, once the archive is open (at once after the first time).
        public func environment() async throws -> AppEnvironment {
            try await opening.value
        }

        private func registerBackgroundTasks() {
            _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: AppEnvironment.refreshTaskIdentifier, using: nil)
            { task in
                let finished = BackgroundTaskCompletion(task)
                let check = Task {
                    guard let monitor = try? await self.environment().monitor else {
                        return finished.complete(success: false)
                    }
                    await BoundedWork.run(within: 25) { _ = await monitor.runCheck() }
                    await AppEnvironment.scheduleBackgroundRefresh(monitor: monitor)
                    finished.complete(success: !Task.isCancelled)
                }
                task.expirationHandler = { check.cancel() }
            }
            ScheduledExportTask.register { try await self.environment().scheduledExports }
        }
    }

    /// A background task's completion, callable from the task that did the work. `BGTask` is not
    /// `Sendable`; its completion is the one call made on it from elsewhere, once.
    struct BackgroundTaskCompletion: @unchecked Sendable {
        private let task: BGTask

        init(_ task: BGTask) {
            self.task = task
        }

        func complete(success: Bool) {
            task.setTaskCompleted(success: success)
        }
    }
#endif
