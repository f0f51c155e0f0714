import AppleHealthExport
import Foundation
import GRDB
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// An import hands its per-day bins to the writer a few thousand at a time instead of holding
/// ten years of every type's: what is stored is what one whole reading gives, even when a type's
/// records come back later in the export (a bin handed over, then added to).
@Suite("Import: day bins handed over early")
struct DayBinHandOverTests {
    @Test func binsHandedOverEarlyAreThoseOfTheWholeCapture() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let export = support.folder.appendingPathComponent("export.xml")
        let types = ["StepCount", "DistanceWalkingRunning", "ActiveEnergyBurned"]
        let days = 3_000
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        xml += " <ExportDate value=\"2010-01-01 09:00:00 +0000\"/>\n"
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        func record(_ type: String, day: Int, minute: Int, value: Int) -> String {
            let date = Date(timeIntervalSince1970: 946_684_800 + Double(day) * 86_400 + Double(minute) * 60)
            let text = formatter.string(from: date)
            return """
                 <Record type="HKQuantityTypeIdentifier\(type)" sourceName="Test User’s iPhone" unit="count" \
                creationDate="\(text)" startDate="\(text)" endDate="\(text)" value="\(value)"/>

                """
        }
        for type in types {
            for day in 0..<days { xml += record(type, day: day, minute: 600, value: day % 97) }
        }
        // The first type again, on days handed over long before.
        for day in 0..<50 { xml += record(types[0], day: day, minute: 900, value: 3) }
        xml += "</HealthData>\n"
        try xml.write(to: export, atomically: true, encoding: .utf8)
        #expect(types.count * days > CaptureAggregates.daysHeld)

        _ = try support.check(export, in: store)
        let (stored, whole) = try store.writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT type, day, count, contentHash, valueSum, valueCount FROM typeDayBin WHERE captureId = 1")
            let stored = Dictionary(
                uniqueKeysWithValues: rows.map { row in
                    ("\(row[0] as String) \(row[1] as Int64)", Bin(row[2], row[3], row[4], row[5]))
                })
            var whole: [String: Bin] = [:]
            for (type, totals) in try CaptureAggregates.of(db, where: "firstSeenCapture = ?1", capture: 1).types {
                for (day, bin) in totals.days {
                    whole["\(type) \(day)"] = Bin(
                        bin.count, HexText.encode(bin.hash), bin.valueCount > 0 ? bin.valueSum : nil, bin.valueCount)
                }
            }
            return (stored, whole)
        }
        #expect(stored.count == types.count * days)
        #expect(stored["HKQuantityTypeIdentifierStepCount 10957"]?.count == 2)
        #expect(whole.count == stored.count)
        let differing = stored.filter { whole[$0.key] != $0.value }.map(\.key).sorted()
        #expect(differing.isEmpty, "\(differing.count) bins differ, the first \(differing.prefix(3))")
    }

    struct Bin: Equatable {
        var count: Int
        var hash: String
        var sum: Double?
        var values: Int

        init(_ count: Int, _ hash: String, _ sum: Double?, _ values: Int) {
            (self.count, self.hash, self.sum, self.values) = (count, hash, sum, values)
        }
    }
}
