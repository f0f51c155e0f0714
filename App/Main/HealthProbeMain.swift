#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import HealthProbeApp
    import SwiftUI

    /// The app's entry point: wiring only. The environment is made once, at launch, and registers
    /// the background handlers and HealthKit observers before launching ends.
    @main
    struct HealthProbeMain: App {
        private let environment: AppEnvironment?
        /// Why the environment could not be made, for the one screen that says so.
        private let failure: String?
        /// Active each time the app comes to the foreground, not only at a cold launch.
        @Environment(\.scenePhase) private var scenePhase

        init() {
            do {
                let environment = try AppEnvironment()
                environment.launch()
                self.environment = environment
                failure = nil
            } catch {
                // The background tasks' handlers are registered whatever happens.
                AppEnvironment.registerAfterFailedLaunch()
                environment = nil
                failure = error.localizedDescription
            }
        }

        var body: some Scene {
            WindowGroup {
                if let environment {
                    RootView(environment: environment)
                        .onChange(of: scenePhase, initial: true) { _, phase in
                            guard phase == .active else { return }
                            Task { await environment.becameActive() }
                        }
                } else {
                    Text("HealthProbe could not open its archive: \(failure ?? "unknown error")")
                        .padding()
                }
            }
        }
    }
#endif
