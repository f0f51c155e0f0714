import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

/// A loss whose records come back is recovered, not lost: the anomaly says how many are back and
/// since which capture, and once all are, it leaves the open anomalies, the status and the
/// charts' losses — kept in `anomalies --all`, `show` and the trail.
@Suite("Recovered losses", .serialized)
struct RecoveredLossTests {
    @Test func aLossThatComesBackIsRecoveredInEveryFace() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        func export(_ name: String, omitEvery: Int?) throws -> String {
            let url = folder.appendingPathComponent(name)
            try SyntheticExportGenerator(
                options: SyntheticExportOptions(elementCount: 3_000, seed: 5, omitEveryNth: omitEvery)
            ).writeZip(to: url)
            return url.path
        }
        let whole = try export("whole.zip", omitEvery: nil)
        let lossy = try export("lossy.zip", omitEvery: 20)
        let halfBack = try export("half.zip", omitEvery: 40)
        func run(_ arguments: [String]) throws -> CommandRunner.Outcome {
            let outcome = try CommandRunner.run(arguments + ["--archive", archive])
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            return outcome
        }
        _ = try run(["check", whole])
        _ = try run(["check", lossy])
        let losses =
            try JSONSerialization.jsonObject(
                with: Data(try run(["anomalies", "--json", "--type", "silent_deletion"]).stdout.utf8))
            as? [[String: Any]]
        let loss = try #require(losses?.first)
        let id = try #require(loss["id"] as? Int)
        let vanished = try #require(loss["recordCount"] as? Int)
        #expect(vanished > 0)

        // Half of them back: still open, and says how many.
        _ = try run(["check", halfBack, "--allow-older"])
        let partly = try run(["anomalies", "--type", "silent_deletion"]).stdout
        #expect(partly.contains("#\(id)"))
        #expect(partly.contains("back since capture 3)"), "\(partly)")

        // All back: recovered, no longer open anywhere.
        _ = try run(["check", whole, "--allow-older"])
        let open = try run(["anomalies", "--type", "silent_deletion"]).stdout
        #expect(!open.contains("#\(id) "), "\(open)")
        let all = try run(["anomalies", "--all", "--type", "silent_deletion"]).stdout
        #expect(all.contains("#\(id)") && all.contains("(recovered: all \(vanished) back since capture 4)"), "\(all)")
        let shown = try run(["show", String(id)]).stdout
        #expect(shown.contains("Status: recovered: all \(vanished) back since capture 4"), "\(shown)")
        let status =
            try JSONSerialization.jsonObject(with: Data(try run(["status", "--json"]).stdout.utf8)) as? [String: Any]
        let openCounts = status?["openAnomalies"] as? [String: Int] ?? [:]
        let listed =
            try JSONSerialization.jsonObject(
                with: Data(try run(["anomalies", "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        #expect(openCounts.values.reduce(0, +) == listed.count)
        #expect(!listed.contains { $0["id"] as? Int == id })
        let trail = try run(["audit", "--event", "anomaly recovered"]).stdout
        #expect(trail.contains("anomaly \(id) recovered"), "\(trail)")
        #expect(trail.contains("records are back in capture 3"), "\(trail)")
    }
}
