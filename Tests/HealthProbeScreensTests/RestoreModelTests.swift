import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeScreens

/// The phone's restore: from an anomaly's detail and from a file opened with the app, into the
/// simulated store as HealthKit takes an app's writes.
@Suite("Restore screen")
@MainActor
struct RestoreModelTests {
    /// A loss of the audited archive whose detail offers to put records back.
    static func loss(_ store: ArchiveStore) throws -> (id: Int64, title: String) {
        for anomaly in try store.fetchAnomalies() where anomaly.type == .silentDeletion {
            if let title = try AnomalyDetailState.load(from: store, id: anomaly.id, format: .utc)?.restoreTitle {
                return (anomaly.id, title)
            }
        }
        throw RestoreFileRefusal.notARestoreFile
    }

    @Test func theDetailsButtonWritesWhatItSaysOnceAndTheTrailKeepsTheCounts() async throws {
        let archive = try AuditedArchive()
        let store = try archive.open()
        let (id, title) = try Self.loss(store)
        let phone = SimulatedHealthStore()
        let model = RestoreModel(archive: store, destination: phone, format: .utc)
        model.prepare(anomalies: [id])
        let plan = try #require(model.plan)
        #expect(model.phase == .ready && model.errorMessage == nil)
        #expect(plan.title == title && title == "Restore \(EvidenceText.grouped(plan.records)) records")
        #expect(!plan.types.isEmpty && plan.types.allSatisfy { $0.contains(": ") && $0.contains("2000-") })
        await model.start()
        #expect(model.phase == .finished && model.done == plan.records && model.total == plan.records)
        #expect(
            model.summary.first == "\(EvidenceText.grouped(plan.records)) records written back into Health, each once.")
        #expect(await phone.everySample().count == plan.records)
        let trail = try store.fetchAuditEntries().map(\.message)
        #expect(
            trail.contains { $0.hasPrefix("restore into Health of anomaly \(id): \(plan.records) written, 0 already") })

        // The same again (the next check has not run yet): nothing is written twice.
        model.prepare(anomalies: [id])
        await model.start()
        #expect(model.summary.contains { $0.hasSuffix("were there already from an earlier restore.") })
        #expect(await phone.everySample().count == plan.records)
    }

    @Test func aFileOpenedWithTheAppAsksItsPasswordAndACancelWritesNothingMore() async throws {
        let archive = try AuditedArchive()
        let store = try archive.open()
        let (id, _) = try Self.loss(store)
        let sealed = archive.folder.appendingPathComponent("restore.json.enc")
        let password = Array("Test Password".utf8)
        _ = try store.writeRestoreFile(
            RestoreRequest(target: .anomalies([id]), outputPath: sealed.path, password: password))
        let phone = SimulatedHealthStore()
        let model = RestoreModel(archive: store, destination: phone, format: .utc)
        model.open(sealed)
        #expect(model.errorMessage == "this restore file is encrypted: give its password" && model.plan == nil)
        #expect(model.needsPassword)
        model.unlock(password: "Wrong Password")
        #expect(model.errorMessage != nil && model.phase == .idle)
        model.unlock(password: "Test Password")
        #expect(model.errorMessage == nil && model.phase == .ready && !model.needsPassword)
        // The app's own copy of a file opened in place is kept while its password is asked, then
        // removed once read; the file opened in place is never touched.
        let copy = archive.folder.appendingPathComponent("copy.json.enc")
        try FileManager.default.copyItem(at: sealed, to: copy)
        model.open(copy, temporaryCopy: true)
        #expect(model.needsPassword && FileManager.default.fileExists(atPath: copy.path))
        model.unlock(password: "Wrong Password")
        #expect(model.needsPassword && FileManager.default.fileExists(atPath: copy.path))
        model.unlock(password: "Test Password")
        #expect(model.phase == .ready && !FileManager.default.fileExists(atPath: copy.path))
        #expect(FileManager.default.fileExists(atPath: sealed.path))
        model.cancel()
        await model.start()
        #expect(model.summary.last == "Stopped: restore again to write the rest; nothing is written twice.")
        #expect(await phone.everySample().isEmpty)

        let notOne = archive.folder.appendingPathComponent("notes.json")
        try Data(#"{"format": "something-else", "version": 1}"#.utf8).write(to: notOne)
        model.open(notOne)
        #expect(model.errorMessage == "this is not a HealthProbe restore file")
        let later = archive.folder.appendingPathComponent("later.json")
        try Data(#"{"format": "healthprobe-restore", "version": 2}"#.utf8).write(to: later)
        model.open(later)
        #expect(model.errorMessage?.contains("version 2, newer than this HealthProbe reads") == true)
    }
}
