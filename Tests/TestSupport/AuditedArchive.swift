import AppleHealthExport
import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation

/// An archive on disk that two checks of synthetic exports filled: the second lost every 40th
/// record and duplicated some, so it holds anomalies, audit entries and day bins to show.
public struct AuditedArchive: Sendable {
    public let folder: URL
    public let path: String

    public init(records: Int = 3_000) throws {
        folder = try FixtureFiles.temporaryFolder()
        path = folder.appendingPathComponent("archive.sqlite").path
        let store = try ArchiveStore.open(at: path)
        var first = SyntheticExportOptions(elementCount: records, seed: 7)
        first.incidents = [SyntheticIncident(.omit, items: 200..<260)]
        var second = SyntheticExportOptions(elementCount: records, seed: 7, omitEveryNth: 40)
        second.incidents = [SyntheticIncident(.duplicate(copies: 3), items: 100..<130)]
        for (name, options) in [("first.xml", first), ("second.xml", second)] {
            let url = folder.appendingPathComponent(name)
            try SyntheticExportGenerator(options: options).writeXML(to: url)
            _ = try AppleExportImporter(store: store).importExport(AppleExportReader(url: url))
        }
    }

    public func open() throws -> ArchiveStore {
        try ArchiveStore.open(at: path, creating: false)
    }

    /// A synthetic export beside the archive, for a check of one's own.
    public func writeExport(named name: String, _ options: SyntheticExportOptions) throws -> URL {
        let url = folder.appendingPathComponent(name)
        if name.hasSuffix(".zip") {
            try SyntheticExportGenerator(options: options).writeZip(to: url)
        } else {
            try SyntheticExportGenerator(options: options).writeXML(to: url)
        }
        return url
    }
}
