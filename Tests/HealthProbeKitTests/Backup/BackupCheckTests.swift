import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A backup's Health database checked against exports and other backups: the same samples are
/// the same records whichever way they came in; what vanished is a silent deletion, what the user
/// deleted is an audit entry with its date; what only an export holds is carried, not judged.
@Suite("Backup checks")
struct BackupCheckTests {
    static let password = "Test password 2000"
    /// 2000-01-26 12:00 UTC, eleven hours after the baseline's export: when the deletions were
    /// made. (A backup taken days after the data stops is rightly a divergence.)
    static let deletedAt = 948_888_000.0

    /// How a test hands the database over (the issue's forms a, b and c).
    enum Form: String, CaseIterable, CustomTestStringConvertible {
        case file, folder, encryptedBackup
        var testDescription: String { rawValue }
    }

    struct Scene {
        let folder: URL
        let store: ArchiveStore
        let archivePath: String

        init() throws {
            folder = try FixtureFiles.temporaryFolder()
            archivePath = folder.appendingPathComponent("archive.sqlite").path
            store = try ArchiveStore.open(at: archivePath)
        }

        func checkExport(_ data: PairedHealthData, named name: String = "export.xml") throws -> CaptureSummary {
            let file = folder.appendingPathComponent(name)
            try data.writeExport(to: file)
            return try ArchiveCheck.open(file.path, archivePath: archivePath).run(into: store).capture
        }

        func checkBackup(
            _ data: PairedHealthData, form: Form = .file, named name: String = "backup",
            layout: HealthDatabaseFixture.Layout = .iOS13
        ) throws -> CheckResult {
            let health = folder.appendingPathComponent(name)
            try data.writeDatabase(to: health, layout: layout)
            let path: String
            switch form {
            case .file: path = health.appendingPathComponent(HealthDatabaseReader.secureName).path
            case .folder: path = health.path
            case .encryptedBackup:
                let backup = folder.appendingPathComponent("\(name)-encrypted")
                try EncryptedBackupFixture.write(healthFolder: health, to: backup, password: BackupCheckTests.password)
                path = backup.path
            }
            return try ArchiveCheck.open(path, archivePath: archivePath) { Array(BackupCheckTests.password.utf8) }
                .run(into: store)
        }
    }

    @Test func anExportThenABackupOfTheSameDataFindNothingNewNothingGone() throws {
        let scene = try Scene()
        let data = PairedHealthData.baseline()
        let export = try scene.checkExport(data)
        let backup = try scene.checkBackup(data)
        #expect(backup.capture.origin == .backup)
        #expect(backup.capture.previousCaptureId == export.id)
        #expect(backup.capture.records == data.samples.count)
        #expect((backup.capture.new, backup.capture.gone, backup.capture.unchanged) == (0, 0, data.samples.count))
        #expect(backup.anomalies.isEmpty)
        #expect(backup.capture.deletedInHealth == 0)
        // The activity summary and the blood-pressure correlation only an export holds.
        #expect(backup.capture.notCompared == 2)

        // A second backup meets every sample by its UUID; the export after it, every record.
        let again = try scene.checkBackup(data, named: "backup-again")
        #expect((again.capture.new, again.capture.gone, again.anomalies.count) == (0, 0, 0))
        let exportAgain = try scene.checkExport(data, named: "export-again.xml")
        #expect((exportAgain.new, exportAgain.gone) == (0, 0))
        #expect(try scene.store.fetchAnomalies(.init(includeResolved: true)).isEmpty)
    }

    @Test(arguments: Form.allCases)
    func vanishedDeletedAndNewSamplesAreToldApart(form: Form) throws {
        let scene = try Scene()
        let before = PairedHealthData.baseline()
        _ = try scene.checkExport(before)
        let after = before.withVanishedDeletedAndNew(deletedAt: Self.deletedAt)
        let result = try scene.checkBackup(after, form: form, layout: form == .folder ? .iOS17 : .iOS13)

        #expect(result.capture.new == 15)
        #expect(result.capture.gone == 50)
        #expect(result.capture.deletedInHealth == 20)
        #expect(result.anomalies.map(\.type) == [.silentDeletion])
        #expect(result.anomalies.first?.sampleType == PairedHealthData.heartRate)
        #expect(result.anomalies.first?.recordCount == 30)
        #expect(
            result.deletions == [
                BackupImporter.Deletion(sampleType: PairedHealthData.steps, day: "2000-01-26", count: 20)
            ])
        let entries = try scene.store.fetchAuditEntries().map(\.message)
        #expect(
            entries.contains {
                $0.hasSuffix(
                    "20 \(PairedHealthData.steps) records deleted in Health on 2000-01-26 (the backup's deletion records)"
                )
            })
        let reasons = try scene.store.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT goneReason, COUNT(*) AS n FROM record WHERE goneCapture = ? GROUP BY goneReason",
                arguments: [result.capture.id]
            ).map { "\($0["goneReason"] as String) \($0["n"] as Int)" }
        }
        #expect(reasons.sorted() == ["absent 30", "deleted 20"])

        // An export of the same data afterwards: the backup's new samples are the export's.
        let export = try scene.checkExport(after, named: "after.xml")
        #expect((export.new, export.gone) == (0, 0))
        #expect(try scene.store.fetchAnomalies(.init(includeResolved: true)).count == 1)
    }

    @Test func anExportAfterAFirstBackupMeetsWhatTheBackupDescribed() throws {
        let scene = try Scene()
        let data = PairedHealthData.baseline()
        let backup = try scene.checkBackup(data)
        #expect(backup.capture.new == data.samples.count)
        let export = try scene.checkExport(data)
        // Only what a database does not hold is new — the correlation and the activity summary —
        // and, never in a backup, it is no backfill.
        #expect((export.new, export.gone) == (2, 0))
        #expect(try scene.store.fetchAnomalies(.init(includeResolved: true)).isEmpty)
    }

    @Test func theIndexFindsEveryKeyAndPairsCopiesOffOneByOne() {
        var builder = SampleMatchIndex.Builder()
        var random = SystemRandomNumberGenerator()
        let keys = (0..<50_000).map { _ in random.next() as UInt64 }
        for (offset, key) in keys.enumerated() { builder.add(Int64(offset) + 10, keys: [key]) }
        builder.add(1, keys: [7])
        builder.add(2, keys: [7])
        var index = builder.build()
        #expect(index.remaining == 50_002)
        for (offset, key) in keys.enumerated().shuffled() { #expect(index.take([key]) == Int64(offset) + 10) }
        #expect(index.take([7]) == 1)
        #expect(index.first(7) == 1)
        #expect(index.take([7]) == 2)
        #expect(index.take([7]) == nil)
        #expect(index.isEmpty)
    }

    @Test func aBackupAfterABackupTellsTheSameThingsByUUID() throws {
        let scene = try Scene()
        let before = PairedHealthData.baseline()
        _ = try scene.checkBackup(before)
        let after = before.withVanishedDeletedAndNew(deletedAt: Self.deletedAt)
        let result = try scene.checkBackup(after, named: "second")
        #expect((result.capture.new, result.capture.gone, result.capture.deletedInHealth) == (15, 50, 20))
        #expect(result.anomalies.map(\.type) == [.silentDeletion])
        #expect(result.anomalies.first?.recordCount == 30)
    }

    @Test func aBadDatabaseOrAWrongPasswordLeavesTheArchiveAsItWas() throws {
        let scene = try Scene()
        let data = PairedHealthData.baseline(days: 3)
        _ = try scene.checkExport(data)
        let before = try scene.store.footprint()
        let notHealth = scene.folder.appendingPathComponent("notes.sqlite")
        let queue = try DatabaseQueue(path: notHealth.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try queue.close()
        let health = scene.folder.appendingPathComponent("health")
        try data.writeDatabase(to: health)
        let backup = scene.folder.appendingPathComponent("00008101-TESTDEVICE01")
        try EncryptedBackupFixture.write(healthFolder: health, to: backup, password: Self.password)
        let refusals: [(String, String)] = [
            (notHealth.path, "notes.sqlite is not an iPhone Health database: it has no samples table"),
            (backup.path, "00008101-TESTDEVICE01: the backup's password is not right"),
        ]
        for (path, message) in refusals {
            do {
                _ = try ArchiveCheck.open(path, archivePath: scene.archivePath) { Array("not it".utf8) }
                Issue.record("\(message): not refused")
            } catch {
                #expect(error.isRefusedInput)
                #expect(error.localizedDescription.hasPrefix(message))
            }
        }
        #expect(try scene.store.footprint() == before)
        #expect(
            try scene.store.fetchAuditEntries().filter { $0.event == AuditLog.Event.inputRefused.rawValue }.count == 2)
    }

    @Test func anExportInPoundsAndKilometresMeetsTheDatabasesKilogramsAndMetres() {
        let pounds = SampleMatchKey.Content(
            type: "HKQuantityTypeIdentifierBodyMass", sourceName: "Scale", unit: "lb", value: "150",
            numericValue: 150, startDate: 946_684_800, endDate: 946_684_800)
        var kilograms = pounds
        kilograms.unit = "kg"
        kilograms.numericValue = 150 * 0.453_592_37
        kilograms.startDate = 946_684_800.6
        kilograms.endDate = 946_684_800.6
        let exported = SampleMatchKey.keys(pounds, includingSource: true)
        let stored = SampleMatchKey.keys(kilograms, includingSource: true)
        #expect(stored.count == 2, "a fraction past the half has a truncated and a rounded key")
        #expect(exported.first == stored.first)
        var heavier = kilograms
        heavier.numericValue = 151 * 0.453_592_37
        #expect(SampleMatchKey.keys(heavier, includingSource: true).first != exported.first)
    }
}

/// healthd's own deletions: heart-rate samples packed into a series sample that still covers
/// them are not a loss.
@Suite("Backup checks: series housekeeping")
struct BackupHousekeepingTests {
    @Test func samplesPackedIntoASeriesAreReplacedNotLost() throws {
        let scene = try BackupCheckTests.Scene()
        let data = PairedHealthData.baseline()
        _ = try scene.checkExport(data)
        var packed = data
        let gone = packed.vanish(PairedHealthData.heartRate, count: 5)
        var rows = packed.databaseRows
        var series = HealthDatabaseFixture.Sample(
            type: PairedHealthData.heartRate, start: gone.map(\.start).min()! - 1, end: gone.map(\.end).max()! + 1,
            value: 1.1)
        series.isSeries = true
        rows.append(series)
        let tombstones = gone.map { sample in
            var tombstone = HealthDatabaseFixture.Tombstone(
                type: sample.type, start: sample.start, end: sample.end, deletedAt: data.exportDate + 600)
            tombstone.uuid = sample.uuid
            return tombstone
        }
        let health = scene.folder.appendingPathComponent("packed")
        try FileManager.default.createDirectory(at: health, withIntermediateDirectories: true)
        try HealthDatabaseFixture.write(
            to: health, sources: PairedHealthData.sources, samples: rows, tombstones: tombstones)
        let result = try ArchiveCheck.open(health.path, archivePath: scene.archivePath).run(into: scene.store)
        #expect(result.housekeepingDeletions == 5)
        #expect((result.capture.new, result.capture.gone, result.capture.deletedInHealth) == (1, 5, 0))
        #expect(result.anomalies.isEmpty)
        let reasons = try scene.store.writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT goneReason FROM record WHERE goneCapture = ?", arguments: [result.capture.id])
        }
        #expect(reasons == Array(repeating: "replaced", count: 5))
        #expect(try scene.store.fetchAuditEntries().contains { $0.message.contains("packed by Health into series") })
    }
}
