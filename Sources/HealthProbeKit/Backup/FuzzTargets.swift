import AppleHealthExport
import Foundation
import GRDB
import HealthProbeArchive

/// The readers of input HealthProbe did not write, as entry points for the fuzzers
/// (`Scripts/fuzz.sh`, libFuzzer) and for the replay of their corpus in the tests: each takes any
/// bytes and must return — no trap, no hang, no memory without bound — whatever they hold.
public enum FuzzTargets {
    /// A backup's binary property list, and a `Manifest.db` file record read from it.
    public static func propertyList(_ bytes: [UInt8]) {
        _ = try? BinaryPropertyList.parse(Data(bytes))
        _ = try? FileRecord(Data(bytes))
    }

    /// The archive's canonical JSON text (metadata, details), read back as the SQLite export does.
    public static func canonicalJSON(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer { CanonicalJSON(canonicalText: $0) }
    }

    /// A clinical record's JSON document: its budget, its canonical form, and what changed
    /// against itself reversed (both parses).
    public static func clinicalDocument(_ bytes: [UInt8]) {
        _ = ClinicalDocument.canonical(bytes)
        _ = ClinicalDocument.changedKeys(from: bytes, to: bytes.reversed())
    }

    /// A workout route's GPX file, fed in two chunks as a stream would.
    public static func route(_ bytes: [UInt8]) {
        let parser = GPXTrackParser(path: "/workout-routes/fuzz.gpx")
        let half = bytes.count / 2
        _ = try? bytes.withUnsafeBytes { all in
            try parser.feed(UnsafeRawBufferPointer(rebasing: all[..<half]))
            try parser.feed(UnsafeRawBufferPointer(rebasing: all[half...]))
            _ = try parser.finish()
        }
    }

    /// A backup's keybag (its structure; no password is tried).
    public static func keybag(_ bytes: [UInt8]) {
        _ = try? BackupKeybag(Data(bytes))
    }

    /// A Health database whose rows hold what the bytes say — each value NULL, an integer, a
    /// real, text or bytes — read as a check reads one. `folder` holds the database while it is
    /// read. Returns whether the reader got as far as reading its samples.
    @discardableResult
    public static func healthDatabaseRows(_ bytes: [UInt8], folder: URL) -> Bool {
        let path = folder.appendingPathComponent(HealthDatabaseReader.secureName).path
        try? FileManager.default.removeItem(atPath: path)
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: schema)
                var values = FuzzValues(bytes)
                for (table, columns) in tables {
                    for _ in 0..<2 {
                        let marks = columns.map { _ in "?" }.joined(separator: ", ")
                        try db.execute(
                            sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(marks))",
                            arguments: StatementArguments(
                                columns.map { $0 == "ROWID" ? Int64(values.byte()).databaseValue : values.next() }))
                    }
                }
            }
            try queue.close()
            let reader = try HealthDatabaseReader(path: path, workFolder: folder)
            _ = try reader.forEachSample { _ in }
            _ = try reader.tombstones()
            _ = try reader.latestEntryDate()
            return true
        } catch {
            // A refusal is an answer; only a trap or a hang is a finding.
            return false
        }
    }

    private static let tables: [(String, [String])] = [
        ("samples", ["data_id", "start_date", "end_date", "data_type"]),
        ("objects", ["data_id", "uuid", "provenance", "type", "creation_date"]),
        ("data_provenances", ["ROWID", "source_id", "device_id", "source_version"]),
        ("quantity_samples", ["data_id", "quantity"]), ("category_samples", ["data_id", "value"]),
        ("metadata_keys", ["ROWID", "key"]),
        ("metadata_values", ["object_id", "key_id", "value_type", "string_value", "numerical_value", "date_value"]),
        ("external_sync_ids", ["object_id", "sid", "version"]), ("workouts", ["data_id", "activity_type"]),
        ("quantity_sample_series", ["data_id", "hfd_key"]),
    ]

    /// The tables every version has and the optional ones, without column types, so that a
    /// value keeps whatever type it is given.
    private static let schema = tables.map { table, columns in
        "CREATE TABLE \(table) (\(columns.filter { $0 != "ROWID" }.joined(separator: ", ")));"
    }.joined(separator: "\n")
}

/// Values drawn from fuzzer bytes: a byte chooses the type, the next ones the value.
private struct FuzzValues {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    mutating func next() -> DatabaseValue {
        switch byte() % 6 {
        case 0: return .null
        case 1: return Int64(Int8(bitPattern: byte())).databaseValue
        case 2:
            var raw: UInt64 = 0
            for _ in 0..<8 { raw = raw << 8 | UInt64(byte()) }
            return Int64(bitPattern: raw).databaseValue
        case 3:
            var raw: UInt64 = 0
            for _ in 0..<8 { raw = raw << 8 | UInt64(byte()) }
            return Double(bitPattern: raw).databaseValue
        case 4:
            let count = Int(byte() % 24)
            return String(decoding: (0..<count).map { _ in byte() }, as: UTF8.self).databaseValue
        default:
            let count = Int(byte() % 24)
            return Data((0..<count).map { _ in byte() }).databaseValue
        }
    }
}
