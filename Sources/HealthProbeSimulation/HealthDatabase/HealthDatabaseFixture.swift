import Foundation
import GRDB
import HealthProbeArchive
import HealthProbeKit

/// Writes an iPhone Health database pair — `healthdb_secure.sqlite` and `healthdb.sqlite` — from
/// synthetic samples, with the tables as published from real devices (docs/BACKUP.md): the
/// iOS 13.4.1 layout plaso dumped, or the later one (sources named through `logical_sources`,
/// correlations as `associations`). Only the columns HealthProbe reads are filled; the rest of
/// each table is as the schema declares it.
public enum HealthDatabaseFixture {
    public enum Layout: Sendable {
        case iOS13, iOS17
    }

    public struct Sample: Sendable {
        public var uuid = UUID()
        public var type: String
        /// Seconds since 1970.
        public var start: Double
        public var end: Double
        public var created: Double
        /// A quantity in the database's canonical unit, or a category's raw value.
        public var value: Double?
        public var activityType: Int?
        public var source = 1
        public var device: Int?
        public var sourceVersion = "10.1"
        public var metadata: [(key: String, valueType: Int, string: String?, number: Double?)] = []
        public var syncIdentifier: String?
        public var syncVersion: Double?
        /// A series sample (heart rate or energy packed by healthd).
        public var isSeries = false

        public init(type: String, start: Double, end: Double? = nil, created: Double? = nil, value: Double? = nil) {
            self.type = type
            self.start = start
            self.end = end ?? start
            self.created = created ?? start
            self.value = value
        }
    }

    public struct Tombstone: Sendable {
        public var uuid = UUID()
        public var type: String
        public var start: Double
        public var end: Double
        public var deletedAt: Double
        public var source = 1

        public init(type: String, start: Double, end: Double? = nil, deletedAt: Double) {
            self.type = type
            self.start = start
            self.end = end ?? start
            self.deletedAt = deletedAt
        }
    }

    static let cocoa = HealthDatabaseTypes.referenceDate

    /// Writes the pair into `folder`; `sources` are the source names by their number from 1,
    /// `devices` the devices likewise.
    public static func write(
        to folder: URL, layout: Layout = .iOS13, sources: [String] = ["Test User\u{2019}s Apple Watch"],
        devices: [HealthSample.Device] = [], samples: [Sample], tombstones: [Tombstone] = []
    ) throws {
        let secure = try DatabaseQueue(path: folder.appendingPathComponent(HealthDatabaseReader.secureName).path)
        try secure.write { db in
            try db.execute(sql: secureSchema(layout))
            var provenances: [String: Int64] = [:]
            func provenance(source: Int, device: Int?, version: String) throws -> Int64 {
                let key = "\(source)|\(device ?? 0)|\(version)"
                if let id = provenances[key] { return id }
                try db.execute(
                    sql: """
                        INSERT INTO data_provenances (sync_provenance, origin_product_type, origin_build,
                            local_product_type, local_build, source_id, device_id, source_version, tz_name,
                            origin_major_version, origin_minor_version, origin_patch_version, derived_flags)
                        VALUES (0, 'Watch6,2', '20A000', 'iPhone13,2', '20A000', ?, ?, ?, 'Etc/UTC', 17, 0, 0, 0)
                        """, arguments: [source, device ?? 0, version])
                provenances[key] = db.lastInsertedRowID
                return db.lastInsertedRowID
            }
            var keys: [String: Int64] = [:]
            for sample in samples {
                let code = try requireCode(sample.type)
                let id = try object(
                    db, uuid: sample.uuid,
                    provenance: provenance(source: sample.source, device: sample.device, version: sample.sourceVersion),
                    type: 1, created: sample.created)
                try db.execute(
                    sql: "INSERT INTO samples (data_id, start_date, end_date, data_type) VALUES (?, ?, ?, ?)",
                    arguments: [id, sample.start - cocoa, sample.end - cocoa, code])
                let kind = HealthDatabaseTypes.byCode[code]?.kind
                if kind == .quantity, let value = sample.value {
                    try db.execute(
                        sql: "INSERT INTO quantity_samples (data_id, quantity) VALUES (?, ?)", arguments: [id, value])
                } else if kind == .category, let value = sample.value {
                    try db.execute(
                        sql: "INSERT INTO category_samples (data_id, value) VALUES (?, ?)",
                        arguments: [id, Int(value)])
                } else if kind == .workout {
                    try db.execute(
                        sql: "INSERT INTO workouts (data_id, duration, activity_type) VALUES (?, ?, ?)",
                        arguments: [id, sample.end - sample.start, sample.activityType ?? 37])
                }
                if sample.isSeries {
                    try db.execute(
                        sql: "INSERT INTO quantity_sample_series (data_id, count, hfd_key) VALUES (?, 1, ?)",
                        arguments: [id, id])
                }
                if let sid = sample.syncIdentifier {
                    try db.execute(
                        sql: """
                            INSERT INTO external_sync_ids (object_id, source_id, object_code, sid, version, deleted)
                            VALUES (?, ?, ?, ?, ?, 0)
                            """, arguments: [id, sample.source, code, sid, sample.syncVersion ?? 0])
                }
                for entry in sample.metadata {
                    if keys[entry.key] == nil {
                        try db.execute(sql: "INSERT INTO metadata_keys (key) VALUES (?)", arguments: [entry.key])
                        keys[entry.key] = db.lastInsertedRowID
                    }
                    try db.execute(
                        sql: """
                            INSERT INTO metadata_values (key_id, object_id, value_type, string_value, numerical_value,
                                date_value)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            keys[entry.key], id, entry.valueType, entry.string,
                            entry.valueType == 2 ? nil : entry.number,
                            entry.valueType == 2 ? entry.number.map { $0 - cocoa } : nil,
                        ])
                }
            }
            // A deletion keeps its object (type 2, the deletion's date) and its samples row; its
            // value and metadata go.
            for tombstone in tombstones {
                let id = try object(
                    db, uuid: tombstone.uuid,
                    provenance: provenance(source: tombstone.source, device: nil, version: "10.1"), type: 2,
                    created: tombstone.deletedAt)
                try db.execute(
                    sql: "INSERT INTO samples (data_id, start_date, end_date, data_type) VALUES (?, ?, ?, ?)",
                    arguments: [id, tombstone.start - cocoa, tombstone.end - cocoa, try requireCode(tombstone.type)])
            }
        }
        try secure.close()
        let meta = try DatabaseQueue(path: folder.appendingPathComponent(HealthDatabaseReader.sourcesName).path)
        try meta.write { db in
            try db.execute(sql: sourcesSchema(layout))
            for (index, name) in sources.enumerated() {
                if layout == .iOS13 {
                    try db.execute(
                        sql: "INSERT INTO sources (ROWID, uuid, bundle_id, name) VALUES (?, ?, ?, ?)",
                        arguments: [index + 1, Data(count: 16), "com.example.source\(index + 1)", name])
                } else {
                    try db.execute(
                        sql: "INSERT INTO logical_sources (ROWID, bundle_id) VALUES (?, ?)",
                        arguments: [index + 1, "com.example.source\(index + 1)"])
                    try db.execute(
                        sql: "INSERT INTO sources (ROWID, uuid, logical_source_id, name) VALUES (?, ?, ?, ?)",
                        arguments: [index + 1, Data(count: 16), index + 1, name])
                }
            }
            for (index, device) in devices.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO source_devices (ROWID, name, manufacturer, model, hardware, firmware, software,
                            localIdentifier, FDAUDI)
                        VALUES (?, ?, ?, ?, ?, ?, ?, '__NONE__', '__NONE__')
                        """,
                    arguments: [
                        index + 1, device.name ?? "__NONE__", device.manufacturer ?? "__NONE__",
                        device.model ?? "__NONE__", device.hardware ?? "__NONE__", device.firmware ?? "__NONE__",
                        device.software ?? "__NONE__",
                    ])
            }
        }
        try meta.close()
    }

    private static func object(_ db: Database, uuid: UUID, provenance: Int64, type: Int, created: Double) throws
        -> Int64
    {
        try db.execute(
            sql: "INSERT INTO objects (uuid, provenance, type, creation_date) VALUES (?, ?, ?, ?)",
            arguments: [withUnsafeBytes(of: uuid.uuid) { Data($0) }, provenance, type, created - cocoa])
        return db.lastInsertedRowID
    }

    private static func requireCode(_ type: String) throws -> Int {
        guard let code = HealthDatabaseTypes.code(of: type) else { throw FixtureError(message: "no code for \(type)") }
        return code
    }

    /// The tables of `healthdb_secure.sqlite` HealthProbe reads, as iOS 13.4.1 declares them
    /// (plaso's dump); the later layout links correlations through `associations`.
    static func secureSchema(_ layout: Layout) -> String {
        var schema = """
            CREATE TABLE samples (data_id INTEGER PRIMARY KEY, start_date REAL, end_date REAL, data_type INTEGER);
            CREATE TABLE objects (data_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB UNIQUE,
                provenance INTEGER NOT NULL REFERENCES data_provenances (ROWID) ON DELETE CASCADE, type INTEGER,
                creation_date REAL);
            CREATE TABLE data_provenances (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, sync_provenance INTEGER NOT NULL,
                origin_product_type TEXT NOT NULL, origin_build TEXT NOT NULL, local_product_type TEXT NOT NULL,
                local_build TEXT NOT NULL, source_id INTEGER NOT NULL, device_id INTEGER NOT NULL,
                source_version TEXT NOT NULL, tz_name TEXT NOT NULL, origin_major_version INTEGER NOT NULL,
                origin_minor_version INTEGER NOT NULL, origin_patch_version INTEGER NOT NULL,
                derived_flags INTEGER NOT NULL);
            CREATE TABLE unit_strings (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, unit_string TEXT UNIQUE);
            CREATE TABLE quantity_samples (data_id INTEGER PRIMARY KEY, quantity REAL, original_quantity REAL,
                original_unit INTEGER REFERENCES unit_strings (ROWID) ON DELETE NO ACTION);
            CREATE TABLE category_samples (data_id INTEGER PRIMARY KEY, value INTEGER);
            CREATE TABLE metadata_keys (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE);
            CREATE TABLE metadata_values (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, key_id INTEGER, object_id INTEGER,
                value_type INTEGER NOT NULL DEFAULT 0, string_value TEXT, numerical_value REAL, date_value REAL,
                data_value BLOB);
            CREATE TABLE external_sync_ids (object_id INTEGER PRIMARY KEY REFERENCES objects (data_id)
                ON DELETE CASCADE, source_id INTEGER NOT NULL, object_code INTEGER NOT NULL, sid TEXT NOT NULL,
                version REAL NOT NULL, deleted INTEGER NON NULL);
            CREATE TABLE quantity_sample_series (data_id INTEGER PRIMARY KEY REFERENCES samples (data_id)
                ON DELETE CASCADE, count INTEGER NOT NULL DEFAULT 0, insertion_era INTEGER,
                hfd_key INTEGER UNIQUE NOT NULL);
            CREATE TABLE workouts (data_id INTEGER PRIMARY KEY, duration REAL, total_energy_burned REAL,
                total_basal_energy_burned REAL, total_distance REAL, activity_type INTEGER, goal_type INTEGER,
                goal REAL, total_w_steps REAL, total_flights_climbed REAL, condenser_version INTEGER,
                condenser_date REAL);
            """
        switch layout {
        case .iOS13:
            schema += """

                CREATE TABLE correlations (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, correlation INTEGER,
                    object INTEGER, provenance INTEGER, UNIQUE(correlation, object));
                """
        case .iOS17:
            schema += """

                CREATE TABLE associations (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, parent_id INTEGER,
                    child_id INTEGER, UNIQUE(parent_id, child_id));
                """
        }
        return schema
    }

    /// `healthdb.sqlite`'s sources and devices: iOS 13 names a source's bundle in `sources`,
    /// later versions through `logical_sources`.
    static func sourcesSchema(_ layout: Layout) -> String {
        let devices = """
            CREATE TABLE source_devices( ROWID INT, name TEXT, manufacturer TEXT, model TEXT, hardware TEXT,
                firmware TEXT, software TEXT, localIdentifier TEXT, FDAUDI TEXT, creation_date REAL,
                sync_provenance INT, uuid );
            """
        switch layout {
        case .iOS13:
            return devices + """

                CREATE TABLE sources( ROWID INT, uuid, bundle_id TEXT, name TEXT, source_options INT, local_device INT,
                    product_type TEXT, deleted INT, mod_date REAL, provenance INT, sync_anchor INT,
                    owner_bundle_id TEXT );
                """
        case .iOS17:
            return devices + """

                CREATE TABLE logical_sources (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, bundle_id TEXT);
                CREATE TABLE sources( ROWID INT, uuid, logical_source_id INT, name TEXT, source_options INT,
                    product_type TEXT, deleted INT, mod_date REAL, provenance INT, sync_anchor INT );
                """
        }
    }

    struct FixtureError: Error {
        var message: String
    }
}
