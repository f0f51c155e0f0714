import AppleHealthExport
import HealthProbeArchive

/// One exported record's fields, in the order every format writes them (docs/EXPORTS.md): as a
/// JSON object for JSON and JSONL, as columns for CSV and SQLite.
enum RecordEncoding {
    /// Each device as its JSON object, encoded once for an export.
    static func deviceObjects(_ devices: [Int64: DeviceDescription]) -> [Int64: [UInt8]] {
        devices.mapValues { device in
            var bytes: [UInt8] = []
            appendDeviceObject(device, to: &bytes)
            return bytes
        }
    }

    /// The CSV header; the `samples` table has these with `deviceId` in place of the device's.
    static func columns(devices: [String]) -> [String] {
        ["id", "kind", "type", "sourceName", "sourceVersion"] + devices + [
            "unit", "value", "textValue", "creationDate", "startDate", "endDate", "metadata", "details", "routes",
            "files", "healthKitUUID", "firstSeenCapture", "firstSeen", "status", "lastSeen", "goneSince", "goneReason",
        ]
    }

    /// The device's columns in a CSV row: the fields most devices have, then the whole
    /// description (firmware, identifiers, a writer's free text).
    static let deviceColumns = [
        "deviceName", "deviceManufacturer", "deviceModel", "deviceHardware", "deviceSoftware", "device",
    ]
    static let deviceColumnKeys = ["name", "manufacturer", "model", "hardware", "software"]

    /// The record at the cursor as one JSON object; null fields are left out.
    /// `devices`: each device as its JSON object (``deviceObjects(_:)``), encoded once an export.
    static func appendJSON(
        _ cursor: ArchivedRecordCursor, _ context: inout ExportContext, devices: [Int64: [UInt8]],
        to output: inout [UInt8]
    ) {
        JSONBytes.appendLiteral("{\"id\":", to: &output)
        JSONBytes.appendInteger(cursor.integer(.id) ?? 0, to: &output)
        appendField("kind", cursor.text(.kind), to: &output)
        appendField("type", cursor.text(.type), to: &output)
        appendField("sourceName", cursor.text(.sourceName), to: &output)
        appendField("sourceVersion", cursor.text(.sourceVersion), to: &output)
        if let deviceID = cursor.integer(.deviceId), let device = devices[deviceID] {
            JSONBytes.appendLiteral(",\"device\":", to: &output)
            output.append(contentsOf: device)
        }
        appendField("unit", cursor.text(.unit), to: &output)
        // `value` is a number or absent, so that every reader types it as one; a value that is not
        // a number as written (a category's value name, a number spelled otherwise) is `textValue`.
        if let value = cursor.text(.value) {
            let number = cursor.double(.numericValue)
            if JSONBytes.isNumber(value) {
                JSONBytes.appendLiteral(",\"value\":", to: &output)
                output.append(contentsOf: value)
            } else {
                if let number, number.isFinite {
                    JSONBytes.appendLiteral(",\"value\":", to: &output)
                    output.append(contentsOf: "\(number)".utf8)
                }
                appendField("textValue", value, to: &output)
            }
        }
        appendDate("creationDate", cursor.double(.creationDate), &context, to: &output)
        appendDate("startDate", cursor.double(.startDate), &context, to: &output)
        appendDate("endDate", cursor.double(.endDate), &context, to: &output)
        if let metadata = cursor.text(.metadata) {
            JSONBytes.appendLiteral(",\"metadata\":", to: &output)
            JSONBytes.appendMetadataObject(metadata, to: &output)
        }
        if let details = cursor.text(.details) {
            JSONBytes.appendLiteral(",\"details\":", to: &output)
            output.append(contentsOf: details)
        }
        if let routes = context.routes(cursor) {
            JSONBytes.appendLiteral(",\"routes\":", to: &output)
            appendRoutes(routes, to: &output)
        }
        if let files = context.attachedFiles(cursor) {
            JSONBytes.appendLiteral(",\"files\":", to: &output)
            appendFiles(files, content: true, &context, to: &output)
        }
        appendField("healthKitUUID", cursor.text(.healthKitUUID), to: &output)
        if let first = cursor.integer(.firstSeenCapture) {
            JSONBytes.appendLiteral(",\"firstSeenCapture\":", to: &output)
            JSONBytes.appendInteger(first, to: &output)
            appendCaptureDate("firstSeen", context.captureDateText(first), to: &output)
        }
        if cursor.isNull(.goneAt) {
            JSONBytes.appendLiteral(",\"status\":\"present\"}", to: &output)
            return
        }
        JSONBytes.appendLiteral(",\"status\":\"gone\"", to: &output)
        appendCaptureDate("lastSeen", context.captureDateText(cursor.integer(.lastSeen)), to: &output)
        appendCaptureDate("goneSince", context.captureDateText(cursor.integer(.goneAt)), to: &output)
        if let reason = ExportContext.goneReason(cursor.string(.goneReason)) {
            JSONBytes.appendLiteral(",\"goneReason\":", to: &output)
            JSONBytes.appendString(reason, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    private static func appendField(_ name: StaticString, _ text: UnsafeBufferPointer<UInt8>?, to output: inout [UInt8])
    {
        guard let text else { return }
        output.append(UInt8(ascii: ","))
        output.append(UInt8(ascii: "\""))
        JSONBytes.appendLiteral(name, to: &output)
        output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        JSONBytes.appendString(text, to: &output)
    }

    private static func appendDate(
        _ name: StaticString, _ seconds: Double?, _ context: inout ExportContext, to output: inout [UInt8]
    ) {
        guard let seconds else { return }
        output.append(UInt8(ascii: ","))
        output.append(UInt8(ascii: "\""))
        JSONBytes.appendLiteral(name, to: &output)
        output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":"), UInt8(ascii: "\"")])
        context.timestamps.append(seconds, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    private static func appendCaptureDate(_ name: StaticString, _ text: [UInt8]?, to output: inout [UInt8]) {
        guard let text else { return }
        output.append(UInt8(ascii: ","))
        output.append(UInt8(ascii: "\""))
        JSONBytes.appendLiteral(name, to: &output)
        output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":"), UInt8(ascii: "\"")])
        output.append(contentsOf: text)
        output.append(UInt8(ascii: "\""))
    }

    /// `{"name":"Apple Watch","model":"Watch",…}` in the order written, or `{"text":…}` for a
    /// writer's free text.
    static func appendDeviceObject(_ device: DeviceDescription, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        if device.isFreeText {
            JSONBytes.appendLiteral("\"text\":", to: &output)
            JSONBytes.appendString(device.canonicalText, to: &output)
        } else {
            for (index, field) in device.fields.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONBytes.appendString(field.key, to: &output)
                output.append(UInt8(ascii: ":"))
                JSONBytes.appendString(field.value, to: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// `[{"file":…,"digest":…,"points":…}]`.
    static func appendRoutes(_ routes: [ExportContext.RouteDigest], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, route) in routes.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONBytes.appendLiteral("{\"file\":", to: &output)
            JSONBytes.appendString(route.file, to: &output)
            if let digest = route.digest {
                JSONBytes.appendLiteral(",\"digest\":", to: &output)
                JSONBytes.appendString(digest, to: &output)
            }
            if let points = route.points {
                JSONBytes.appendLiteral(",\"points\":", to: &output)
                JSONBytes.appendInteger(Int64(points), to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }
}
