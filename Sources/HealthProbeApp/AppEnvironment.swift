#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import BackgroundTasks
    import Foundation
    import HealthKit
    import HealthProbeHealthKit
    import HealthProbeKit
    import HealthProbeScreens
    import UIKit
    import HealthProbeArchive

    /// The iPhone app's wiring: the archive, the HealthKit source, the monitor, the screen models,
    /// and what runs in the background. No logic lives here; what it calls is tested on Linux, and
    /// this file is type-checked there against stubs of Apple's frameworks
    /// (`Scripts/typecheck-apple.sh`).
    @MainActor
    public final class AppEnvironment {
        public let archive: ArchiveStore
        public let health: HKHealthStore
        public let source: HealthKitDataSource
        public let monitor: HealthMonitor
        /// The observer queries, started at launch by ``AppLaunch`` before the archive opened.
        private let observers: AppObservers
        public let context: ContextMonitor
        public let dashboard: DashboardModel
        public let anomalies: AnomaliesModel
        public let restore: RestoreModel
        public let audit: AuditTrailModel
        public let archiveStatus: ArchiveStatusModel
        public let settings: SettingsModel
        /// Settings' scheduled export: the schedule in the archive, its password in the Keychain.
        public let exportSchedule: ExportScheduleModel
        /// Scheduled exports, into Documents/Exports (visible in the Files app).
        public let scheduledExports: ScheduledExportTask

        nonisolated public static let refreshTaskIdentifier = "org.healthprobe.check"

        /// Made by ``AppLaunch`` once it has opened `archive` off the main thread, with the
        /// store and observers it made at launch.
        init(archive: ArchiveStore, health: HKHealthStore, observers: AppObservers) throws {
            self.archive = archive
            self.health = health
            self.observers = observers
            source = HealthKitDataSource(store: health)
            monitor = try HealthMonitor(source: source, store: archive)
            context = ContextMonitor(store: archive)
            dashboard = DashboardModel(archive: archive, monitor: monitor)
            anomalies = AnomaliesModel(archive: archive)
            restore = RestoreModel(archive: archive, destination: HealthKitRestoreWriter(store: health))
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

        /// Once the archive is open: the observers ``AppLaunch`` started from the kept plan are
        /// started again only if the archive's settings choose otherwise.
        func launch() {
            observers.start(ObserverPlan((try? archive.fetchSettings()) ?? .defaults), restart: false)
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
            // An export begun here would be frozen mid-file when the user leaves: iOS is asked
            // for time to finish it, and when that runs out the export stops cleanly.
            let exports = scheduledExports
            await ForegroundTime.finishing("Scheduled export") { cancellation in
                await exports.runOverdueInForeground(cancellation: cancellation)
            }
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
        /// replacing those of earlier settings, the plan kept for the next launch; each wake runs
        /// a check within its time. Background delivery HealthKit refused (most often: the
        /// entitlement is missing) is written to the audit trail, where the Audit Trail screen
        /// shows it.
        func startObservers(_ settings: MonitoringSettings) {
            observers.start(ObserverPlan(settings))
        }

        /// Asks for the next refresh at the time the chosen frequency gives.
        nonisolated static func scheduleBackgroundRefresh(monitor: HealthMonitor) async {
            let request = BGAppRefreshTaskRequest(identifier: refreshTaskIdentifier)
            request.earliestBeginDate = try? await monitor.nextCheckDate()
            try? BGTaskScheduler.shared.submit(request)
        }
    }
#endif
