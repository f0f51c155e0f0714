import Foundation
import HealthProbeArchive
import HealthProbeKit
import Observation

/// Archive Status's model.
@MainActor @Observable
public final class ArchiveStatusModel {
    public private(set) var state: ArchiveStatusState?
    public private(set) var errorMessage: String?
    /// True while the integrity check reads the archive (seconds on a large one).
    public private(set) var isCheckingIntegrity = false

    private let archive: ArchiveStore
    private let sync: ContextMonitor?
    private let path: String?
    private let format: ScreenFormat

    public init(
        archive: ArchiveStore, sync: ContextMonitor?, path: String?,
        format: ScreenFormat = ScreenFormat()
    ) {
        self.archive = archive
        self.sync = sync
        self.path = path
        self.format = format
    }

    public func refresh() {
        errorMessage = failureMessage {
            state = try ArchiveStatusState.load(from: archive, sync: sync, path: path, format: format)
        }
    }

    /// Runs the integrity check off the main actor, then reloads; once at a time.
    public func checkIntegrity() async {
        guard !isCheckingIntegrity else { return }
        isCheckingIntegrity = true
        defer { isCheckingIntegrity = false }
        let archive = archive
        let outcome = await Task.detached { Result { try archive.checkIntegrity(now: Date()) } }.value
        if case .failure(let error) = outcome {
            errorMessage = error.localizedDescription
        } else {
            refresh()
        }
    }
}
