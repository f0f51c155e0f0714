import GRDB

/// The SQLite export's `dailySummaries`: count, sum, min, max and mean of every record with a
/// number that the capture holds, by type, local day (in the export's time zone) and unit.
/// Gathered while the rows are written, which costs less than a GROUP BY over them after.
struct DailySummaries {
    private struct Key: Hashable {
        var type: String
        var day: Int64
        var unit: String?
    }

    private struct Statistics {
        var count = 0
        var sum = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity

        mutating func add(_ value: Double) {
            count += 1
            sum += value
            minimum = Swift.min(minimum, value)
            maximum = Swift.max(maximum, value)
        }
    }

    private var days: [Key: Statistics] = [:]

    mutating func add(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext) {
        guard cursor.isNull(.goneAt), let value = cursor.double(.numericValue), let start = cursor.double(.startDate),
            let kind = cursor.text(.kind), kind.elementsEqual("record".utf8), let type = cursor.string(.type)
        else { return }
        let local = start + Double(context.timestamps.offset(at: start))
        let day = Int64((local / 86_400).rounded(.down))
        days[Key(type: type, day: day, unit: cursor.string(.unit)), default: Statistics()].add(value)
    }

    func write(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE dailySummaries (
                    type TEXT NOT NULL, day TEXT NOT NULL, unit TEXT, count INTEGER NOT NULL, sum REAL, min REAL,
                    max REAL, mean REAL, PRIMARY KEY (type, day, unit))
                """)
        let insert = try db.makeStatement(
            sql: "INSERT INTO dailySummaries (type, day, unit, count, sum, min, max, mean) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        let ordered = days.sorted { ($0.key.type, $0.key.day, $0.key.unit ?? "") < ($1.key.type, $1.key.day, $1.key.unit ?? "") }
        for (key, statistics) in ordered {
            try insert.execute(arguments: [
                key.type, UTCText.day(key.day), key.unit, statistics.count, statistics.sum, statistics.minimum,
                statistics.maximum, statistics.sum / Double(statistics.count),
            ])
        }
    }
}
