import Foundation
import ZIPFoundation

/// The files an export's main XML refers to (`/workout-routes/route_….gpx`), resolved against
/// the folder holding it. A zip's directory is read once, however many files are asked for.
public final class AuxiliaryFiles {
    private let source: ExportSource
    private var archive: Archive?
    private var entries: [String: Entry] = [:]
    private var folder: URL?

    public init(source: ExportSource) throws {
        self.source = source
        switch source.container {
        case .file(let url):
            folder = url.deletingLastPathComponent()
        case .bytes:
            break
        case .zip(let archiveURL, let entryPath):
            let archive = try Archive(url: archiveURL, accessMode: .read)
            let prefix = entryPath.split(separator: "/").dropLast().joined(separator: "/")
            for entry in archive where entry.type == .file {
                var path = Substring(entry.path)
                if !prefix.isEmpty {
                    guard path.hasPrefix(prefix + "/") else { continue }
                    path = path.dropFirst(prefix.count + 1)
                }
                entries[String(path)] = entry
            }
            self.archive = archive
        }
    }

    /// Streams the file at `relativePath`; returns false when the export does not hold it.
    public func stream(_ relativePath: String, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let trimmed = String(relativePath.drop(while: { $0 == "/" }))
        guard !trimmed.split(separator: "/").contains("..") else { return false }
        if let folder {
            let file = folder.appendingPathComponent(trimmed)
            guard FileManager.default.fileExists(atPath: file.path) else { return false }
            try ExportSource.streamFile(file, consume)
            return true
        }
        guard let archive, let entry = entries[trimmed], case .zip(let archiveURL, _) = source.container else { return false }
        try source.streamZipEntry(entry, of: archive, named: archiveURL.lastPathComponent, consume)
        return true
    }
}
