import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Writes archived records back as the elements of Apple's `export.xml`: the attributes Apple
/// writes, in its order, then those the archive kept as other attributes; children as the archive
/// kept them. Dates are written as this export writes dates (``AppleHealthText``).
struct AppleHealthElements {
    var text: AppleHealthText

    /// The files a record refers to, under the names this export gives them: a workout's routes
    /// in order, a clinical record's document.
    struct FileNames {
        var routes: [String] = []
        var document: String?
    }

    /// Appends `record`'s element; nothing for an ECG recording, which is a file of its own, or
    /// for one that could not be read from its file.
    mutating func append(_ record: StoredRecord, files: FileNames, to out: inout [UInt8]) {
        switch record.kind {
        case "record": appendRecord(record, to: &out)
        case "correlation": appendCorrelation(record, to: &out)
        case "workout": appendWorkout(record, files: files, to: &out)
        case "activitySummary": appendActivitySummary(record, to: &out)
        case "clinicalRecord": appendClinicalRecord(record, document: files.document, to: &out)
        case "audiogram": appendAudiogram(record, to: &out)
        case "visionPrescription": appendVisionPrescription(record, to: &out)
        case "other": if let details = record.details { appendGeneric(details, indent: 1, to: &out) }
        case "unreadable":
            if let element = record.details?["element"], element["name"]?.string != "Electrocardiogram" {
                appendGeneric(element, indent: 1, to: &out)
            }
        default: break
        }
    }

    // MARK: Samples

    private mutating func appendRecord(_ record: StoredRecord, indent: Int = 1, to out: inout [UInt8]) {
        open("Record", indent: indent, to: &out)
        appendSampleAttributes(record, to: &out)
        let beats = record.details?["beats"]?.array ?? []
        let children = record.details?["otherChildren"]?.array ?? []
        guard !record.metadata.isEmpty || !beats.isEmpty || !children.isEmpty else {
            return closeEmpty(to: &out)
        }
        out.append(contentsOf: Self.endOfTag)
        appendMetadata(record.metadata, indent: indent + 1, to: &out)
        if !beats.isEmpty {
            open("HeartRateVariabilityMetadataList", indent: indent + 1, to: &out)
            out.append(contentsOf: Self.endOfTag)
            for beat in beats {
                open("InstantaneousBeatsPerMinute", indent: indent + 2, to: &out)
                XMLText.appendAttribute("bpm", beat["bpm"]?.string ?? "", to: &out)
                XMLText.appendAttribute("time", text.timeOfDay(fromStored: beat["time"]?.string ?? ""), to: &out)
                closeEmpty(to: &out)
            }
            close("HeartRateVariabilityMetadataList", indent: indent + 1, to: &out)
        }
        for child in children { appendGeneric(child, indent: indent + 1, to: &out) }
        close("Record", indent: indent, to: &out)
    }

    /// Type, source, device, unit, dates and value, in Apple's order, then the other attributes.
    private mutating func appendSampleAttributes(
        _ record: StoredRecord, unitAndValue: Bool = true, to out: inout [UInt8]
    ) {
        XMLText.appendAttribute("type", record.type, to: &out)
        appendSourceAndDates(record, unit: unitAndValue ? record.unit : nil, to: &out)
        if unitAndValue, let value = record.value { XMLText.appendAttribute("value", value, to: &out) }
        appendAttributes(record.details?["otherAttributes"], to: &out)
    }

    private mutating func appendSourceAndDates(_ record: StoredRecord, unit: String?, to out: inout [UInt8]) {
        if let sourceName = record.sourceName { XMLText.appendAttribute("sourceName", sourceName, to: &out) }
        if let version = record.sourceVersion { XMLText.appendAttribute("sourceVersion", version, to: &out) }
        if let device = record.device { XMLText.appendAttribute("device", device, to: &out) }
        if let unit { XMLText.appendAttribute("unit", unit, to: &out) }
        appendDate("creationDate", record.creationDate, to: &out)
        appendDate("startDate", record.startDate, to: &out)
        appendDate("endDate", record.endDate, to: &out)
    }

    private mutating func appendCorrelation(_ record: StoredRecord, to out: inout [UInt8]) {
        open("Correlation", indent: 1, to: &out)
        appendSampleAttributes(record, unitAndValue: false, to: &out)
        out.append(contentsOf: Self.endOfTag)
        appendMetadata(record.metadata, indent: 2, to: &out)
        for member in record.details?["records"]?.array ?? [] {
            appendRecord(StoredRecord(member: member), indent: 2, to: &out)
        }
        for child in record.details?["otherChildren"]?.array ?? [] { appendGeneric(child, indent: 2, to: &out) }
        close("Correlation", indent: 1, to: &out)
    }

    private mutating func appendAudiogram(_ record: StoredRecord, to out: inout [UInt8]) {
        open("Audiogram", indent: 1, to: &out)
        appendSampleAttributes(record, unitAndValue: false, to: &out)
        out.append(contentsOf: Self.endOfTag)
        appendMetadata(record.metadata, indent: 2, to: &out)
        for point in record.details?["sensitivityPoints"]?.array ?? [] {
            open("SensitivityPoint", indent: 2, to: &out)
            appendAttributes(point, to: &out)
            closeEmpty(to: &out)
        }
        for child in record.details?["otherChildren"]?.array ?? [] { appendGeneric(child, indent: 2, to: &out) }
        close("Audiogram", indent: 1, to: &out)
    }

    // MARK: Workouts

    private mutating func appendWorkout(_ record: StoredRecord, files: FileNames, to out: inout [UInt8]) {
        let details = record.details
        open("Workout", indent: 1, to: &out)
        XMLText.appendAttribute("workoutActivityType", details?["activityType"]?.string ?? "", to: &out)
        appendAttributes(details?["otherAttributes"], to: &out)
        appendSourceAndDates(record, unit: nil, to: &out)
        out.append(contentsOf: Self.endOfTag)
        appendMetadata(record.metadata, indent: 2, to: &out)
        for event in details?["events"]?.array ?? [] { appendEvent(event, indent: 2, to: &out) }
        for activity in details?["activities"]?.array ?? [] {
            open("WorkoutActivity", indent: 2, to: &out)
            appendAttributes(activity["attributes"], to: &out)
            out.append(contentsOf: Self.endOfTag)
            appendMetadata(activity["metadata"].map(StoredRecord.pairs) ?? [], indent: 3, to: &out)
            for event in activity["events"]?.array ?? [] { appendEvent(event, indent: 3, to: &out) }
            for statistic in activity["statistics"]?.array ?? [] { appendStatistic(statistic, indent: 3, to: &out) }
            close("WorkoutActivity", indent: 2, to: &out)
        }
        for statistic in details?["statistics"]?.array ?? [] { appendStatistic(statistic, indent: 2, to: &out) }
        var routeFiles = files.routes[...]
        for route in details?["routes"]?.array ?? [] {
            open("WorkoutRoute", indent: 2, to: &out)
            appendAttributes(route["attributes"], to: &out)
            out.append(contentsOf: Self.endOfTag)
            appendMetadata(route["metadata"].map(StoredRecord.pairs) ?? [], indent: 3, to: &out)
            let locations = route["locations"]?.array ?? []
            if locations.isEmpty, let file = routeFiles.popFirst() {
                open("FileReference", indent: 3, to: &out)
                XMLText.appendAttribute("path", file, to: &out)
                closeEmpty(to: &out)
            }
            for location in locations {
                open("Location", indent: 3, to: &out)
                appendAttributes(location, to: &out)
                closeEmpty(to: &out)
            }
            close("WorkoutRoute", indent: 2, to: &out)
        }
        for child in details?["otherChildren"]?.array ?? [] { appendGeneric(child, indent: 2, to: &out) }
        close("Workout", indent: 1, to: &out)
    }

    private mutating func appendEvent(_ event: CanonicalJSON, indent: Int, to out: inout [UInt8]) {
        open("WorkoutEvent", indent: indent, to: &out)
        XMLText.appendAttribute("type", event["type"]?.string ?? "", to: &out)
        if let date = event["date"]?.string { appendStoredValue("date", date, to: &out) }
        appendAttributes(event["attributes"], to: &out)
        let metadata = event["metadata"].map(StoredRecord.pairs) ?? []
        guard !metadata.isEmpty else { return closeEmpty(to: &out) }
        out.append(contentsOf: Self.endOfTag)
        appendMetadata(metadata, indent: indent + 1, to: &out)
        close("WorkoutEvent", indent: indent, to: &out)
    }

    private mutating func appendStatistic(_ statistic: CanonicalJSON, indent: Int, to out: inout [UInt8]) {
        open("WorkoutStatistics", indent: indent, to: &out)
        XMLText.appendAttribute("type", statistic["type"]?.string ?? "", to: &out)
        appendAttributes(statistic["attributes"], to: &out)
        closeEmpty(to: &out)
    }

    // MARK: Other kinds

    private mutating func appendActivitySummary(_ record: StoredRecord, to out: inout [UInt8]) {
        open("ActivitySummary", indent: 1, to: &out)
        XMLText.appendAttribute("dateComponents", record.details?["day"]?.string ?? "", to: &out)
        appendAttributes(record.details?["attributes"], to: &out)
        closeEmpty(to: &out)
    }

    private mutating func appendClinicalRecord(_ record: StoredRecord, document: String?, to out: inout [UInt8]) {
        open("ClinicalRecord", indent: 1, to: &out)
        XMLText.appendAttribute("type", record.type, to: &out)
        if let sourceName = record.sourceName { XMLText.appendAttribute("sourceName", sourceName, to: &out) }
        appendDate("receivedDate", record.startDate, to: &out)
        appendAttributes(record.details?["attributes"], replacing: document.map { ["resourceFilePath": $0] }, to: &out)
        closeEmpty(to: &out)
    }

    private mutating func appendVisionPrescription(_ record: StoredRecord, to out: inout [UInt8]) {
        open("VisionPrescription", indent: 1, to: &out)
        XMLText.appendAttribute("type", record.type, to: &out)
        appendDate("dateIssued", record.startDate, to: &out)
        appendAttributes(record.details?["attributes"], to: &out)
        let children = record.details?["children"]?.array ?? []
        guard !children.isEmpty else { return closeEmpty(to: &out) }
        out.append(contentsOf: Self.endOfTag)
        for child in children { appendGeneric(child, indent: 2, to: &out) }
        close("VisionPrescription", indent: 1, to: &out)
    }

    /// An element the archive kept whole (``CanonicalJSON/generic(_:)``).
    private mutating func appendGeneric(_ element: CanonicalJSON, indent: Int, to out: inout [UInt8]) {
        guard let name = element["name"]?.string, !name.isEmpty else { return }
        open(name, indent: indent, to: &out)
        appendAttributes(element["attributes"], to: &out)
        let children = element["children"]?.array ?? []
        let content = element["text"]?.string
        guard !children.isEmpty || content != nil else { return closeEmpty(to: &out) }
        out.append(UInt8(ascii: ">"))
        if let content { XMLText.appendEscaped(content, to: &out) }
        if !children.isEmpty {
            out.append(UInt8(ascii: "\n"))
            for child in children { appendGeneric(child, indent: indent + 1, to: &out) }
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        }
        out.append(contentsOf: Array("</\(name)>\n".utf8))
    }

    // MARK: Pieces

    private mutating func appendMetadata(_ pairs: [(String, String)], indent: Int, to out: inout [UInt8]) {
        for (key, value) in pairs {
            open("MetadataEntry", indent: indent, to: &out)
            XMLText.appendAttribute("key", key, to: &out)
            appendStoredValue("value", value, to: &out)
            closeEmpty(to: &out)
        }
    }

    /// Attributes kept as an object of strings, dates written as this export writes them;
    /// `replacing` gives some of them other values.
    private mutating func appendAttributes(
        _ attributes: CanonicalJSON?, replacing: [String: String]? = nil, to out: inout [UInt8]
    ) {
        guard case .object(let pairs)? = attributes else { return }
        for (name, value) in pairs {
            guard let stored = value.string else { continue }
            if let replacement = replacing?[name] {
                XMLText.appendAttribute(name, replacement, to: &out)
            } else {
                appendStoredValue(name, stored, to: &out)
            }
        }
    }

    private mutating func appendStoredValue(_ name: String, _ value: String, to out: inout [UInt8]) {
        if let date = text.date(fromStored: value) {
            XMLText.appendAttribute(name, plain: date, to: &out)
        } else {
            XMLText.appendAttribute(name, value, to: &out)
        }
    }

    private mutating func appendDate(_ name: String, _ seconds: Double?, to out: inout [UInt8]) {
        guard let seconds else { return }
        var date: [UInt8] = []
        text.appendDate(seconds, to: &date)
        XMLText.appendAttribute(name, plain: date, to: &out)
    }

    private func open(_ name: String, indent: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: name.utf8)
    }

    private func closeEmpty(to out: inout [UInt8]) {
        out.append(contentsOf: Self.emptyEnd)
    }

    private func close(_ name: String, indent: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        out.append(contentsOf: name.utf8)
        out.append(contentsOf: Self.endOfTag)
    }

    private static let endOfTag = Array(">\n".utf8)
    private static let emptyEnd = Array("/>\n".utf8)
}
