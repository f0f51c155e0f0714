import AppleHealthExport
import Foundation
import HealthProbeArchive

/// The files a record came with or referred to — a workout's routes, an ECG recording, a clinical
/// document — as exports give them: a JSON array, one object a file, with the file's content when
/// `content` is true (JSON, JSONL, CSV) or without it (the SQLite export, which puts contents in
/// tables of their own).
///
/// `{"kind":"route","file":…,"digest":…,"items":N,"track":[{"time":…,"lat":…,"lon":…,…}]}`,
/// `{"kind":"electrocardiogram",…,"voltages":[…]}`, `{"kind":"clinicalDocument",…,"resource":{…}}`;
/// a file the capture did not hold says `"missing":true`, one it could not read its `problem`.
extension RecordEncoding {
    static func appendFiles(
        _ files: [ExportContext.ReferencedFile], content: Bool, _ context: inout ExportContext,
        to output: inout [UInt8]
    ) {
        output.append(UInt8(ascii: "["))
        for (index, file) in files.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONBytes.appendLiteral("{\"kind\":", to: &output)
            JSONBytes.appendString(file.kind.rawValue, to: &output)
            JSONBytes.appendLiteral(",\"file\":", to: &output)
            JSONBytes.appendString(file.path, to: &output)
            if let digest = file.digest {
                JSONBytes.appendLiteral(",\"digest\":", to: &output)
                JSONBytes.appendString(digest, to: &output)
            } else if file.problem == nil {
                JSONBytes.appendLiteral(",\"missing\":true", to: &output)
            }
            if let items = file.items {
                JSONBytes.appendLiteral(",\"items\":", to: &output)
                JSONBytes.appendInteger(Int64(items), to: &output)
            }
            if let problem = file.problem {
                JSONBytes.appendLiteral(",\"problem\":", to: &output)
                JSONBytes.appendString(problem, to: &output)
            }
            if content, let digest = file.digest, file.contentKept {
                appendContent(of: file.kind, digest: digest, &context, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }

    private static func appendContent(
        of kind: AttachedFile.Kind, digest: String, _ context: inout ExportContext, to output: inout [UInt8]
    ) {
        guard let bytes = try? context.fileContent(digest)?.inflated() else { return }
        switch kind {
        case .route:
            guard let track = TrackCoding.decode(bytes) else { return }
            JSONBytes.appendLiteral(",\"track\":", to: &output)
            appendTrack(track, &context, to: &output)
        case .electrocardiogram:
            guard let voltages = VoltageCoding.decode(bytes) else { return }
            JSONBytes.appendLiteral(",\"voltages\":", to: &output)
            appendVoltages(voltages, to: &output)
        case .clinicalSummary:
            JSONBytes.appendLiteral(",\"text\":", to: &output)
            JSONBytes.appendString(String(decoding: bytes, as: UTF8.self), to: &output)
        case .clinicalDocument:
            if let canonical = ClinicalDocument.canonical(bytes) {
                JSONBytes.appendLiteral(",\"resource\":", to: &output)
                output.append(contentsOf: canonical)
            } else {
                JSONBytes.appendLiteral(",\"text\":", to: &output)
                JSONBytes.appendString(String(decoding: bytes, as: UTF8.self), to: &output)
            }
        }
    }

    /// `[{"time":…,"lat":…,"lon":…,"ele":…,"speed":…,"course":…,"hAcc":…,"vAcc":…}, …]`: each
    /// field the point has, numbers as written, the time in the export's time zone.
    static func appendTrack(_ track: RouteTrack, _ context: inout ExportContext, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for point in 0..<track.count {
            if point > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "{"))
            var first = true
            for field in 0..<RouteTrack.fields.count {
                guard let value = track.value(point, field) else { continue }
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                JSONBytes.appendString(RouteTrack.fields[field], to: &output)
                output.append(UInt8(ascii: ":"))
                if field == RouteTrack.timeField {
                    output.append(UInt8(ascii: "\""))
                    context.timestamps.append(Double(value) / Double(DecimalText.scale), to: &output)
                    output.append(UInt8(ascii: "\""))
                } else {
                    output.append(contentsOf: DecimalText.text(value, decimals: track.decimals[field]).utf8)
                }
            }
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }

    /// `[-48.673, …]`: each voltage exactly as the recording wrote it.
    static func appendVoltages(_ voltages: ElectrocardiogramVoltages, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for index in voltages.values.indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: voltages.text(at: index).utf8)
        }
        output.append(UInt8(ascii: "]"))
    }
}
