import AppleHealthExport
import Foundation
import HealthProbeArchive
import HealthProbeKit

/// Reads the archive's present records of the days asked for and gathers each day's content:
/// counts and last readings from its own pass (exact copies and the same sample written by two
/// sources — one type, unit, start, end and value — count once), workouts and rings; summed
/// metrics, sleep, and the means, lowest and highest of discrete types from the day figures, as
/// the Health app combines sources (docs/DESIGN.md §8a). Every day is a local day of the sync's
/// zone, as in every face; a workout's times are written in its own zone.
struct ArchiveDayReader {
    /// The widest offsets from UTC in use (UTC−12 … UTC+14): a local day's samples start within
    /// them of its UTC midnight.
    static let earliestOffset: Double = -12 * 3600
    static let latestOffset: Double = 14 * 3600

    private(set) var clock: LocalDayClock
    /// Each device's name, for `USES` and a workout's device.
    private let devices: [Int64: String]

    init(_ source: GraphSource, clock: LocalDayClock) throws {
        self.init(devices: try Self.deviceNames(source), clock: clock)
    }

    init(devices: [Int64: String], clock: LocalDayClock) {
        self.clock = clock
        self.devices = devices
    }

    /// Each device's name by its id.
    static func deviceNames(_ source: GraphSource) throws -> [Int64: String] {
        var devices: [Int64: String] = [:]
        for device in try source.devices() {
            devices[device.id] = DeviceDescription(canonicalText: device.description)["name"]
        }
        return devices
    }

    /// Which records feed the graph: the summary's sample types, workouts and activity summaries.
    static let relevance = GraphSource.Relevance(sampleTypes: SummaryMetric.sampleTypes)

    /// Reads the present records of the days in `range` (local days) into `contents`, which
    /// gains an entry for every day of the range that has any.
    mutating func read(
        _ range: ClosedRange<LocalDay>, from source: GraphSource, into contents: inout [LocalDay: DayContent]
    ) throws {
        let from = Double(range.lowerBound.number) * 86_400 - Self.latestOffset
        let to = Double(range.upperBound.number + 1) * 86_400 - Self.earliestOffset
        let cursor = try source.records(starting: from..<to, Self.relevance)
        // Records come in start order, and a sample's copies share its start: the keys of one
        // start instant are all that need keeping (a quarter's keys at once were megabytes).
        var seen = Set<SampleKey>()
        var seenStart = -Double.infinity
        var lastType: (bytes: [UInt8], name: String, metrics: [SummaryMetric]) = ([], "", [])
        var lastDevice: (day: LocalDay, id: Int64?)?
        while try cursor.step() {
            guard let start = cursor.startDate, let kind = cursor.kind else { continue }
            if kind.elementsEqual(Self.activitySummary) {
                readActivitySummary(cursor, range: range, into: &contents)
                continue
            }
            if start != seenStart {
                seen.removeAll(keepingCapacity: true)
                seenStart = start
            }
            let day = clock.day(of: start)
            guard range.contains(day), seen.insert(SampleKey(cursor, start: start)).inserted else { continue }
            // Each day's content is changed in place: a copy per record would copy its tables.
            let deviceId = cursor.deviceId
            let device = deviceId.flatMap { devices[$0] }
            if let name = device, lastDevice?.day != day || lastDevice?.id != deviceId {
                contents[day, default: DayContent(day: day)].devices.insert(name)
                lastDevice = (day, deviceId)
            }
            if kind.elementsEqual(Self.workout) {
                let workout = workout(cursor, day: day, start: start, source: cursor.sourceName, device: device)
                contents[day, default: DayContent(day: day)].workouts.append(workout)
            } else if let type = cursor.type {
                if !type.elementsEqual(lastType.bytes) {
                    let name = String(decoding: type, as: UTF8.self)
                    lastType = (Array(type), name, SummaryMetric.byType[name] ?? [])
                }
                Self.addSample(
                    cursor, type: lastType.name, metrics: lastType.metrics, start: start,
                    to: &contents[day, default: DayContent(day: day)])
            }
        }
        for day in contents.keys where range.contains(day) {
            contents[day]?.workouts.sort { ($0.start, $0.uid) < ($1.start, $1.uid) }
        }
        // Summed metrics and sleep as the Health app shows them: never a sum of sources that
        // record the same time (docs/DESIGN.md §8a), the same figures `healthprobe day` gives.
        let figures = try source.dayFigures(
            types: Self.combinedTypes, days: range.lowerBound.number...range.upperBound.number, zone: clock.defaultZone)
        for figure in figures {
            contents[LocalDay(figure.day), default: DayContent(day: LocalDay(figure.day))].apply(figure)
        }
    }

    /// The types whose day the day figures give: summed quantities, sleep, and the discrete types
    /// whose mean, lowest or highest is a metric.
    static let combinedTypes: [String] = Array(
        Set(SummaryMetric.all.filter { $0.combination.isDayFigure }.map(\.sampleType))
    ).sorted()

    private static let activitySummary = Array("activitySummary".utf8)
    private static let workout = Array("workout".utf8)

    private static func addSample(
        _ cursor: GraphRecordCursor, type: String, metrics: [SummaryMetric], start: Double,
        to content: inout DayContent
    ) {
        // Sums, sleep, means and extremes are the day figures' (``DayContent/apply(_:)``).
        if type == SummaryMetric.sleepType { return }
        for metric in metrics where !metric.combination.isDayFigure {
            switch metric.combination {
            case .count(let wanted):
                if cursor.value == wanted { content.metrics[metric.property, default: MetricAccumulator()].tally() }
            default:
                guard let number = cursor.numericValue,
                    let value = metric.converted(number, from: metric.unit == nil ? nil : cursor.unit)
                else { continue }
                content.metrics[metric.property, default: MetricAccumulator()].add(value, at: start)
            }
        }
    }

    private mutating func workout(
        _ cursor: GraphRecordCursor, day: LocalDay, start: Double, source: String?, device: String?
    ) -> GraphWorkout {
        let end = cursor.endDate ?? start
        let details =
            cursor.details.flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] } ?? [:]
        let raw = details["activityType"] as? String ?? "HKWorkoutActivityTypeOther"
        let zone = LocalDayClock.zoneName(inMetadata: cursor.metadata)
        let uid = cursor.healthKitUUID ?? Fingerprint(bytes: cursor.strictFingerprint)?.description ?? ""
        var properties: [(String, CypherValue)] = [
            ("activity_type", .string(GraphWorkout.displayName(ofActivity: raw))),
            ("raw_type", .string(raw)),
            ("source_name", source.map(CypherValue.string) ?? .null),
        ]
        let measures = GraphWorkout.measures(details: details, start: start, end: end)
        properties += measures.properties
        properties.append(("start_date", .dateTime(localTime(start, zone: zone))))
        properties.append(("end_date", .dateTime(localTime(end, zone: zone))))
        properties.append(("device", device.map(CypherValue.string) ?? .null))
        return GraphWorkout(
            uid: uid, day: day, start: start, end: end, device: device, minutes: measures.minutes,
            properties: properties)
    }

    /// "2000-01-01T07:31:30+01:00": the local time with its offset.
    private mutating func localTime(_ instant: Double, zone: String?) -> String {
        let offset = clock.offset(at: instant, zone: zone)
        let local = Int64(instant.rounded(.down)) + offset
        let day = LocalDay(Int64((Double(local) / 86_400).rounded(.down)))
        let seconds = local - day.number * 86_400
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset) / 60
        return "\(day)T\(String(seconds / 3600).leftPadded(2)):\(String(seconds / 60 % 60).leftPadded(2)):"
            + "\(String(seconds % 60).leftPadded(2))\(sign)\(String(magnitude / 60).leftPadded(2)):"
            + String(magnitude % 60).leftPadded(2)
    }

    private func readActivitySummary(
        _ cursor: GraphRecordCursor, range: ClosedRange<LocalDay>, into contents: inout [LocalDay: DayContent]
    ) {
        guard let bytes = cursor.details,
            let details = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let dayText = details["day"] as? String, let day = LocalDay(dayText), range.contains(day)
        else { return }
        contents[day, default: DayContent(day: day)].activitySummary = details["attributes"] as? [String: String] ?? [:]
    }
}

/// A sample's identity without its source: the archive's source-free key (a hash of type, unit,
/// start, end and value) with the dates and the number beside it, so that a collision of the
/// hash alone never merges two samples.
struct SampleKey: Hashable {
    let key: Int64
    let start: Double
    let end: Double?
    let value: Double?

    init(_ cursor: GraphRecordCursor, start: Double) {
        key = cursor.semanticKey ?? 0
        self.start = start
        end = cursor.endDate
        value = cursor.numericValue
    }
}
