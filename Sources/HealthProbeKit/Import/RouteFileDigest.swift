import AppleHealthExport
import Crypto
import Foundation
import GRDB

/// Fingerprints the GPX files workouts refer to — SHA-256 of the bytes and the number of track
/// points — so that a route that vanishes or changes between exports can be noticed. A file the
/// export refers to but does not hold is stored with no hash.
enum RouteFileDigest {
    struct Digest {
        var hash: String
        var points: Int
    }

    static func store(
        _ references: [(recordID: Int64, path: String)], captureID: Int64, source: ExportSource, _ db: Database
    ) throws {
        guard !references.isEmpty else { return }
        let insert = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO routeFile (captureId, recordId, path, contentHash, pointCount) VALUES (?, ?, ?, ?, ?)")
        let files = try AuxiliaryFiles(source: source)
        for reference in references {
            let digest = try? digest(reference.path, in: files)
            try insert.execute(arguments: [captureID, reference.recordID, reference.path, digest?.hash, digest?.points])
        }
    }

    static func digest(_ path: String, in files: AuxiliaryFiles) throws -> Digest? {
        var hasher = SHA256()
        var counter = PatternCounter(pattern: Array("<trkpt".utf8))
        let found = try files.stream(path) { chunk in
            hasher.update(bufferPointer: chunk)
            counter.scan(chunk)
        }
        guard found else { return nil }
        let hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
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
