import Foundation
internal import GRDB

/// Reads the samples C holds in time order (the start-date index), for the detectors that look
/// at one source's records side by side in time: self-overlap and conflicting values. On a first
/// capture every sample; afterwards only the days around what C brought, a day either side, since
/// only those can hold a new case.
///
/// A first capture reads a million rows here, so a row carries numbers only: its type and source
/// as one 64-bit key and its value (with its unit) as another, hashed from the column's bytes in
/// place (``SQLiteRowCursor``); their names are read once per key, for the findings.
struct TimelineScan {
    struct Row: Sendable {
        var id: Int64
        /// Type and source.
        var group: UInt64
        /// What self-overlap compares this record with (``OverlapClass``).
        var overlapClass: Int64
        /// Value and unit.
        var valueKey: UInt64
        var hasNumber: Bool
        var creationDate: Double?
        var startDate: Double
        var endDate: Double
        var synced: Bool
        var isArrival: Bool
    }

    /// Which of one source's records self-overlap compares: the stages of sleep with one another,
    /// time in bed, time awake, and each summed type chosen (``Thresholds/selfOverlapSummedTypes``)
    /// on its own.
    enum OverlapClass {
        static let none: Int64 = 0
        static func sql(summedTypes: Set<String>) -> String {
            let summed = summedTypes.sorted().map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }
            return """
                CASE WHEN type = '\(TimelineScan.sleepType)' THEN
                    CASE WHEN value GLOB '*InBed' THEN 2 WHEN value GLOB '*Awake' THEN 3 ELSE 1 END
                \(summed.isEmpty ? "" : "WHEN type IN (\(summed.joined(separator: ", "))) THEN 4")
                ELSE 0 END
                """
        }

        /// The same, for a record read as it streams past: sleep by its value's ending, a summed
        /// type chosen as one class, any other none.
        static func of(isSleep: Bool, isSummed: Bool, value: UnsafeRawBufferPointer?) -> Int64 {
            if isSummed && !isSleep { return 4 }
            guard isSleep else { return none }
            guard let value else { return 1 }
            if value.ends(with: "InBed") { return 2 }
            return value.ends(with: "Awake") ? 3 : 1
        }
    }

    let pair: CapturePair
    /// Summed types self-overlap compares, besides sleep.
    let summedTypes: Set<String>
    /// Each group key's type and source, read the first time the key is met.
    private(set) var names: [UInt64: (type: String, source: String?)] = [:]

    init(pair: CapturePair, summedTypes: Set<String>) {
        self.pair = pair
        self.summedTypes = summedTypes
    }

    mutating func forEachRow(_ db: Database, _ body: (Row) throws -> Void) throws {
        for window in try windows(db) {
            try read(
                db, where: "startDate >= :from AND startDate < :to", throughStartIndex: true,
                arguments: ["from": window.lowerBound, "to": window.upperBound], body)
        }
    }

    /// The timeline's rows C holds that also meet `condition`, in start order (ties in id order).
    /// `throughStartIndex` reads them through the start-date index, for a condition on the start
    /// that the index answers; otherwise SQLite finds them as it sees fit and sorts them.
    mutating func read(
        _ db: Database, where condition: String, throughStartIndex: Bool,
        arguments: [String: (any DatabaseValueConvertible)?],
        _ body: (Row) throws -> Void
    ) throws {
        let statement = try db.cachedStatement(
            sql: """
                SELECT id, startDate, endDate, creationDate, numericValue,
                    \(OverlapClass.sql(summedTypes: summedTypes)) AS overlapClass,
                    COALESCE(instr(metadata, '\(Self.syncIdentifierKey)') > 0, 0) AS synced,
                    NOT \(pair.heldByPrevious) AS isArrival, type, sourceName, unit, value
                FROM record \(throughStartIndex ? "INDEXED BY record_startDate" : "") \(RecordSightings.join)
                WHERE (\(condition)) AND startDate IS NOT NULL AND endDate IS NOT NULL AND kind = 'record'
                    AND (numericValue IS NOT NULL OR type = '\(Self.sleepType)')
                    AND type NOT GLOB '\(Self.excludedTypePrefix)*'
                    AND \(pair.heldByCurrent)
                ORDER BY startDate, id
                """)
        let cursor = try SQLiteRowCursor(
            db, statement: statement,
            arguments: StatementArguments(
                arguments.merging(["current": pair.current.id, "previous": pair.previous?.id ?? -1]) { $1 }))
        while try cursor.step() {
            let group = Self.key(cursor.bytes(8), cursor.bytes(9))
            if names[group] == nil { names[group] = (cursor.string(8) ?? "", cursor.string(9)) }
            let number = cursor.double(4)
            try body(
                Row(
                    id: cursor.integer(0) ?? 0, group: group, overlapClass: cursor.integer(5) ?? 0,
                    valueKey: Self.valueKey(
                        unitKey: Self.hash(cursor.bytes(10)), value: cursor.bytes(11), number: number),
                    hasNumber: number != nil, creationDate: cursor.double(3), startDate: cursor.double(1) ?? 0,
                    endDate: cursor.double(2) ?? 0, synced: cursor.integer(6) == 1,
                    isArrival: pair.previous == nil || cursor.integer(7) == 1))
        }
    }

    /// Sleep: compared with itself by kind of value, and read whatever its value.
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    /// What one meal's entries are: many records of one start by design, never a conflict.
    static let excludedTypePrefix = "HKQuantityTypeIdentifierDietary"
    /// A record that carries it replaces the record of the same identifier: no conflict.
    static let syncIdentifierKey: StaticString = "HKMetadataKeySyncIdentifier"

    /// What a conflict compares, as one 64-bit key: a number with its unit (70 and 70.0 kg are one
    /// value), else the value's text with its unit.
    static func valueKey(unitKey: UInt64, value: UnsafeBufferPointer<UInt8>?, number: Double?) -> UInt64 {
        guard let number else { return unitKey ^ hash(value) }
        return unitKey ^ (number.bitPattern &* 0x9E37_79B9_7F4A_7C15)
    }

    /// Two columns' bytes as one 64-bit key (MurmurHash3 of each, combined), NULL told apart
    /// from empty.
    static func key(_ first: UnsafeBufferPointer<UInt8>?, _ second: UnsafeBufferPointer<UInt8>?) -> UInt64 {
        (hash(first) &* 0x9E37_79B9_7F4A_7C15) ^ hash(second)
    }

    /// A column's bytes as 64 bits of MurmurHash3; NULL told apart from empty.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>?) -> UInt64 {
        guard let bytes else { return 0x5bd1_e995_5bd1_e995 }
        return MurmurHash3.hash128(UnsafeRawBufferPointer(bytes)).0
    }

    /// The spans of start dates to read: everything on a first capture; else the UTC days of C's
    /// arrivals, a day either side, runs of days joined.
    private func windows(_ db: Database) throws -> [Range<Double>] {
        guard pair.previous != nil else { return [-Double.greatestFiniteMagnitude..<Double.greatestFiniteMagnitude] }
        let days = try Int64.fetchAll(
            db,
            sql: """
                SELECT DISTINCT CAST(startDate / 86400 AS INTEGER) - (startDate < 0) FROM temp.arrival
                WHERE kind = 'record' AND startDate IS NOT NULL ORDER BY 1
                """)
        var runs: [ClosedRange<Int64>] = []
        for day in days {
            if let last = runs.last, day <= last.upperBound + 3 {
                runs[runs.count - 1] = last.lowerBound...max(last.upperBound, day)
            } else {
                runs.append(day...day)
            }
        }
        return runs.map { Double(($0.lowerBound - 1) * 86_400)..<Double(($0.upperBound + 2) * 86_400) }
    }
}
