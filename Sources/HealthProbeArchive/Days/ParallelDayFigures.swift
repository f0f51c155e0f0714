import AppleHealthExport
import Foundation
internal import GRDB
import Synchronization

/// A long period's day figures, read in consecutive windows and handed over window by window in
/// day order, so that memory holds a few windows' figures, never the period's (ten years of every
/// type is a hundred thousand figures). A year of a dense type is a hundred and forty thousand
/// rows, and reading them is most of the time of the answer: with more than one core, readers
/// take the windows in turn (reader 0 the first, reader 1 the second, …), each in one read
/// transaction of its own connection for the whole period, a few windows ahead of what was
/// handed over at most. Each window reads its own lookback, so its figures are those of one read.
/// The readers' transactions must see one archive: if it moved between their starts (its trail
/// or its records grew), the period is read by one reader instead, before anything is handed over.
///
/// One period at a time is read by several readers: each holds a pooled connection while it
/// waits for the others' windows, so two such periods at once could each hold part of the pool
/// and wait for the rest; a period asked while another is being read is read by one reader.
enum ParallelDayFigures {
    private static let severalReadersBusy = Mutex(false)

    /// Days in a window: a period of fewer than two windows is read by one reader.
    static let windowDays: Int64 = 64
    /// How many windows a reader may have read beyond the one handed over last.
    static let windowsAhead = 2

    /// The consecutive windows of `days`, each ``windowDays`` long but the last.
    static func windows(of days: ClosedRange<Int64>) -> [ClosedRange<Int64>] {
        stride(from: days.lowerBound, through: days.upperBound, by: Int(windowDays)).map { first in
            first...min(days.upperBound, first + windowDays - 1)
        }
    }

    /// How many readers `days` is read by on `cores`.
    static func readers(of days: ClosedRange<Int64>, cores: Int) -> Int {
        min(max(1, min(cores, 4)), windows(of: days).count)
    }

    /// Every figure of `days`, in day order, then type order.
    static func read(
        _ writer: any DatabaseWriter, types: [String], days: ClosedRange<Int64>, zone: TimeZone,
        cores: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> [DayFigure] {
        var figures: [DayFigure] = []
        try stream(writer, types: types, days: days, zone: zone, cores: cores) { figures += $0 }
        return figures
    }

    /// Hands `body` each window's figures in day order (then type order), as they are read.
    static func stream(
        _ writer: any DatabaseWriter, types: [String], days: ClosedRange<Int64>, zone: TimeZone,
        cores: Int = ProcessInfo.processInfo.activeProcessorCount, _ body: ([DayFigure]) throws -> Void
    ) throws {
        let windows = windows(of: days)
        let readers = writer is DatabasePool ? readers(of: days, cores: cores) : 1
        if readers > 1, claimSeveralReaders() {
            defer { severalReadersBusy.withLock { $0 = false } }
            let relay = WindowRelay(windows: windows.count, readers: readers)
            // Threads of their own: a reader waits for the others, which the system's shared
            // queues, as wide as the cores, would start only once a thread is free.
            let threads = (0..<readers).map { reader in
                JoinableThread(name: "healthprobe.days.\(reader)") {
                    relay.reading(as: reader) {
                        try writer.read { db in
                            relay.began(reader, seeing: try generation(db))
                            var figures = try DayFigureReader(db, types: types, zone: zone)
                            try relay.readWindows(of: reader) { try figures.read(windows[$0]) }
                        }
                    }
                }
            }
            defer { threads.forEach { $0.join() } }
            switch try relay.hand(to: body) {
            case .handedOver: return
            case .archiveMoved: break
            }
        }
        try writer.read { db in
            var figures = try DayFigureReader(db, types: types, zone: zone)
            for window in windows { try body(try figures.read(window)) }
        }
    }

    /// Whether this period may be read by several readers: no other is.
    private static func claimSeveralReaders() -> Bool {
        severalReadersBusy.withLock { busy in
            defer { busy = true }
            return !busy
        }
    }

    /// What tells one read of the archive from another: its trail's and its records' last ids.
    private static func generation(_ db: Database) throws -> [Int64] {
        let row = try Row.fetchOne(db, sql: "SELECT (SELECT MAX(id) FROM auditEntry), (SELECT MAX(id) FROM record)")
        return [row?[0] ?? 0, row?[1] ?? 0]
    }
}
