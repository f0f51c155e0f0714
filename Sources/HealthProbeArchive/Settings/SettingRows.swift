internal import GRDB

/// The `setting` table, key by key: the one place its rows are read and written, for the
/// monitoring settings, the live path's state, the integrity check's result and the export
/// schedule alike.
enum SettingRows {
    /// The value kept under `key`; nil when none is.
    static func value(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
    }

    /// The values kept under keys that begin with `prefix`, by key.
    static func values(_ db: Database, prefix: String) throws -> [String: String] {
        try values(db, sql: "SELECT key, value FROM setting WHERE key LIKE ? ESCAPE '\\'", [escaped(prefix) + "%"])
    }

    /// The values kept under any of `keys`, by key.
    static func values(_ db: Database, keys: [String]) throws -> [String: String] {
        let marks = keys.map { _ in "?" }.joined(separator: ", ")
        return try values(db, sql: "SELECT key, value FROM setting WHERE key IN (\(marks))", keys)
    }

    /// Keeps `value` under `key`, or forgets `key` for nil.
    static func set(_ db: Database, _ key: String, _ value: String?) throws {
        if let value {
            try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
        }
    }

    private static func values(_ db: Database, sql: String, _ arguments: [String]) throws -> [String: String] {
        Dictionary(
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map {
                ($0["key"] as String, $0["value"] as String)
            }, uniquingKeysWith: { first, _ in first })
    }

    /// `prefix` with LIKE's wildcards taken literally.
    private static func escaped(_ prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
