#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import BackgroundTasks
    import Foundation
    import HealthKit
    import HealthProbeKit
    import HealthProbeArchive

    /// The app's launch. The background tasks' handlers are registered at once (iOS wants them
    /// before launching ends), and the observer queries started from the plan kept beside the
    /// archive (HealthKit's wakes need them from the launch on); the archive is opened off the
    /// main thread, because after an update its migrations can outlast the launch watchdog; the
    /// environment is made from it on the main actor. The handlers and the screens wait for it.
    /// If it cannot be made, each waiting handler ends its work at once, the screen says why, and
    /// the next wake, task or "Try again" tries again (``RetryingAttempt``).
    public final class AppLaunch: Sendable {
        private let attempt: RetryingAttempt<AppEnvironment>
        private let observers: AppObservers

        /// Application Support, where the archive and the observers' plan live (excluded from
        /// backups with everything in it when the archive is opened).
        static var folder: URL {
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        }

        @MainActor
        public init() {
            let health = HKHealthStore()
            let observers = AppObservers(health: health, planFile: Self.folder.appendingPathComponent("observers.json"))
            let attempt = RetryingAttempt { @MainActor in
                try await Self.openEnvironment(health: health, observers: observers)
            }
            self.attempt = attempt
            self.observers = observers
            observers.whenChanged = {
                guard let environment = try? await attempt.value() else { return }
                _ = await environment.monitor.runCheck()
            }
            observers.whenRefused = { type, reason in
                guard let environment = try? await attempt.value() else { return }
                try? environment.archive.noteBackgroundDeliveryRefused(type: type, reason: reason)
            }
            observers.start(observers.savedPlan)
            registerBackgroundTasks()
            Task { @MainActor in _ = try? await attempt.value() }
        }

        @MainActor
        private static func openEnvironment(health: HKHealthStore, observers: AppObservers) async throws
            -> AppEnvironment
        {
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
            let environment = try AppEnvironment(archive: archive, health: health, observers: observers)
            environment.launch()
            return environment
        }

        /// The environment, once the archive is open (at once after the first time); a failed
        /// opening is tried again.
        public func environment() async throws -> AppEnvironment {
            try await attempt.value()
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
