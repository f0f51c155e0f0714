import AppleHealthExport
import Foundation
import HealthProbeArchive

/// The files of a rebuilt export beside `export.xml`, written back from what the archive keeps:
/// a route's GPX from its track points, an ECG recording's CSV from its header and voltages, a
/// clinical document as its bytes were kept.
public enum AppleHealthFiles {
    /// A route's GPX as Apple writes it: the export's own time in `<metadata>`, then the track,
    /// each value with the digits it was read with.
    static func gpx(_ track: RouteTrack, name: String, exportedAt: Double) -> [UInt8] {
        var bytes = Array(gpxOpening(name: name, exportedAt: exportedAt).utf8)
        let segmentStarts = Set(track.segmentStarts)
        for point in 0..<track.count {
            if segmentStarts.contains(point) { bytes += "  </trkseg>\n  <trkseg>\n".utf8 }
            appendPoint(track, point, to: &bytes)
        }
        bytes += "  </trkseg>\n </trk>\n</gpx>\n".utf8
        return bytes
    }

    /// A GPX file's opening as Apple writes it, up to the first `<trkseg>`: the export's own
    /// time in `<metadata>`, the route's name.
    public static func gpxOpening(name: String, exportedAt: Double) -> String {
        var escaped: [UInt8] = []
        XMLText.appendEscaped(name, to: &escaped)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
             <metadata>
              <time>\(UTCText.iso8601(seconds: exportedAt.rounded(.down)))</time>
             </metadata>
             <trk>
              <name>\(String(decoding: escaped, as: UTF8.self))</name>
              <trkseg>

            """
    }

    private static func appendPoint(_ track: RouteTrack, _ point: Int, to bytes: inout [UInt8]) {
        func field(_ index: Int) -> String? {
            track.value(point, index).map { DecimalText.text($0, decimals: track.decimals[index]) }
        }
        bytes += "   <trkpt".utf8
        if let lon = field(2) { bytes += " lon=\"\(lon)\"".utf8 }
        if let lat = field(1) { bytes += " lat=\"\(lat)\"".utf8 }
        bytes += ">".utf8
        if let elevation = field(3) { bytes += "<ele>\(elevation)</ele>".utf8 }
        if let time = track.value(point, RouteTrack.timeField) {
            bytes += "<time>\(timeText(time, decimals: track.decimals[RouteTrack.timeField]))</time>".utf8
        }
        let extensions = (4..<RouteTrack.fields.count).compactMap { index in
            field(index).map { "<\(RouteTrack.fields[index])>\($0)</\(RouteTrack.fields[index])>" }
        }
        if !extensions.isEmpty { bytes += "<extensions>\(extensions.joined())</extensions>".utf8 }
        bytes += "</trkpt>\n".utf8
    }

    /// A point's time (seconds since 1970, scaled) as GPX writes it: `2000-01-01T08:00:00Z`, with
    /// the fraction it was read with.
    static func timeText(_ scaled: Int64, decimals: Int) -> String {
        let whole = scaled >= 0 ? scaled / DecimalText.scale : (scaled - DecimalText.scale + 1) / DecimalText.scale
        let stamp = UTCText.iso8601(seconds: Double(whole))
        guard decimals > 0 else { return stamp }
        let fraction = DecimalText.text(scaled - whole * DecimalText.scale, decimals: decimals)
        return stamp.dropLast() + fraction.drop { $0 != "." } + "Z"
    }

    /// An ECG recording's CSV in the Health app's layout: the person's two lines left empty (the
    /// archive never keeps them), the header, two empty lines (``electrocardiogramHead(_:text:)``),
    /// then one voltage a line.
    static func electrocardiogramCSV(head: [UInt8], voltages: ElectrocardiogramVoltages) -> [UInt8] {
        var bytes = head
        bytes.reserveCapacity(bytes.count + voltages.values.count * 9)
        for index in voltages.values.indices {
            bytes += voltages.text(at: index).utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// An ECG recording's CSV up to its voltages, from the recording's record.
    static func electrocardiogramHead(_ record: StoredRecord, text: inout AppleHealthText) -> [UInt8] {
        let details = record.details
        var header: [(String, String?)] = [("Name", ""), ("Date of Birth", "")]
        var recorded: [UInt8] = []
        text.appendDate(record.startDate ?? 0, to: &recorded)
        header.append(("Recorded Date", String(decoding: recorded, as: UTF8.self)))
        header.append(("Classification", record.value))
        header.append(("Symptoms", details?["symptoms"]?.string ?? ""))
        header.append(("Software Version", record.sourceVersion))
        header.append(("Device", record.deviceDescription.map { $0["hardware"] ?? $0.canonicalText }))
        header.append(("Sample Rate", details?["sampleRate"]?.string))
        if let average = details?["averageHeartRate"]?.string { header.append(("Average Heart Rate", average)) }
        if case .object(let pairs)? = details?["otherHeader"] {
            for (key, value) in pairs { header.append((key, value.string)) }
        }
        var bytes: [UInt8] = []
        for (key, value) in header {
            guard let value else { continue }
            bytes += "\(csvField(key)),\(csvField(value))\n".utf8
        }
        bytes += "\n\n".utf8
        if let lead = details?["lead"]?.string { bytes += "Lead,\(csvField(lead))\n".utf8 }
        if let unit = record.unit { bytes += "Unit,\(csvField(unit))\n".utf8 }
        bytes += "\n\n".utf8
        return bytes
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    private static func csvField(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
