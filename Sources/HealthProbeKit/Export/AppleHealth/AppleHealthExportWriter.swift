import AppleHealthExport
import Foundation
import HealthProbeArchive

/// `--format apple-health`: the capture rebuilt as the Health app exports it, a zip holding
/// `apple_health_export/export.xml` and, beside it, the routes, ECG recordings and clinical
/// documents its records came with, under the names that capture knew them by. The XML is
/// deflated into the zip as it is formatted (``ZipStreamWriter``, on the writer thread); the
/// files follow it, each read from the archive when its turn comes, so memory holds one at a time;
/// until then the names given and the files to come wait on file (``AppleExportScratch``).
final class AppleHealthExportWriter: ExportFormatWriter {
    private let zip: ZipStreamWriter
    private let scratch: AppleExportScratch
    private let stream: AppleExportByteStream
    private let timeZone: TimeZone
    private let cancellation: CancellationFlag?
    private var elements: AppleHealthElements?
    private var context: ExportContext?
    private var exportedAt = 0.0
    /// The capture's files no record refers to, read with the rest of its context.
    private var strays: [ExportContext.ReferencedFile] = []
    private(set) var files = AppleHealthFileCounts()

    static let folder = "apple_health_export"

    init(file: ExportFileWriter, timeZone: TimeZone, cancellation: CancellationFlag?) throws {
        let scratch = try AppleExportScratch()
        let zip = ZipStreamWriter(modified: Date(), directory: scratch) { bytes in try file.write(bytes) }
        self.scratch = scratch
        self.zip = zip
        stream = AppleExportByteStream { chunk in try chunk.withUnsafeBytes { try zip.write($0) } }
        self.timeZone = timeZone
        self.cancellation = cancellation
    }

    func begin(_ description: ExportDescription, _ context: ExportContext) throws {
        let capture = context.resolved.capture
        let text = AppleHealthText(
            exportUTCOffset: capture.exportUTCOffset, offsetSpans: capture.offsetSpans, zone: timeZone)
        exportedAt = capture.date
        // The export's own date at the offset it was written at: the spans are its samples'.
        var exportDateText = AppleHealthText(exportUTCOffset: capture.exportUTCOffset, zone: timeZone)
        var date: [UInt8] = []
        exportDateText.appendDate(capture.date, to: &date)
        elements = AppleHealthElements(text: text)
        self.context = context
        strays = try context.strayFiles()
        try zip.beginEntry("\(Self.folder)/export.xml")
        stream.buffer += AppleHealthDocument.head(
            version: capture.exportVersion ?? 14, locale: capture.locale ?? "en_US", exportDate: date)
    }

    func write(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext) throws {
        let record = StoredRecord(cursor, devices: context.devices)
        var names = AppleHealthElements.FileNames()
        for file in context.attachedFiles(cursor) ?? [] {
            let name = try claim(file)
            switch file.kind {
            case .route: names.routes.append("/" + name)
            case .clinicalDocument: names.document = "/" + name
            case .electrocardiogram, .clinicalSummary: break
            }
            guard let digest = file.digest else {
                files.notInCapture += 1
                continue
            }
            guard file.contentKept else {
                files.notKept += 1
                continue
            }
            var head: [UInt8]?
            if file.kind == .electrocardiogram, var text = elements?.text {
                head = AppleHealthFiles.electrocardiogramHead(record, text: &text)
            }
            try scratch.addPending(.init(name: name, kind: file.kind, digest: digest, head: head))
        }
        elements!.append(record, files: names, to: &stream.buffer)
        try stream.flushIfFull()
    }

    func finish(_ totals: ExportTotals) throws {
        // Files the export held that no record refers to come back too, under their names.
        for file in strays {
            guard let digest = file.digest, file.kind != .electrocardiogram else { continue }
            try scratch.addPending(.init(name: try claim(file), kind: file.kind, digest: digest, head: nil))
        }
        stream.buffer += AppleHealthDocument.tail
        try stream.finish()
        try zip.finishEntry()
        try scratch.forEachPending { file in
            if cancellation?.isCancelled == true { throw ExportFailure.cancelled }
            guard let bytes = try render(file) else {
                files.notKept += 1
                return
            }
            try zip.addEntry("\(Self.folder)/\(file.name)", bytes: bytes)
            files.written += 1
        }
        try zip.finish()
    }

    func abandon() { stream.abandon() }

    /// The file's bytes as the export held them; nil when the archive does not hold its content.
    private func render(_ file: AppleExportScratch.PendingFile) throws -> [UInt8]? {
        guard let content = try context?.fileContent(file.digest), let bytes = content.inflated() else { return nil }
        switch file.kind {
        case .clinicalDocument, .clinicalSummary:
            return bytes
        case .route:
            guard let track = TrackCoding.decode(bytes) else { return nil }
            let name = "Route " + (file.name.split(separator: "/").last ?? "").dropLast(4)
            return AppleHealthFiles.gpx(track, name: String(name), exportedAt: exportedAt)
        case .electrocardiogram:
            guard let voltages = VoltageCoding.decode(bytes), let head = file.head else { return nil }
            return AppleHealthFiles.electrocardiogramCSV(head: head, voltages: voltages)
        }
    }

    /// The name `file` takes in the zip, below the export's folder: its path as the capture held
    /// it, made safe (no `..`, no empty parts); another name when the path already holds another
    /// content.
    private func claim(_ file: ExportContext.ReferencedFile) throws -> String {
        let parts = file.path.split(separator: "/").filter { $0 != "." && $0 != ".." }
        let base = parts.isEmpty ? "\(file.kind.rawValue)-file" : parts.joined(separator: "/")
        var name = base
        var suffix = 2
        while true {
            guard let holder = try scratch.holder(of: name) else {
                try scratch.give(name, to: file.digest)
                return name
            }
            if holder == file.digest { return name }
            let dot = base.lastIndex(of: ".").flatMap { base[$0...].contains("/") ? nil : $0 } ?? base.endIndex
            name = "\(base[..<dot])_\(suffix)\(base[dot...])"
            suffix += 1
        }
    }
}

/// What a rebuilt export did with the files beside its XML.
public struct AppleHealthFileCounts: Sendable, Codable, Equatable {
    /// Routes, ECG recordings and clinical documents written into the zip.
    public var written = 0
    /// Files the capture's records referred to that its export did not hold: referred to in the
    /// rebuild too, and absent, as they were.
    public var notInCapture = 0
    /// Files the archive never held the content of (routes of captures before it kept tracks).
    public var notKept = 0
}
