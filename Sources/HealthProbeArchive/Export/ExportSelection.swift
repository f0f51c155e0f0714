import AppleHealthExport
import Foundation
internal import GRDB

/// What an export holds: the records one capture held (by default the latest complete one),
/// narrowed by type, by sample start and by when the archive received them, and optionally the
/// records gone by then.
public struct ExportSelection: Sendable, Equatable, Codable {
    /// The capture whose records are exported; nil for the latest complete capture.
    public var asOfCapture: Int64?
    /// HealthKit identifiers; nil for every type.
    public var types: [String]?
    /// Samples starting at or after this instant (seconds since 1970).
    public var startFrom: Double?
    /// Samples starting before this instant.
    public var startBefore: Double?
    /// Also the records gone by that capture, each with when it was last seen and why it went.
    public var includeGone: Bool
    /// Only records the archive first received after this capture: an incremental export follows
    /// when a record arrived, never its sample date, so late writers are not missed.
    public var receivedAfterCapture: Int64?

    public init(
        asOfCapture: Int64? = nil, types: [String]? = nil, startFrom: Double? = nil, startBefore: Double? = nil,
        includeGone: Bool = false, receivedAfterCapture: Int64? = nil
    ) {
        self.asOfCapture = asOfCapture
        self.types = types
        self.startFrom = startFrom
        self.startBefore = startBefore
        self.includeGone = includeGone
        self.receivedAfterCapture = receivedAfterCapture
    }

    /// Whether nothing narrows the capture's records: then its per-type counts count them.
    var isWholeCapture: Bool {
        types == nil && startFrom == nil && startBefore == nil && !includeGone && receivedAfterCapture == nil
    }
}

/// A selection made concrete against one archive: the capture, and the SQL that reads it.
public struct ResolvedSelection {
    public struct Capture {
        public var id: Int64
        public var origin: CaptureOrigin
        /// When its data was taken: the export's date, else when the capture began.
        public var date: Double
        /// The offset from UTC the export wrote its own date at, in seconds (nil for other captures).
        public var exportUTCOffset: Int?
        /// The offsets it wrote its samples' dates at, by instant (nil for other captures, and
        /// for exports checked before they were kept).
        public var offsetSpans: OffsetSpans?
        /// The export's `locale` attribute (`en_US`), for an export's capture.
        public var locale: String?
        /// The export's format version (its document type's `HealthKit Export Version`).
        public var exportVersion: Int?
    }

    let selection: ExportSelection
    public let capture: Capture
    /// Every complete capture's date, for `lastSeen` and `goneSince`.
    let captureDates: [Int64: Double]
    private let membership: CaptureMembership

    init(_ selection: ExportSelection, _ db: Database) throws {
        self.selection = selection
        let rows = try Row.fetchAll(
            db,
            sql:
                """
                SELECT id, origin, exportDate, startedAt, exportUTCOffset, exportOffsetSpans, locale, exportVersion
                FROM capture WHERE status = \(CaptureStatus.complete.sqlLiteral) ORDER BY id
                """
        )
        guard !rows.isEmpty else { throw SelectionError.nothingCaptured }
        let captures = try rows.map {
            Capture(
                id: $0["id"], origin: try $0["origin"], date: $0["exportDate"] ?? $0["startedAt"],
                exportUTCOffset: $0["exportUTCOffset"], offsetSpans: CaptureOffsets.spans($0["exportOffsetSpans"]),
                locale: $0["locale"], exportVersion: $0["exportVersion"])
        }
        captureDates = Dictionary(uniqueKeysWithValues: captures.map { ($0.id, $0.date) })
        if let wanted = selection.asOfCapture {
            guard let found = captures.first(where: { $0.id == wanted }) else {
                throw SelectionError.unknownCapture(wanted, known: captures.map(\.id))
            }
            capture = found
        } else {
            capture = captures[captures.count - 1]
        }
        membership = try CaptureMembership(capture: capture.id, origin: capture.origin, db)
    }

    /// The columns every row reads, in ``ArchivedRecordCursor``'s order, of the table named `table`:
    /// metadata as the export wrote it where its dates had offsets, else as stored.
    static func columns(of table: String = "record") -> String {
        let plain = [
            "id", "kind", "type", "sourceName", "sourceVersion", "deviceId", "unit", "value", "numericValue",
            "creationDate", "startDate", "endDate",
        ]
        let metadata = "COALESCE(\(table).metadataAsWritten, \(table).metadata) AS metadata"
        let rest = ["details", "healthKitUUID", "firstSeenCapture"]
        return (plain.map { "\(table).\($0)" } + [metadata] + rest.map { "\(table).\($0)" }).joined(separator: ", ")
    }

    private var population: String { membership.populationSQL }

    private var filters: (sql: String, arguments: StatementArguments) {
        var sql = ""
        var arguments: StatementArguments = []
        if let types = selection.types {
            sql += " AND type IN (\(types.map { _ in "?" }.joined(separator: ", ")))"
            arguments += StatementArguments(types)
        }
        if let from = selection.startFrom {
            sql += " AND startDate >= ?"
            arguments += [from]
        }
        if let before = selection.startBefore {
            sql += " AND startDate < ?"
            arguments += [before]
        }
        if let after = selection.receivedAfterCapture {
            sql += " AND firstSeenCapture > ?"
            arguments += [after]
        }
        return (sql, arguments)
    }

    private var heldSQL: String { membership.heldSQL }

    /// One statement for the whole export: what each row needs, the three gone columns null for
    /// records the capture held.
    /// Text formats are read with the records that hold a number first, then the others
    /// (categories, workouts, activity summaries), each by type, then sample start: readers that
    /// guess a column's type from the first rows (DuckDB's `read_csv` samples 20,480) see numbers
    /// in `value`. A database needs no order, and reading by id spares the archive a sort.
    public enum Order {
        case numbersFirstThenTypeAndStart, id, none
    }

    func query(_ order: Order) -> (sql: String, arguments: StatementArguments) {
        let (filterSQL, filterArguments) = filters
        var sql = """
            SELECT \(Self.columns()), NULL AS lastSeen, NULL AS goneAt, NULL AS goneReason,
                numericValue IS NULL AS withoutNumber FROM record
            WHERE \(heldSQL)\(filterSQL)
            """
        var arguments = filterArguments
        if selection.includeGone {
            sql += """

                UNION ALL
                SELECT \(Self.columns()), gone.lastSeen, gone.goneAt, gone.reason,
                    record.numericValue IS NULL
                FROM (
                    SELECT id, sighting.lastSeenCapture AS lastSeen, goneCapture AS goneAt, goneReason AS reason
                    FROM record \(RecordSightings.join)
                    WHERE goneCapture <= \(capture.id)
                    UNION ALL
                    SELECT recordId, lastSeenCapture, goneCapture, goneReason FROM recordAbsence
                    WHERE goneCapture <= \(capture.id) AND returnCapture > \(capture.id)
                ) AS gone JOIN record ON record.id = gone.id
                WHERE \(population)\(filterSQL)
                """
            arguments += filterArguments
        }
        switch order {
        case .numbersFirstThenTypeAndStart: sql += "\nORDER BY withoutNumber, type, startDate, id"
        case .id: sql += "\nORDER BY id"
        case .none: break
        }
        return (sql, arguments)
    }

    /// Records of each type the export will hold, for progress: the capture's per-type counts when
    /// nothing narrows it, else counted.
    func expectedCounts(_ db: Database) throws -> [String: Int] {
        let sql =
            selection.isWholeCapture
            ? "SELECT type, count FROM typeSnapshot WHERE captureId = \(capture.id)"
            : "SELECT type, COUNT(*) FROM (\(query(.none).sql)) GROUP BY type"
        let rows = try Row.fetchAll(db, sql: sql, arguments: selection.isWholeCapture ? [] : query(.none).arguments)
        return Dictionary(rows.map { ($0[0] as String, $0[1] as Int) }, uniquingKeysWith: +)
    }
}

/// Why a selection chooses no capture.
public enum SelectionError: Error, Equatable {
    case nothingCaptured
    case unknownCapture(Int64, known: [Int64])
}
