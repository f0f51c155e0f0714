import Foundation

/// How far a check a test started has got, to stop or kill it in the middle of its work.
///
/// A first check writes its records into the archive as it reads them, so the archive's growth
/// says how far it has got. A re-check that meets every record again writes little before it
/// commits (its sightings fit the page cache): there, the check is known to be inside its
/// transaction once it holds the archive's write lock, and how far it has got since by what it
/// has read (`rchar` of `/proc/PID/io`: the export and the archive's pages alike).
public enum ProcessProgress {
    /// Waits, up to a minute, until `process` — a check of `archive` — has done `bytes` of its
    /// work (see above; where there is no `/proc`, a re-check as soon as it holds the lock), or
    /// has ended.
    public static func wait(untilDone bytes: Int, by process: Process, archive: String) throws {
        let deadline = Date().addingTimeInterval(60)
        guard FileManager.default.fileExists(atPath: archive) else {
            let sizeBefore = archiveBytes(archive)
            while process.isRunning, Date() < deadline, archiveBytes(archive) - sizeBefore < bytes { usleep(2_000) }
            return
        }
        while process.isRunning, Date() < deadline, try !ArchiveInspection.isBeingWritten(archive) { usleep(2_000) }
        guard let readBefore = bytesRead(by: process.processIdentifier) else { return }
        while process.isRunning, Date() < deadline,
            (bytesRead(by: process.processIdentifier) ?? .max) - readBefore < bytes
        {
            usleep(2_000)
        }
    }

    public static func bytesRead(by pid: Int32) -> Int? { counter("rchar", of: pid) }

    public static func bytesWritten(by pid: Int32) -> Int? { counter("wchar", of: pid) }

    private static func counter(_ name: String, of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
        else { return nil }
        return Int(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
    }

    /// Bytes of the archive and its write-ahead log, read with `stat`: no descriptor is opened,
    /// so no lock of the archive is touched.
    public static func archiveBytes(_ archive: String) -> Int {
        [archive, archive + "-wal"].reduce(0) { total, path in
            var status = stat()
            return total + (stat(path, &status) == 0 ? Int(status.st_size) : 0)
        }
    }
}
