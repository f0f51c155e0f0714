import GRDB
import HealthProbeArchive

/// The SQLite export's `dailySummaries`: count, sum, min, max and mean of every record with a
/// number that the capture holds, by type, local day (in the export's time zone) and unit.
/// Gathered while the rows are written, which costs less than a GROUP BY over them after.
struct DailySummaries {
    private struct Key: Hashable {
        var type: Int
        var day: Int64
        var unit: Int
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
    /// Types and units by number, and the last row's as bytes: most rows repeat them.
    private var names = Names()
    private var lastType: [UInt8] = []
    private var lastTypeNumber = 0
    private var lastUnit: [UInt8]?
    private var lastUnitNumber = 0

    private struct Names {
        var numbers: [String?: Int] = [:]
        var names: [String?] = []

        mutating func number(_ name: String?) -> Int {
            if let known = numbers[name] { return known }
            names.append(name)
            numbers[name] = names.count - 1
            return names.count - 1
        }
    }
    private static let record = Array("record".utf8)

    mutating func add(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext) {
        guard cursor.isNull(.goneAt), let value = cursor.double(.numericValue), let start = cursor.double(.startDate),
            let kind = cursor.text(.kind), kind.elementsEqual(Self.record), let type = cursor.text(.type)
        else { return }
        if !type.elementsEqual(lastType) {
            lastType = Array(type)
            lastTypeNumber = names.number(String(decoding: type, as: UTF8.self))
        }
        let unit = cursor.text(.unit)
        let sameUnit =
            switch (unit, lastUnit) {
            case (nil, nil): true
            case (let unit?, let last?): unit.elementsEqual(last)
            default: false
            }
        if !sameUnit {
            lastUnit = unit.map { Array($0) }
            lastUnitNumber = names.number(unit.map { String(decoding: $0, as: UTF8.self) })
        }
        let local = start + Double(context.timestamps.offset(at: start))
        let day = Int64((local / 86_400).rounded(.down))
        days[Key(type: lastTypeNumber, day: day, unit: lastUnitNumber), default: Statistics()].add(value)
    }

    func write(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE dailySummaries (
                    type TEXT NOT NULL, day TEXT NOT NULL, unit TEXT, count INTEGER NOT NULL, sum REAL, min REAL,
                    max REAL, mean REAL, PRIMARY KEY (type, day, unit))
                """)
        let insert = try db.makeStatement(
            sql:
                "INSERT INTO dailySummaries (type, day, unit, count, sum, min, max, mean) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        )
        let named = days.map {
            (type: names.names[$0.key.type] ?? "", day: $0.key.day, unit: names.names[$0.key.unit], $0.value)
        }
        let ordered = named.sorted { ($0.type, $0.day, $0.unit ?? "") < ($1.type, $1.day, $1.unit ?? "") }
        for (type, day, unit, statistics) in ordered {
            try insert.execute(arguments: [
                type, UTCText.day(day), unit, statistics.count, statistics.sum, statistics.minimum,
                statistics.maximum, statistics.sum / Double(statistics.count),
            ])
        }
    }
}
