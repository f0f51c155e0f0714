import Foundation
import GRDB
import HealthProbeArchive

/// What a rebuilt Apple export must remember until its XML is written: the names it gave the
/// files beside the XML, the files still to write, and the zip's central directory. A
/// ten-year export refers to tens of thousands of routes; held in memory they were the
/// rebuild's largest cost (46 MB at 7.5 million records, growing with the export). They wait
/// instead in a private temporary SQLite database, which SQLite creates already unlinked: no
/// other process can open it by name, and it is gone when the export ends, however it ends.
final class AppleExportScratch: ZipDirectoryStore {
    private let queue: DatabaseQueue

    /// A file the rebuild writes after its XML.
    struct PendingFile {
        var name: String
        var kind: AttachedFile.Kind
        var digest: String
        /// An ECG recording's CSV up to its voltages, written from its record while that was read.
        var head: [UInt8]?
    }

    init() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(
                sql:
                    "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -512; PRAGMA temp_store = FILE"
            )
        }
        // One transaction, never committed, spans the export: nothing is written out until
        // SQLite's small cache is full, and nothing needs keeping after.
        configuration.allowsUnsafeTransactions = true
        // An empty path is SQLite's private temporary database, on file.
        queue = try Self.told { try DatabaseQueue(path: "", configuration: configuration) }
        try access { db in
            try db.execute(sql: "BEGIN")
            try db.execute(
                sql: """
                    CREATE TABLE givenName (name TEXT PRIMARY KEY, digest TEXT) WITHOUT ROWID;
                    CREATE TABLE pendingFile (
                        sequence INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
                        digest TEXT NOT NULL, head BLOB);
                    CREATE TABLE centralHeader (sequence INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
                    """)
        }
    }

    /// What `name` was given to: nil when it is free, `.some(nil)` when it names a file the
    /// capture did not hold.
    func holder(of name: String) throws -> String?? {
        try access { db in
            let statement = try db.cachedStatement(sql: "SELECT digest FROM givenName WHERE name = ?")
            return try Row.fetchOne(statement, arguments: [name]).map { row in row[0] as String? }
        }
    }

    /// Gives a free `name` to the content `digest` (nil: a file the capture did not hold).
    func give(_ name: String, to digest: String?) throws {
        try access { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO givenName (name, digest) VALUES (?, ?)")
            try statement.execute(arguments: [name, digest])
        }
    }

    /// Adds a file to write after the XML, unless a file of that name is already to come.
    func addPending(_ file: PendingFile) throws {
        try access { db in
            let statement = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO pendingFile (name, kind, digest, head) VALUES (?, ?, ?, ?)")
            try statement.execute(arguments: [file.name, file.kind.rawValue, file.digest, file.head.map { Data($0) }])
        }
    }

    /// The files to write, in the order they were added, read a few at a time (`body` may write
    /// the zip, whose directory waits here too).
    func forEachPending(_ body: (PendingFile) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let batch = try access { db in
                try Row.fetchAll(
                    db.cachedStatement(
                        sql:
                            "SELECT sequence, name, kind, digest, head FROM pendingFile WHERE sequence > ? ORDER BY sequence LIMIT 64"
                    ), arguments: [after])
            }
            guard let last = batch.last else { return }
            after = last[0]
            for row in batch {
                guard let kind = AttachedFile.Kind(rawValue: row[2]) else { continue }
                try body(
                    PendingFile(name: row[1], kind: kind, digest: row[3], head: (row[4] as Data?).map { [UInt8]($0) }))
            }
        }
    }

    func keep(_ header: [UInt8]) throws {
        try access { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO centralHeader (bytes) VALUES (?)")
            try statement.execute(arguments: [Data(header)])
        }
    }

    func forEachHeader(_ body: ([UInt8]) throws -> Void) throws {
        try access { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT bytes FROM centralHeader ORDER BY sequence")
            while let row = try rows.next() { try body([UInt8](row[0] as Data)) }
        }
    }

    private func access<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.told { try queue.inDatabase(body) }
    }

    /// A failure of the temporary file, said as the export's (a full temporary folder, most
    /// likely; SQLite puts it in `$SQLITE_TMPDIR`, `$TMPDIR`, else /var/tmp or /tmp), without the
    /// statement SQLite was running.
    private static func told<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw ExportFailure.failed(
                problem:
                    "the temporary file for the files beside the XML failed (\(error.message ?? "\(error.resultCode)")): "
                    + "free space where temporary files go ($TMPDIR, else /var/tmp or /tmp) and export again")
        }
    }
}
