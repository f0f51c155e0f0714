import Foundation
import HealthProbeArchive
import HealthProbeKit
import Observation

/// The Dashboard's model: the SwiftUI view observes it; tests drive it. Loading reads the
/// archive; Check Now runs the monitor and reloads.
@MainActor @Observable
public final class DashboardModel {
    public private(set) var state: DashboardState?
    public private(set) var errorMessage: String?
    public private(set) var isChecking = false
    /// What the last Check Now did, in words.
    public private(set) var lastOutcome: String?

    private let archive: ArchiveStore
    private let monitor: HealthMonitor?
    private let format: ScreenFormat

    public init(
        archive: ArchiveStore, monitor: HealthMonitor?, format: ScreenFormat = ScreenFormat()
    ) {
        self.archive = archive
        self.monitor = monitor
        self.format = format
    }

    public func refresh() {
        errorMessage = failureMessage { state = try DashboardState.load(from: archive, format: format) }
    }

    /// Runs a check now, then reloads; does nothing while one is running.
    public func checkNow() async {
        guard let monitor, !isChecking else { return }
        isChecking = true
        defer { isChecking = false }
        let outcome = await monitor.runCheck()
        lastOutcome = CheckOutcomeText.describe(outcome)
        refresh()
    }
}
