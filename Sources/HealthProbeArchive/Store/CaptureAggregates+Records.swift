import Foundation
internal import GRDB

extension CaptureAggregates {
    /// Each record matching `condition`, as the totals read it: its type, source, numbers
    /// (the stored parsed value) and strict fingerprint, read column by column — a first sync's
    /// completion reads millions. A cancelled check stops within a few thousand records (the
    /// completion's transaction then rolls back, and the next window completes the check).
    static func forEachRecord(
        _ db: Database, _ cancellation: CancellationFlag?, where condition: String, _ capture: Int64,
        _ floor: Int64? = nil,
        _ body: (String, String?, PreparedBatch.Numbers, Fingerprint) -> Void
    ) throws {
        let arguments: StatementArguments = floor.map { [capture, $0] } ?? [capture]
        let rows = try SQLiteRowCursor(
            db,
            sql: """
                SELECT type, sourceName, numericValue, startDate, strictFingerprint,
                    instr(metadata, '\(SourceArrival.handEntryMark)') > 0
                FROM record \(RecordSightings.join) WHERE \(condition)
                """,
            arguments: arguments)
        var read = 0
        var type: (bytes: [UInt8], name: String) = ([], "")
        var source: (bytes: [UInt8]?, name: String?) = (nil, nil)
        while try rows.step() {
            read += 1
            if read % 4_096 == 0, cancellation?.isCancelled == true { throw CancellationError() }
            guard let typeBytes = rows.bytes(0) else { continue }
            if !typeBytes.elementsEqual(type.bytes) {
                type = (Array(typeBytes), String(decoding: typeBytes, as: UTF8.self))
            }
            let sourceBytes = rows.bytes(1)
            let sameSource =
                switch (sourceBytes, source.bytes) {
                case (nil, nil): true
                case (let now?, let last?): now.elementsEqual(last)
                default: false
                }
            if !sameSource {
                source = (sourceBytes.map(Array.init), sourceBytes.map { String(decoding: $0, as: UTF8.self) })
            }
            let numbers = PreparedBatch.Numbers(
                numericValue: rows.double(2), startDate: rows.double(3), enteredByHand: rows.integer(5) == 1)
            body(type.name, source.name, numbers, Fingerprint(bytes: rows.bytes(4)) ?? Fingerprint(high: 0, low: 0))
        }
    }

    /// Totals of the records `condition` selects (its ?1 is `capture`), read from the archive.
    static func of(_ db: Database, where condition: String, capture: Int64) throws -> CaptureAggregates {
        var aggregates = CaptureAggregates()
        try forEachRecord(db, nil, where: condition, capture) {
            aggregates.add(type: $0, sourceName: $1, numbers: $2, strict: $3)
        }
        return aggregates
    }
}
