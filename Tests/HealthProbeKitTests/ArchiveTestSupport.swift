import AppleHealthExport
import Foundation
import GRDB

@testable import HealthProbeKit

/// Archives and generated exports for tests, each in its own temporary folder.
struct ArchiveTestSupport {
    let folder: URL

    init() throws {
        folder = try FixtureFiles.temporaryFolder()
    }

    var archivePath: String { folder.appendingPathComponent("archive.sqlite").path }

    func openArchive() throws -> ArchiveStore {
        try ArchiveStore.open(at: archivePath)
    }

    func check(_ url: URL, in store: ArchiveStore) throws -> ExportImporter.Result {
        try ExportImporter(store: store).importExport(ExportReader(url: url))
    }

    /// Writes a synthetic export and returns its URL.
    func generate(_ name: String, _ options: SyntheticExportOptions) throws -> URL {
        let url = folder.appendingPathComponent(name)
        let generator = SyntheticExportGenerator(options: options)
        if name.hasSuffix(".zip") {
            try generator.writeZip(to: url)
        } else if name.hasSuffix(".xml") {
            try generator.writeXML(to: url)
        } else {
            try generator.writeFolder(to: url)
        }
        return url
    }

    /// Every row of every table, in a stable order: equal before and after means the archive's
    /// content did not change.
    static func contentDigest(of path: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var text = ""
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            for table in tables {
                text += "#\(table)\n"
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map(\.description)
                text += rows.sorted().joined(separator: "\n") + "\n"
            }
            return text
        }
    }

    static func integrity(of path: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: ";") }
    }
}
