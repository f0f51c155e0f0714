#if canImport(SwiftUI) && canImport(HealthKit) && canImport(BackgroundTasks)
    import BackgroundTasks
    import HealthKit
    import HealthProbeHealthKit
    import HealthProbeKit
    import HealthProbeScreens
    import SwiftUI

    /// The iPhone app's wiring: the archive, the HealthKit source, the monitor, and the five
    /// tabs over the tested screen models. No logic lives here; it cannot be compiled on Linux.
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

        public static let refreshTaskIdentifier = "org.healthprobe.check"

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
        }

        /// Asks for Health access, then has HealthKit wake the app when monitored types change
        /// (hourly for the 2-hour frequency, daily otherwise), each wake running a check.
        public func startMonitoring() async {
            try? await source.requestAuthorization()
            let settings = (try? archive.fetchSettings()) ?? .defaults
            let monitor = monitor
            let delivery = HealthKitBackgroundDelivery(store: health, types: settings.monitoredTypes) {
                _ = await monitor.runCheck()
            }
            delivery.start(frequency: settings.checkFrequency <= .every2Hours ? .hourly : .daily)
            self.delivery = delivery
        }

        /// Registers the background refresh that runs a check (call before the app finishes launching).
        public func registerBackgroundRefresh() {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshTaskIdentifier, using: nil) { task in
                let check = Task { @MainActor in
                    _ = await self.monitor.runCheck()
                    await self.scheduleBackgroundRefresh()
                    task.setTaskCompleted(success: true)
                }
                task.expirationHandler = { check.cancel() }
            }
        }

        /// Asks for the next refresh at the time the chosen frequency gives.
        public func scheduleBackgroundRefresh() async {
            let request = BGAppRefreshTaskRequest(identifier: Self.refreshTaskIdentifier)
            request.earliestBeginDate = try? await monitor.nextCheckDate()
            try? BGTaskScheduler.shared.submit(request)
        }
    }

    /// The five tabs.
    public struct RootView: View {
        let environment: AppEnvironment

        public init(environment: AppEnvironment) {
            self.environment = environment
        }

        public var body: some View {
            TabView {
                DashboardView(model: environment.dashboard)
                    .tabItem { Label("Dashboard", systemImage: "checkmark.shield.fill") }
                AnomaliesView(model: environment.anomalies)
                    .tabItem { Label("Anomalies", systemImage: "exclamationmark.triangle.fill") }
                AuditTrailView(model: environment.audit)
                    .tabItem { Label("Audit Trail", systemImage: "clock.arrow.circlepath") }
                ArchiveStatusView(model: environment.archiveStatus)
                    .tabItem { Label("Archive", systemImage: "externaldrive.fill.badge.checkmark") }
                SettingsView(model: environment.settings)
                    .tabItem { Label("Settings", systemImage: "gearshape") }
            }
        }
    }

    extension ColorRole {
        /// Colours by role: the system's, so dark mode and contrast settings follow.
        var color: Color {
            switch self {
            case .healthy: .green
            case .warning: .orange
            case .critical: .red
            case .neutral: .gray
            }
        }
    }
#endif
