import AppleHealthExport
import Foundation
import GRDB
import GRDBSQLite
import HealthProbeArchive

/// A SQLite export: `samples` (every record, indexed by start date and by type), the parts of
/// workouts, the members of correlations, `dailySummaries` and `dailySources` (each day's figures
/// as the Health app shows them, ``DailyFiguresTable``), and `exportInfo`. Built in a
/// temporary file with no journal (it is renamed into place only when complete), so a failure
/// leaves nothing to recover.
final class SQLiteExportWriter: ExportFormatWriter {
    private let queue: DatabaseQueue
    private var insertSample: Statement?
    private var parts: WorkoutPartsWriter?
    private var contents: FileContentsWriter?
    private var bindings = ColumnBinder()
    private var scratch: [UInt8] = []
    private var zone = TimeZone(identifier: "UTC")!
    private var dayOrders = DaySourceOrders()
    /// The day figures, fed each row as it is written; those of finished days staged in
    /// temporary tables a few hundred at a time.
    private var dayFigures: DayFigureFeed?
    private static let figuresStagedAtOnce = 512
    /// The record's columns, then `localDate`: the day of `startDate` in the export's time zone
    /// (SQLite's `date(startDate)` would give the UTC day).
    static let sampleColumns = RecordEncoding.columns(devices: ["deviceId"]) + ["localDate"]

    init(path: String) throws {
        var configuration = Configuration()
        // SQLite's own page size: its sorter fills at least 250 pages before it writes a run out,
        // and building the indexes of a ten-year export with 16 KiB pages peaked 7.5 MB higher
        // (66.0 MB against 58.5 MB at 7.5 million records, for 3 % to 12 % more time).
        configuration.prepareDatabase { db in
            try db.execute(
                sql:
                    "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -2048"
            )
        }
        // One transaction spans every row, each written in its own access.
        configuration.allowsUnsafeTransactions = true
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    func begin(_ description: ExportDescription, _ context: ExportContext) throws {
        zone = context.timeZone
        dayOrders = context.dayOrders
        dayFigures = DayFigureFeed(zone: zone, orders: dayOrders)
        try access { db in
            try db.execute(sql: Self.schema)
            try db.execute(sql: DailyFiguresTable.stagingSchema)
            try db.execute(sql: "BEGIN")
            for (key, value) in description.keyValues {
                try db.execute(sql: "INSERT INTO exportInfo (key, value) VALUES (?, ?)", arguments: [key, value])
            }
            for (id, device) in context.devices.sorted(by: { $0.key < $1.key }) {
                let fields = RecordEncoding.deviceColumnKeys.map { key in device.isFreeText ? nil : device[key] }
                try db.execute(
                    sql: """
                        INSERT INTO devices (id, name, manufacturer, model, hardware, software, description)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: StatementArguments([id] + fields + [device.canonicalText]))
            }
            let placeholders = Self.sampleColumns.map { _ in "?" }.joined(separator: ", ")
            insertSample = try db.makeStatement(
                sql: "INSERT INTO samples (\(Self.sampleColumns.joined(separator: ", "))) VALUES (\(placeholders))")
            parts = try WorkoutPartsWriter(db)
            contents = try FileContentsWriter(db)
        }
    }

    /// The connection while the rows are written: one access for all of them, not one a row.
    private var openDatabase: Database?

    private var finished = false

    /// Closes the file once the rows' access is over and the rows are committed.
    func withAccess<T>(_ body: () throws -> T) throws -> T {
        let result = try queue.writeWithoutTransaction { db in
            openDatabase = db
            defer { openDatabase = nil }
            return try body()
        }
        if finished { try queue.close() }
        return result
    }

    private func access(_ body: (Database) throws -> Void) throws {
        guard let openDatabase else { throw ExportFailure.failed(problem: "the database is not open") }
        try body(openDatabase)
    }

    func write(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext) throws {
        guard let insertSample, let db = openDatabase else { return }
        bindings.statement = insertSample.sqliteStatement
        bindings.index = 1
        RecordEncoding.visitColumns(cursor, &context, &bindings, scratch: &scratch, filesWithContent: false)
        bindings.text(
            cursor.double(.startDate).map { start in
                UTCText.day(Int64(((start + Double(context.timestamps.offset(at: start))) / 86_400).rounded(.down)))
            })
        try bindings.step(db)
        dayFigures?.add(cursor, devices: context.devices)
        if let count = dayFigures?.readyCount, count >= Self.figuresStagedAtOnce {
            try DailyFiguresTable.stage(dayFigures!.takeReady(), db)
        }
        try parts?.add(cursor, &context, db)
        try contents?.add(cursor, &context)
    }

    func finish(_ totals: ExportTotals) throws {
        insertSample = nil
        parts = nil
        contents = nil
        try access { db in
            try db.execute(sql: Self.indexes)
            var feed = dayFigures ?? DayFigureFeed(zone: zone, orders: dayOrders)
            let last = feed.finish()
            try DailyFiguresTable.write(
                db, figures: last, firstDay: feed.firstDay(), readingBack: feed.unordered, zone: zone,
                orders: dayOrders)
            try db.execute(sql: "COMMIT")
        }
        finished = true
    }

    func abandon() {
        insertSample = nil
        parts = nil
        contents = nil
        try? queue.close()
    }

    private static var schema: String {
        let sampleColumns = Self.sampleColumns.map { column in
            switch column {
            case "id": "id INTEGER PRIMARY KEY"
            case "deviceId": "deviceId INTEGER REFERENCES devices(id)"
            case "firstSeenCapture": "\(column) INTEGER"
            case "value": "value REAL"
            default: "\(column) TEXT"
            }
        }
        return """
            CREATE TABLE exportInfo (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE devices (
                id INTEGER PRIMARY KEY, name TEXT, manufacturer TEXT, model TEXT, hardware TEXT, software TEXT,
                description TEXT NOT NULL);
            CREATE TABLE samples (\(sampleColumns.joined(separator: ", ")));
            CREATE TABLE workouts (
                sampleId INTEGER NOT NULL, activityType TEXT, startDate TEXT, endDate TEXT, durationSeconds REAL,
                attributes TEXT);
            CREATE TABLE workoutEvents (
                sampleId INTEGER NOT NULL, position INTEGER NOT NULL, type TEXT, date TEXT, duration REAL,
                durationUnit TEXT, metadata TEXT);
            CREATE TABLE workoutStatistics (
                sampleId INTEGER NOT NULL, type TEXT, startDate TEXT, endDate TEXT, average REAL, minimum REAL,
                maximum REAL, sum REAL, unit TEXT);
            CREATE TABLE workoutActivities (sampleId INTEGER NOT NULL, position INTEGER NOT NULL, details TEXT);
            CREATE TABLE workoutRoutes (sampleId INTEGER NOT NULL, file TEXT, digest TEXT, points INTEGER);
            CREATE TABLE correlationMembers (
                correlationId INTEGER NOT NULL, type TEXT, sourceName TEXT, unit TEXT, value REAL, textValue TEXT,
                startDate TEXT, endDate TEXT);
            \(FileContentsWriter.schema)
            """
    }

    /// Indexes once the rows are in: cheaper than keeping them up to date.
    private static let indexes = """
        CREATE INDEX samples_startDate ON samples(startDate);
        CREATE INDEX samples_type ON samples(type, startDate);
        CREATE INDEX workouts_sample ON workouts(sampleId);
        CREATE INDEX workoutEvents_sample ON workoutEvents(sampleId);
        CREATE INDEX workoutStatistics_sample ON workoutStatistics(sampleId);
        CREATE INDEX workoutActivities_sample ON workoutActivities(sampleId);
        CREATE INDEX workoutRoutes_sample ON workoutRoutes(sampleId);
        CREATE INDEX correlationMembers_correlation ON correlationMembers(correlationId);
        \(FileContentsWriter.indexes)
        """
}

/// Binds a record's columns to the `samples` insert, in order. Text read from the archive is
/// bound in place (`SQLITE_STATIC`: the cursor keeps it until its next step, and the insert
/// steps first); text made for a column is copied once into storage of its own that lives as
/// long as the binder, so SQLite need not copy either.
struct ColumnBinder: RecordColumnVisitor {
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    private static let staticText = unsafeBitCast(OpaquePointer(bitPattern: 0), to: sqlite3_destructor_type.self)
    var statement: SQLiteStatement?
    var index: Int32 = 1
    private let made = MadeColumns()

    /// Runs the statement bound, then resets it for the next row.
    func step(_ db: Database) throws {
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    mutating func device(_ id: Int64?, _ description: DeviceDescription?) {
        integer(id)
    }

    mutating func integer(_ value: Int64?) {
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        index += 1
    }

    mutating func number(_ text: UnsafeBufferPointer<UInt8>?, _ value: Double?) {
        if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        index += 1
    }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>?) {
        bind(bytes, destructor: Self.staticText)
    }

    mutating func madeText(_ bytes: UnsafeBufferPointer<UInt8>) {
        bind(made.store(bytes, column: Int(index)), destructor: Self.staticText)
    }

    mutating func text(_ string: String?) {
        guard var string else { return bind(nil, destructor: Self.transient) }
        string.withUTF8 { bind($0, destructor: Self.transient) }
    }

    private mutating func bind(_ bytes: UnsafeBufferPointer<UInt8>?, destructor: sqlite3_destructor_type) {
        if let bytes, let base = bytes.baseAddress {
            let text = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            sqlite3_bind_text(statement, index, text, Int32(bytes.count), destructor)
        } else if bytes != nil {
            _ = "".withCString { sqlite3_bind_text(statement, index, $0, 0, Self.transient) }
        } else {
            sqlite3_bind_null(statement, index)
        }
        index += 1
    }
}

/// One growable buffer per column, whose address stays put between rows.
final class MadeColumns {
    private var buffers: [Int: UnsafeMutableBufferPointer<UInt8>] = [:]

    func store(_ bytes: UnsafeBufferPointer<UInt8>, column: Int) -> UnsafeBufferPointer<UInt8> {
        var buffer = buffers[column] ?? UnsafeMutableBufferPointer(start: nil, count: 0)
        if buffer.count < bytes.count {
            buffer.deallocate()
            buffer = .allocate(capacity: max(bytes.count, 256))
            buffers[column] = buffer
        }
        guard let base = buffer.baseAddress, let source = bytes.baseAddress else {
            return UnsafeBufferPointer(start: buffer.baseAddress, count: 0)
        }
        base.update(from: source, count: bytes.count)
        return UnsafeBufferPointer(start: base, count: bytes.count)
    }

    deinit {
        for buffer in buffers.values { buffer.deallocate() }
    }
}
