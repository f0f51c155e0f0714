#if canImport(SwiftUI) && canImport(HealthKit)
    import HealthProbeApp
    import SwiftUI

    /// The app's entry point: wiring only. The environment is made once, at launch, and registers
    /// the background handlers and HealthKit observers before launching ends.
    @main
    struct HealthProbeMain: App {
        private let environment: AppEnvironment?

        init() {
            environment = try? AppEnvironment()
            environment?.launch()
        }

        var body: some Scene {
            WindowGroup {
                if let environment {
                    RootView(environment: environment)
                        .task { await environment.becameActive() }
                } else {
                    Text("HealthProbe could not open its archive.")
                }
            }
        }
    }
#endif
