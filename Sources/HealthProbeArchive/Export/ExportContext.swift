import AppleHealthExport
import Foundation
internal import GRDB

/// What every row of an export shares: the capture, the devices by id, capture dates, workout
/// route digests, and the time zone its dates are written in. Small tables, read once.
package struct ExportContext {
    package struct RouteDigest {
        package var file: String
        /// The digest of the track's points (``FileContent``); for captures before v14, of the
        /// file's bytes.
        package var digest: String?
        package var points: Int?
    }

    package let resolved: ResolvedSelection
    package let devices: [Int64: DeviceDescription]
    private let fileLookup: Statement
    private let contentLookup: Statement
    private let strayLookup: Statement
    package var timestamps: ZonedTimestamps
    private let captureDateTexts: [Int64: [UInt8]]
    /// The source orders the day figures need (docs/DESIGN.md §8a), read with the rest.
    package let dayOrders: DaySourceOrders
    /// The export's time zone, whose local days the day figures are of.
    package var timeZone: TimeZone { timestamps.zone }

    init(_ resolved: ResolvedSelection, timeZone: TimeZone, _ db: Database) throws {
        self.resolved = resolved
        var timestamps = ZonedTimestamps(zone: timeZone)
        captureDateTexts = resolved.captureDates.mapValues { date in
            var text: [UInt8] = []
            timestamps.append(date, to: &text)
            return text
        }
        self.timestamps = timestamps
        var devices: [Int64: DeviceDescription] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, description FROM device") {
            devices[row[0]] = DeviceDescription(canonicalText: row[1])
        }
        self.devices = devices
        dayOrders = try DaySourceOrders.read(db, types: nil)
        // Files are referenced files since v14; earlier captures kept routes' digests in routeFile.
        fileLookup = try db.makeStatement(
            sql: """
                SELECT kind, path, digest, items, problem, 1 FROM referencedFile WHERE captureId = ?1 AND recordId = ?2
                UNION ALL SELECT \(AttachedFile.Kind.route.sqlLiteral), path, contentHash, pointCount, NULL, 0
                FROM routeFile WHERE captureId = ?1 AND recordId = ?2
                ORDER BY 1, 2
                """)
        contentLookup = try db.makeStatement(sql: "SELECT content FROM fileContent WHERE digest = ?")
        strayLookup = try db.makeStatement(
            sql: "SELECT kind, path, digest, items, problem FROM strayFile WHERE captureId = ? ORDER BY kind, path")
    }

    /// The files the capture's export held that no record refers to (``StrayFiles``): the
    /// rebuild gives them back under their names.
    package func strayFiles() throws -> [ReferencedFile] {
        try Row.fetchAll(strayLookup, arguments: [resolved.capture.id]).compactMap { row in
            guard let kind = AttachedFile.Kind(rawValue: row[0]) else { return nil }
            return ReferencedFile(
                kind: kind, path: row[1], digest: row[2], items: row[3], problem: row[4], contentKept: true)
        }
    }

    /// A workout's route files as the capture that held it read them (each capture stores the
    /// digests of the workouts it saw): for a gone record, the last capture that saw it. Read a
    /// workout at a time, so memory does not grow with the number of workouts.
    package func routes(_ cursor: ArchivedRecordCursor) -> [RouteDigest]? {
        guard let kind = cursor.text(.kind), kind.elementsEqual(Self.workout) else { return nil }
        let routes = attachedFiles(cursor)?.filter { $0.kind == .route } ?? []
        return routes.isEmpty ? nil : routes.map { RouteDigest(file: $0.path, digest: $0.digest, points: $0.items) }
    }

    /// The files of the record at the cursor, for the kinds that have any (workouts, clinical
    /// records, ECG recordings); nil for others, without a query. Read once a record: a format
    /// asks for a workout's routes, its files and the contents of both.
    package func attachedFiles(_ cursor: ArchivedRecordCursor) -> [ReferencedFile]? {
        guard let kind = cursor.text(.kind), Self.kindsWithFiles.contains(where: { $0.elementsEqual(kind) }),
            let id = cursor.integer(.id)
        else { return nil }
        let capture = cursor.integer(.lastSeen) ?? resolved.capture.id
        if let last = lastFiles.value, last.record == id, last.capture == capture { return last.files }
        let files = (try? referencedFiles(record: id, capture: capture)).flatMap { $0.isEmpty ? nil : $0 }
        lastFiles.value = (id, capture, files)
        return files
    }

    /// The last record's files: rows come one record at a time.
    private let lastFiles = LastFiles()

    private final class LastFiles {
        var value: (record: Int64, capture: Int64, files: [ReferencedFile]?)?
    }

    private static let kindsWithFiles = ["workout", "clinicalRecord", "electrocardiogram"].map { Array($0.utf8) }

    private static let workout = Array("workout".utf8)

    /// `present`, or `gone` for a record the capture no longer held.
    package static func status(_ cursor: ArchivedRecordCursor) -> String {
        cursor.isNull(.goneAt) ? "present" : "gone"
    }

    /// Why a record went, in the anomaly vocabulary: `silent_deletion`, `deleted`, `replaced`,
    /// `reissued`, `value_modified`.
    package static func goneReason(_ stored: String?) -> String? {
        switch stored.flatMap(GoneReason.init(rawValue:)) {
        case .absent: "silent_deletion"
        case .modified: "value_modified"
        case let other?: other.rawValue
        case nil: stored
        }
    }

    /// A file a record came with or referred to, as one capture held it.
    package struct ReferencedFile {
        package var kind: AttachedFile.Kind
        package var path: String
        /// Its content's digest; nil when the capture did not hold the file.
        package var digest: String?
        /// A route's points, an ECG's voltages, a document's bytes.
        package var items: Int?
        /// Why the capture could not read it.
        package var problem: String?
        /// Whether ``digest`` names content the archive keeps: routes of captures before v14
        /// kept only the digest of the file's bytes.
        package var contentKept: Bool
    }

    /// Every file the record came with or referred to in the capture that held it (for a gone
    /// record, the last capture that saw it), in the order of their paths.
    private func referencedFiles(record id: Int64, capture: Int64) throws -> [ReferencedFile] {
        try Row.fetchAll(fileLookup, arguments: [capture, id]).compactMap { row in
            guard let kind = AttachedFile.Kind(rawValue: row[0]) else { return nil }
            return ReferencedFile(
                kind: kind, path: row[1], digest: row[2], items: row[3], problem: row[4], contentKept: row[5])
        }
    }

    /// A content the archive keeps, by digest.
    package func fileContent(_ digest: String) throws -> FileContent? {
        try Row.fetchOne(contentLookup, arguments: [digest]).map { row in
            FileContent(digest: digest, compressed: [UInt8](row[0] as Data), items: 0)
        }
    }

    /// A capture's date as the export writes it: a few captures, each written for a million rows.
    package func captureDateText(_ id: Int64?) -> [UInt8]? {
        id.flatMap { captureDateTexts[$0] }
    }
}
