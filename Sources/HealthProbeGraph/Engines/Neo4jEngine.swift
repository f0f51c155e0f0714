import Foundation

/// Neo4j through its Query API: the schema in transactions of its own, then the whole sync in
/// one explicit transaction, so that it commits whole or not at all.
public struct Neo4jEngine: GraphEngine {
    public let client: Neo4jQueryClient
    public let destination: String
    /// Days keyed by `date`, as HealthGraphSync's graph and constraints are.
    public let dayKey = GraphDayKey.date

    public init(client: Neo4jQueryClient, destination: String) {
        self.client = client
        self.destination = destination
    }

    public func checkReachable() async throws {
        try await client.run("RETURN 1")
    }

    public func prepareSchema() async throws {
        for (label, property) in GraphSchema.keys(dayKey) {
            try await client.run(
                "CREATE CONSTRAINT healthprobe_\(label.lowercased())_\(property) IF NOT EXISTS FOR (n:\(label)) REQUIRE n.\(property) IS UNIQUE"
            )
        }
        for (label, property) in GraphSchema.rangeIndexes(dayKey) {
            try await client.run(
                "CREATE INDEX healthprobe_\(label.lowercased())_\(property) IF NOT EXISTS FOR (n:\(label)) ON (n.\(property))"
            )
        }
    }

    public func begin() async throws -> any GraphTransaction {
        Neo4jUnit(client: client, transaction: try await client.begin())
    }
}

final class Neo4jUnit: GraphTransaction {
    let client: Neo4jQueryClient
    let transaction: Neo4jQueryClient.Transaction

    init(client: Neo4jQueryClient, transaction: Neo4jQueryClient.Transaction) {
        self.client = client
        self.transaction = transaction
    }

    func run(_ statement: String, _ parameters: [String: CypherValue]) async throws -> GraphResult {
        try await client.run(statement, parameters, in: transaction)
    }

    func commit() async throws { try await client.commit(transaction) }

    func rollback() async { try? await client.rollback(transaction) }
}
