import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive

/// The archive's schema in one file: every table, column and index a fresh archive has after all
/// its migrations, as SQLite keeps them (a column added by a migration appears in its table's
/// statement), held against `docs/schema.sql`. A migration that changes the schema changes that
/// file in the same commit:
///
///     HEALTHPROBE_WRITE_SCHEMA=1 swift test --filter ArchiveSchemaSnapshot
@Suite("The archive's schema, in one file")
struct ArchiveSchemaSnapshotTests {
    static let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/schema.sql").standardized

    static func schema(of path: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let statements = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT name, sql FROM sqlite_master
                    WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
                    ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, tbl_name, name
                    """)
        }
        let header = """
            -- The HealthProbe archive's schema after every migration, as SQLite keeps it: made by
            -- ArchiveSchemaSnapshotTests from a fresh archive (HEALTHPROBE_WRITE_SCHEMA=1 writes it again).
            -- The migrations themselves are in Sources/HealthProbeArchive/Store/Migrations.

            """
        return header + statements.map { "\($0["sql"] as String);\n" }.joined(separator: "\n")
    }

    @Test func aFreshArchivesSchemaIsTheOneDocumented() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let path = folder.appendingPathComponent("archive.sqlite").path
        _ = try ArchiveStore.open(at: path)
        let found = try Self.schema(of: path)
        if ProcessInfo.processInfo.environment["HEALTHPROBE_WRITE_SCHEMA"] == "1" {
            try found.write(to: Self.snapshot, atomically: true, encoding: .utf8)
        }
        let documented = try String(contentsOf: Self.snapshot, encoding: .utf8)
        #expect(
            found == documented,
            "the schema differs from docs/schema.sql: HEALTHPROBE_WRITE_SCHEMA=1 swift test --filter ArchiveSchemaSnapshot"
        )
    }

    /// The archive two checks leave has the schema a fresh one has, and a check refused (an
    /// export cut short) leaves the schema as it was.
    @Test func aCheckedArchiveHasTheSameSchema() throws {
        let archive = try FedArchive.audited(records: 400)
        #expect(try Self.schema(of: #require(archive.store.path)) == String(contentsOf: Self.snapshot, encoding: .utf8))
        let refused = try FedArchive()
        let empty = refused.folder.appendingPathComponent("empty.xml")
        try Data("<HealthData locale=\"en_US\"><Record".utf8).write(to: empty)
        #expect(throws: (any Error).self) { try refused.store.writeExport(empty, thresholds: Thresholds()) }
        #expect(try Self.schema(of: #require(refused.store.path)) == String(contentsOf: Self.snapshot, encoding: .utf8))
    }

    /// An archive an earlier version wrote, migrated now, has the schema a fresh one has.
    @Test func anUpgradedArchiveHasTheSameSchema() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let fresh = folder.appendingPathComponent("fresh.sqlite").path
        let upgraded = folder.appendingPathComponent("upgraded.sqlite").path
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../HealthProbeKitTests/Fixtures/version3-archive.sqlite").standardized
        try FileManager.default.copyItem(atPath: fixture.path, toPath: upgraded)
        _ = try ArchiveStore.open(at: fresh)
        _ = try ArchiveStore.open(at: upgraded)
        #expect(try Self.schema(of: upgraded) == Self.schema(of: fresh))
    }
}
