import AppleHealthExport
import Foundation
import HealthProbeArchive

/// How a format writes an export: a head, each record at the cursor, a tail.
protocol ExportFormatWriter: AnyObject {
    func begin(_ description: ExportDescription, _ context: ExportContext) throws
    func write(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext) throws
    func finish(_ totals: ExportTotals) throws
    /// Stops without finishing (a cancelled or failed export); the caller removes the file.
    func abandon()
    /// Runs the rows' loop (`begin` to `finish`) with whatever the format keeps open.
    func withAccess<T>(_ body: () throws -> T) throws -> T
}

extension ExportFormatWriter {
    func withAccess<T>(_ body: () throws -> T) throws -> T { try body() }
}

/// JSON (one document: `{"export": …, "records": [ … ], "summary": …}`) and JSONL (one record
/// a line, nothing else).
final class JSONExportWriter: ExportFormatWriter {
    private let stream: AppleExportByteStream
    private let lines: Bool
    private var first = true
    /// Each device as its JSON object, encoded once.
    private var devices: [Int64: [UInt8]] = [:]

    init(stream: AppleExportByteStream, lines: Bool) {
        self.stream = stream
        self.lines = lines
    }

    func begin(_ description: ExportDescription, _ context: ExportContext) throws {
        devices = RecordEncoding.deviceObjects(context.devices)
        guard !lines else { return }
        JSONBytes.appendLiteral("{\"export\":", to: &stream.buffer)
        stream.buffer.append(contentsOf: try ReportJSON.encodeCompact(description))
        JSONBytes.appendLiteral(",\"records\":[\n", to: &stream.buffer)
    }

    func write(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext) throws {
        if !lines && !first { JSONBytes.appendLiteral(",\n", to: &stream.buffer) }
        first = false
        RecordEncoding.appendJSON(cursor, &context, devices: devices, to: &stream.buffer)
        if lines { stream.buffer.append(UInt8(ascii: "\n")) }
        try stream.flushIfFull()
    }

    func finish(_ totals: ExportTotals) throws {
        if !lines {
            JSONBytes.appendLiteral("\n],\"summary\":{\"records\":", to: &stream.buffer)
            JSONBytes.appendInteger(Int64(totals.records), to: &stream.buffer)
            JSONBytes.appendLiteral(",\"goneRecords\":", to: &stream.buffer)
            JSONBytes.appendInteger(Int64(totals.gone), to: &stream.buffer)
            JSONBytes.appendLiteral(",\"recordsByType\":", to: &stream.buffer)
            stream.buffer.append(contentsOf: try ReportJSON.encodeCompact(totals.byType))
            JSONBytes.appendLiteral("}}\n", to: &stream.buffer)
        }
        try stream.finish()
    }

    func abandon() { stream.abandon() }
}

/// RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma, a quote or a
/// line break, quotes doubled. Numbers are written bare, so pandas and DuckDB read them as such.
final class CSVExportWriter: ExportFormatWriter {
    private let stream: AppleExportByteStream
    private var scratch: [UInt8] = []

    init(stream: AppleExportByteStream) {
        self.stream = stream
    }

    func begin(_ description: ExportDescription, _ context: ExportContext) throws {
        stream.buffer.append(
            contentsOf: RecordEncoding.columns(devices: RecordEncoding.deviceColumns).joined(separator: ",").utf8)
        stream.buffer.append(contentsOf: [13, 10])
    }

    func write(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext) throws {
        // The row is written into a local value, moved out of the stream and back: no
        // exclusivity check on every byte.
        var row = CSVRow(output: stream.buffer)
        stream.buffer = []
        RecordEncoding.visitColumns(cursor, &context, &row, scratch: &scratch, filesWithContent: true)
        row.output.append(contentsOf: [13, 10])
        stream.buffer = row.output
        try stream.flushIfFull()
    }

    func finish(_ totals: ExportTotals) throws { try stream.finish() }
    func abandon() { stream.abandon() }
}

/// One CSV row's fields, appended to `output`.
struct CSVRow: RecordColumnVisitor {
    var output: [UInt8]
    private var firstField = true

    init(output: [UInt8]) {
        self.output = output
    }

    private mutating func separate() {
        if !firstField { output.append(UInt8(ascii: ",")) }
        firstField = false
    }

    mutating func integer(_ value: Int64?) {
        separate()
        if let value { JSONBytes.appendInteger(value, to: &output) }
    }

    mutating func device(_ id: Int64?, _ description: DeviceDescription?) {
        for key in RecordEncoding.deviceColumnKeys {
            text(description.flatMap { $0.isFreeText ? nil : $0[key] })
        }
        text(description?.canonicalText)
    }

    mutating func number(_ text: UnsafeBufferPointer<UInt8>?, _ value: Double?) {
        separate()
        if let text {
            output.append(contentsOf: text)
        } else if let value {
            output.append(contentsOf: "\(value)".utf8)
        }
    }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>?) {
        separate()
        if let bytes { Self.appendField(bytes, to: &output) }
    }

    mutating func text(_ string: String?) {
        separate()
        guard var string else { return }
        string.withUTF8 { Self.appendField($0, to: &output) }
    }

    private static func needsQuoting(_ byte: UInt8) -> Bool {
        byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D
    }

    /// One field, quoted when it must be; runs between quotes are copied whole.
    static func appendField(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard bytes.contains(where: needsQuoting) else {
            output.append(contentsOf: bytes)
            return
        }
        output.append(0x22)
        var start = 0
        while let quote = bytes[start...].firstIndex(of: 0x22) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...quote]))
            output.append(0x22)
            start = quote + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        output.append(0x22)
    }
}
