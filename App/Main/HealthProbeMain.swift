#if canImport(SwiftUI) && canImport(HealthKit)
    import HealthProbeApp
    import SwiftUI

    /// The app's entry point: wiring only.
    @main
    struct HealthProbeMain: App {
        @State private var environment = try? AppEnvironment()

        init() {
            environment?.registerBackgroundRefresh()
            environment?.scheduledExports.register()
        }

        var body: some Scene {
            WindowGroup {
                if let environment {
                    RootView(environment: environment)
                        .task {
                            await environment.startMonitoring()
                            await environment.scheduleBackgroundRefresh()
                            await environment.scheduledExports.runOverdueInForeground()
                            environment.scheduledExports.submitNext()
                        }
                } else {
                    Text("HealthProbe could not open its archive.")
                }
            }
        }
    }
#endif
