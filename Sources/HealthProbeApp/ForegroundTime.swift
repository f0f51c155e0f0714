#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import HealthProbeArchive
    import UIKit

    /// Work begun in the foreground that must not be frozen half-done when the user leaves: iOS
    /// is asked for time to finish it (`beginBackgroundTask`); when that time is about to run out,
    /// the work is told to stop and the time is given back at once, as Apple requires (a task
    /// not ended then ends the app). No logic here.
    @MainActor
    final class ForegroundTime {
        private var identifier = UIBackgroundTaskIdentifier.invalid

        /// Runs `work`, which stops when the flag it is given is set.
        static func finishing(_ name: String, _ work: (CancellationFlag) async -> Void) async {
            let cancellation = CancellationFlag()
            let time = ForegroundTime()
            time.identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
                cancellation.cancel()
                time.end()
            }
            await work(cancellation)
            time.end()
        }

        private func end() {
            guard identifier != .invalid else { return }
            UIApplication.shared.endBackgroundTask(identifier)
            identifier = .invalid
        }
    }
#endif
