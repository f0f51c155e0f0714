import Foundation
import HealthProbeSimulation

extension SyntheticExportGenerator {
    /// Writes the export into `folder` as `name` says: a zip (`.zip`), the main XML file
    /// (`.xml`), or an unzipped export folder; returns where.
    public func write(named name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        if name.hasSuffix(".zip") {
            try writeZip(to: url)
        } else if name.hasSuffix(".xml") {
            try writeXML(to: url)
        } else {
            try writeFolder(to: url)
        }
        return url
    }
}
