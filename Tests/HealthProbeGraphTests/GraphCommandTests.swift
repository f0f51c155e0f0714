import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import HealthProbeGraph

/// `healthprobe graph sync` and `graph status` as a user runs them, against a real FalkorDB.
@Suite("healthprobe graph")
struct GraphCommandTests {
    static func schema(_ path: String) throws -> String {
        try ArchiveInspection.text(
            path, "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master ORDER BY name)")
            ?? ""
    }

    @Test func aSyncWritesWhatAnIndependentCountOfTheArchiveSaysAndASecondWritesNothing() throws {
        let server = try LocalFalkorDB()
        let archive = try AuditedArchive()
        let to = "falkordb://\(server.socket)?graph=cli"
        let first = try CommandRunner.run([
            "graph", "sync", "--to", to, "--time-zone", "UTC", "--archive", archive.path,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Graph sync 1 to falkordb://\(server.socket) (graph cli): "))

        // Independently: the UTC days of the present records the graph reads.
        let types = SummaryMetric.sampleTypes.map { "'\($0)'" }.joined(separator: ", ")
        let relevant = "(kind IN ('workout', 'activitySummary') OR (kind = 'record' AND type IN (\(types))))"
        let dataDays = try ArchiveInspection.scalar(
            archive.path,
            """
            SELECT COUNT(*) FROM (
                SELECT date(startDate, 'unixepoch') FROM record
                WHERE goneCapture IS NULL AND kind <> 'activitySummary' AND \(relevant)
                UNION SELECT json_extract(details, '$.day') FROM record
                WHERE goneCapture IS NULL AND kind = 'activitySummary')
            """)
        let workouts = try ArchiveInspection.scalar(
            archive.path,
            "SELECT COUNT(DISTINCT semanticKey) FROM record WHERE goneCapture IS NULL AND kind = 'workout'")
        let anomalies = try ArchiveInspection.scalar(archive.path, "SELECT COUNT(*) FROM anomaly")
        let graph = try server.graph("cli")
        func count(_ query: String) throws -> Int {
            if case .integer(let value)? = try graph.run(query).rows.first?.first { return Int(value) }
            return -1
        }
        #expect(dataDays >= 4)
        #expect(try count("MATCH (d:Day)-[:HAS_SUMMARY]->(:DailySummary) RETURN count(d)") == dataDays)
        #expect(try count("MATCH (s:DailySummary) RETURN count(s)") == dataDays)
        #expect(try count("MATCH (:Day)-[r:NEXT_DAY]->(:Day) RETURN count(r)") == dataDays - 1)
        #expect(try count("MATCH (w:Workout)-[:ON_DAY]->(:Day) RETURN count(w)") == workouts)
        #expect(try count("MATCH (a:Anomaly)-[:OF_TYPE]->(:MetricType) RETURN count(a)") == anomalies)
        #expect(try count("MATCH (s:Sync) RETURN count(s)") == 1)

        let again = try CommandRunner.run([
            "graph", "sync", "--to", to, "--time-zone", "UTC", "--archive", archive.path,
        ])
        #expect(again.status == 0)
        #expect(
            again.stdout == "The graph at falkordb://\(server.socket) (graph cli) is up to date: nothing to write.\n")
        let status = try CommandRunner.run(["graph", "status", "--archive", archive.path])
        #expect(status.stdout.contains("last sync 1 at "))
        #expect(status.stdout.contains("days cut in GMT"))  // Foundation's name for UTC
        #expect(status.stdout.contains("  up to date"))
    }

    @Test func aDryRunSaysWhatWouldBeWrittenByLabelAndSendsNothing() throws {
        let server = try LocalFalkorDB()
        let archive = try AuditedArchive()
        let dry = try CommandRunner.run([
            "graph", "sync", "--to", "falkordb://\(server.socket)", "--dry-run", "--json", "--time-zone", "UTC",
            "--archive", archive.path,
        ])
        #expect(dry.status == 0, "\(dry.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
        let nodes = try #require(object["nodes"] as? [String: Int])
        #expect(nodes["Day"] == object["daysWritten"] as? Int)
        #expect(nodes["Anomaly"] == (try ArchiveInspection.scalar(archive.path, "SELECT COUNT(*) FROM anomaly")))
        #expect((object["relationships"] as? [String: Int])?["HAS_SUMMARY"] == object["daysWritten"] as? Int)
        #expect(object["first"] as? Bool == true)
        // Names and counts only: no value, no source name.
        #expect(!dry.stdout.contains("Test User"))
        #expect(!dry.stdout.contains("iPhone"))
        #expect(try GraphDump(server.graph()).nodes.isEmpty)
        let text = try CommandRunner.run([
            "graph", "sync", "--to", "falkordb://\(server.socket)", "--dry-run", "--archive", archive.path,
        ])
        #expect(text.stdout.hasPrefix("Dry run: graph sync 1 to "))
        #expect(text.stdout.hasSuffix("Nothing was sent.\n"))
    }

    @Test func statusAndADryRunLeaveTheArchiveByteIdentical() throws {
        let server = try LocalFalkorDB()
        let archive = try AuditedArchive()
        let to = "falkordb://\(server.socket)?graph=bytes"
        #expect(try CommandRunner.run(["graph", "sync", "--to", to, "--archive", archive.path]).status == 0)
        #expect(
            try CommandRunner.run([
                "check", archive.folder.appendingPathComponent("first.xml").path, "--archive", archive.path,
            ]).status == 0)
        let before = try ArchiveInspection.bytes(archive.path)
        let status = try CommandRunner.run(["graph", "status", "--archive", archive.path])
        #expect(status.status == 0)
        #expect(!status.stdout.contains("up to date"), "the second check left nothing pending")
        #expect(
            try CommandRunner.run(["graph", "sync", "--to", to, "--dry-run", "--archive", archive.path]).status == 0)
        #expect(
            try CommandRunner.run(["graph", "sync", "--to", to, "--dry-run", "--full", "--archive", archive.path])
                .status == 0)
        #expect(try ArchiveInspection.bytes(archive.path) == before)
    }

    @Test func badDestinationsAreRefusedInOneLineAndTheArchiveIsUntouched() async throws {
        let archive = try AuditedArchive()
        let digest = try ArchiveInspection.digest(archive.path)
        let schema = try Self.schema(archive.path)
        let bytes = try ArchiveInspection.bytes(archive.path)
        let cases: [([String], Int32, String)] = [
            (["--to", "ftp://example.com"], 64, "ftp:// is not a graph destination"),
            (["--to", "http://example.com:7474"], 64, "plain HTTP goes to this machine only"),
            // Names that only look like this machine are looked up in DNS and may point anywhere.
            (["--to", "http://127.example.com"], 64, "plain HTTP goes to this machine only"),
            (["--to", "http://127.0.0.1.nip.io:7474"], 64, "plain HTTP goes to this machine only"),
            (
                ["--to", "https://neo4j:secret@example.com"], 64,
                "give it in HEALTHPROBE_GRAPH_PASSWORD or with --password-file"
            ),
            (["--to", "neo4j://example.com"], 64, "the Bolt protocol"),
            (["--to", "https://neo4j:secret@example.com"], 64, "the URL holds a password"),
            (["--to", "falkordb://example.com:6379"], 64, "FalkorDB is reached on this machine only"),
            (
                ["--to", "falkordb:///nonexistent/falkordb.sock"], 74,
                "falkordb:///nonexistent/falkordb.sock (graph health): FalkorDB cannot be reached"
            ),
            (["--to", "falkordb:///tmp/x.sock", "--time-zone", "Mars/Olympus"], 64, "is not a time zone name"),
            (["--to", "https://127.0.0.1:9"], 64, "Neo4j needs a password"),
        ]
        for (arguments, status, message) in cases {
            let outcome = try CommandRunner.run(["graph", "sync"] + arguments + ["--archive", archive.path])
            #expect(outcome.status == status, "\(arguments)")
            #expect(outcome.stderr.hasPrefix("healthprobe: "), "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(arguments)")
            #expect(!outcome.stderr.contains("secret"))
        }
        // Neo4j that refuses the password: exit 74, the host named, nothing written anywhere.
        let state = try Neo4jContractState(socket: nil)
        let app = Application(router: Neo4jContractServer.router(state))
        try await app.test(.live) { client in
            let outcome = try await CommandRunner.runApart(
                ["graph", "sync", "--to", "http://127.0.0.1:\(client.port ?? 0)", "--archive", archive.path],
                environment: ["HEALTHPROBE_GRAPH_PASSWORD": "wrong-password"])
            #expect(outcome.status == 74)
            #expect(outcome.stderr == "healthprobe: Neo4j refused the credentials for 127.0.0.1\n")
        }
        #expect(try ArchiveInspection.digest(archive.path) == digest)
        #expect(try Self.schema(archive.path) == schema)
        #expect(try ArchiveInspection.bytes(archive.path) == bytes)
    }
}
