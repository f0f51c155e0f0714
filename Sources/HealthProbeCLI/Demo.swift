import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation

extension HealthProbeCommand {
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Watch HealthProbe at work on a simulated iPhone: daily checks, real-world incidents, what it finds.",
            discussion: """
                No set-up: a simulated Health store with two months of synthetic data is checked once \
                a day while things go wrong with it. The archive is temporary and removed at the end \
                unless --keep names a file; nothing is written in the working directory.
                """)

        @Flag(help: "Print {\"checks\": [{\"capture\": {...}, \"anomalies\": [...]}, ...]} instead of the story.")
        var json = false

        @Option(help: "How many daily checks to run (1–365); the incidents happen on days 3 to 27.")
        var days = 30

        @Option(help: "Keep the demo's archive in this new file instead of removing it.")
        var keep: String?

        func validate() throws {
            guard (1...365).contains(days) else { throw ValidationError("--days must be between 1 and 365.") }
            if let keep {
                let url = URL(fileURLWithPath: keep)
                let folder = url.deletingLastPathComponent().path
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
                    FileManager.default.isWritableFile(atPath: folder)
                else {
                    throw ValidationError("--keep \(keep): the folder \(folder) does not exist or cannot be written.")
                }
                guard !FileManager.default.fileExists(atPath: url.path) else {
                    throw ValidationError("--keep \(keep): the file exists already; name a new one.")
                }
            }
        }

        func run() async throws {
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
                "healthprobe-demo-\(UUID().uuidString)", isDirectory: true)
            let path = keep ?? temporary.appendingPathComponent("archive.sqlite").path
            defer { try? FileManager.default.removeItem(at: temporary) }
            let store = try ArchiveStore.open(at: path)
            let scenario = DemoScenario(days: days)
            let narration = DemoNarration(scenario: scenario, json: json)
            narration.begin()
            let checks = try await scenario.run(store: store) { check in narration.tell(check) }
            if json {
                try Output.json(DemoReport(checks: checks.map(DemoReport.Check.init)))
            } else {
                narration.end(checks, keptAt: keep)
            }
        }
    }
}

/// `demo --json`.
struct DemoReport: Encodable {
    var checks: [Check]

    struct Check: Encodable {
        var day: Int
        var date: String
        var happened: [String]
        var trigger: String
        var kind: String
        var status: String
        var statusMessage: String
        var verified: Bool
        var explicitDeletions: Int
        var updates: Int
        var capture: CaptureSummary?
        var anomalies: [Anomaly]

        init(_ check: DemoScenario.Check) {
            day = check.day
            date = check.date
            happened = check.happened
            trigger = check.trigger
            kind = check.outcome.kind.rawValue
            status = check.outcome.status.label
            statusMessage = check.outcome.status.message
            verified = check.outcome.verified
            explicitDeletions = check.outcome.explicitDeletions
            updates = check.outcome.updates
            capture = check.outcome.capture
            anomalies = check.outcome.anomalies
        }
    }
}
