internal import GRDB

extension ArchiveStore {
    /// The writer's SQLite page cache while a capture is written, in KiB, unless one is given:
    /// the same for an export, a Health database and every face. The operating system's file
    /// cache already holds the archive's hot pages: 2 MiB imported 1M and 5M records as fast as
    /// 32 MiB did, in 57 MB instead of 96 MB (BENCHMARKS.md).
    public static let importPageCacheKiB = 2_048

    /// What a failed import must leave as it was: the captures, by count and highest id, and the
    /// highest record id. The import's capture, its records and its marks on older records are
    /// one transaction: equal before and after means none of it stayed. Read through indexes
    /// only, so it costs nothing at any size.
    package struct Footprint: Equatable {
        var captures: Int
        var lastCapture: Int64
        var lastRecord: Int64
    }

    /// Whether the archive holds any record: a capture into one that holds none can follow its
    /// records' timeline as they stream in (``StreamedTimeline``), which any later one cannot use.
    /// True when the archive cannot be read: then the capture's write says why.
    package func holdsRecords() -> Bool {
        (try? read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM record)") }) ?? true
    }

    package func footprint() throws -> Footprint {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM capture) AS captures, (SELECT IFNULL(MAX(id), 0) FROM capture) AS lastCapture,
                        (SELECT IFNULL(MAX(id), 0) FROM record) AS lastRecord
                    """)!
            return Footprint(captures: row["captures"], lastCapture: row["lastCapture"], lastRecord: row["lastRecord"])
        }
    }
}
