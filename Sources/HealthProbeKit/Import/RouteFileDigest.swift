import AppleHealthExport
import Crypto
import Foundation
import GRDB

/// Fingerprints the GPX files workouts refer to — SHA-256 of the bytes and the number of track
/// points — so that a route that vanishes or changes between exports can be noticed. A file the
/// export refers to but does not hold is stored with no hash.
enum RouteFileDigest {
    struct Digest: Sendable {
        var hash: String
        var points: Int
    }

    /// Digests a zip's `workout-routes/*.gpx` files on a thread of its own while the records
    /// are imported, so that the import does not wait for them at the end. Holds at most
    /// `limit` digests (about 200 bytes each); the rest are read at the end.
    final class Prefetch: @unchecked Sendable {
        static let limit = 10_000
        private let done = DispatchSemaphore(value: 0)
        private var thread: JoinableThread?
        private let stopLock = NSLock()
        private var stopFlag = false
        private var digests: [String: Digest] = [:]
        private let isActive: Bool

        init(source: ExportSource) {
            guard case .zip = source.container else {
                isActive = false
                return
            }
            isActive = true
            thread = JoinableThread(name: "healthprobe.routes") { [self] in
                defer { done.signal() }
                guard let files = try? AuxiliaryFiles(source: source) else { return }
                var found: [String: Digest] = [:]
                try? files.forEachZipEntry { path, stream in
                    guard found.count < Self.limit, !stopped, path.hasPrefix("/workout-routes/"), path.hasSuffix(".gpx")
                    else { return }
                    found[path] = try? RouteFileDigest.digest(stream)
                }
                digests = found
            }
        }

        /// Asks the thread to stop reading (an import that failed needs no digests) and waits
        /// until it has ended.
        func stop() {
            stopLock.withLock { stopFlag = true }
            thread?.join()
        }

        private var stopped: Bool { stopLock.withLock { stopFlag } }

        /// The digests by path as the export writes it; waits for the thread.
        func results() -> [String: Digest] {
            guard isActive else { return [:] }
            done.wait()
            done.signal()
            return digests
        }

        /// The digests if the thread has finished, without waiting; nil while it runs.
        func readyDigests() -> [String: Digest]? {
            guard isActive, done.wait(timeout: .now()) == .success else { return nil }
            done.signal()
            return digests
        }
    }

    /// Fills in the hashes of this capture's route files that were stored without one: first
    /// from `prefetched`, then, for any still missing, by walking the zip once (reading only the
    /// files a workout refers to) or reading a folder file by file.
    static func store(captureID: Int64, source: ExportSource, prefetched: [String: Digest], _ db: Database) throws {
        let update = try db.cachedStatement(
            sql: "UPDATE routeFile SET contentHash = ?, pointCount = ? WHERE captureId = ? AND path = ?")
        let missing = try String.fetchAll(
            db, sql: "SELECT DISTINCT path FROM routeFile WHERE captureId = ? AND contentHash IS NULL",
            arguments: [captureID])
        var unresolved = 0
        for path in missing {
            guard let digest = prefetched[path] else {
                unresolved += 1
                continue
            }
            try update.execute(arguments: [digest.hash, digest.points, captureID, path])
        }
        guard unresolved > 0 else { return }
        let files = try AuxiliaryFiles(source: source)
        if files.isZip {
            let wanted = try db.cachedStatement(sql: "SELECT 1 FROM routeFile WHERE captureId = ? AND path = ? LIMIT 1")
            try files.forEachZipEntry { path, stream in
                guard prefetched[path] == nil, try Bool.fetchOne(wanted, arguments: [captureID, path]) == true else {
                    return
                }
                guard let digest = try? digest(stream) else { return }
                try update.execute(arguments: [digest.hash, digest.points, captureID, path])
            }
            return
        }
        let page = try db.cachedStatement(
            sql: "SELECT DISTINCT path FROM routeFile WHERE captureId = ? AND path > ? ORDER BY path LIMIT 1024")
        var after = ""
        while true {
            let paths = try String.fetchAll(page, arguments: [captureID, after])
            guard let last = paths.last else { return }
            for path in paths {
                var found = false
                guard let digest = try? digest({ consume in found = try files.stream(path, consume) }), found
                else { continue }
                try update.execute(arguments: [digest.hash, digest.points, captureID, path])
            }
            after = last
        }
    }

    static func digest(_ stream: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Digest {
        var hasher = SHA256()
        var counter = PatternCounter(pattern: Array("<trkpt".utf8))
        try stream { chunk in
            hasher.update(bufferPointer: chunk)
            counter.scan(chunk)
        }
        let hash = HexText.encode(hasher.finalize())
        return Digest(hash: hash, points: counter.count)
    }

    /// Counts occurrences of a byte pattern across chunk boundaries.
    struct PatternCounter {
        let pattern: [UInt8]
        var matched = 0
        var count = 0

        init(pattern: [UInt8]) {
            self.pattern = pattern
        }

        mutating func scan(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                if byte == pattern[matched] {
                    matched += 1
                    if matched == pattern.count {
                        count += 1
                        matched = 0
                    }
                } else {
                    matched = byte == pattern[0] ? 1 : 0
                }
            }
        }
    }
}
