import Foundation
import HealthProbeArchive
import HealthProbeKit
import Observation

/// The Anomalies tab's model: the filtered list, resolving, and one anomaly's detail.
@MainActor @Observable
public final class AnomaliesModel {
    public var filter = AnomalyListState.Filter() {
        didSet { refresh() }
    }
    public private(set) var list: AnomalyListState?
    public private(set) var detail: AnomalyDetailState?
    public private(set) var errorMessage: String?

    private let archive: ArchiveStore
    private let format: ScreenFormat

    public init(archive: ArchiveStore, format: ScreenFormat = ScreenFormat()) {
        self.archive = archive
        self.format = format
    }

    public func refresh() {
        errorMessage = failureMessage {
            list = try AnomalyListState.load(from: archive, filter: filter, format: format)
        }
    }

    /// Opens an anomaly's detail, values withheld.
    public func open(_ id: Int64) {
        errorMessage = failureMessage { detail = try AnomalyDetailState.load(from: archive, id: id, format: format) }
    }

    /// Closes the detail.
    public func close() { detail = nil }

    /// Shows the open anomaly's health values: only after the user asked (a tap).
    public func revealValues() {
        guard let id = detail?.row.id else { return }
        errorMessage = failureMessage {
            detail = try AnomalyDetailState.load(from: archive, id: id, revealValues: true, format: format)
        }
    }

    /// Marks anomalies resolved (from the list's swipe or the detail's button), then reloads.
    public func resolve(_ ids: [Int64]) {
        errorMessage = failureMessage {
            _ = try archive.resolveAnomalies(ids: ids)
            list = try AnomalyListState.load(from: archive, filter: filter, format: format)
            if let open = detail {
                detail = try AnomalyDetailState.load(
                    from: archive, id: open.row.id, revealValues: open.valuesRevealed, format: format)
            }
        }
    }
}
