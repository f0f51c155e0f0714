import Foundation
import HealthProbeArchive

/// What one check did.
public struct CheckOutcome: Sendable {
    public enum Kind: String, Sendable, Codable {
        /// Read, stored and audited.
        case completed
        /// Could not read now (the device was locked); nothing was taken as missing; try again later.
        case deferred
        /// Ran out of time (a background window's end): the pages read are stored, and the next
        /// check resumes after them.
        case cutOff
        /// Could not run (no Health store, no access asked, an archive failure).
        case failed
    }

    public var kind: Kind
    public var status: MonitorStatus
    public var capture: CaptureSummary?
    public var anomalies: [Anomaly] = []
    /// The anomalies at or above the alert threshold: what notifies.
    public var alerts: [Anomaly] = []
    /// Whether this check re-read every monitored type (a verification scan).
    public var verified = false
    /// Records HealthKit reported deleted in this check (audit entries, not anomalies)…
    public var explicitDeletions = 0
    /// …and records replaced by a newer sync version or written again (audit entries too).
    public var updates = 0
    public var notes: [String] = []
    /// Days whose figures differ from Health's own statistics, where the source gives them.
    public var figureDisagreements: [FigureDisagreement] = []
}
