import AppleHealthExport
import Foundation

/// An export in which several sources record one life, as they do on a real phone: an Apple
/// Watch and the iPhone counting the same walks, a band app added later that writes a daily total
/// from the evening before and writes one heart rate back, steps and weights entered by hand,
/// exact copies, a sleep app's growing sessions for one night beside the Watch's stages, and days
/// across a daylight-saving change (Europe/Berlin, 2000-03-26). Synthetic data only;
/// deterministic for a seed. Summing every record of a day gives figures the Health app never
/// shows: this is what the day figures are tested on, against an independent reader of the XML
/// (Scripts/day-figures-reference.py).
public struct MultiSourceExport: Sendable {
    public var firstDay: String
    public var days: Int
    public var seed: UInt64

    /// 2000-03-20 … 2000-04-02: the spring change to summer time falls inside.
    public init(firstDay: String = "2000-03-20", days: Int = 14, seed: UInt64 = 7) {
        self.firstDay = firstDay
        self.days = days
        self.seed = seed
    }

    static let watch =
        "&lt;&lt;HKDevice: 0x2800aa000&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:7.0&gt;"
    static let phone =
        "&lt;&lt;HKDevice: 0x2800bb000&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone12,1, software:14.0&gt;"
    static let watchSource = "Test User\u{2019}s Apple Watch"
    static let phoneSource = "iPhone-TESTDEVICE"
    static let bandSource = "Band App"
    static let sleepAppSource = "Sleep App"
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    public func write(to url: URL) throws {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2000-04-05 10:00:00 +0200"/>
             <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>

            """
        var random = SplitMix64(seed: seed, stream: 0)
        let first = Self.midnight(firstDay)
        for index in 0..<days {
            let midnight = first + Double(index) * 86_400
            // Local midnight: the offset just before it (Berlin changes at 02:00, never near midnight).
            let day = midnight - Double(Self.zone.secondsFromGMT(for: Date(timeIntervalSince1970: midnight - 10_800)))
            text += walks(day: day, index: index, random: &random)
            text += band(day: day, index: index, random: &random)
            text += byHand(day: day, index: index)
            text += sleep(day: day, index: index, random: &random)
            text += heartRates(day: day, random: &random)
        }
        text += "</HealthData>\n"
        try Data(text.utf8).write(to: url)
    }

    /// Walks counted by the Watch and the iPhone at once (the phone's samples cut differently),
    /// the phone alone when the Watch is off, and one exact copy of a Watch sample.
    private func walks(day: Double, index: Int, random: inout SplitMix64) -> String {
        var text = ""
        for walk in 0..<3 {
            let start = day + Double(7 + walk * 5) * 3_600 + Double(random.next() % 1_800)
            let minutes = 20 + Double(random.next() % 40)
            var watchSteps = 0.0
            for slice in 0..<Int(minutes / 5) {
                let from = start + Double(slice) * 300
                let steps = Double(400 + random.next() % 200)
                watchSteps += steps
                text += record(
                    "StepCount", Self.watchSource, Self.watch, "count", steps, from, from + 300)
                text += record(
                    "DistanceWalkingRunning", Self.watchSource, Self.watch, "km", steps * 0.0007, from, from + 300)
                if slice == 1 && walk == 0 {
                    text += record("StepCount", Self.watchSource, Self.watch, "count", steps, from, from + 300)
                }
            }
            // The phone counts the same walk in 7-minute pieces, a little less.
            var from = start - 60
            while from < start + minutes * 60 {
                let steps = Double(500 + random.next() % 150)
                text += record("StepCount", Self.phoneSource, Self.phone, "count", steps, from, from + 420)
                text += record(
                    "DistanceWalkingRunning", Self.phoneSource, Self.phone, "m", steps * 0.68, from, from + 420)
                from += 420
            }
        }
        // An evening stroll the phone alone saw.
        let evening = day + 20 * 3_600
        text += record(
            "StepCount", Self.phoneSource, Self.phone, "count", Double(900 + index * 10), evening, evening + 600)
        return text
    }

    /// From day 5 on, a band app writes one total for the day, from 23:00 the evening before to
    /// 23:00, on top of everything the Watch and the phone counted.
    private func band(day: Double, index: Int, random: inout SplitMix64) -> String {
        guard index >= 5 else { return "" }
        let start = day - 3_600
        return record(
            "StepCount", Self.bandSource, nil, "count", Double(9_000 + random.next() % 3_000), start, start + 86_400,
            created: day + 86_400)
    }

    /// Steps and a weight typed into Health by hand: they outrank every device.
    private func byHand(day: Double, index: Int) -> String {
        guard index % 3 == 0 else { return "" }
        let start = day + 8 * 3_600
        return record(
            "StepCount", "Health", nil, "count", 1_234, start, start + 1_800, metadata: ["HKWasUserEntered": "1"])
            + record(
                "BodyMass", "Health", nil, "kg", 70 + Double(index % 4), start, start,
                metadata: ["HKWasUserEntered": "1"])
            + record("BodyMass", "Scale App", nil, "lb", 155, start + 60, start + 60)
    }

    /// The Watch's stages for the night, and a sleep app's growing sessions for the same night
    /// (23:00–00:05, 23:00–01:05, …), which summed would claim many hours.
    private func sleep(day: Double, index: Int, random: inout SplitMix64) -> String {
        let bed = day - 3_600 + Double(random.next() % 1_200)
        var text = record(
            "SleepAnalysis", Self.phoneSource, Self.phone, nil, nil, bed - 600, bed + 8 * 3_600,
            category: "HKCategoryValueSleepAnalysisInBed")
        var from = bed
        let stages = ["AsleepCore", "AsleepDeep", "AsleepCore", "AsleepREM", "Awake", "AsleepCore"]
        for (number, stage) in stages.enumerated() {
            let length = Double(3_600 + (number % 2) * 1_800)
            text += record(
                "SleepAnalysis", Self.watchSource, Self.watch, nil, nil, from, from + length,
                category: "HKCategoryValueSleepAnalysis" + stage)
            from += length
        }
        if index % 2 == 0 {
            for hours in 1...7 {
                text += record(
                    "SleepAnalysis", Self.sleepAppSource, nil, nil, nil, bed, bed + Double(hours) * 3_600 + 300,
                    category: "HKCategoryValueSleepAnalysisAsleepUnspecified")
            }
        }
        return text
    }

    /// The Watch's readings, and one of them written back by the band app: one reading, not two.
    private func heartRates(day: Double, random: inout SplitMix64) -> String {
        var text = ""
        for hour in stride(from: 1, to: 24, by: 3) {
            let at = day + Double(hour) * 3_600
            let beats = Double(55 + random.next() % 40)
            text += record("HeartRate", Self.watchSource, Self.watch, "count/min", beats, at, at)
            if hour == 13 { text += record("HeartRate", Self.bandSource, nil, "count/min", beats, at, at) }
        }
        return text
    }

    private func record(
        _ type: String, _ source: String, _ device: String?, _ unit: String?, _ value: Double?, _ start: Double,
        _ end: Double, created: Double? = nil, metadata: [String: String] = [:], category: String? = nil
    ) -> String {
        let prefix = category == nil ? "HKQuantityTypeIdentifier" : "HKCategoryTypeIdentifier"
        var attributes = "type=\"\(prefix)\(type)\" sourceName=\"\(source)\" sourceVersion=\"1.0\""
        if let device { attributes += " device=\"\(device)\"" }
        if let unit { attributes += " unit=\"\(unit)\"" }
        attributes += " creationDate=\"\(Self.text(created ?? end))\" startDate=\"\(Self.text(start))\""
        attributes += " endDate=\"\(Self.text(end))\""
        if let category {
            attributes += " value=\"\(category)\""
        } else if let value {
            attributes += " value=\"\(Self.number(value))\""
        }
        guard !metadata.isEmpty else { return " <Record \(attributes)/>\n" }
        let entries = metadata.sorted { $0.key < $1.key }.map {
            "  <MetadataEntry key=\"\($0.key)\" value=\"\($0.value)\"/>\n"
        }
        return " <Record \(attributes)>\n" + entries.joined() + " </Record>\n"
    }

    /// An instant as the export writes it: in the phone's zone at that instant.
    static func text(_ instant: Double) -> String {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
        let local = Int64(instant.rounded()) + Int64(offset)
        let (day, secondOfDay) = CivilCalendar.day(ofSeconds: local)
        let seconds = Int64(secondOfDay)
        let (year, month, dayOfMonth) = CivilCalendar.date(daysSince1970: day)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset) / 60
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d %@%02d%02d", year, month, dayOfMonth, Int(seconds / 3_600),
            Int(seconds / 60 % 60), Int(seconds % 60), sign, magnitude / 60, magnitude % 60)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(format: "%.4f", value)
    }

    /// Seconds since 1970 of a date's UTC midnight ("2000-03-20").
    static func midnight(_ text: String) -> Double {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var components = DateComponents()
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)!.timeIntervalSince1970
    }

}
