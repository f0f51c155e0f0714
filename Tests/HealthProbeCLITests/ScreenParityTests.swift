import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import HealthProbeSimulation
import TestSupport
import Testing

/// The screens show what the command line reports for the same archive.
@Suite("Screens and the command line agree")
struct ScreenParityTests {
    @Test func theScreensShowWhatTheCommandLineReports() throws {
        let archive = try AuditedArchive()
        let status = try json(["status", "--json", "--archive", archive.path]) as? [String: Any]
        let anomalies = try json(["anomalies", "--json", "--archive", archive.path]) as? [[String: Any]]
        let audit = try CommandRunner.run(["audit", "--json", "--archive", archive.path])
        let store = try archive.open()

        let dashboard = try DashboardState.load(from: store, format: .utc)
        #expect(dashboard.status.label == status?["status"] as? String)
        let lastCapture = status?["lastCapture"] as? [String: Any]
        #expect(dashboard.recordsTracked == lastCapture?["records"] as? Int)
        #expect(dashboard.openAnomalies == anomalies?.count)

        let list = try AnomalyListState.load(from: store, format: .utc)
        #expect(list.rows.map(\.id) == anomalies?.compactMap { ($0["id"] as? Int).map(Int64.init) }.reversed())
        #expect(list.rows.map(\.summary) == anomalies?.compactMap { $0["summary"] as? String }.reversed())

        let archiveStatus = try ArchiveStatusState.load(
            from: store, sync: ContextMonitor(store: store), path: archive.path, format: .utc)
        #expect(archiveStatus.integrity == status?["integrity"] as? String)
        #expect(archiveStatus.captures == status?["captures"] as? Int)
        let types = (status?["types"] as? [[String: Any]])?.compactMap { $0["type"] as? String }
        #expect(archiveStatus.types.map(\.type).sorted() == types)

        let exported = try AuditTrailState.exportJSON(from: store)
        #expect(String(decoding: exported, as: UTF8.self) + "\n" == audit.stdout)
    }

    @Test func theAlertThresholdIsCheckFailOnsDefault() throws {
        let archive = try AuditedArchive(records: 600)
        var lossy = SyntheticExportOptions(elementCount: 600, seed: 7, omitEveryNth: 5)
        lossy.incidents = []
        let export = try archive.writeExport(named: "third.xml", lossy)
        let set = try CommandRunner.run(["settings", "--alert-threshold", "warning", "--archive", archive.path])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("Alert threshold  warning"))
        let checked = try CommandRunner.run(["check", export.path, "--archive", archive.path])
        #expect(checked.status == 3, "a check that finds a warning fails at the chosen threshold: \(checked.stdout)")
        let again = try archive.writeExport(
            named: "fourth.xml", SyntheticExportOptions(elementCount: 600, seed: 7, omitEveryNth: 3))
        let optedOut = try CommandRunner.run(["check", again.path, "--archive", archive.path, "--fail-on", "none"])
        #expect(optedOut.status == 0, "\(optedOut.stderr)")
    }

    @Test func settingsAreReadAndChangedFromTheCommandLine() throws {
        let archive = try AuditedArchive(records: 300)
        let changed = try CommandRunner.run([
            "settings", "--check-every", "2h", "--monitor", "StepCount,heart rate", "--json", "--archive", archive.path,
        ])
        #expect(changed.status == 0, "\(changed.stderr)")
        let settings = try archive.open().fetchSettings()
        #expect(settings.checkFrequency == .every2Hours)
        #expect(settings.monitoredTypes == ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"])
        let unknown = try CommandRunner.run(["settings", "--monitor", "Sneezes", "--archive", archive.path])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("Sneezes is not a type HealthProbe monitors"))
        let unconfirmed = try CommandRunner.run(["settings", "--delete-all-audit-data", "--archive", archive.path])
        #expect(unconfirmed.status == 64)
        #expect(try archive.open().fetchOverview().captures == 2, "nothing is deleted without --yes")
        let deleted = try CommandRunner.run(["settings", "--delete-all-audit-data", "--yes", "--archive", archive.path])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try archive.open().fetchOverview().captures == 0)
    }

    private func json(_ arguments: [String]) throws -> Any {
        let outcome = try CommandRunner.run(arguments)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
    }
}
