import AppleHealthExport
import Crypto
import Foundation
import GRDB
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Each format holds exactly the records of the capture, field by field, units and offsets
/// included.
@Suite("Export: what each format holds")
struct ExportContentTests {
    /// A checked synthetic export: records of many types, workouts with routes, correlations.
    static func checkedArchive() throws -> (ArchiveTestSupport, ArchiveStore) {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        // Samples an hour apart from early March: the export spans a change to daylight saving time.
        var options = SyntheticExportOptions(elementCount: 1_500, seed: 11)
        options.firstDay = CivilCalendar.daysSince1970(year: 2000, month: 3, day: 1)
        options.spacingSeconds = 3_600
        _ = try support.check(try support.generate("export.zip", options), in: store)
        return (support, store)
    }

    struct ArchivedRecord {
        var id: Int64
        var type: String
        var sourceName: String?
        var unit: String?
        var value: String?
        var number: Double?
        var start: Double
        var end: Double
        var metadata: String?
    }

    static func archived(_ store: ArchiveStore) throws -> [Int64: ArchivedRecord] {
        try store.writer.read { db in
            var records: [Int64: ArchivedRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM record") {
                records[row["id"]] = ArchivedRecord(
                    id: row["id"], type: row["type"], sourceName: row["sourceName"], unit: row["unit"],
                    value: row["value"], number: row["numericValue"], start: row["startDate"], end: row["endDate"],
                    metadata: row["metadata"])
            }
            return records
        }
    }

    static func snapshotCounts(_ store: ArchiveStore) throws -> [String: Int] {
        try store.writer.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db, sql: "SELECT type, count FROM typeSnapshot WHERE captureId = (SELECT MAX(id) FROM capture)"
                ).map { ($0["type"] as String, $0["count"] as Int) })
        }
    }

    @Test func jsonLinesHoldEveryRecordFieldByFieldInTheChosenZone() throws {
        let (support, store) = try Self.checkedArchive()
        let zone = "America/New_York"
        let lines = try support.jsonLines(store, zone: zone)
        let archived = try Self.archived(store)
        #expect(lines.count == archived.count)
        #expect(
            Dictionary(grouping: lines, by: { $0["type"] as! String }).mapValues(\.count)
                == (try Self.snapshotCounts(store)))
        var offsets = Set<String>()
        for line in lines {
            let id = line["id"] as! Int64
            let record = try #require(archived[id])
            #expect(line["type"] as? String == record.type)
            #expect(line["sourceName"] as? String == record.sourceName)
            #expect(line["unit"] as? String == record.unit)
            #expect(line["status"] as? String == "present")
            let start = try #require(line["startDate"] as? String)
            #expect(start == zonedText(record.start, zone))
            #expect(line["endDate"] as? String == zonedText(record.end, zone))
            offsets.insert(String(start.suffix(6)))
            if let number = record.number {
                // Numbers are numbers, the value exactly as the export wrote it.
                #expect((line["value"] as? NSNumber)?.doubleValue == number)
            } else if let value = record.value {
                // A value that is not a number (a category's) is `textValue`: `value` is numbers only.
                #expect(line["value"] == nil)
                #expect(line["textValue"] as? String == value)
            }
            if record.metadata != nil { #expect(line["metadata"] is [String: Any]) }
        }
        // Both sides of daylight saving time.
        #expect(offsets == ["-05:00", "-04:00"])
        let workout = try #require(lines.first { $0["type"] as? String == HealthRecord.workoutType })
        let details = try #require(workout["details"] as? [String: Any])
        #expect(details["activityType"] is String)
        #expect((workout["device"] as? [String: Any])?["name"] != nil)
        #expect(lines.contains { ($0["routes"] as? [[String: Any]])?.first?["digest"] is String })
        let correlation = try #require(lines.first { $0["kind"] as? String == "correlation" })
        #expect(((correlation["details"] as? [String: Any])?["records"] as? [Any])?.count == 2)
    }

    @Test func jsonIsOneDocumentWithItsHeadAndSummary() throws {
        let (support, store) = try Self.checkedArchive()
        let result = try support.runExport(store, .json)
        let document =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.path)))
            as! [String: Any]
        let records = try #require(document["records"] as? [[String: Any]])
        let summary = try #require(document["summary"] as? [String: Any])
        let head = try #require(document["export"] as? [String: Any])
        #expect(records.count == result.records)
        #expect(summary["records"] as? Int == records.count)
        #expect(summary["recordsByType"] as? [String: Int] == (try Self.snapshotCounts(store)))
        #expect((head["capture"] as? [String: Any])?["id"] as? Int == 1)
        #expect(head["timeZone"] as? String == "UTC")
        // Text formats list the records with a number first, then the others, each by type, then start.
        let withNumber = records.prefix { $0["value"] is NSNumber }
        let others = records.dropFirst(withNumber.count)
        #expect(!withNumber.isEmpty && !others.isEmpty)
        #expect(others.allSatisfy { $0["value"] == nil })
        for part in [Array(withNumber), Array(others)] {
            let keys = part.map { "\($0["type"] as! String) \($0["startDate"] as! String)" }
            #expect(keys == keys.sorted())
        }
    }

    @Test func csvIsRFC4180WithOneRowARecord() throws {
        let (support, store) = try Self.checkedArchive()
        let result = try support.runExport(store, .csv, zone: "Asia/Tokyo")
        let rows = CSVReader.rows(try String(contentsOfFile: result.path, encoding: .utf8))
        let header = try #require(rows.first)
        #expect(header.first == "id")
        #expect(Set(rows.dropFirst().map(\.count)) == [header.count])
        #expect(rows.count - 1 == result.records)
        let column = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
        let archived = try Self.archived(store)
        var byType: [String: Int] = [:]
        for row in rows.dropFirst() {
            let record = try #require(archived[Int64(row[column["id"]!])!])
            byType[row[column["type"]!], default: 0] += 1
            #expect(row[column["startDate"]!] == zonedText(record.start, "Asia/Tokyo"))
            #expect(row[column["unit"]!] == (record.unit ?? ""))
            if let number = record.number {
                #expect(Double(row[column["value"]!]) == number)
                #expect(row[column["textValue"]!].isEmpty)
            } else {
                #expect(row[column["textValue"]!] == (record.value ?? ""))
            }
            if !row[column["metadata"]!].isEmpty {
                #expect((try? JSONSerialization.jsonObject(with: Data(row[column["metadata"]!].utf8))) is [String: Any])
            }
        }
        #expect(byType == (try Self.snapshotCounts(store)))
    }

    @Test func sqliteHoldsSamplesWorkoutsMembersAndDailySummaries() throws {
        let (support, store) = try Self.checkedArchive()
        let result = try support.runExport(store, .sqlite)
        let archived = try Self.archived(store)
        let exported = try DatabaseQueue(path: result.path)
        try exported.read { db in
            let counts = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT type, COUNT(*) AS n FROM samples GROUP BY type")
                    .map { ($0["type"] as String, $0["n"] as Int) })
            #expect(counts == (try Self.snapshotCounts(store)))
            for row in try Row.fetchAll(db, sql: "SELECT * FROM samples ORDER BY random() LIMIT 200") {
                let record = try #require(archived[row["id"]])
                #expect(row["type"] as String == record.type)
                #expect(row["startDate"] as String == zonedText(record.start, "UTC"))
                #expect(row["value"] as Double? == record.number)
            }
            // Heart rate is a discrete type: the day's samples (copies once) and their mean.
            let heartRates = try Row.fetchAll(
                db, sql: "SELECT count, mean FROM dailySummaries WHERE type = 'HKQuantityTypeIdentifierHeartRate'")
            #expect(!heartRates.isEmpty && heartRates.allSatisfy { ($0["count"] as Int) > 0 && $0["mean"] != nil })
            let workouts = archived.values.filter { $0.type == HealthRecord.workoutType }.count
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workouts") == workouts)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workoutEvents") ?? 0 > 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workoutRoutes WHERE digest IS NOT NULL") ?? 0 > 0)
            let correlations = archived.values.filter { $0.type.hasPrefix("HKCorrelationTypeIdentifier") }.count
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM correlationMembers") == 2 * correlations)
            #expect(try String.fetchOne(db, sql: "SELECT value FROM exportInfo WHERE key = 'captureId'") == "1")
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM samples WHERE deviceId NOT IN (SELECT id FROM devices)")
                    == 0)
        }
    }

    /// `localDate` is the day in the export's zone (SQLite's `date(startDate)` would give the UTC
    /// day), and `dailySummaries` are that zone's day figures — the very figures the archive gives
    /// every other face (`healthprobe day`, the assistant, the graph): one answer for a day.
    /// Samples ten minutes apart fill a few days; eleven hours apart, seven years, whose figures
    /// are set aside in temporary tables hundreds at a time while the rows are written, and those
    /// of a type later found out of order dropped for its sorted read.
    @Test(arguments: [
        ("Asia/Tokyo", 3, Int64(600), 1_500), ("Europe/Berlin", 10, 600, 1_500), ("Europe/Berlin", 10, 40_000, 6_000),
    ])
    func sqliteDailySummariesAreTheArchivesDayFiguresInTheExportsZone(
        zone: String, month: Int, spacing: Int64, elements: Int
    ) throws {
        // October's in Berlin: the hour repeated when summer time ends writes local times that
        // sort out of time order, which the figures must not mind.
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        var options = SyntheticExportOptions(elementCount: elements, seed: 11)
        options.firstDay = CivilCalendar.daysSince1970(year: 2000, month: month, day: 20)
        options.spacingSeconds = spacing
        // Four days left out of the first export and backfilled by the second: the archive holds
        // them after the later days, so their types come to the export out of time order and
        // are read back sorted; the other types are figured as their rows are written.
        var first = options
        first.incidents = [SyntheticIncident(.omit, items: 100..<700)]
        _ = try support.check(try support.generate("first.zip", first), in: store)
        _ = try support.check(try support.generate("export.zip", options), in: store)
        let result = try support.runExport(store, .sqlite, zone: zone)
        let exported = try DatabaseQueue(path: result.path)
        try exported.read { db in
            let written = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM samples WHERE localDate <> substr(startDate, 1, 10)")
            #expect(written == 0)
            let utcDays = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM samples WHERE localDate <> date(startDate)")
            #expect(utcDays ?? 0 > 0)
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM dailySummaries ORDER BY day, type")
            let types = Array(Set(rows.map { $0["type"] as String })).sorted()
            let days = rows.compactMap { DayRange.day($0["day"] as String) }
            let figures = try store.dayFigures(
                types: types, days: try #require(days.min())...(try #require(days.max())),
                zone: TimeZone(identifier: zone)!)
            #expect(rows.count == figures.count)
            func close(_ left: Double?, _ right: Double?) -> Bool {
                guard let left, let right else { return left == nil && right == nil }
                return abs(left - right) <= 1e-6 * max(1, abs(left))
            }
            for (row, figure) in zip(rows, figures) {
                #expect(row["type"] as String == figure.type && row["day"] as String == UTCText.day(figure.day))
                #expect(
                    row["count"] as Int == figure.samples && row["kind"] as String == figure.kind.rawValue,
                    "\(figure.type) \(UTCText.day(figure.day)): \(row["count"] as Int) exported, \(figure.samples)")
                let value: Double? = figure.kind == .discrete ? row["mean"] : row["sum"]
                #expect(close(value, figure.value), "\(figure.type) \(UTCText.day(figure.day))")
                #expect(close(row["min"], figure.minimum) && close(row["max"], figure.maximum))
            }
            let parts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dailySources") ?? 0
            #expect(parts == figures.reduce(0) { $0 + $1.sources.count })
        }
    }

    @Test func theManifestCountsAndHashesWhatWasWritten() throws {
        let (support, store) = try Self.checkedArchive()
        for format in ExportFormat.allCases {
            let result = try support.runExport(store, format)
            let manifest = try JSONDecoder().decode(
                ExportManifest.self, from: Data(contentsOf: URL(fileURLWithPath: result.manifestPath)))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: result.path))
            #expect(manifest.sha256 == HexText.encode(Array(SHA256.hash(data: bytes))))
            #expect(manifest.bytes == Int64(bytes.count))
            #expect(manifest.recordsByType == (try Self.snapshotCounts(store)))
            #expect(manifest.export.capture.id == 1)
            #expect(try support.partialFilesLeft().isEmpty)
        }
        let runs = try store.fetchExportRuns()
        #expect(runs.map(\.format) == ExportFormat.allCases.map(\.rawValue))
        #expect(runs.allSatisfy { $0.outcome == .completed && $0.records == runs[0].records })
    }

    @Test func typesAndDatesNarrowTheExport() throws {
        let (support, store) = try Self.checkedArchive()
        let heartRate = "HKQuantityTypeIdentifierHeartRate"
        let from: Double = 952_646_400  // 2000-03-10T00:00:00Z
        let before: Double = 952_905_600  // 2000-03-13T00:00:00Z, the end of 2000-03-12
        let lines = try support.jsonLines(
            store, selection: ExportSelection(types: [heartRate], startFrom: from, startBefore: before))
        let expected = try Self.archived(store).values.filter {
            $0.type == heartRate && $0.start >= from && $0.start < before
        }
        #expect(!lines.isEmpty)
        #expect(Set(lines.map { $0["id"] as! Int64 }) == Set(expected.map(\.id)))
    }
}
