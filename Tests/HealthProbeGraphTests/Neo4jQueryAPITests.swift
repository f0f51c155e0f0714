import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeGraph
@testable import HealthProbeKit

/// The Query API client against a local server that keeps Neo4j's documented contract and runs
/// the committed statements for real on FalkorDB.
@Suite("Neo4j Query API")
struct Neo4jQueryAPITests {
    /// Runs `body` with an engine pointed at a contract server on a loopback port.
    static func withContractServer(
        _ state: Neo4jContractState,
        credentials: Neo4jQueryClient.Credentials = .basic(user: "neo4j", password: "test-password"),
        _ body: @Sendable @escaping (Neo4jEngine) async throws -> Void
    ) async throws {
        let app = Application(router: Neo4jContractServer.router(state))
        try await app.test(.live) { client in
            let base = URL(string: "http://127.0.0.1:\(client.port ?? 0)")!
            let engine = Neo4jEngine(
                client: Neo4jQueryClient(
                    base: base, database: "neo4j", credentials: credentials, timeout: 10, backoff: 0.01),
                destination: "neo4j-test")
            try await body(engine)
        }
    }

    static func savedState(_ archive: GraphArchive) throws -> [Row] {
        try archive.store.writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM graphSync") }
    }

    @Test(arguments: Neo4jContractState.Version.allCases)
    func aSyncRunsInOneTransactionWithTypedJSONAndWritesTheSameGraphAsFalkorDB(
        _ version: Neo4jContractState.Version
    ) async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        try await archive.sync(archive.engine(server, graph: "direct"))
        let state = try Neo4jContractState(socket: server.socket, graph: "through-neo4j", version: version)
        try await Self.withContractServer(state) { engine in
            let report = try await archive.sync(engine)
            #expect(report.daysWritten == 4)
            // The server's counters are read (one property per row there).
            #expect(report.counters.propertiesSet > 0)
        }
        #expect(try GraphDump(server.graph("through-neo4j")) == GraphDump(server.graph("direct")))

        let requests = await state.requests
        let transactional = requests.filter { $0.path.contains("/tx") }
        #expect(await state.committed == 1)
        #expect(transactional.first?.path == "/db/neo4j/query/v2/tx")
        #expect(transactional.last?.path.hasSuffix("/commit") == true)
        // Every request after the first of the transaction echoes the cluster affinity.
        #expect(transactional.dropFirst().allSatisfy { $0.affinity == Neo4jContractState.affinity })
        #expect(
            requests.allSatisfy {
                $0.authorization == "Basic " + Data("neo4j:test-password".utf8).base64EncodedString()
            })
        #expect(requests.allSatisfy { $0.accept == "application/vnd.neo4j.query" })
        let statement = try #require(transactional.first { $0.body["statement"] != nil })
        #expect(statement.contentType == Neo4jTypedJSON.mediaType)
        #expect(statement.body["includeCounters"] as? Bool == true)
        let rows = try #require((statement.body["parameters"] as? [String: Any])?["rows"] as? [String: Any])
        #expect(rows["$type"] as? String == "List")
        // The schema goes first, each statement in a transaction of its own.
        #expect(requests.first?.path == "/db/neo4j/query/v2")
        #expect((requests.first?.body["statement"] as? String)?.hasPrefix("CREATE CONSTRAINT") == true)
    }

    /// A Neo4j that already holds HealthGraphSync's graph: its days, summaries and sleep are
    /// keyed by `date` (a DATE), as its constraints require, and a sync merges into those nodes
    /// rather than making a second node per day. Workouts' times go as zoned datetimes.
    @Test func aSyncIntoHealthGraphSyncsGraphMergesIntoItsNodes() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let graph = try server.graph("theirs")
        try graph.run(
            """
            CREATE (:Day {date: date('2000-01-01'), day_of_week: 'Saturday'})-[:HAS_SUMMARY]->
                (:DailySummary {date: date('2000-01-01'), total_steps: 1, note: 'kept'})
            """)
        let state = try Neo4jContractState(socket: server.socket, graph: "theirs")
        try await Self.withContractServer(state) { engine in try await archive.sync(engine) }

        let days = try graph.run("MATCH (d:Day) WHERE d.date = date('2000-01-01') RETURN d.day").rows
        #expect(days.map { $0.first?.text } == ["2000-01-01"])
        let summaries = try graph.run(
            "MATCH (:Day)-[:HAS_SUMMARY]->(s:DailySummary) WHERE s.date = date('2000-01-01') RETURN s.total_steps, s.note"
        ).rows
        // Ours replaces the steps it computes; a property it does not own stays.
        #expect(summaries.map { $0.map { $0.text ?? "null" } } == [["1700", "kept"]])
        let requests = await state.requests
        #expect(requests.contains { String(decoding: $0.bodyData, as: UTF8.self).contains("\"OffsetDateTime\"") })
        let constraints = requests.compactMap { $0.body["statement"] as? String }.filter {
            $0.hasPrefix("CREATE CONSTRAINT")
        }
        #expect(constraints.contains { $0.contains("FOR (n:Day) REQUIRE n.date IS UNIQUE") })
        #expect(!constraints.contains { $0.contains("n.day IS UNIQUE") })
    }

    @Test func typedJSONKeepsEveryValue() {
        // Keys in order: a JSON object keeps none, so the map comes back sorted.
        let value: CypherValue = .map([
            ("big", .integer(9_007_199_254_740_993)), ("flag", .bool(true)), ("fraction", .float(0.1)),
            ("list", .list([.integer(1), .string("2000-01-01")])), ("nothing", .null), ("text", .string("Test User")),
        ])
        let encoded = Neo4jTypedJSON.encode(value)
        let decodedBack = Neo4jTypedJSON.value(
            try? JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: encoded)))
        #expect(decodedBack == value)
        #expect(
            (encoded["_value"] as? [String: Any]).flatMap { ($0["big"] as? [String: Any])?["_value"] as? String }
                == "9007199254740993")
        #expect(Neo4jTypedJSON.decode(["$type": "Integer", "_value": "42"]) == .integer(42))
        #expect(Neo4jTypedJSON.decode(["$type": "Date", "_value": "2000-01-01"]) == .bulk("2000-01-01"))
        #expect(Neo4jTypedJSON.decode(["$type": "Null", "_value": NSNull()]) == .bulk(nil))
    }

    @Test func refusedCredentialsFailTheSyncAndLeaveTheStateAlone() async throws {
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let state = try Neo4jContractState(socket: nil)
        try await Self.withContractServer(state, credentials: .basic(user: "neo4j", password: "wrong")) { engine in
            await #expect(throws: GraphSyncError.neo4j(.refusedCredentials(host: "127.0.0.1"))) {
                try await archive.sync(engine)
            }
        }
        #expect(try Self.savedState(archive).isEmpty)
        #expect(
            GraphSyncError.neo4j(.refusedCredentials(host: "127.0.0.1")).description
                == "Neo4j refused the credentials for 127.0.0.1")
    }

    @Test func aBearerTokenIsSentAsSuch() async throws {
        let state = try Neo4jContractState(socket: nil)
        try await Self.withContractServer(state, credentials: .bearer(token: "test-token")) { engine in
            try await engine.client.run("RETURN 1")
        }
        // Every request carries the token as a bearer (a loaded machine's client may ask twice).
        let sent = await state.requests.map(\.authorization)
        #expect(!sent.isEmpty && sent.allSatisfy { $0 == "Bearer test-token" }, "\(sent)")
    }

    @Test func aBusyServerIsAskedAgainAfterAPause() async throws {
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let server = try LocalFalkorDB()
        let state = try Neo4jContractState(socket: server.socket)
        await state.setBusyAnswers([503, 429])
        try await Self.withContractServer(state) { engine in
            try await archive.sync(engine)
        }
        #expect(await state.committed == 1)
        #expect(try Self.savedState(archive).count == 1)
    }

    @Test func aServerThatStaysBusyFailsTheSyncAfterItsRetries() async throws {
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let state = try Neo4jContractState(socket: nil)
        await state.setBusyAnswers(Array(repeating: 503, count: 20))
        try await Self.withContractServer(state) { engine in
            await #expect(throws: GraphSyncError.self) { try await archive.sync(engine) }
        }
        #expect(await state.requests.count == 4)
        #expect(try Self.savedState(archive).isEmpty)
    }

    @Test func aRefusedStatementRollsTheTransactionBackAndNothingIsVisible() async throws {
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let server = try LocalFalkorDB()
        let state = try Neo4jContractState(socket: server.socket)
        await state.refuse(containing: "SleepSession")
        try await Self.withContractServer(state) { engine in
            do {
                try await archive.sync(engine)
                Issue.record("the sync succeeded")
            } catch let error as GraphSyncError {
                #expect(
                    error.description
                        == "Neo4j at 127.0.0.1 refused a statement (Neo.ClientError.Statement.SyntaxError)")
                #expect(error.exitCode == 74)
            }
        }
        #expect(await state.committed == 0)
        #expect(await state.requests.last?.method == "DELETE")
        #expect(try GraphDump(server.graph()).nodes.isEmpty)
        #expect(try Self.savedState(archive).isEmpty)
    }

    @Test func anExpiredTransactionIsToldAsSuch() async throws {
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let state = try Neo4jContractState(socket: nil)
        await state.expire()
        try await Self.withContractServer(state) { engine in
            await #expect(throws: GraphSyncError.neo4j(.transactionExpired(host: "127.0.0.1"))) {
                try await archive.sync(engine)
            }
        }
        #expect(try Self.savedState(archive).isEmpty)
    }
}
