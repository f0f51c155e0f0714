import AppleHealthExport
internal import GRDB
internal import GRDBSQLite

/// An export's rows by named column, through ``SQLiteRowCursor``.
/// Its accessors are inlinable: an export calls them twenty times a row, from another module.
package final class ArchivedRecordCursor {
    @usableFromInline let rows: SQLiteRowCursor

    package enum Column: Int32 {
        case id, kind, type, sourceName, sourceVersion, deviceId, unit, value, numericValue, creationDate
        case startDate, endDate, metadata, details, healthKitUUID, firstSeenCapture, lastSeen, goneAt, goneReason
    }

    init(_ db: Database, sql: String, arguments: StatementArguments) throws {
        rows = try SQLiteRowCursor(db, sql: sql, arguments: arguments)
    }

    /// Moves to the next row; false at the end.
    package func step() throws -> Bool { try rows.step() }

    @inlinable package func isNull(_ column: Column) -> Bool { rows.isNull(column.rawValue) }

    @inlinable package func integer(_ column: Column) -> Int64? { rows.integer(column.rawValue) }

    @inlinable package func double(_ column: Column) -> Double? { rows.double(column.rawValue) }

    /// The column's UTF-8 bytes in place; nil for NULL.
    @inlinable package func text(_ column: Column) -> UnsafeBufferPointer<UInt8>? { rows.bytes(column.rawValue) }

    @inlinable package func string(_ column: Column) -> String? { rows.string(column.rawValue) }
}
