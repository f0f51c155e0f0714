import Foundation
import GRDB

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
            sql: "SELECT type, sourceName, numericValue, startDate, strictFingerprint FROM record WHERE \(condition)",
            arguments: arguments)
        var read = 0
        var columns = TotalsColumns()
        while try rows.step() {
            read += 1
            if read % 4_096 == 0, cancellation?.isCancelled == true { throw CancellationError() }
            columns.read(rows, body)
        }
    }

    /// The totals' columns of a cursor's row — type, source, value, start and strict fingerprint,
    /// in that order — keeping the last type and source names, so that a run of rows alike makes
    /// no new strings.
    struct TotalsColumns {
        private var type: (bytes: [UInt8], name: String) = ([], "")
        private var source: (bytes: [UInt8]?, name: String?) = (nil, nil)

        mutating func read(
            _ rows: SQLiteRowCursor, _ body: (String, String?, PreparedBatch.Numbers, Fingerprint) -> Void
        ) {
            guard let typeBytes = rows.bytes(0) else { return }
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
            let numbers = PreparedBatch.Numbers(numericValue: rows.double(2), startDate: rows.double(3))
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

    /// Adds another's totals: two stages that each counted part of one capture.
    mutating func merge(_ other: CaptureAggregates) {
        var merged = types
        for (type, theirs) in other.types {
            var mine = merged[type] ?? TypeTotals()
            var theirs = theirs
            mine.flushPendingSource()
            theirs.flushPendingSource()
            mine.count += theirs.count
            mine.checksum &+= theirs.checksum
            mine.sources.merge(theirs.sources, uniquingKeysWith: +)
            mine.days.merge(theirs.days) { mine, theirs in
                DayBin(
                    count: mine.count + theirs.count, hash: mine.hash &+ theirs.hash,
                    valueSum: mine.valueSum + theirs.valueSum, valueCount: mine.valueCount + theirs.valueCount)
            }
            merged[type] = mine
        }
        self = CaptureAggregates(types: merged)
    }
}
