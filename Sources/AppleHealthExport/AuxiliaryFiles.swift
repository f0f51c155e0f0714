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

extension AuxiliaryFiles {
    /// Walks the regular files beside the main XML whose names end in `suffix` (case ignored) —
    /// `export_cda.xml` — passing each path as the export writes it (`/export_cda.xml`) and a
    /// way to stream it. The main XML itself is never one of them.
    public func forEachFileBesideTheMainXML(
        endingWith suffix: String,
        _ body: (String, ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Void
    ) throws {
        let suffix = suffix.lowercased()
        if isZip {
            try forEachZipEntry { path, stream in
                let parts = path.split(separator: "/")
                guard parts.count == 1, path.lowercased().hasSuffix(suffix), !parts[0].hasPrefix("._") else { return }
                try withoutActuallyEscaping(stream) { stream in try body(path, stream) }
            }
            return
        }
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names.sorted() where name.lowercased().hasSuffix(suffix) && !name.hasPrefix("._") {
            let file = folder.appendingPathComponent(name)
            let type = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.type] as? FileAttributeType
            guard type == .typeRegular else { continue }
            try body("/\(name)") { consume in try AppleExportSource.streamFile(file, consume) }
        }
    }

    /// Walks the regular files of the export's `folder` whose names end in `.extension` (case
    /// ignored), in name order for a folder and directory order for a zip, passing each path as
    /// the export writes it (`/electrocardiograms/ecg_….csv`) and a way to stream it. Links,
    /// pipes and devices are never opened: a name in an export never leads out of it.
    public func forEachFile(
        in folder: String, withExtension fileExtension: String,
        _ body: (String, ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Void
    ) throws {
        let suffix = "." + fileExtension.lowercased()
        if isZip {
            try forEachZipEntry { path, stream in
                let parts = path.split(separator: "/")
                guard parts.count == 2, parts[0] == folder, path.lowercased().hasSuffix(suffix),
                    !parts[1].hasPrefix("._")
                else { return }
                try withoutActuallyEscaping(stream) { stream in try body(path, stream) }
            }
            return
        }
        guard let directory = self.folder?.appendingPathComponent(folder, isDirectory: true),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return }
        for name in names.sorted() where name.lowercased().hasSuffix(suffix) && !name.hasPrefix("._") {
            let file = directory.appendingPathComponent(name)
            let type = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.type] as? FileAttributeType
            guard type == .typeRegular else { continue }
            try body("/\(folder)/\(name)") { consume in try AppleExportSource.streamFile(file, consume) }
        }
    }
}
