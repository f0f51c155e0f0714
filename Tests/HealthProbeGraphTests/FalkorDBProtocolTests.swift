import Foundation
import Testing

@testable import HealthProbeGraph

/// The Redis-protocol client and FalkorDB's answers, against a real server.
@Suite("FalkorDB over the Redis protocol")
struct FalkorDBProtocolTests {
    @Test func parametersRoundTripAndAMergeRepeatedChangesNothing() throws {
        let server = try LocalFalkorDB()
        let graph = try server.graph()
        let awkward = "Test User\u{2019}s \"Watch\" \\ O'Brien\nline two 🫀"
        let rows: CypherValue = .list([
            .map([("date", .string("2000-01-01")), ("steps", .integer(1_234)), ("name", .string(awkward))]),
            .map([("date", .string("2000-01-02")), ("steps", .float(0.5)), ("name", .null)]),
        ])
        let statement = """
            UNWIND $rows AS row
            MERGE (d:Day {date: date(row.date)})
            SET d.steps = row.steps, d.name = row.name
            """
        let first = try graph.run(statement, ["rows": rows])
        #expect(first.counters.nodesCreated == 2)
        #expect(first.counters.propertiesSet == 5)
        let again = try graph.run(statement, ["rows": rows])
        #expect(again.counters.nodesCreated == 0)

        let read = try graph.run(
            "MATCH (d:Day) RETURN toString(d.date), d.steps, d.name ORDER BY d.date")
        #expect(read.columns.count == 3)
        #expect(read.rows.count == 2)
        #expect(read.rows[0][0].text == "2000-01-01")
        #expect(read.rows[0][1] == .integer(1_234))
        #expect(read.rows[0][2].text == awkward)
        #expect(read.rows[1][2] == .bulk(nil) || read.rows[1][2] == .array(nil))
    }

    @Test func aStatementFalkorDBRefusesIsAServerError() throws {
        let server = try LocalFalkorDB()
        let graph = try server.graph()
        #expect(throws: RESPError.self) { try graph.run("RETURN datetime()") }
        // The connection stays usable after an error reply.
        #expect(try graph.run("RETURN 1").rows.first?.first == .integer(1))
    }

    @Test func aMissingSocketCannotConnect() {
        #expect(throws: RESPError.self) {
            try FalkorDBGraph(.unixSocket("/nonexistent/falkordb.sock"), graph: "g")
        }
    }

    @Test func literalsAreCypher() {
        #expect(CypherValue.float(2).literal == "2.0")
        #expect(CypherValue.float(.nan).literal == "null")
        #expect(CypherValue.string("a'b\\c").literal == "'a\\'b\\\\c'")
        #expect(CypherValue.map([("a b", .integer(1))]).literal == "{`a b`: 1}")
    }

    @Test func aRefusedStatementIsToldInOneShortLineWithoutTheStatement() async throws {
        let server = try LocalFalkorDB()
        let engine = FalkorDBEngine(endpoint: .unixSocket(server.socket), graph: "g", destination: "test")
        let unit = try await engine.begin()
        do {
            _ = try await unit.run("UNWIND $rows AS row RETURN row.v +", ["rows": .list([.map([("v", .float(72.5))])])])
            Issue.record("FalkorDB took a broken statement")
        } catch RESPError.server(let message) {
            #expect(message.hasPrefix("FalkorDB refused a statement: Invalid input at end of input"))
            #expect(!message.contains("UNWIND"))
            #expect(!message.contains("72.5"))
        }
    }
}
