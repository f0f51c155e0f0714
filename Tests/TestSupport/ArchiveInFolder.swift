import AppleHealthExport
import Foundation
import HealthProbeArchive
import HealthProbeSimulation

/// A test's archive and generated exports, in the test's own temporary folder: what every test
/// target's support shares; each adds how it checks an export (the archive's tests through the
/// capture feed, the kit's through its importer).
public protocol ArchiveInFolder {
    var folder: URL { get }
}

extension ArchiveInFolder {
    public var archivePath: String { folder.appendingPathComponent("archive.sqlite").path }

    public func openArchive() throws -> ArchiveStore {
        try ArchiveStore.open(at: archivePath)
    }

    /// Writes a synthetic export and returns its URL.
    public func generate(_ name: String, _ options: SyntheticExportOptions) throws -> URL {
        try SyntheticExportGenerator(options: options).write(named: name, in: folder)
    }

    public static func contentDigest(of path: String) throws -> String {
        try ArchiveInspection.digest(path)
    }
}
