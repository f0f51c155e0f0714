import AppleHealthExport
import HealthProbeArchive
import HealthProbeKit

/// Writes the synthetic elements of ``SyntheticExportGenerator`` as Apple writes them.
struct SyntheticElementWriter {
    let options: SyntheticExportOptions
    private(set) var elementsWritten = 0
    private(set) var routes: [SyntheticRoute] = []
    private var routePaths: Set<String> = []

    static let watchSource = "Test User\u{2019}s Apple Watch"
    static let phoneSource = "iPhone-TESTDEVICE"
    static let scaleSource = "Test Scale"

    init(options: SyntheticExportOptions) {
        self.options = options
    }

    /// Instant of item `index`'s start, seconds since 1970.
    func start(of index: Int) -> Int64 {
        options.firstDay * 86_400 + Int64(index) * options.spacingSeconds
    }

    mutating func writeElement(_ index: Int, into buffer: inout [UInt8]) {
        if let nth = options.omitEveryNth, nth > 0, index % nth == 0 { return }
        var (text, elements) = item(index)
        let type = Self.sampleType(ofItemText: text)
        var copies = 1
        var extra = ""
        for incident in options.incidents where incident.applies(to: index, sampleType: type) {
            switch incident.effect {
            case .omit: return
            case .duplicate(let count): copies = max(1, count)
            case .rewriteValue: text = Self.rewritingValue(text)
            case .crossSourceCopy: extra = Self.fromOtherSource(text)
            }
        }
        for _ in 0..<copies { buffer.append(contentsOf: text.utf8) }
        buffer.append(contentsOf: extra.utf8)
        elementsWritten += elements * copies + (extra.isEmpty ? 0 : 1)
    }

    /// Item `index`'s XML and how many top-level elements it holds.
    mutating func item(_ index: Int) -> (String, Int) {
        var random = SplitMix64(seed: options.seed, stream: UInt64(index))
        var addresses = SplitMix64(seed: options.deviceAddressSeed, stream: UInt64(index))
        let start = start(of: index)
        let itemsPerDay = max(1, Int(86_400 / max(options.spacingSeconds, 1)))
        if index % itemsPerDay == itemsPerDay - 1 { return (activitySummary(start, &random), 1) }
        switch random.next(below: 1000) {
        case 0..<400: return (heartRate(start, &random, &addresses), 1)
        case 400..<650: return (steps(start, &random, &addresses), 1)
        case 650..<800:
            return (quantity("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", start, &random, &addresses), 1)
        case 800..<850: return (sleep(start, &random, &addresses), 1)
        case 850..<880: return (bodyMass(start, &random), 1)
        case 880..<900: return (heartRateVariability(start, &random, &addresses), 1)
        case 900..<920: return (bloodPressure(start, &random), 3)
        case 920..<930: return (workout(start, &random, &addresses), 1)
        default: return (quantity("HKQuantityTypeIdentifierBasalEnergyBurned", "kcal", start, &random, &addresses), 1)
        }
    }

    /// The sample type an item's text begins with (a blood-pressure item: its systolic record).
    static func sampleType(ofItemText text: String) -> String {
        if text.hasPrefix(" <Workout") { return HealthRecord.workoutType }
        if text.hasPrefix(" <ActivitySummary") { return HealthRecord.activitySummaryType }
        guard let start = text.range(of: "type=\"") else { return "" }
        return String(text[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The record with another value: a number changed in its last digit, a category value
    /// replaced by another.
    static func rewritingValue(_ text: String) -> String {
        guard text.hasPrefix(" <Record"), let start = text.range(of: " value=\"") else { return text }
        let value = text[start.upperBound...].prefix { $0 != "\"" }
        let replacement =
            Int(value).map { String($0 + 1) }
            ?? (Double(value) != nil ? value + "7" : "HKCategoryValueSleepAnalysisInBed")
        let end = text.index(start.upperBound, offsetBy: value.count)
        return text.replacingCharacters(in: start.upperBound..<end, with: replacement)
    }

    /// The same record written by the other source.
    static func fromOtherSource(_ text: String) -> String {
        guard text.hasPrefix(" <Record") else { return "" }
        let watch = "sourceName=\"\(watchSource)\""
        let phone = "sourceName=\"\(phoneSource)\""
        return text.contains(watch)
            ? text.replacingOccurrences(of: watch, with: phone) : text.replacingOccurrences(of: phone, with: watch)
    }

    // MARK: Elements

    func heartRate(_ start: Int64, _ random: inout SplitMix64, _ addresses: inout SplitMix64) -> String {
        let value = 50 + random.next(below: 120)
        let motion = random.next(below: 3)
        return record(
            "HKQuantityTypeIdentifierHeartRate", Self.watchSource, "10.1", watch(&addresses), "count/min",
            String(value),
            created: start + 300, start: start, end: start,
            children: "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"\(motion)\"/>\n")
    }

    func steps(_ start: Int64, _ random: inout SplitMix64, _ addresses: inout SplitMix64) -> String {
        let fromWatch = random.next(below: 2) == 0
        return record(
            "HKQuantityTypeIdentifierStepCount", fromWatch ? Self.watchSource : Self.phoneSource, "17.1",
            fromWatch ? watch(&addresses) : phone(&addresses), "count", String(1 + random.next(below: 400)),
            created: start + 600, start: start, end: start + 60)
    }

    func quantity(
        _ type: String, _ unit: String, _ start: Int64, _ random: inout SplitMix64, _ addresses: inout SplitMix64
    ) -> String {
        record(
            type, Self.watchSource, "10.1", watch(&addresses), unit,
            Self.decimal(random.next(below: 50_000), places: 3),
            created: start + 120, start: start, end: start + 60)
    }

    func sleep(_ start: Int64, _ random: inout SplitMix64, _ addresses: inout SplitMix64) -> String {
        let stages = [
            "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
            "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAwake",
        ]
        return record(
            "HKCategoryTypeIdentifierSleepAnalysis", Self.watchSource, "10.1", watch(&addresses), nil,
            stages[random.next(below: stages.count)], created: start + 3600, start: start, end: start + 80)
    }

    func bodyMass(_ start: Int64, _ random: inout SplitMix64) -> String {
        var children = "  <MetadataEntry key=\"HKWasUserEntered\" value=\"0\"/>\n"
        children += "  <MetadataEntry key=\"Modified Date\" value=\"\(Self.timestamp(start + 172_800, offset: 0))\"/>\n"
        if options.strayControlBytes {
            children += "  <MetadataEntry key=\"Scale Name\" value=\"Test\u{0B}Scale\"/>\n"
        }
        return record(
            "HKQuantityTypeIdentifierBodyMass", Self.scaleSource, "4", nil, "kg",
            Self.decimal(60_000 + random.next(below: 30_000), places: 3),
            created: start + 172_800, start: start, end: start, children: children)
    }

    func heartRateVariability(_ start: Int64, _ random: inout SplitMix64, _ addresses: inout SplitMix64) -> String {
        var beats = "  <HeartRateVariabilityMetadataList>\n"
        for beat in 0..<4 {
            let bpm = 55 + random.next(below: 40)
            beats +=
                "   <InstantaneousBeatsPerMinute bpm=\"\(bpm)\" time=\"\(clockTime(start + Int64(beat), hundredths: beat * 17))\"/>\n"
        }
        beats += "  </HeartRateVariabilityMetadataList>\n"
        return record(
            "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", Self.watchSource, "10.1", watch(&addresses), "ms",
            Self.decimal(20_000 + random.next(below: 60_000), places: 3), created: start + 70, start: start,
            end: start + 60, children: beats)
    }

    func bloodPressure(_ start: Int64, _ random: inout SplitMix64) -> String {
        let systolic = record(
            "HKQuantityTypeIdentifierBloodPressureSystolic", Self.phoneSource, "17.1", nil, "mmHg",
            String(100 + random.next(below: 40)), created: start + 30, start: start, end: start)
        let diastolic = record(
            "HKQuantityTypeIdentifierBloodPressureDiastolic", Self.phoneSource, "17.1", nil, "mmHg",
            String(60 + random.next(below: 30)), created: start + 30, start: start, end: start)
        let correlation = """
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="\(Self.phoneSource)" sourceVersion="17.1" creationDate="\(time(start + 30))" startDate="\(time(start))" endDate="\(time(start))">
              <MetadataEntry key="HKWasUserEntered" value="1"/>
            \(systolic)\(diastolic) </Correlation>

            """
        return systolic + diastolic + correlation
    }

    mutating func workout(_ start: Int64, _ random: inout SplitMix64, _ addresses: inout SplitMix64) -> String {
        let minutes = 20 + random.next(below: 40)
        let end = start + Int64(minutes * 60)
        // Which workouts have a route follows from their time alone, as every record does. Two
        // workouts ending in the same minute would share a name: the second gets a number, so a
        // zip never holds one name twice.
        let hasRoute = (start / 60) % Int64(max(options.routesEvery, 1)) == 0
        var route = "/workout-routes/route_\(routeName(end)).gpx"
        if hasRoute {
            var suffix = 2
            while !routePaths.insert(route).inserted {
                route = "/workout-routes/route_\(routeName(end))_\(suffix).gpx"
                suffix += 1
            }
            routes.append(SyntheticRoute(path: route, start: start, end: end))
        }
        let energy = Self.decimal(100_000 + random.next(below: 400_000), places: 3)
        let routeElement = """
              <WorkoutRoute sourceName="\(Self.watchSource)" sourceVersion="10.1" creationDate="\(time(end + 30))" startDate="\(time(start))" endDate="\(time(end))">
               <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>
               <MetadataEntry key="HKMetadataKeySyncIdentifier" value="\(syncIdentifier(&random))"/>
               <FileReference path="\(route)"/>
              </WorkoutRoute>

            """
        return """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="\(minutes)" durationUnit="min" sourceName="\(Self.watchSource)" sourceVersion="10.1" device="\(watch(&addresses))" creationDate="\(time(end + 20))" startDate="\(time(start))" endDate="\(time(end))">
              <MetadataEntry key="HKIndoorWorkout" value="0"/>
              <MetadataEntry key="HKTimeZone" value="Etc/UTC"/>
              <MetadataEntry key="HKWeatherTemperature" value="\(50 + random.next(below: 30)) degF"/>
              <WorkoutEvent type="HKWorkoutEventTypePause" date="\(time(start + 300))"/>
              <WorkoutEvent type="HKWorkoutEventTypeResume" date="\(time(start + 360))"/>
              <WorkoutEvent type="HKWorkoutEventTypeSegment" date="\(time(start))" duration="\(minutes / 2)" durationUnit="min"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="\(time(start))" endDate="\(time(end))" sum="\(energy)" unit="kcal"/>
            \(hasRoute ? routeElement : "") </Workout>

            """
    }

    func activitySummary(_ start: Int64, _ random: inout SplitMix64) -> String {
        let day = UTCText.day(start / 86_400)
        return """
             <ActivitySummary dateComponents="\(day)" activeEnergyBurned="\(Self.decimal(random.next(below: 900_000), places: 3))" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="\(random.next(below: 90))" appleExerciseTimeGoal="30" appleStandHours="\(random.next(below: 16))" appleStandHoursGoal="12"/>

            """
    }
}
