import Foundation

/// What a write did, as the engines count it: the counters a sync reports and its tests read.
public struct GraphCounters: Equatable, Sendable {
    public var nodesCreated = 0
    public var nodesDeleted = 0
    public var relationshipsCreated = 0
    public var relationshipsDeleted = 0
    public var propertiesSet = 0
    /// FalkorDB counts removals apart; Neo4j counts them in `propertiesSet`.
    public var propertiesRemoved = 0
    public var labelsAdded = 0

    public init() {}

    public var changedAnything: Bool {
        nodesCreated + nodesDeleted + relationshipsCreated + relationshipsDeleted + propertiesSet + propertiesRemoved
            + labelsAdded > 0
    }

    public static func + (left: GraphCounters, right: GraphCounters) -> GraphCounters {
        var sum = left
        sum.nodesCreated += right.nodesCreated
        sum.nodesDeleted += right.nodesDeleted
        sum.relationshipsCreated += right.relationshipsCreated
        sum.relationshipsDeleted += right.relationshipsDeleted
        sum.propertiesSet += right.propertiesSet
        sum.propertiesRemoved += right.propertiesRemoved
        sum.labelsAdded += right.labelsAdded
        return sum
    }
}

/// A statement's answer: its rows (values as the engine printed them) and its counters.
public struct GraphResult: Sendable {
    public var columns: [String] = []
    public var rows: [[RESPValue]] = []
    public var counters = GraphCounters()
}

/// One graph in FalkorDB, over the Redis protocol: `GRAPH.QUERY name "CYPHER p=… statement"`.
/// Parameters go as Cypher literals in the prefix (FalkorDB's form); statements are kept to
/// what FalkorDB and Neo4j both accept (docs/GRAPH.md §5).
public final class FalkorDBGraph {
    public let name: String
    private let connection: RESPConnection

    public init(_ endpoint: RESPConnection.Endpoint, graph name: String, timeout: TimeInterval = 30) throws {
        self.name = name
        connection = try RESPConnection(endpoint, timeout: timeout)
    }

    @discardableResult
    public func run(_ statement: String, _ parameters: [String: CypherValue] = [:]) throws -> GraphResult {
        let prefix = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.literal)" }
        let text = prefix.isEmpty ? statement : "CYPHER " + prefix.joined(separator: " ") + " " + statement
        return try Self.result(of: connection.send(["GRAPH.QUERY", name, text]))
    }

    /// Reads FalkorDB's reply: `[statistics]` for a write, `[header, rows, statistics]` for a read.
    static func result(of reply: RESPValue) throws -> GraphResult {
        guard case .array(let parts?) = reply, let statistics = parts.last, case .array(let lines?) = statistics
        else { throw RESPError.malformedReply("not a graph query's answer") }
        var result = GraphResult()
        if parts.count == 3, case .array(let header?) = parts[0], case .array(let rows?) = parts[1] {
            result.columns = header.compactMap { column in
                if case .array(let pair?) = column { return pair.last?.text }
                return column.text
            }
            result.rows = rows.map { row in
                if case .array(let values?) = row { return values }
                return [row]
            }
        }
        for line in lines.compactMap(\.text) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            switch parts[0] {
            case "Nodes created": result.counters.nodesCreated = value
            case "Nodes deleted": result.counters.nodesDeleted = value
            case "Relationships created": result.counters.relationshipsCreated = value
            case "Relationships deleted": result.counters.relationshipsDeleted = value
            case "Properties set": result.counters.propertiesSet = value
            case "Properties removed": result.counters.propertiesRemoved = value
            case "Labels added": result.counters.labelsAdded = value
            default: continue
            }
        }
        return result
    }
}
