import Foundation
import GRDB

/// Reads the samples C holds in time order (the start-date index), for the detectors that look
/// at one source's records side by side in time: self-overlap and conflicting values. On a first
/// capture every sample; afterwards only the days around what C brought, a day either side, since
/// only those can hold a new case.
struct TimelineScan {
    struct Row: Sendable {
        var id: Int64
        var type: String
        var sourceName: String?
        var value: String?
        var numericValue: Double?
        var unit: String?
        var creationDate: Double?
        var startDate: Double
        var endDate: Double
        var synced: Bool
        var isArrival: Bool
    }

    let pair: CapturePair

    /// Types whose records a source may legitimately write over the same time: foods of one meal.
    static func isExempt(_ type: String) -> Bool {
        type.hasPrefix("HKQuantityTypeIdentifierDietary")
    }

    func forEachRow(_ db: Database, _ body: (Row) throws -> Void) throws {
        let statement = try db.cachedStatement(
            sql: """
                SELECT id, type, sourceName, value, numericValue, unit, creationDate, startDate, endDate,
                    COALESCE(metadata LIKE '%HKMetadataKeySyncIdentifier%', 0) AS synced,
                    NOT \(pair.heldByPrevious) AS isArrival
                FROM record INDEXED BY record_startDate
                WHERE startDate >= :from AND startDate < :to AND endDate IS NOT NULL AND kind = 'record'
                    AND (numericValue IS NOT NULL OR type = 'HKCategoryTypeIdentifierSleepAnalysis')
                    AND type NOT LIKE 'HKQuantityTypeIdentifierDietary%'
                    AND \(pair.heldByCurrent)
                ORDER BY startDate
                """)
        for window in try windows(db) {
            let cursor = try GRDB.Row.fetchCursor(
                statement,
                arguments: [
                    "from": window.lowerBound, "to": window.upperBound, "current": pair.current.id,
                    "previous": pair.previous?.id ?? -1,
                ])
            while let row = try cursor.next() {
                try body(
                    Row(
                        id: row[0], type: row[1], sourceName: row[2], value: row[3], numericValue: row[4], unit: row[5],
                        creationDate: row[6], startDate: row[7], endDate: row[8], synced: row[9],
                        isArrival: pair.previous == nil || row[10]))
            }
        }
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
