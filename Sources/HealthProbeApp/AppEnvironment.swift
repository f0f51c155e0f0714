#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import BackgroundTasks
    import Foundation
    import HealthKit
    import HealthProbeHealthKit
    import HealthProbeKit
    import HealthProbeScreens
    import UIKit

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
        /// Settings' scheduled export: the schedule in the archive, its password in the Keychain.
        public let exportSchedule: ExportScheduleModel
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
            exportSchedule = ExportScheduleModel(
                scheduler: scheduledExports.scheduler, folder: scheduledExports.folder,
                container: URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true),
                passwords: ExportScheduleModel.PasswordStore(
                    save: { password, account in try KeychainPassword.save(password, account: account) },
                    delete: { account in try KeychainPassword.delete(account: account) }))
            settings.onSaved = { [weak self] saved in self?.startObservers(saved) }
            exportSchedule.onSaved = { [weak self] in self?.scheduledExports.submitNext() }
        }

        /// Everything HealthKit and iOS need before the app finishes launching: the background
        /// tasks' handlers and the observer queries with background delivery. A background wake
        /// launches the app without a window; the handlers must already be there.
        public func launch() {
            Self.registerBackgroundRefresh(monitor: monitor)
            scheduledExports.register()
            startObservers((try? archive.fetchSettings()) ?? .defaults)
        }

        /// Each time the app comes to the foreground (the scene becoming active, not only a cold
        /// launch): asks for Health access, then for the next refresh, and runs what exports are
        /// owed.
        public func becameActive() async {
            observeContext()
            try? await source.requestAuthorization()
            // Observers and background delivery started at launch, before the first install had
            // access, deliver nothing: started again once access is asked for (and granted).
            startObservers((try? archive.fetchSettings()) ?? .defaults)
            await Self.scheduleBackgroundRefresh(monitor: monitor)
            await scheduledExports.runOverdueInForeground()
            scheduledExports.submitNext()
        }

        /// Notes what changed of the phone's context since the app last looked — a system or app
        /// update, another time zone or iCloud account, a new device or a restore — so that the
        /// next check is a verification scan. Identities are digested before they are stored.
        func observeContext() {
            let token = FileManager.default.ubiquityIdentityToken.flatMap {
                try? NSKeyedArchiver.archivedData(withRootObject: $0, requiringSecureCoding: true)
            }
            let device = DeviceContext(
                systemVersion: UIDevice.current.systemVersion,
                appVersion: Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String ?? "unknown",
                timeZone: TimeZone.current.identifier, iCloudToken: token,
                installIdentifier: UIDevice.current.identifierForVendor?.uuidString)
            _ = try? context.observe(device, at: Date())
        }

        /// Observers for the monitored types (hourly for the 2-hour frequency, daily otherwise),
        /// replacing those of earlier settings; each wake runs a check within its time.
        /// Background delivery HealthKit refused (most often: the entitlement is missing) is
        /// written to the audit trail, where the Audit Trail screen shows it.
        func startObservers(_ settings: MonitoringSettings) {
            let monitor = monitor
            let archive = archive
            let delivery = HealthKitBackgroundDelivery(
                store: health, types: settings.monitoredTypes,
                onRefused: { type, reason in try? archive.noteBackgroundDeliveryRefused(type: type, reason: reason) }
            ) {
                _ = await monitor.runCheck()
            }
            // The old observers stop; delivery is turned off only for the types no longer
            // monitored, so that no "disable all" can land after the new types are enabled.
            self.delivery?.stop(keepingDeliveryFor: delivery.observedTypes)
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
