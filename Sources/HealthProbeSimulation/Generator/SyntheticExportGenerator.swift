import Foundation
import HealthProbeKit
import ZIPFoundation

/// Writes realistic synthetic Apple Health exports of any size: Apple's DTD, one UTC offset per
/// export, HKDevice descriptions with changing addresses, correlations whose records also stand
/// at top level, workouts with events, statistics and GPX routes, metadata and beat lists.
/// Synthetic data only ("Test User", "iPhone-TESTDEVICE", 2000-01-01).
public struct SyntheticExportGenerator: Sendable {
    public let options: SyntheticExportOptions

    public init(options: SyntheticExportOptions) {
        self.options = options
    }

    /// What was written.
    public struct Output: Sendable {
        /// Top-level elements other than `ExportDate` and `Me`.
        public var elements: Int
        public var routes: [SyntheticRoute]
        public var xmlBytes: Int64
        /// The instant the export says it was made (its `ExportDate`).
        public var exportInstant: Int64
    }

    /// The sample type of each item in `items` (a blood-pressure item counts as its systolic
    /// record): what scenarios count their expectations with.
    public func sampleTypes(ofItems items: Range<Int>) -> [String] {
        var writer = SyntheticElementWriter(options: options)
        return items.map { SyntheticElementWriter.sampleType(ofItemText: writer.item($0).0) }
    }

    /// Writes the main XML to `url`.
    @discardableResult
    public func writeXML(to url: URL) throws -> Output {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: url.path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        defer { try? handle.close() }
        var writer = SyntheticElementWriter(options: options)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 21)
        var total: Int64 = 0
        func flush(force: Bool) throws {
            guard force || buffer.count >= 1 << 20 else { return }
            try handle.write(contentsOf: buffer)
            total += Int64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
        }
        buffer.append(contentsOf: writer.header().utf8)
        for index in 0..<options.elementCount {
            writer.writeElement(index, into: &buffer)
            try flush(force: false)
        }
        buffer.append(contentsOf: "</HealthData>\n".utf8)
        try flush(force: true)
        return Output(
            elements: writer.elementsWritten, routes: writer.routes, xmlBytes: total,
            exportInstant: writer.exportInstant)
    }

    /// Writes an unzipped export folder: `apple_health_export/` with the main XML, its routes and
    /// its ECG recordings.
    @discardableResult
    public func writeFolder(to folder: URL) throws -> Output {
        let root = folder.appendingPathComponent("apple_health_export")
        for subfolder in ["workout-routes", "electrocardiograms"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(subfolder), withIntermediateDirectories: true)
        }
        let output = try writeXML(to: root.appendingPathComponent(options.mainFileName))
        guard options.writesFiles else { return output }
        let files = SyntheticFiles(options: options, exportInstant: output.exportInstant)
        for route in output.routes {
            try Data(files.gpx(route).utf8).write(to: root.appendingPathComponent(route.path))
        }
        for recording in 0..<options.electrocardiograms {
            let (path, text) = files.electrocardiogram(recording)
            try Data(text.utf8).write(to: root.appendingPathComponent(path))
        }
        return output
    }

    /// Writes `export.zip` as the Health app does, the main XML streamed from a temporary file.
    @discardableResult
    public func writeZip(to url: URL) throws -> Output {
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthprobe-gen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staging) }
        let output = try writeFolder(to: staging)
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(
            with: "apple_health_export/\(options.mainFileName)", relativeTo: staging, compressionMethod: .deflate,
            bufferSize: 1 << 20)
        let files = SyntheticFiles(options: options, exportInstant: output.exportInstant)
        let paths =
            options.writesFiles
            ? output.routes.map(\.path) + (0..<options.electrocardiograms).map { files.electrocardiogram($0).path } : []
        for path in paths {
            let relative = path.drop(while: { $0 == "/" })
            try archive.addEntry(
                with: "apple_health_export/\(relative)", relativeTo: staging, compressionMethod: .deflate)
        }
        return output
    }
}
