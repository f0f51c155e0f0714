#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import HealthProbeApp
    import SwiftUI

    /// The app's entry point: wiring only. The launch registers the background handlers before
    /// launching ends and opens the archive off the main thread; the window shows it opening.
    @main
    struct HealthProbeMain: App {
        private let launch = AppLaunch()

        var body: some Scene {
            WindowGroup {
                LaunchView(launch: launch)
            }
        }
    }
#endif
