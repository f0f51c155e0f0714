#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthProbeScreens
    import SwiftUI

    /// What the window shows from launch: a note while the archive opens (after an update its
    /// migrations may take a while), then the five tabs, or why the archive could not be opened
    /// with "Try again", which opens it anew.
    public struct LaunchView: View {
        let launch: AppLaunch
        @State private var environment: AppEnvironment?
        @State private var failure: String?
        /// Active each time the app comes to the foreground, not only at a cold launch.
        @Environment(\.scenePhase) private var scenePhase

        public init(launch: AppLaunch) {
            self.launch = launch
        }

        public var body: some View {
            if let environment {
                RootView(environment: environment)
                    .onChange(of: scenePhase, initial: true) { _, phase in
                        guard phase == .active else { return }
                        Task { await environment.becameActive() }
                    }
            } else if let failure {
                // What failed, and a way on: the next attempt opens the archive anew (a wake or a
                // background task would also try again).
                VStack(spacing: 12) {
                    Text("HealthProbe could not open its archive: \(failure)")
                    Button("Try again") { self.failure = nil }
                }
                .padding()
            } else {
                Text(
                    "Opening the archive… After an update HealthProbe brings it up to date first; nothing in it is lost."
                )
                .padding()
                .task { @MainActor in
                    do {
                        environment = try await launch.environment()
                    } catch {
                        failure = error.localizedDescription
                    }
                }
            }
        }
    }

    /// The five tabs.
    public struct RootView: View {
        let environment: AppEnvironment

        /// A file opened in place (Files, another app's share) is readable only while its
        /// security scope is held: it is copied into the app's temporary folder first (as it came:
        /// an encrypted file stays encrypted until its password opens it), and the restore screen
        /// removes the copy once read. Nil when it cannot be copied.
        static func readableCopy(of url: URL) -> URL? {
            let scoped = url.startAccessingSecurityScopedResource()
            defer { if scoped { url.stopAccessingSecurityScopedResource() } }
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
                "restore-\(UUID().uuidString)-\(url.lastPathComponent)")
            return (try? FileManager.default.copyItem(at: url, to: copy)).map { copy }
        }

        public init(environment: AppEnvironment) {
            self.environment = environment
        }

        public var body: some View {
            TabView {
                DashboardView(model: environment.dashboard)
                    .tabItem { Label("Dashboard", systemImage: "checkmark.shield.fill") }
                AnomaliesView(model: environment.anomalies, restore: environment.restore)
                    .tabItem { Label("Anomalies", systemImage: "exclamationmark.triangle.fill") }
                AuditTrailView(model: environment.audit)
                    .tabItem { Label("Audit Trail", systemImage: "clock.arrow.circlepath") }
                ArchiveStatusView(model: environment.archiveStatus)
                    .tabItem { Label("Archive", systemImage: "externaldrive.fill.badge.checkmark") }
                SettingsView(model: environment.settings, exportSchedule: environment.exportSchedule)
                    .tabItem { Label("Settings", systemImage: "gearshape") }
            }
            // A restore file shared to the app, or an anomaly's "Restore N records".
            .onOpenURL { url in
                if let copy = Self.readableCopy(of: url) {
                    environment.restore.open(copy, temporaryCopy: true)
                } else {
                    environment.restore.open(url)
                }
            }
            .sheet(
                isPresented: Binding(
                    get: { @MainActor in
                        let restore = environment.restore
                        return restore.phase != .idle || restore.needsPassword || restore.errorMessage != nil
                    },
                    set: { @MainActor in if !$0 { environment.restore.dismiss() } })
            ) { RestoreView(model: environment.restore) }
        }
    }
#endif
