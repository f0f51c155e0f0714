import Foundation
import HealthProbeArchive

/// A file HealthProbe writes whole or not at all (an export, its manifest, a restore file): the
/// destination checked before any work, then a temporary beside it, synced and renamed into place.
enum WholeFile {
    /// Refuses a destination that is the archive or one of its files (the rename into place would
    /// replace it under SQLite's feet), that is not a regular file (a device, a pipe or a folder
    /// of that name: no `--force` is offered for one), or that exists unless `replacing`.
    static func checkDestination(_ paths: [String], archive: ArchiveStore, replacing: Bool) throws(ExportFailure) {
        for path in paths where archive.isOwnFile(path) {
            throw ExportFailure.outputIsTheArchive(path: path)
        }
        for path in paths where FileManager.default.fileExists(atPath: path) {
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            guard type == .typeRegular else {
                throw ExportFailure.notAFile(path: path, folder: type == .typeDirectory)
            }
            if !replacing { throw ExportFailure.outputExists(path: path) }
        }
    }

    static func syncToDisk(_ descriptor: Int32) throws(ExportFailure) {
        guard fsync(descriptor) == 0 else {
            throw ExportFailure.failed(problem: String(cString: strerror(errno)))
        }
    }

    static func rename(_ temporary: String, to path: String) throws(ExportFailure) {
        guard Foundation.rename(temporary, path) == 0 else {
            throw ExportFailure.cannotWrite(path: path, problem: String(cString: strerror(errno)))
        }
    }
}
