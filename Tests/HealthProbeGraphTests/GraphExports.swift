import Foundation

/// Hand-written exports whose daily values are worked out by hand in the tests: copies across
/// sources, exact copies, units to convert, a sample in its own time zone, sleep, a workout, rings.
enum GraphExports {
    static let watch =
        "&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"
    static let phone =
        "&lt;&lt;HKDevice: 0x2&gt;, name:iPhone-TESTDEVICE, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.1&gt;"

    static func record(
        _ type: String, _ value: String, unit: String? = nil, start: String, end: String? = nil,
        fromPhone: Bool = false, created: String? = nil, zone: String? = nil
    ) -> String {
        let source = fromPhone ? "iPhone-TESTDEVICE" : "Test User\u{2019}s Apple Watch"
        let unitText = unit.map { " unit=\"\($0)\"" } ?? ""
        let metadata = zone.map { "\n  <MetadataEntry key=\"HKTimeZone\" value=\"\($0)\"/>\n " } ?? ""
        return """
             <Record type="\(type)" sourceName="\(source)" sourceVersion="1" device="\(fromPhone ? phone : watch)"\(unitText) \
            creationDate="\(created ?? end ?? start) +0000" startDate="\(start) +0000" endDate="\(end ?? start) +0000" \
            value="\(value)">\(metadata)</Record>

            """
    }

    static func quantity(
        _ name: String, _ value: String, _ unit: String, start: String, end: String? = nil,
        fromPhone: Bool = false, created: String? = nil, zone: String? = nil
    ) -> String {
        record(
            "HKQuantityTypeIdentifier" + name, value, unit: unit, start: start, end: end, fromPhone: fromPhone,
            created: created, zone: zone)
    }

    static func category(_ name: String, _ value: String, start: String, end: String) -> String {
        record("HKCategoryTypeIdentifier" + name, value, start: start, end: end)
    }

    static func workout(_ activity: String, minutes: Int, start: String, end: String, distanceKm: Double? = nil)
        -> String
    {
        let distance = distanceKm.map { " totalDistance=\"\($0)\" totalDistanceUnit=\"km\"" } ?? ""
        return """
             <Workout workoutActivityType="HKWorkoutActivityType\(activity)" duration="\(minutes)" durationUnit="min"\(distance) \
            totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="Test User\u{2019}s Apple Watch" sourceVersion="10.1" \
            device="\(watch)" creationDate="\(end) +0000" startDate="\(start) +0000" endDate="\(end) +0000"/>

            """
    }

    /// 2000-01-01 (a Saturday, ISO week 1999-W52) full of data; 2000-01-02 with a heart rate
    /// recorded in Los Angeles on the evening of the 2nd (the 3rd in UTC) and the night's sleep
    /// that ends on it (from 23:00 on the 1st: a night counts on the day it ends);
    /// nothing on the 3rd; a few steps and a cycling workout on the 4th; steps and a heart rate
    /// on the 5th.
    static func first(
        cyclingEnd: String = "2000-01-04 08:00:00", cyclingMinutes: Int = 60, withFifth: Bool = true,
        backfill: Bool = false
    ) -> String {
        var body = ""
        body += quantity("HeartRate", "60", "count/min", start: "2000-01-01 08:00:00")
        body += quantity("HeartRate", "60", "count/min", start: "2000-01-01 08:00:00", fromPhone: true)
        body += quantity("HeartRate", "80", "count/min", start: "2000-01-01 09:00:00")
        body += quantity("StepCount", "1000", "count", start: "2000-01-01 10:00:00", end: "2000-01-01 10:10:00")
        body += quantity(
            "StepCount", "1000", "count", start: "2000-01-01 10:00:00", end: "2000-01-01 10:10:00", fromPhone: true)
        body += quantity(
            "StepCount", "500", "count", start: "2000-01-01 11:00:00", end: "2000-01-01 11:05:00", fromPhone: true)
        body += quantity("StepCount", "200", "count", start: "2000-01-01 12:00:00", end: "2000-01-01 12:05:00")
        body += quantity("StepCount", "200", "count", start: "2000-01-01 12:00:00", end: "2000-01-01 12:05:00")
        if backfill {
            body += quantity(
                "StepCount", "50", "count", start: "2000-01-01 15:00:00", end: "2000-01-01 15:05:00",
                created: "2000-01-09 15:00:00")
        }
        body += quantity("DistanceWalkingRunning", "1", "mi", start: "2000-01-01 13:00:00", end: "2000-01-01 13:20:00")
        body += quantity("DistanceWalkingRunning", "500", "m", start: "2000-01-01 14:00:00", end: "2000-01-01 14:10:00")
        body += quantity("ActiveEnergyBurned", "100", "kcal", start: "2000-01-01 13:00:00", end: "2000-01-01 13:20:00")
        body += quantity("ActiveEnergyBurned", "418.4", "kJ", start: "2000-01-01 14:00:00", end: "2000-01-01 14:10:00")
        body += quantity("BodyMass", "70", "kg", start: "2000-01-01 07:00:00")
        body += quantity("BodyMass", "154", "lb", start: "2000-01-01 20:00:00")
        body += quantity("OxygenSaturation", "0.97", "%", start: "2000-01-01 03:00:00")
        body += quantity("OxygenSaturation", "0.95", "%", start: "2000-01-01 04:00:00")
        body += quantity("AppleExerciseTime", "30", "min", start: "2000-01-01 18:00:00", end: "2000-01-01 18:30:00")
        body += quantity("AppleExerciseTime", "15", "min", start: "2000-01-01 19:00:00", end: "2000-01-01 19:15:00")
        for hour in 10...12 {
            body += category(
                "AppleStandHour", "HKCategoryValueAppleStandHourStood",
                start: "2000-01-01 \(hour):00:00", end: "2000-01-01 \(hour):59:59")
        }
        body += category(
            "AppleStandHour", "HKCategoryValueAppleStandHourIdle",
            start: "2000-01-01 13:00:00", end: "2000-01-01 13:59:59")
        body += category(
            "SleepAnalysis", "HKCategoryValueSleepAnalysisInBed", start: "2000-01-01 00:45:00",
            end: "2000-01-01 06:00:00")
        body += category(
            "SleepAnalysis", "HKCategoryValueSleepAnalysisAsleepCore", start: "2000-01-01 01:00:00",
            end: "2000-01-01 03:00:00")
        body += category(
            "SleepAnalysis", "HKCategoryValueSleepAnalysisAsleepDeep", start: "2000-01-01 03:00:00",
            end: "2000-01-01 04:00:00")
        body += category(
            "SleepAnalysis", "HKCategoryValueSleepAnalysisAwake", start: "2000-01-01 04:00:00",
            end: "2000-01-01 04:30:00")
        body += workout("Running", minutes: 30, start: "2000-01-01 18:00:00", end: "2000-01-01 18:30:00", distanceKm: 5)
        body += """
             <ActivitySummary dateComponents="2000-01-01" activeEnergyBurned="450" activeEnergyBurnedGoal="500" \
            activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="45" \
            appleExerciseTimeGoal="30" appleStandHours="3" appleStandHoursGoal="12"/>

            """
        // Written in Los Angeles, where it was the evening before: days are the sync's zone's all
        // the same (docs/DESIGN.md §8a), so in UTC it is on the 2nd.
        body += quantity("HeartRate", "90", "count/min", start: "2000-01-02 05:00:00", zone: "America/Los_Angeles")
        body += category(
            "SleepAnalysis", "HKCategoryValueSleepAnalysisAsleepREM", start: "2000-01-01 23:00:00",
            end: "2000-01-02 01:00:00")
        body += quantity("StepCount", "300", "count", start: "2000-01-04 09:00:00", end: "2000-01-04 09:05:00")
        body += workout("Cycling", minutes: cyclingMinutes, start: "2000-01-04 07:00:00", end: cyclingEnd)
        if withFifth {
            body += quantity("StepCount", "400", "count", start: "2000-01-05 09:00:00", end: "2000-01-05 09:05:00")
            body += quantity("HeartRate", "70", "count/min", start: "2000-01-05 09:00:00")
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2000-01-10 10:00:00 +0000"/>
             <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>
            \(body)</HealthData>

            """
    }

    /// The same person a check later: the 5th lost, a backfilled step count on the 1st, and the
    /// cycling workout rewritten ten minutes longer.
    static var second: String {
        first(cyclingEnd: "2000-01-04 08:10:00", cyclingMinutes: 70, withFifth: false, backfill: true)
    }
}
