import Foundation

/// A graph database a sync writes to: Neo4j over its Query API, or FalkorDB over the Redis
/// protocol. Statements are kept to what both accept (docs/GRAPH.md §5).
public protocol GraphEngine: Sendable {
    /// The destination as the user named it, without credentials: for messages and the state.
    var destination: String { get }
    /// What the nodes of a day are merged on there.
    var dayKey: GraphDayKey { get }
    /// Connects and runs a trivial statement: the destination answers and takes the credentials.
    /// A sync checks this before it touches the archive.
    func checkReachable() async throws
    /// Creates the indexes and constraints the sync's MERGEs rely on, where missing. Runs outside
    /// the sync's transaction (Neo4j does not mix schema and data changes in one).
    func prepareSchema() async throws
    /// Opens a unit of work: a transaction on Neo4j (nothing visible until commit); on FalkorDB,
    /// which has none, statements apply as they run and are written to be run again.
    func begin() async throws -> any GraphTransaction
}

public protocol GraphTransaction: AnyObject {
    @discardableResult
    func run(_ statement: String, _ parameters: [String: CypherValue]) async throws -> GraphResult
    func commit() async throws
    /// Undoes what the unit ran, where the engine can; never throws (it runs on a failure path).
    func rollback() async
}

/// The index and uniqueness plan every engine creates: each label's key (a day's nodes by the
/// engine's ``GraphDayKey``), and the range indexes HealthGraphSync's dashboards filter on.
enum GraphSchema {
    static func keys(_ day: GraphDayKey) -> [(label: String, property: String)] {
        [
            ("Person", "name"), ("Device", "name"), ("MetricType", "identifier"), ("Day", day.property),
            ("Week", "iso"), ("DailySummary", day.property), ("Workout", "uid"), ("SleepSession", day.property),
            ("Anomaly", "id"), ("Sync", "id"),
        ]
    }

    /// HealthGraphSync's range indexes, and the DATEs its dashboards look days up by where they
    /// are not the key.
    static func rangeIndexes(_ day: GraphDayKey) -> [(label: String, property: String)] {
        [("Day", "day_of_week"), ("Workout", "activity_type"), ("MetricType", "display_name")]
            + (day == .text ? [("Day", "date"), ("DailySummary", "date"), ("SleepSession", "date")] : [])
    }
}
