// A launch handler runs on a background queue: built outside the main actor, it cannot read the
// main actor's state (as the app's refresh handler once read its task identifier).
import BackgroundTasks

@MainActor
final class Environment {
    static let identifier = "org.example.check"

    nonisolated static func register() {
        _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            task.setTaskCompleted(success: true)
        }
    }
}
