import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The same synthetic samples written two ways, as the phone would give them: as an Apple Health
/// export (whole seconds, an offset, the user's units: pounds, kilometres, beats per minute) and
/// as a Health database pair (sub-second times, canonical units: kilograms, metres, beats per
/// second, each sample's UUID), and from that as an encrypted backup. Samples can vanish without
/// a trace, be deleted in Health (leaving tombstones), or be added, as a test needs.
public struct PairedHealthData: Sendable {
    public struct Sample: Sendable {
        public var uuid = UUID()
        public var type: String
        /// Seconds since 1970, with a fraction, as HealthKit keeps them.
        public var start: Double
        public var end: Double
        /// As the export writes it, in `exportUnit`.
        public var exportValue: String?
        public var exportUnit: String?
        /// In the database's canonical unit, or a category's raw value.
        public var databaseValue: Double?
        /// The source's number among ``sources`` (from 1).
        public var source = 1
    }

    public static let sources = ["Test User\u{2019}s Apple Watch", "iPhone-TESTDEVICE"]
    public static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    public static let steps = "HKQuantityTypeIdentifierStepCount"

    public var samples: [Sample] = []
    public var tombstones: [HealthDatabaseFixture.Tombstone] = []
    /// The export's date: an hour after the last day's samples.
    public var exportDate: Double

    /// `days` from 2000-01-01: heart rate every two hours (the watch), steps every three (the
    /// phone), a distance and a night's sleep a day, a weight every five days (pounds in the
    /// export), and one run. Every time has a fraction of a second the export drops.
    /// `heartRatesPerDay` (12 by default; a watch's background rate is about 720) makes a larger
    /// pair for benchmarks.
    public static func baseline(days: Int = 25, heartRatesPerDay: Int = 12) -> PairedHealthData {
        let first = 946_684_800.0
        var data = PairedHealthData(exportDate: first + Double(days) * 86_400 + 3_600)
        func add(
            _ type: String, at start: Double, length: Double, export: (String, String)?, database: Double?,
            source: Int = 1
        ) {
            data.samples.append(
                Sample(
                    type: type, start: start + 0.7, end: start + length + 0.3, exportValue: export?.0,
                    exportUnit: export?.1, databaseValue: database, source: source))
        }
        for day in 0..<days {
            let midnight = first + Double(day) * 86_400
            for slot in 0..<heartRatesPerDay {
                let bpm = 55 + (day * 7 + slot * 3) % 40
                add(
                    heartRate, at: midnight + Double(slot * 86_400 / heartRatesPerDay), length: 0,
                    export: ("\(bpm)", "count/min"), database: Double(bpm) / 60)
            }
            for slot in 0..<8 {
                let count = 100 + (day * 13 + slot * 5) % 50
                add(
                    steps, at: midnight + Double(slot) * 10_800 + 60, length: 600, export: ("\(count)", "count"),
                    database: Double(count), source: 2)
            }
            let metres = 500 + day * 10
            add(
                "HKQuantityTypeIdentifierDistanceWalkingRunning", at: midnight + 64_800, length: 1_800,
                export: (HealthRecordText.number(Double(metres) / 1_000), "km"), database: Double(metres), source: 2)
            add(
                "HKCategoryTypeIdentifierSleepAnalysis", at: midnight - 7_200, length: 25_200,
                export: ("HKCategoryValueSleepAnalysisAsleepUnspecified", ""), database: 1)
            if day % 5 == 0 {
                let pounds = 150 + day / 5
                add(
                    "HKQuantityTypeIdentifierBodyMass", at: midnight + 25_200, length: 0, export: ("\(pounds)", "lb"),
                    database: Double(pounds) * 0.453_592_37, source: 2)
            }
        }
        add(HealthRecord.workoutType, at: first + 86_400 * 2 + 61_200, length: 1_800, export: nil, database: nil)
        // A blood-pressure reading: two samples, which an export also writes inside a correlation.
        for (type, value) in [("Systolic", 120), ("Diastolic", 80)] {
            data.samples.append(
                Sample(
                    type: "HKQuantityTypeIdentifierBloodPressure" + type, start: data.exportDate - 7_200,
                    end: data.exportDate - 7_200, exportValue: "\(value)", exportUnit: "mmHg",
                    databaseValue: Double(value), source: 2))
        }
        return data
    }

    /// Takes `count` samples of `type` out, spread over its history, with no trace; returns them.
    @discardableResult
    public mutating func vanish(_ type: String, count: Int) -> [Sample] {
        let indices = samples.indices.filter { samples[$0].type == type }
        let step = max(1, indices.count / count)
        let chosen = Set(stride(from: 0, to: indices.count, by: step).prefix(count).map { indices[$0] })
        let taken = chosen.sorted().map { samples[$0] }
        samples = samples.enumerated().filter { !chosen.contains($0.offset) }.map(\.element)
        return taken
    }

    /// Deletes `count` samples of `type` in Health at `deletedAt`: they leave tombstones.
    public mutating func delete(_ type: String, count: Int, at deletedAt: Double) {
        for sample in vanish(type, count: count) {
            var tombstone = HealthDatabaseFixture.Tombstone(
                type: sample.type, start: sample.start, end: sample.end, deletedAt: deletedAt)
            tombstone.uuid = sample.uuid
            tombstone.source = sample.source
            tombstones.append(tombstone)
        }
    }

    /// Adds `count` heart-rate samples after the export's date, a minute apart.
    public mutating func addHeartRates(_ count: Int) {
        for index in 0..<count {
            let start = exportDate + 600 + Double(index) * 60 + 0.25
            samples.append(
                Sample(
                    type: Self.heartRate, start: start, end: start, exportValue: "\(70 + index)",
                    exportUnit: "count/min", databaseValue: Double(70 + index) / 60))
        }
    }

    /// The issue's scene after these samples: 30 heart-rate samples vanished without a trace,
    /// 20 step counts deleted in Health at `deletedAt`, and 15 new heart-rate samples.
    public func withVanishedDeletedAndNew(deletedAt: Double) -> PairedHealthData {
        var changed = self
        changed.vanish(Self.heartRate, count: 30)
        changed.delete(Self.steps, count: 20, at: deletedAt)
        changed.addHeartRates(15)
        return changed
    }

    /// The samples as the database's rows.
    public var databaseRows: [HealthDatabaseFixture.Sample] {
        samples.map { sample in
            var row = HealthDatabaseFixture.Sample(
                type: sample.type, start: sample.start, end: sample.end, created: sample.start,
                value: sample.databaseValue)
            row.uuid = sample.uuid
            row.source = sample.source
            return row
        }
    }

    /// The pair `healthdb_secure.sqlite` and `healthdb.sqlite` in `folder`.
    public func writeDatabase(to folder: URL, layout: HealthDatabaseFixture.Layout = .iOS13) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try HealthDatabaseFixture.write(
            to: folder, layout: layout, sources: Self.sources, samples: databaseRows, tombstones: tombstones)
    }

    /// An export of these samples at `file`, with what only an export holds: `Me`, an activity
    /// summary and a blood-pressure correlation around the reading's two samples.
    public func writeExport(to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let output = FileHandle(forWritingAtPath: file.path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? output.close() }
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
            ]>
            <HealthData locale="en_GB">
             <ExportDate value="\(Self.date(exportDate))"/>
             <Me/>

            """
        for sample in samples {
            if xml.utf8.count > 1 << 20 {
                try output.write(contentsOf: Data(xml.utf8))
                xml = ""
            }
            let source = Self.sources[sample.source - 1].replacingOccurrences(of: "\u{2019}", with: "&#8217;")
            let times = """
                sourceName="\(source)" sourceVersion="10.1" creationDate="\(Self.date(sample.start))" \
                startDate="\(Self.date(sample.start))" endDate="\(Self.date(sample.end))"
                """
            if sample.type == HealthRecord.workoutType {
                xml += """
                     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" \(times)/>

                    """
            } else {
                let unit = sample.exportUnit.flatMap { $0.isEmpty ? nil : " unit=\"\($0)\"" } ?? ""
                xml += """
                     <Record type="\(sample.type)" \(times)\(unit) value="\(sample.exportValue ?? "")"/>

                    """
            }
        }
        let pressure = Self.date(exportDate - 7_200)
        let member = { (type: String, value: Int) in
            """
            <Record type="HKQuantityTypeIdentifier\(type)" sourceName="iPhone-TESTDEVICE" sourceVersion="10.1" \
            unit="mmHg" creationDate="\(pressure)" startDate="\(pressure)" endDate="\(pressure)" value="\(value)"/>
            """
        }
        xml += """
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="iPhone-TESTDEVICE" creationDate="\(pressure)" startDate="\(pressure)" endDate="\(pressure)">
              \(member("BloodPressureSystolic", 120))
              \(member("BloodPressureDiastolic", 80))
             </Correlation>

             <ActivitySummary dateComponents="2000-01-02" activeEnergyBurned="300" activeEnergyBurnedGoal="400" activeEnergyBurnedUnit="kcal" appleExerciseTime="20" appleExerciseTimeGoal="30" appleStandHours="10" appleStandHoursGoal="12"/>
            </HealthData>

            """
        try output.write(contentsOf: Data(xml.utf8))
    }

    /// `2000-01-01 01:00:00 +0100`: the export's form, in a zone an hour east of UTC, the
    /// fraction dropped as Apple's date formatter drops it.
    static func date(_ seconds: Double) -> String {
        let local = Date(timeIntervalSince1970: seconds.rounded(.down) + 3_600)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d +0100", parts.year!, parts.month!, parts.day!, parts.hour!,
            parts.minute!, parts.second!)
    }
}

/// Numbers as exports write them.
enum HealthRecordText {
    static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
