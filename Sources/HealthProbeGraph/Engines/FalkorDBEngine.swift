import Foundation

/// FalkorDB, the local engine: one graph on a loopback server, over the Redis protocol. It has
/// no transactions, so a sync's statements apply as they run; each is written so that running
/// the whole sync again yields the same graph.
public struct FalkorDBEngine: GraphEngine {
    public let endpoint: RESPConnection.Endpoint
    public let graph: String
    public let destination: String
    /// How long one reply may take before the connection counts as lost.
    public let timeout: TimeInterval
    /// Days keyed by their ISO text: FalkorDB finds a string in its index about a hundred times
    /// faster than a DATE, and its unique constraints do not guard DATE keys.
    public let dayKey = GraphDayKey.text

    public init(endpoint: RESPConnection.Endpoint, graph: String, destination: String, timeout: TimeInterval = 30) {
        self.endpoint = endpoint
        self.graph = graph
        self.destination = destination
        self.timeout = timeout
    }

    public func checkReachable() async throws {
        try connect().run("RETURN 1")
    }

    public func prepareSchema() async throws {
        let connection = try connect()
        let existing = try connection.run("CALL db.indexes()").rows.compactMap { row -> String? in
            guard row.count >= 2, let label = row[0].text, let properties = row[1].text else { return nil }
            return label + properties
        }
        // A repeated CREATE INDEX is an error on FalkorDB, so only the missing ones are made.
        var wanted: [String: [String]] = [:]
        for (label, property) in GraphSchema.keys(dayKey) + GraphSchema.rangeIndexes(dayKey) {
            wanted[label, default: []].append(property)
        }
        for (label, properties) in wanted.sorted(by: { $0.key < $1.key }) {
            for property in properties where !existing.contains(where: { Self.indexes($0, label, property) }) {
                try connection.run("CREATE INDEX FOR (n:\(label)) ON (n.\(property))")
            }
        }
    }

    /// `CALL db.indexes()` lists a label's indexed properties as "[a, b]".
    private static func indexes(_ listed: String, _ label: String, _ property: String) -> Bool {
        guard listed.hasPrefix(label + "[") else { return false }
        let names = listed.dropFirst(label.count + 1).dropLast().split(separator: ",")
        return names.contains { $0.trimmingCharacters(in: .whitespaces) == property }
    }

    public func begin() async throws -> any GraphTransaction {
        FalkorDBUnit(try connect())
    }

    private func connect() throws -> FalkorDBGraph {
        do {
            return try FalkorDBGraph(endpoint, graph: graph, timeout: timeout)
        } catch let error as RESPError {
            throw GraphSyncError.destination(
                destination,
                problem: "FalkorDB cannot be reached (\(error)); start it with `Scripts/falkordb.sh start FOLDER`")
        }
    }
}

/// A sync's statements on FalkorDB, applied as they run.
final class FalkorDBUnit: GraphTransaction {
    private let graph: FalkorDBGraph

    init(_ graph: FalkorDBGraph) {
        self.graph = graph
    }

    func run(_ statement: String, _ parameters: [String: CypherValue]) async throws -> GraphResult {
        do {
            return try graph.run(statement, parameters)
        } catch RESPError.server(let message) {
            throw RESPError.server("FalkorDB refused a statement: " + Self.gist(of: message))
        }
    }

    /// The error without the position and statement text FalkorDB appends ("… line: 1, column: 5,
    /// offset: 4 errCtx: …"): one short line, and never more than the statement's shape.
    static func gist(of message: String) -> String {
        var text = message.hasPrefix("errMsg: ") ? String(message.dropFirst(8)) : message
        for marker in [" line: ", " errCtx: "] {
            if let range = text.range(of: marker) { text = String(text[..<range.lowerBound]) }
        }
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    func commit() async throws {}

    func rollback() async {}
}
