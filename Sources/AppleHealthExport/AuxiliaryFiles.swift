import Foundation
import ZIPFoundation

/// The files an export's main XML refers to (`/workout-routes/route_….gpx`), resolved against
/// the folder holding it, in a zip or on disk. Nothing is held per file: a zip is walked once.
public final class AuxiliaryFiles {
    private let source: ExportSource
    private var archive: Archive?
    private var zipPrefix = ""
    private var folder: URL?

    public init(source: ExportSource) throws {
        self.source = source
        switch source.container {
        case .file(let url):
            folder = url.deletingLastPathComponent()
        case .bytes:
            break
        case .zip(let archiveURL, let entryPath):
            let opened = try Archive(url: archiveURL, accessMode: .read)
            archive = opened
            let folder = entryPath.split(separator: "/").dropLast().joined(separator: "/")
            zipPrefix = folder.isEmpty ? "" : folder + "/"
        }
    }

    /// Whether the files live in a zip (walk them with ``forEachZipEntry(_:)``) rather than a folder.
    public var isZip: Bool { archive != nil }

    /// Streams the file at `relativePath` (as the export writes it, `/workout-routes/…`) from a
    /// folder; returns false when the export does not hold it.
    public func stream(_ relativePath: String, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let trimmed = String(relativePath.drop(while: { $0 == "/" }))
        guard !trimmed.split(separator: "/").contains("..") else { return false }
        if let folder {
            let file = folder.appendingPathComponent(trimmed)
            guard FileManager.default.fileExists(atPath: file.path) else { return false }
            try ExportSource.streamFile(file, consume)
            return true
        }
        guard let archive, let entry = archive[zipPrefix + trimmed], case .zip(let archiveURL, _) = source.container
        else { return false }
        try source.streamZipEntry(entry, of: archive, named: archiveURL.lastPathComponent, consume)
        return true
    }

    /// Walks every file of a zip once, in directory order, passing its path as the export writes
    /// it (`/workout-routes/…`) and a way to stream it; `body` decides which to read.
    public func forEachZipEntry(
        _ body: (String, ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Void
    ) throws {
        guard let archive, case .zip(let archiveURL, _) = source.container else { return }
        for entry in archive where entry.type == .file && entry.path.hasPrefix(zipPrefix) {
            let relative = "/" + entry.path.dropFirst(zipPrefix.count)
            try body(relative) { consume in
                try source.streamZipEntry(entry, of: archive, named: archiveURL.lastPathComponent, consume)
            }
        }
    }
}
