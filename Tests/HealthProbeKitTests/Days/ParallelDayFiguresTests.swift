import AppleHealthExport
import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A long period's figures, read in parts at once, are each day's own: the same as the days read
/// one by one, whatever the parts (a daily total from the evening before and a night crossing
/// each part's first midnight included).
@Suite("Day figures read in parts")
struct ParallelDayFiguresTests {
    @Test func aPeriodReadInPartsGivesEachDaysOwnFigures() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("export.xml")
        try MultiSourceExport(days: 100).write(to: export)
        let store = try ArchiveStore.open(at: folder.appendingPathComponent("archive.sqlite").path)
        _ = try AppleExportImporter(store: store).importExport(AppleExportReader(url: export))
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        // 2000-03-20 and the hundred days after it, as days since 1970-01-01.
        let days: ClosedRange<Int64> = 11_036...11_135
        let types = try store.fetchOverview().types.map(\.type)
        #expect(ParallelDayFigures.readers(of: days, cores: 4) == 2)
        #expect(ParallelDayFigures.readers(of: 11_036...11_070, cores: 4) == 1)

        let inParts = try ParallelDayFigures.read(store.writer, types: types, days: days, zone: berlin, cores: 4)
        let atOnce = try ParallelDayFigures.read(store.writer, types: types, days: days, zone: berlin, cores: 1)
        var dayByDay: [DayFigure] = []
        for day in days { dayByDay += try store.dayFigures(types: types, days: day...day, zone: berlin) }
        #expect(inParts.count > 400)
        #expect(inParts == atOnce)
        #expect(inParts.count == dayByDay.count)
        for (part, single) in zip(inParts, dayByDay) where part != single {
            Issue.record("day \(part.day) \(part.type): in parts \(part), alone \(single)")
            break
        }

        // Handed over as read, a window at a time, in order: the same figures.
        var batches: [[DayFigure]] = []
        try ParallelDayFigures.stream(store.writer, types: types, days: days, zone: berlin, cores: 4) {
            batches.append($0)
        }
        #expect(batches.count == 2)
        #expect(batches.flatMap { $0 } == inParts)
        #expect(batches.allSatisfy { batch in batch.map(\.day).max()! - batch.map(\.day).min()! < 64 })

        // A reader of the figures that fails (a closed pipe) ends the reading with its error.
        struct Stop: Error {}
        var handed = 0
        #expect(throws: Stop.self) {
            try ParallelDayFigures.stream(store.writer, types: types, days: days, zone: berlin, cores: 4) { _ in
                handed += 1
                throw Stop()
            }
        }
        #expect(handed == 1)
        // …and leaves the readers free for the next question.
        #expect(try ParallelDayFigures.read(store.writer, types: types, days: days, zone: berlin, cores: 4) == inParts)
    }
}
