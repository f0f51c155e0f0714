import Foundation
internal import GRDB

/// For a capture into an empty archive, records are inserted many to a statement: one
/// statement's setup then serves 64 rows (a statement a row took a third of the writer's time;
/// 16 rows a statement were slower than 32, 32 than 64, and 128 no faster). Only an identical copy (or two records sharing an index key) makes a row skip;
/// then the statement's rows are taken back out and stored one at a time, each copy with its
/// occurrence.
final class RowAppender {
    static let rowsPerStatement = 64

    let binding: SQLiteBinding
    /// The largest record id so far: rows a statement inserts are numbered on from it.
    var largestRowID: Int64

    init(db: Database, captureID: Int64, largestRowID: Int64) throws {
        let values = (0..<Int32(Self.rowsPerStatement)).map { row in
            CaptureWrite.values(
                captureID: captureID, firstParameter: 1 + row * CaptureWrite.parametersPerRow, occurrence: "0")
        }
        binding = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO record (\(CaptureWrite.columns))
                    VALUES \(values.joined(separator: ",\n"))
                    """))
        self.largestRowID = largestRowID
    }
}

extension CaptureWrite {
    /// Stores `rows` (exactly ``RowAppender/rowsPerStatement`` of them) of `batch` in one
    /// statement, or one by one when a row was skipped.
    func append(
        _ batch: PreparedBatch, rows: Range<Int>, _ bytes: UnsafeRawBufferPointer, with appender: RowAppender
    ) throws {
        let floor = appender.largestRowID
        for (position, index) in rows.enumerated() {
            try bind(batch.rows[index], bytes, to: appender.binding, at: 1 + Int32(position) * Self.parametersPerRow)
        }
        if try appender.binding.stepCountingChanges(db) == rows.count {
            records += rows.count
            appender.largestRowID = floor + Int64(rows.count)
            try firstSightings.write((floor + 1)...appender.largestRowID)
            for (position, index) in rows.enumerated() {
                if let extras = batch.extras(at: index) { try remember(extras, recordID: floor + 1 + Int64(position)) }
            }
            return
        }
        try db.execute(sql: "DELETE FROM record WHERE id > ?", arguments: [floor])
        for index in rows {
            try add(batch.rows[index], extras: batch.extras(at: index), bytes)
        }
    }
}
