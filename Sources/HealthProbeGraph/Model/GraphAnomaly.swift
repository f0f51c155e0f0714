import Foundation

/// An anomaly as the graph keeps it: an `Anomaly` node linked to its MetricType (`OF_TYPE`) and
/// to the local days of its records (`AFFECTS`).
public struct GraphAnomaly: Sendable {
    public let id: Int64
    public let sampleType: String
    public let resolved: Bool
    public let properties: [(String, CypherValue)]
    public let days: [LocalDay]
}
