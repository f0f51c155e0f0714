import Foundation
internal import GRDB

/// The archive's record of what happened to it. Messages carry counts and identifiers of
/// HealthProbe's own objects, never health values or names.
public enum AuditLog {
    public enum Event: String, Sendable, Codable, CaseIterable {
        case archiveCreated, archiveMigrated, archiveOpened, captureStarted, captureCompleted, captureAbandoned,
            captureSetAside, captureIncluded
        case inputRefused, recordsUpdated, recordsReturned, recordsDeleted, anomaliesDetected, anomalyResolved,
            anomalyReopened, anomalyRecovered
        case detectorSkipped, checkDeferred, checkCutOff, checkResumed, scanRepeated, contextChanged, accessSuspected
        case settingsChanged, auditDataDeleted, integrityChecked, graphSynced, assistantQueried, deliveryRefused,
            figuresDiffer, restoreWritten, recordsRestored, restoreApplied
    }

    public struct Entry: Sendable, Codable, Equatable, RowDecodable {
        public var id: Int64
        public var at: Double
        public var event: String
        public var captureId: Int64?
        public var message: String
    }

    static func append(_ db: Database, event: Event, captureID: Int64? = nil, message: String) throws {
        try db.execute(
            sql: "INSERT INTO auditEntry (at, event, captureId, message) VALUES (?, ?, ?, ?)",
            arguments: [Date().timeIntervalSince1970, event.rawValue, captureID, message])
    }

    /// A graph destination committed a sync: written by the graph sync, with counts only.
    static func appendGraphSynced(_ db: Database, captureID: Int64, message: String) throws {
        try append(db, event: .graphSynced, captureID: captureID, message: message)
    }
}
