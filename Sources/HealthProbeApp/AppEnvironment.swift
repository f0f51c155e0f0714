#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import BackgroundTasks
    import Foundation
    import HealthKit
    import HealthProbeHealthKit
    import HealthProbeKit
    import HealthProbeScreens

    /// The iPhone app's wiring: the archive, the HealthKit source, the monitor, the screen models,
    /// and what runs in the background. No logic lives here; what it calls is tested on Linux, and
    /// this file is type-checked there against stubs of Apple's frameworks
    /// (`Scripts/typecheck-apple.sh`).
    @MainActor
    public final class AppEnvironment {
        public let archive: ArchiveStore
        public let health = HKHealthStore()
        public let source: HealthKitDataSource
        public let monitor: HealthMonitor
        private var delivery: HealthKitBackgroundDelivery?
        public let context: ContextMonitor
        public let dashboard: DashboardModel
        public let anomalies: AnomaliesModel
        public let audit: AuditTrailModel
        public let archiveStatus: ArchiveStatusModel
        public let settings: SettingsModel
        /// Scheduled exports, into Documents/Exports (visible in the Files app).
        public let scheduledExports: ScheduledExportTask

        nonisolated public static let refreshTaskIdentifier = "org.healthprobe.check"

        public init() throws {
            let folder = try FileManager.default.url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
            archive = try ArchiveStore.open(at: folder.appendingPathComponent("archive.sqlite").path)
            source = HealthKitDataSource(store: health)
            monitor = try HealthMonitor(source: source, store: archive)
            context = ContextMonitor(store: archive)
            dashboard = DashboardModel(archive: archive, monitor: monitor)
            anomalies = AnomaliesModel(archive: archive)
            audit = AuditTrailModel(archive: archive)
            archiveStatus = ArchiveStatusModel(archive: archive, sync: context, path: nil)
            settings = SettingsModel(archive: archive)
            let documents = try FileManager.default.url(
                for: .documentDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
            scheduledExports = try ScheduledExportTask(
                archive: archive, folder: documents.appendingPathComponent("Exports", isDirectory: true))
            settings.onSaved = { [weak self] saved in self?.startObservers(saved) }
        }

        /// Everything HealthKit and iOS need before the app finishes launching: the background
        /// tasks' handlers and the observer queries with background delivery. A background wake
        /// launches the app without a window; the handlers must already be there.
        public func launch() {
            Self.registerBackgroundRefresh(monitor: monitor)
            scheduledExports.register()
            startObservers((try? archive.fetchSettings()) ?? .defaults)
        }

        /// Asks for Health access (once the window shows), then for the next refresh and what
        /// exports are owed.
        public func becameActive() async {
            try? await source.requestAuthorization()
            await Self.scheduleBackgroundRefresh(monitor: monitor)
            await scheduledExports.runOverdueInForeground()
            scheduledExports.submitNext()
        }

        /// Observers for the monitored types (hourly for the 2-hour frequency, daily otherwise),
        /// replacing those of earlier settings; each wake runs a check within its time.
        func startObservers(_ settings: MonitoringSettings) {
            delivery?.stop()
            let monitor = monitor
            let delivery = HealthKitBackgroundDelivery(store: health, types: settings.monitoredTypes) {
                _ = await monitor.runCheck()
            }
            delivery.start(frequency: settings.checkFrequency <= .every2Hours ? .hourly : .daily)
            self.delivery = delivery
        }

        /// The refresh task's handler runs on a background queue, so it is built outside the main
        /// actor and holds only what is safe to share.
        nonisolated static func registerBackgroundRefresh(monitor: HealthMonitor) {
            _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshTaskIdentifier, using: nil) { task in
                let finished = BackgroundTaskCompletion(task)
                let check = Task {
                    await BoundedWork.run(within: 25) { _ = await monitor.runCheck() }
                    await scheduleBackgroundRefresh(monitor: monitor)
                    finished.complete(success: !Task.isCancelled)
                }
                task.expirationHandler = { check.cancel() }
            }
        }

        /// When the environment could not be made (a migration failed, the disk is full): the
        /// background tasks' handlers are registered all the same, each ending its task at once,
        /// so that iOS launching the app for a task it submitted earlier finds a handler instead
        /// of raising "No launch handler registered".
        nonisolated public static func registerAfterFailedLaunch() {
            for identifier in [refreshTaskIdentifier, ScheduledExportTask.identifier] {
                _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                    task.setTaskCompleted(success: false)
                }
            }
        }

        /// Asks for the next refresh at the time the chosen frequency gives.
        nonisolated static func scheduleBackgroundRefresh(monitor: HealthMonitor) async {
            let request = BGAppRefreshTaskRequest(identifier: refreshTaskIdentifier)
            request.earliestBeginDate = try? await monitor.nextCheckDate()
            try? BGTaskScheduler.shared.submit(request)
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
