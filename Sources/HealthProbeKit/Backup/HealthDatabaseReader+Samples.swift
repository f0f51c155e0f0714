import Foundation
import GRDB
import HealthProbeArchive

extension HealthDatabaseReader {
    /// Calls `body` with each sample the database holds (deleted ones left out), in the order
    /// stored, mapped as the live path maps HealthKit's: amounts in the units exports write,
    /// dates in seconds since 1970, metadata as text, the sync identifier and version among it.
    /// Returns how many samples of each code HealthProbe does not read were left out.
    @discardableResult
    public func forEachSample(_ body: (HealthSample) throws -> Void) throws -> [Int: Int] {
        try queue.read { db in
            var unread: [Int: Int] = [:]
            let metadata = try layout.hasMetadata ? Self.metadataCursor(db) : nil
            var pending = try metadata?.next()
            let samples = try Row.fetchCursor(db, sql: sampleQuery)
            while let row = try samples.next() {
                guard let id = row.foreignInteger(Column.id),
                    let code = row.foreignInteger(Column.type).map({ Int(truncatingIfNeeded: $0) })
                else {
                    unread[HealthDatabaseTypes.unreadableRow, default: 0] += 1
                    continue
                }
                var values: [String: String] = [:]
                while let entry = pending, entry.object <= id {
                    if entry.object == id { values[entry.key] = entry.value }
                    pending = try metadata?.next()
                }
                guard let entry = HealthDatabaseTypes.byCode[code] else {
                    unread[code, default: 0] += 1
                    continue
                }
                guard let sample = sample(row, entry, values) else {
                    unread[HealthDatabaseTypes.unreadableRow, default: 0] += 1
                    continue
                }
                try body(sample)
            }
            return unread
        }
    }

    /// Every deletion the database remembers, with those healthd made itself marked.
    package func tombstones() throws -> [HealthTombstone] {
        try queue.read { db in
            let series = try layout.hasSeries ? Self.seriesSpans(db) : [:]
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT o.uuid, o.creation_date, s.data_type, s.start_date, s.end_date, p.source_id
                    FROM objects AS o
                    LEFT JOIN samples AS s ON s.data_id = o.data_id
                    LEFT JOIN data_provenances AS p ON p.ROWID = o.provenance
                    WHERE o.type = 2
                    """
            ).compactMap { row in
                guard let uuid = Self.uuid(row.foreignData("uuid")) else { return nil }
                let start = row.foreignDate("start_date")
                let end = row.foreignDate("end_date")
                let code = row.foreignInteger("data_type").map { Int(truncatingIfNeeded: $0) }
                let sourceID = row.foreignInteger("source_id")
                var covered = false
                if let code, let sourceID, let start, let end {
                    covered =
                        series[SeriesKey(code: code, source: sourceID)]?.contains { span in
                            span.start <= start && span.end >= end
                        } ?? false
                }
                return HealthTombstone(
                    uuid: uuid, type: code.flatMap { HealthDatabaseTypes.byCode[$0]?.identifier }, startDate: start,
                    endDate: end,
                    deletedAt: row.foreignDate("creation_date") ?? HealthDatabaseTypes.referenceDate,
                    sourceName: sourceID.flatMap { sources[$0] }, isHousekeeping: covered)
            }
        }
    }

    /// The sample query's columns by position: read by index, not by name, a million times.
    private enum Column {
        static let id = 0, start = 1, end = 2, type = 3, uuid = 4, created = 5, source = 6, device = 7
        static let version = 8, quantity = 9, category = 10, activity = 11, syncID = 12, syncVersion = 13
    }

    private var sampleQuery: String {
        let columns = """
            s.data_id, s.start_date, s.end_date, s.data_type, o.uuid, o.creation_date,
            p.source_id, p.device_id, p.source_version, q.quantity, c.value,
            \(layout.hasWorkouts ? "w.activity_type" : "NULL"),
            \(layout.hasSyncIdentifiers ? "e.sid, e.version" : "NULL, NULL")
            """
        var joins = """
            FROM samples AS s JOIN objects AS o ON o.data_id = s.data_id
            LEFT JOIN data_provenances AS p ON p.ROWID = o.provenance
            LEFT JOIN quantity_samples AS q ON q.data_id = s.data_id
            LEFT JOIN category_samples AS c ON c.data_id = s.data_id
            """
        if layout.hasWorkouts { joins += "\nLEFT JOIN workouts AS w ON w.data_id = s.data_id" }
        if layout.hasSyncIdentifiers { joins += "\nLEFT JOIN external_sync_ids AS e ON e.object_id = s.data_id" }
        return "SELECT \(columns)\n\(joins)\nWHERE o.type IS NULL OR o.type != 2\nORDER BY s.data_id"
    }

    /// The sample a row holds; nil when a value it needs is missing or impossible (a date
    /// outside 1900–2200, a category value that is not a whole number, an endless amount).
    private func sample(_ row: Row, _ entry: HealthDatabaseTypes.Entry, _ metadata: [String: String])
        -> HealthSample?
    {
        guard let uuid = Self.uuid(row[Column.uuid] as DatabaseValue), let start = row.foreignDate(Column.start)
        else { return nil }
        let end = row.isForeignNull(Column.end) ? start : row.foreignDate(Column.end)
        let created = row.isForeignNull(Column.created) ? nil : row.foreignDate(Column.created)
        guard let end, row.isForeignNull(Column.created) || created != nil else { return nil }
        var metadata = metadata
        if let sid = row.foreignText(Column.syncID) { metadata[HealthSample.syncIdentifierKey] = sid }
        if let version = row.foreignDouble(Column.syncVersion) {
            metadata[HealthSample.syncVersionKey] = HealthRecord.numberText(version)
        }
        let sourceID = row.foreignInteger(Column.source)
        let deviceID = row.foreignInteger(Column.device)
        var sample = HealthSample(
            uuid: uuid, kind: entry.kind, type: entry.identifier,
            sourceName: sourceID.flatMap { sources[$0] } ?? "", sourceVersion: row.foreignText(Column.version),
            device: deviceID.flatMap { devices[$0] }, startDate: start, endDate: end, creationDate: created,
            metadata: metadata)
        switch entry.kind {
        case .quantity:
            guard let quantity = row.foreignDouble(Column.quantity), abs(quantity) < 1e15 else { return nil }
            sample.unit = entry.unit
            sample.value = entry.factor == 1 ? quantity : Self.withoutNoise(quantity * entry.factor)
        case .category:
            guard let value = row.foreignInteger(Column.category), abs(value) < 1 << 31 else { return nil }
            sample.value = Double(value)
        case .workout:
            sample.workoutActivityType = row.foreignInteger(Column.activity).map {
                HealthKitCatalog.workoutActivityTypeName(rawValue: UInt(clamping: max(0, $0)))
            }
        case .correlation, .electrocardiogram:
            break
        }
        return sample
    }

    /// A converted amount without the last bits a conversion leaves (1.2 count/s × 60 is
    /// 72.00000000000001): 15 significant digits, as much as a Double holds exactly.
    static func withoutNoise(_ value: Double) -> Double {
        guard value != 0, value.isFinite else { return value }
        let scale = pow(10, Double(14 - Int(floor(log10(abs(value))))))
        let cleaned = (value * scale).rounded() / scale
        return cleaned.isFinite ? cleaned : value
    }

    /// When the database was last written: its newest sample or deletion (seconds since 1970),
    /// the capture's date. Nil for an empty database.
    public func latestEntryDate() throws -> Double? {
        try queue.read { db in
            try Row.fetchOne(
                db, sql: "SELECT MAX(creation_date) FROM objects WHERE typeof(creation_date) IN ('integer', 'real')"
            )?.foreignDate(0)
        }
    }

    /// A stored UUID, when the value is 16 bytes.
    static func uuid(_ value: DatabaseValue) -> UUID? {
        guard case .blob(let data) = value.storage else { return nil }
        return uuid(data)
    }

    /// A stored UUID: 16 bytes in RFC 4122 order.
    static func uuid(_ data: Data?) -> UUID? {
        guard let data, data.count == 16 else { return nil }
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                    bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        }
    }

    struct MetadataEntry {
        var object: Int64
        var key: String
        var value: String
    }

    /// Metadata in object order, each value as text: strings as stored, numbers as exports write
    /// them, dates in UTC (ISO 8601, as the live path gives them), quantities with their unit.
    static func metadataCursor(_ db: Database) throws -> AnyCursor<MetadataEntry> {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT v.object_id, k.key, v.value_type, v.string_value, v.numerical_value, v.date_value
                FROM metadata_values AS v JOIN metadata_keys AS k ON k.ROWID = v.key_id
                ORDER BY v.object_id
                """)
        return AnyCursor(
            rows.compactMap { row -> MetadataEntry? in
                guard let object = row.foreignInteger("object_id"), let key = row.foreignText("key") else { return nil }
                let number = row.foreignDouble("numerical_value")
                let string = row.foreignText("string_value")
                let value: String? =
                    switch row.foreignInteger("value_type") {
                    case 1: number.map(HealthRecord.numberText)
                    case 2: row.foreignDate("date_value").map { UTCText.iso8601(seconds: $0) }
                    case 3:
                        number.map { [HealthRecord.numberText($0), string].compactMap { $0 }.joined(separator: " ") }
                    case 4: nil
                    default: string
                    }
                return value.map { MetadataEntry(object: object, key: key, value: $0) }
            })
    }

    struct SeriesKey: Hashable {
        var code: Int
        var source: Int64
    }

    /// The spans of the series samples still held, by type and source.
    static func seriesSpans(_ db: Database) throws -> [SeriesKey: [(start: Double, end: Double)]] {
        var spans: [SeriesKey: [(start: Double, end: Double)]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT s.data_type, s.start_date, s.end_date, p.source_id
                FROM quantity_sample_series AS q
                JOIN samples AS s ON s.data_id = q.data_id
                JOIN objects AS o ON o.data_id = q.data_id AND (o.type IS NULL OR o.type != 2)
                JOIN data_provenances AS p ON p.ROWID = o.provenance
                """)
        {
            guard let start = row.foreignDate("start_date"), let end = row.foreignDate("end_date"),
                let code = row.foreignInteger("data_type"), let source = row.foreignInteger("source_id")
            else { continue }
            spans[SeriesKey(code: Int(truncatingIfNeeded: code), source: source), default: []].append((start, end))
        }
        return spans
    }
}
