import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The whole way round: an export loses records, the check proves it, the restore file holds
/// them, the phone writes them back, and the next export — the loss's own, with what HealthProbe
/// wrote as the Health app exports it — shows the loss restored, nothing new to the person, the
/// days as they were before the loss; a second restore has nothing to put back.
@Suite("Restore: end to end through the next export")
struct RestoreEndToEndTests {
    @Test func aLossPutBackIsKnownAgainAndNotPutBackTwice() async throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let whole = SyntheticExportOptions(elementCount: 3_000, seed: 4)
        var lossy = whole
        lossy.omitEveryNth = 25
        _ = try support.check(try support.generate("whole.xml", whole), in: store)
        let file = RestoreFile(
            try store.lostRecords(
                capture: try support.check(
                    try support.generate("lossy.xml", lossy), in: store
                ).capture.id))
        #expect(file.records.count > 100)
        let zone = TimeZone(identifier: "UTC")!
        let types = Array(Set(file.records.map(\.type))).sorted()
        let days = Set(
            file.records.compactMap { UTCText.parseISO8601($0.startDate) }.map { Int64(($0 / 86_400).rounded(.down)) })
        let range = try #require(days.min())...(try #require(days.max()))
        // The days as they were before the loss: the whole export alone, in an archive of its own.
        let reference = try ArchiveStore.open(at: support.folder.appendingPathComponent("reference.sqlite").path)
        _ = try support.check(support.folder.appendingPathComponent("whole.xml"), in: reference)
        let beforeLoss = try reference.dayFigures(types: types, days: range, zone: zone)
        #expect(try store.dayFigures(types: types, days: range, zone: zone).map(\.value) != beforeLoss.map(\.value))

        // The phone puts them back; the next export holds the loss's records and HealthProbe's.
        let phone = SimulatedHealthStore()
        let applied = try await RestoreApplier(file).apply(to: phone)
        #expect(applied.written == file.records.count)
        var later = lossy
        later.exportDate = whole.firstDay * 86_400 + Int64(whole.elementCount) * whole.spacingSeconds + 3 * 86_400
        let next = try support.generate("next.xml", later)
        let text = try String(contentsOf: next, encoding: .utf8)
        let written = await phone.exportRecordText(
            source: SimulatedHealthStore.healthProbeSource, writtenAt: Double(later.exportDate ?? 0))
        try text.replacingOccurrences(of: "</HealthData>", with: written + "</HealthData>")
            .write(to: next, atomically: true, encoding: .utf8)

        let third = try support.check(next, in: store)
        #expect(third.capture.restored == file.records.count)
        #expect(third.capture.new == file.records.count, "nothing new but what was put back")
        #expect(third.audit.anomalies.filter { $0.type == .historicalInsertion }.isEmpty, "\(third.audit.anomalies)")
        #expect(third.audit.anomalies.filter { $0.type == .silentDeletion }.isEmpty)
        // Each loss whose every record was written back is restored, no longer open; one of what
        // this version does not write (a workout) stays open.
        let putBack = Dictionary(grouping: file.records, by: \.anomaly).mapValues(\.count)
        let losses = try store.fetchAnomalies(ArchiveStore.AnomalyFilter(includeResolved: true)).filter {
            file.anomalies.contains($0.id)
        }
        for loss in losses {
            #expect(loss.restoredCount == putBack[loss.id] ?? 0, "\(loss.status)")
            if loss.restoredCount == loss.recordCount {
                #expect(loss.restored && !loss.isOpen)
                #expect(loss.status == "restored: \(loss.recordCount) of \(loss.recordCount) put back since capture 3")
            } else {
                #expect(loss.isOpen && loss.status.hasPrefix("open"), "\(loss.status)")
            }
        }
        #expect(losses.filter(\.restored).count == putBack.count)
        #expect(losses.contains { $0.isOpen }, "a workout's loss stays open")

        // The days count each put-back record once, as they did before the loss.
        let restoredDays = try store.dayFigures(types: types, days: range, zone: zone)
        #expect(restoredDays.count == beforeLoss.count)
        for (restored, before) in zip(restoredDays, beforeLoss) {
            #expect(abs(restored.value - before.value) <= 1e-9 * max(1, abs(before.value)), "\(before.type)")
        }

        // The capture that showed them set aside, the losses are open again and theirs to put
        // back; taken back, restored as before.
        let statuses = try store.fetchAnomalies(.init(includeResolved: true)).map(\.status)
        try store.setCaptureAside(third.capture.id, reason: "Test reason")
        #expect(try store.lostRecords(capture: 2).records.count == file.records.count)
        #expect(try store.fetchAnomalies(.init(includeResolved: true)).filter(\.restored).isEmpty)
        try store.includeCapture(third.capture.id)
        #expect(try store.fetchAnomalies(.init(includeResolved: true)).map(\.status) == statuses)

        // Nothing is left to put back, and a file of nothing is refused.
        let again = try store.lostRecords(capture: 2)
        #expect(again.records.isEmpty && again.restored == file.records.count)
        #expect(throws: RestoreWriteFailure.self) {
            try store.writeRestoreFile(
                RestoreRequest(
                    target: .capture(2), outputPath: support.folder.appendingPathComponent("again.json").path))
        }
        #expect(!FileManager.default.fileExists(atPath: support.folder.appendingPathComponent("again.json").path))
    }
}
