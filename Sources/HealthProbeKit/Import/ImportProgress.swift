import HealthProbeArchive

/// Where an import is, for a progress line on a terminal.
public struct ImportProgress: Sendable {
    public enum Phase: String, Sendable {
        case reading, finishing
    }

    public var phase: Phase
    /// Top-level elements read so far.
    public var records: Int
    public var bytesRead: Int64
    /// The main XML's uncompressed size, when known.
    public var totalBytes: Int64?
    /// The sample type of the element read last.
    public var currentType: String?
    /// Seconds since the import started.
    public var elapsed: Double
}
