internal import GRDB

/// What the archive held of an export's files as a capture started, for the reader of a
/// re-check: which contents not to compress again, and which content it read from a route's
/// bytes before (``RouteSourceDigest``), not to read the track again.
///
/// Asked of the archive itself, from the reading thread's own read connection in one read
/// transaction (``asking(_:)``), so that nothing is held in memory however many routes the
/// archive holds (ten years of them took 5 MB when they were loaded at the capture's start). The
/// capture's transaction holds the archive's write lock from its start, so that connection sees
/// what the archive held as the capture started, and nothing it names can go before the capture
/// is written. An archive in memory (one connection), or one a first check fills under a
/// rollback journal (which keeps readers out), is asked nothing: every route is read and every
/// content compressed, as a first check does.
package struct HeldFiles: Sendable {
    private let pool: DatabasePool?
    /// The asking connection's page cache while it asks, in KiB.
    static let pageCacheKiB = 256

    /// Knows of nothing.
    package init() {
        pool = nil
    }

    private init(pool: DatabasePool) {
        self.pool = pool
    }

    /// What `store` holds of files, for the reader of the capture that `db`, the store's writer,
    /// is writing.
    static func asked(of store: ArchiveStore, writing db: Database) throws -> HeldFiles {
        guard let pool = store.writer as? DatabasePool,
            try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal",
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM fileContent)") == true
        else { return HeldFiles() }
        return HeldFiles(pool: pool)
    }

    /// Runs `body` with the archive's answers, all in one read transaction; with answers that know
    /// of nothing when the archive cannot be read, which costs only time (a route read again).
    /// Errors are `body`'s own.
    package func asking<T>(_ body: (HeldFileAnswers) throws -> T) throws -> T {
        guard let pool else { return try body(HeldFileAnswers(nil)) }
        var asked = false
        do {
            return try pool.read { db in
                asked = true
                // Each question reads a few pages of an index: a small page cache for them (the
                // default 2 MB would fill with ten years of routes), the connection's own after.
                let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
                try db.execute(sql: "PRAGMA cache_size = -\(Self.pageCacheKiB)")
                defer { try? db.execute(sql: "PRAGMA cache_size = \(cache)") }
                return try body(HeldFileAnswers(db))
            }
        } catch  where !asked {
            return try body(HeldFileAnswers(nil))
        }
    }
}

/// The archive's answers about its files, within one read transaction on the thread that asked
/// (``HeldFiles/asking(_:)``). A question SQLite fails to answer is answered "not held": the
/// route is read, the content compressed.
package struct HeldFileAnswers {
    private let db: Database?
    /// Whether the archive knows any route's bytes: when it knows none, a route is read without
    /// looking first.
    package let knowsSources: Bool

    /// Answers that know of nothing.
    package static var nothing: HeldFileAnswers { HeldFileAnswers(nil) }

    fileprivate init(_ db: Database?) {
        self.db = db
        knowsSources = db.flatMap { try? Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM fileSource)") } ?? false
    }

    /// The content the archive read from bytes of this digest, without its bytes: the archive
    /// holds them.
    package func content(source: String) -> FileContent? {
        guard let db,
            let row = try? Row.fetchOne(
                db.cachedStatement(sql: "SELECT digest, items FROM fileSource WHERE source = ?"), arguments: [source])
        else { return nil }
        return FileContent(held: row["digest"], items: row["items"], source: source)
    }

    /// Whether the archive holds the content of `digest`.
    package func holds(_ digest: String) -> Bool {
        guard let db else { return false }
        return
            (try? Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM fileContent WHERE digest = ?)"),
                arguments: [digest])) == true
    }
}
