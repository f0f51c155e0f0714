import Foundation
import HealthProbeArchive

/// The private folders a check copies or decrypts Health databases into
/// (`healthprobe-db-PID-UUID`, owner-only): named by the process that made them, so that one left
/// by a process killed outright (SIGKILL, a power cut) is found and removed by the next check, and
/// held in a list a signal handler can empty before the process ends. Decrypted data never
/// outlives the process that needed it by more than the time until the next check.
public enum PrivateCopies {
    static let prefix = "healthprobe-db-"
    nonisolated(unsafe) private static var live: Set<String> = []
    private static let lock = NSLock()

    /// A new folder's location in `root`, named by this process.
    static func newFolder(in root: URL) -> URL {
        root.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)")
    }

    static func register(_ folder: URL) {
        lock.withLock { _ = live.insert(folder.path) }
    }

    /// Removes a folder and forgets it.
    static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
        lock.withLock { _ = live.remove(folder.path) }
    }

    /// Removes every folder this process holds now: what a signal handler calls before exiting.
    /// Another thread may still be writing a file into one (a decryption under way), so a folder
    /// that is not gone at the first try is tried again.
    public static func removeAll() {
        let folders = lock.withLock { live }
        for path in folders {
            for _ in 0..<20 {
                try? FileManager.default.removeItem(atPath: path)
                guard FileManager.default.fileExists(atPath: path) else { break }
                usleep(5_000)
            }
        }
    }

    /// Removes the folders in `root` whose process no longer runs; returns how many.
    @discardableResult
    public static func removeAbandoned(in root: URL = FileManager.default.temporaryDirectory) -> Int {
        var removed = 0
        for name in names(in: root.path, startingWith: prefix) {
            // `healthprobe-db-PID-UUID`, nothing else: a folder named otherwise is not ours to judge.
            let parts = name.dropFirst(prefix.count).split(separator: "-", maxSplits: 1)
            guard parts.count == 2, UUID(uuidString: String(parts[1])) != nil, let pid = Int32(parts[0]),
                pid != getpid(), !ProcessLiveness.isAlive(pid)
            else { continue }
            if (try? FileManager.default.removeItem(at: root.appendingPathComponent(name))) != nil { removed += 1 }
        }
        return removed
    }

    /// The names in `folder` that start with `prefix`, read entry by entry: every command looks in
    /// the temporary folder, which may hold tens of thousands of names, and only ours become
    /// strings (listing it whole took 2.5 MB and a tenth of a second at 28,000 names).
    static func names(in folder: String, startingWith prefix: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let wanted = Array(prefix.utf8)
        var found: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { bytes -> String? in
                guard let base = bytes.baseAddress, bytes.count > wanted.count,
                    memcmp(base, wanted, wanted.count) == 0
                else { return nil }
                return String(cString: base.assumingMemoryBound(to: CChar.self))
            }
            if let name { found.append(name) }
        }
        return found
    }
}
