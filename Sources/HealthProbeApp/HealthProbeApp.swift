#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import HealthProbeScreens
    import SwiftUI

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
                SettingsView(model: environment.settings, exportSchedule: environment.exportSchedule)
                    .tabItem { Label("Settings", systemImage: "gearshape") }
            }
        }
    }
#endif
