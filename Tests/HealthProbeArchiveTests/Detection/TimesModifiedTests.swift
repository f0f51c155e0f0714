import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive

/// A record whose start or end moved, its type, source and value kept, is one record edited —
/// an app re-analysing a night, HealthKit's own delete-and-save — not a loss and a backfill.
@Suite("Detectors: an edit that moves a record's times")
struct TimesModifiedTests {
    static func sleep(_ day: Int, startMinute: Int = 0, startHour: Int = 23) -> String {
        let start = MiniExport.instant(2, day, startHour).replacingOccurrences(
            of: ":00:00 ", with: String(format: ":%02d:00 ", startMinute))
        return MiniExport.record(
            "HKCategoryTypeIdentifierSleepAnalysis", source: MiniExport.phone,
            value: "HKCategoryValueSleepAnalysisAsleepCore", unit: nil, start: start,
            end: MiniExport.instant(2, day + 1, 6))
    }

    static func heart(_ day: Int, minute: Int = 0) -> String {
        let at = MiniExport.instant(2, day, 8).replacingOccurrences(
            of: ":00:00 ", with: String(format: ":%02d:00 ", minute))
        return MiniExport.record(value: "61", start: at)
    }

    static func export(_ day: Int, _ elements: [String]) -> MiniExport {
        MiniExport(exportDate: MiniExport.instant(2, day, 12), elements: elements)
    }

    @Test func aNightStartingAMinuteLaterIsAnEditNotALoss() throws {
        let archive = try FedArchive()
        let nights = (1...10).map { Self.sleep($0) }
        let edited = nights.enumerated().map { $0.offset == 4 ? Self.sleep(5, startMinute: 1) : $0.element }
        let found = try archive.audit([Self.export(20, nights), Self.export(21, edited)])[1]
        #expect(found.summaries == ["times_modified HKCategoryTypeIdentifierSleepAnalysis 1"])
        let edit = try #require(found.first)
        #expect(edit.severity == .info)
        #expect(edit.evidence["largestShift"] == "1 minute")
        #expect(
            edit.summary.contains("edited: its start or end moved by up to 1 minute, nothing lost"), "\(edit.summary)")
        #expect(try archive.store.fetchCaptures().last?.gone == 1, "the old record is gone, as modified")
    }

    @Test func aLargerMoveIsAWarningAndOneBeyondTheWindowStaysALoss() throws {
        let archive = try FedArchive()
        let readings = (1...20).map { Self.heart($0) }
        var moved = readings
        moved[2] = Self.heart(3, minute: 40)
        moved[6] = MiniExport.record(value: "61", start: MiniExport.instant(2, 7, 11))
        let found = try archive.audit([Self.export(25, readings), Self.export(26, moved)])[1]
        let edit = try #require(found.only(.timesModified).first, "\(found.summaries)")
        #expect(edit.recordCount == 1)
        #expect(edit.severity == .warning)
        #expect(edit.evidence["largestShift"] == "40 minutes")
        // Three hours later is another reading: the one before vanished.
        #expect(found.only(.silentDeletion).first?.recordCount == 1, "\(found.summaries)")
    }

    @Test func anotherValueOrSourceIsNoEditOfTimes() throws {
        let archive = try FedArchive()
        let readings = (1...20).map { Self.heart($0) }
        var changed = readings
        let at = MiniExport.instant(2, 3, 8).replacingOccurrences(of: ":00:00 ", with: ":05:00 ")
        changed[2] = MiniExport.record(value: "95", start: at)
        changed[5] = MiniExport.record(
            source: "Other App", value: "61", start: at.replacingOccurrences(of: "-03", with: "-06"))
        let found = try archive.audit([Self.export(25, readings), Self.export(26, changed)])[1]
        #expect(found.only(.timesModified).isEmpty, "\(found.summaries)")
        #expect(found.only(.silentDeletion).first?.recordCount == 2, "\(found.summaries)")
    }
}
