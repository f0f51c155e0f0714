import Foundation
internal import GRDB
import Synchronization

/// A long period's day figures read in consecutive parts at once, one reader connection and one
/// core each: a year of a dense type is a hundred and forty thousand rows, and reading them is
/// most of the time of a year's answer. Each part reads its own lookback, so its figures are
/// those of one read. The parts are separate read transactions: if the archive moved between
/// them (its trail or its records grew), the period is read again in one.
enum ParallelDayFigures {
    /// A part is at least this many days: shorter periods are read in one.
    static let shortestPart: Int64 = 45

    /// The consecutive parts of `days`, at most one per core (two here), each at least
    /// ``shortestPart`` days long.
    static func parts(of days: ClosedRange<Int64>, cores: Int = ProcessInfo.processInfo.activeProcessorCount)
        -> [ClosedRange<Int64>]
    {
        let count = Int64(days.count)
        let parts = max(1, min(Int64(min(cores, 4)), count / shortestPart))
        guard parts > 1 else { return [days] }
        return (0..<parts).map { part in
            let first = days.lowerBound + count * part / parts
            let last = days.lowerBound + count * (part + 1) / parts - 1
            return first...last
        }
    }

    static func read(
        _ writer: any DatabaseWriter, types: [String], days: ClosedRange<Int64>, zone: TimeZone,
        cores: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> [DayFigure] {
        let parts = parts(of: days, cores: cores)
        guard parts.count > 1 else { return try readOnce(writer, types: types, days: days, zone: zone).figures }
        let results = Mutex(
            [Result<(figures: [DayFigure], generation: [Int64]), any Error>?](
                repeating: nil, count: parts.count))
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            let result = Result { try readOnce(writer, types: types, days: parts[index], zone: zone) }
            results.withLock { $0[index] = result }
        }
        let read = try results.withLock { $0 }.map { try $0!.get() }
        guard Set(read.map(\.generation)).count == 1 else {
            return try readOnce(writer, types: types, days: days, zone: zone).figures
        }
        return read.flatMap(\.figures)
    }

    private static func readOnce(
        _ writer: any DatabaseWriter, types: [String], days: ClosedRange<Int64>, zone: TimeZone
    ) throws -> (figures: [DayFigure], generation: [Int64]) {
        try writer.read { db in
            var reader = try DayFigureReader(db, types: types, zone: zone)
            let figures = try reader.read(days)
            let generation = try Row.fetchOne(
                db, sql: "SELECT (SELECT MAX(id) FROM auditEntry), (SELECT MAX(id) FROM record)")
            return (figures, [generation?[0] ?? 0, generation?[1] ?? 0])
        }
    }
}
