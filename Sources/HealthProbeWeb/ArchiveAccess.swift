import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The dashboard's one connection to the archive, opened when first needed: none before an
/// archive exists (the dashboard then says how to make one), and none offered to pages while a
/// first check fills an empty archive (a bulk load keeps readers out until it commits).
actor ArchiveAccess {
    let path: String
    private var store: ArchiveStore?
    private var firstCheckRunning = false

    init(path: String) {
        self.path = path
    }

    /// The archive for reading, or nil when there is none yet (or a first check is filling it).
    func forReading() throws -> ArchiveStore? {
        if firstCheckRunning { return nil }
        if let store { return store }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let opened = try ArchiveStore.open(at: path, creating: false)
        store = opened
        return opened
    }

    /// The archive for saving settings, created when absent; nil while a first check fills it.
    func forSettings() throws -> ArchiveStore? {
        if firstCheckRunning { return nil }
        let opened = try store ?? ArchiveStore.open(at: path)
        store = opened
        return opened
    }

    /// The archive for a check, created when absent; `first` when it holds no capture yet, so
    /// pages stay off it until the check ends.
    func forCheck() throws -> ArchiveStore {
        let opened = try store ?? ArchiveStore.open(at: path)
        store = opened
        firstCheckRunning = try opened.fetchOverview().captures == 0
        return opened
    }

    /// Whether pages are kept off the archive because a first check is filling it.
    var isFillingFirstCapture: Bool { firstCheckRunning }

    func checkEnded() {
        firstCheckRunning = false
    }
}
