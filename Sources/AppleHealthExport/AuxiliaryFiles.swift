import Foundation
import ZIPFoundation

/// The files an export's main XML refers to (`/workout-routes/route_….gpx`), resolved against
/// the folder holding it, in a zip or on disk. Nothing is held per file: a zip is walked once.
public final class AuxiliaryFiles {
    private let source: AppleExportSource
    private var archive: Archive?
    private var zipPrefix = ""
    private var folder: URL?

    public init(source: AppleExportSource) throws {
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
            try AppleExportSource.streamFile(file, consume)
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

/// Where one kind of file lives in an export: a folder beside the main XML (`workout-routes`, or
/// "" for the main XML's own folder) and how the files' names end (`.gpx`, `_cda.xml`; case
/// ignored). Names starting `._` (a Mac's resource forks) are never files of the export.
public struct ExportFilePlace: Sendable, Equatable {
    public var folder: String
    public var suffix: String

    public init(folder: String, suffix: String) {
        self.folder = folder
        self.suffix = suffix.lowercased()
    }

    /// Whether `path` (as the export writes it, `/workout-routes/…`) is a file of this place.
    func holds(_ path: String) -> Bool {
        holds(parts: path.split(separator: "/"))
    }

    /// Whether the path of these components (`workout-routes`, `route_….gpx`) is a file of this place.
    func holds(parts: [Substring]) -> Bool {
        let name: Substring
        if folder.isEmpty {
            guard parts.count == 1 else { return false }
            name = parts[0]
        } else {
            guard parts.count == 2, parts[0] == folder else { return false }
            name = parts[1]
        }
        return !name.hasPrefix("._") && name.lowercased().hasSuffix(suffix)
    }
}

extension AuxiliaryFiles {
    /// Walks the regular files of every place, passing each one's place (its index in `places`),
    /// its path as the export writes it (`/electrocardiograms/ecg_….csv`) and a way to stream it:
    /// a zip's entries once, in directory order, whatever the number of places; a folder's place
    /// by place, in name order. Links, pipes and devices are never opened: a name in an export
    /// never leads out of it.
    public func forEachFile(
        in places: [ExportFilePlace],
        _ body: (Int, String, ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Void
    ) throws {
        if isZip {
            try forEachZipEntry { path, stream in
                let parts = path.split(separator: "/")
                guard let place = places.firstIndex(where: { $0.holds(parts: parts) }) else { return }
                try withoutActuallyEscaping(stream) { stream in try body(place, path, stream) }
            }
            return
        }
        guard let root = folder else { return }
        for (index, place) in places.enumerated() {
            let directory = place.folder.isEmpty ? root : root.appendingPathComponent(place.folder, isDirectory: true)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            let prefix = place.folder.isEmpty ? "/" : "/\(place.folder)/"
            for name in names.sorted() where place.holds(prefix + name) {
                let file = directory.appendingPathComponent(name)
                let type = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.type] as? FileAttributeType
                guard type == .typeRegular else { continue }
                try body(index, prefix + name) { consume in try AppleExportSource.streamFile(file, consume) }
            }
        }
    }

    /// Walks the regular files of the export's `folder` whose names end in `.extension`, as
    /// ``forEachFile(in:_:)`` walks one place.
    public func forEachFile(
        in folder: String, withExtension fileExtension: String,
        _ body: (String, ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Void
    ) throws {
        try forEachFile(in: [ExportFilePlace(folder: folder, suffix: "." + fileExtension)]) { _, path, stream in
            try withoutActuallyEscaping(stream) { stream in try body(path, stream) }
        }
    }
}
