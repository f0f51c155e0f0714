import AppleHealthExport

extension HealthRecord {
    /// The sample type identifier exports use for workouts.
    public static let workoutType = "HKWorkoutTypeIdentifier"
    /// The identifier activity summaries are filed under.
    public static let activitySummaryType = "HKActivitySummaryTypeIdentifier"

    /// Maps an element read from an export. Dates become UTC instants, so the same content
    /// exported at another offset or with other HKDevice addresses maps to an equal record.
    public init(exportElement element: borrowing AppleExportElement) {
        switch element {
        case .record(let record):
            self.init(record: record)
        case .correlation(let correlation):
            self.init(
                kind: .correlation, sample: correlation.sample,
                details: [("records", .array(correlation.records.map(Self.recordDetails)))])
            members = correlation.records.map { CorrelationMember(HealthRecord(record: $0)) }
        case .workout(let workout):
            self.init(workout: workout)
        case .activitySummary(let summary):
            self.init(kind: .activitySummary, type: Self.activitySummaryType)
            if let day = CalendarDay(text: summary.dateComponents) {
                startDate = Double(day.daysSince1970 * 86_400)
                endDate = Double((day.daysSince1970 + 1) * 86_400)
            }
            setDetails([
                ("day", .string(summary.dateComponents)), ("attributes", CanonicalJSON.attributes(summary.attributes)),
            ])
        case .clinicalRecord(let clinical):
            self.init(kind: .clinicalRecord, type: clinical.type, sourceName: clinical.sourceName)
            startDate = clinical.receivedDate.map { Double($0.secondsSince1970) }
            endDate = startDate
            var attributes = clinical.attributes
            if let identifier = clinical.identifier {
                attributes.append(AppleExportAttribute(name: "identifier", value: identifier))
            }
            setDetails([("attributes", CanonicalJSON.attributes(attributes))])
            if let path = clinical.attributes.first(where: { $0.name == "resourceFilePath" })?.value {
                files = [AttachedFile(kind: .clinicalDocument, path: path)]
            }
        case .audiogram(let audiogram):
            self.init(
                kind: .audiogram, sample: audiogram.sample,
                details: [("sensitivityPoints", .array(audiogram.sensitivityPoints.map(CanonicalJSON.attributes)))])
        case .visionPrescription(let prescription):
            self.init(kind: .visionPrescription, type: prescription.type)
            startDate = prescription.dateIssued.map { Double($0.secondsSince1970) }
            endDate = startDate
            var pairs: [(String, CanonicalJSON)] = [("attributes", CanonicalJSON.attributes(prescription.attributes))]
            if !prescription.children.isEmpty {
                pairs.append(("children", .array(prescription.children.map(CanonicalJSON.generic))))
            }
            setDetails(pairs)
        case .electrocardiogram(let recording):
            self.init(electrocardiogram: recording)
        case .unknown(let generic):
            self.init(kind: .other, type: generic.name, sourceName: generic[attribute: "sourceName"])
            detailsJSON = CanonicalJSON.generic(generic).text
        case .unreadable(let unreadable):
            let raw = unreadable.raw
            self.init(
                kind: .unreadable, type: raw[attribute: "type"] ?? raw.name, sourceName: raw[attribute: "sourceName"])
            detailsJSON =
                CanonicalJSON.object([("reason", .string(unreadable.reason)), ("element", .generic(raw))]).text
        }
    }

    init(workout: WorkoutElement) {
        var pairs: [(String, CanonicalJSON)] = [("activityType", .string(workout.activityType))]
        if !workout.events.isEmpty { pairs.append(("events", .array(workout.events.map(Self.eventDetails)))) }
        if !workout.statistics.isEmpty {
            pairs.append(("statistics", .array(workout.statistics.map(Self.statisticDetails))))
        }
        if !workout.activities.isEmpty {
            pairs.append(
                (
                    "activities",
                    .array(
                        workout.activities.map { activity in
                            var pairs: [(String, CanonicalJSON)] = [
                                ("attributes", CanonicalJSON.attributes(activity.attributes))
                            ]
                            if !activity.events.isEmpty {
                                pairs.append(("events", .array(activity.events.map(Self.eventDetails))))
                            }
                            if !activity.statistics.isEmpty {
                                pairs.append(("statistics", .array(activity.statistics.map(Self.statisticDetails))))
                            }
                            if let metadata = CanonicalJSON.metadata(activity.metadata) {
                                pairs.append(("metadata", metadata))
                            }
                            return .object(pairs)
                        })
                ))
        }
        if !workout.routes.isEmpty {
            // The GPX file name is written in the exporting device's local time, so it changes with
            // the offset: it is kept apart (files), not in the content.
            pairs.append(("routes", .array(workout.routes.map(Self.routeDetails))))
        }
        self.init(kind: .workout, sample: workout.sample, details: pairs)
        files = workout.routes.compactMap(\.fileReference).map { AttachedFile(kind: .route, path: $0) }
    }

    init(record: borrowing HealthRecordElement) {
        self.init(
            kind: .record, sample: record.sample, details: Self.beatDetails(record), unit: record.unit,
            value: record.value)
    }

    static func beatDetails(_ record: borrowing HealthRecordElement) -> [(String, CanonicalJSON)] {
        record.beats.isEmpty ? [] : [("beats", .array(record.beats.map(Self.beatDetails)))]
    }

    private mutating func setDetails(_ pairs: [(String, CanonicalJSON)]) {
        detailsJSON = pairs.isEmpty ? nil : CanonicalJSON.object(pairs).text
    }

    static func recordDetails(_ record: HealthRecordElement) -> CanonicalJSON {
        let child = HealthRecord(record: record)
        var pairs: [(String, CanonicalJSON)] = [("type", .string(child.type))]
        let optional: [(String, String?)] = [
            ("sourceName", child.sourceName), ("sourceVersion", child.sourceVersion), ("device", child.device),
            ("unit", child.unit), ("value", child.value),
            ("creationDate", child.creationDate.map { UTCText.iso8601(seconds: $0) }),
            ("startDate", child.startDate.map { UTCText.iso8601(seconds: $0) }),
            ("endDate", child.endDate.map { UTCText.iso8601(seconds: $0) }),
            ("metadata", child.metadataJSON), ("details", child.detailsJSON),
        ]
        for (key, value) in optional { if let value { pairs.append((key, .string(value))) } }
        return .object(pairs)
    }

    static func beatDetails(_ beat: InstantaneousBeat) -> CanonicalJSON {
        .object([
            ("bpm", .string(beat.bpm)),
            ("time", .string(beat.secondsSince1970.map { UTCText.iso8601(seconds: $0) } ?? beat.timeText)),
        ])
    }

    static func eventDetails(_ event: WorkoutEventElement) -> CanonicalJSON {
        var pairs: [(String, CanonicalJSON)] = [("type", .string(event.type))]
        if let date = event.date { pairs.append(("date", .string(UTCText.iso8601(date)))) }
        if !event.attributes.isEmpty { pairs.append(("attributes", CanonicalJSON.attributes(event.attributes))) }
        if let metadata = CanonicalJSON.metadata(event.metadata) { pairs.append(("metadata", metadata)) }
        return .object(pairs)
    }

    static func statisticDetails(_ statistic: WorkoutStatisticsElement) -> CanonicalJSON {
        .object([("type", .string(statistic.type)), ("attributes", CanonicalJSON.attributes(statistic.attributes))])
    }

    static func routeDetails(_ route: WorkoutRouteElement) -> CanonicalJSON {
        var pairs: [(String, CanonicalJSON)] = [("attributes", CanonicalJSON.attributes(route.attributes))]
        if let metadata = CanonicalJSON.metadata(route.metadata) { pairs.append(("metadata", metadata)) }
        if !route.locations.isEmpty {
            pairs.append(("locations", .array(route.locations.map(CanonicalJSON.attributes))))
        }
        return .object(pairs)
    }
}
