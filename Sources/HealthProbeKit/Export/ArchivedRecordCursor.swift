import AppleHealthExport
import GRDB
import GRDBSQLite

/// An export's rows by named column, through ``SQLiteRowCursor``.
final class ArchivedRecordCursor {
    private let rows: SQLiteRowCursor

    enum Column: Int32 {
        case id, kind, type, sourceName, sourceVersion, deviceId, unit, value, numericValue, creationDate
        case startDate, endDate, metadata, details, healthKitUUID, firstSeenCapture, lastSeen, goneAt, goneReason
    }

    init(_ db: Database, sql: String, arguments: StatementArguments) throws {
        rows = try SQLiteRowCursor(db, sql: sql, arguments: arguments)
    }

    /// Moves to the next row; false at the end.
    func step() throws -> Bool { try rows.step() }

    func isNull(_ column: Column) -> Bool { rows.isNull(column.rawValue) }

    func integer(_ column: Column) -> Int64? { rows.integer(column.rawValue) }

    func double(_ column: Column) -> Double? { rows.double(column.rawValue) }

    /// The column's UTF-8 bytes in place; nil for NULL.
    func text(_ column: Column) -> UnsafeBufferPointer<UInt8>? { rows.bytes(column.rawValue) }

    func string(_ column: Column) -> String? { rows.string(column.rawValue) }
}
