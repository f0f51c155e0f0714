/// One statement of a sync with its rows, and what it writes, for `--dry-run` and the report.
struct GraphWrite {
    let statement: String
    let rows: [CypherValue]
    /// Node labels and relationship types the statement merges, one of each per row.
    let merges: [String]
    /// What it removes, where it removes (by row: a day's summary, a day's sleep, …).
    let removes: String?

    init(_ statement: String, _ rows: [CypherValue], merges: [String] = [], removes: String? = nil) {
        self.statement = statement
        self.rows = rows
        self.merges = merges
        self.removes = removes
    }
}

/// What a sync writes, by label and relationship type: counts only, never a value.
public struct GraphOutline: Sendable, Equatable {
    public var merged: [String: Int] = [:]
    public var removed: [String: Int] = [:]

    static let nodeLabels: Set<String> = [
        "Person", "Device", "MetricType", "Day", "Week", "DailySummary", "Workout", "SleepSession", "Anomaly", "Sync",
    ]

    public var nodes: [(String, Int)] { merged.filter { Self.nodeLabels.contains($0.key) }.sorted { $0.key < $1.key } }
    public var relationships: [(String, Int)] {
        merged.filter { !Self.nodeLabels.contains($0.key) }.sorted { $0.key < $1.key }
    }

    init() {}

    /// Counts one statement's rows.
    mutating func add(_ write: GraphWrite) {
        guard !write.rows.isEmpty else { return }
        for name in write.merges { merged[name, default: 0] += write.rows.count }
        if let removed = write.removes { self.removed[removed, default: 0] += write.rows.count }
    }
}
