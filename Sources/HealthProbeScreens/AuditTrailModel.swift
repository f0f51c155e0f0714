import Foundation
import HealthProbeArchive
import HealthProbeKit
import Observation

/// The Audit Trail's model.
@MainActor @Observable
public final class AuditTrailModel {
    public var event: String? {
        didSet { refresh() }
    }
    public private(set) var state: AuditTrailState?
    public private(set) var errorMessage: String?

    private let archive: ArchiveStore
    private let format: ScreenFormat

    public init(archive: ArchiveStore, format: ScreenFormat = ScreenFormat()) {
        self.archive = archive
        self.format = format
    }

    public func refresh() {
        errorMessage = failureMessage { state = try AuditTrailState.load(from: archive, event: event, format: format) }
    }

    /// The trail as JSON, for the Export action.
    public func exportJSON() throws -> Data {
        try AuditTrailState.exportJSON(from: archive)
    }
}
