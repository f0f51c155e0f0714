import Foundation
import GRDB

/// Reads an archive from outside, as a sceptical user would.
public enum ArchiveInspection {
    /// Every row of every table (but those `excluding` names) in a stable order.
    public static func digest(_ path: String, excluding: Set<String> = []) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var text = ""
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            for table in tables where !excluding.contains(table) {
                text += "#\(table)\n"
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map(
                    \.description)
                text += rows.sorted().joined(separator: "\n") + "\n"
            }
            return text
        }
    }

    /// Whether another connection holds the archive's write lock (a check inside its
    /// transaction): a `BEGIN IMMEDIATE` that may not wait is refused. One that succeeds is
    /// rolled back at once. For an archive in WAL mode, where a reader stands in no writer's way.
    public static func isBeingWritten(_ path: String) throws -> Bool {
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        do {
            try queue.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE; ROLLBACK") }
            return false
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return true
        }
    }

    public static func integrity(_ path: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: ";") }
    }

    public static func text(_ path: String, _ sql: String) throws -> String? {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchOne(db, sql: sql) }
    }

    /// Every row's first column, as text.
    public static func strings(_ path: String, _ sql: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: sql) }
    }

    public static func scalar(_ path: String, _ sql: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }

    /// Changes the archive behind HealthProbe's back, as damage or a bug would.
    public static func tamper(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in try db.execute(sql: sql) }
    }

    /// The archive's file as bytes, with its write-ahead log's when one is left: what "the file
    /// is unchanged" means, to the byte.
    public static func bytes(_ path: String) throws -> Data {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) { data.append(wal) }
        return data
    }
}
