import AppleHealthExport
import Foundation
import GRDB
import HealthProbeArchive

/// The SQLite export's tables of what files held: a route's points a row each, an ECG
/// recording's voltages as a JSON array (`json_each` lists them), a clinical document's FHIR
/// resource as JSON. A file the capture did not hold, or whose content the archive never kept,
/// has no row; `samples.files` says which.
struct FileContentsWriter {
    static let schema = """
        CREATE TABLE routePoints (
            sampleId INTEGER NOT NULL, file TEXT NOT NULL, position INTEGER NOT NULL, time TEXT, latitude REAL,
            longitude REAL, elevation REAL, speed REAL, course REAL, horizontalAccuracy REAL,
            verticalAccuracy REAL);
        CREATE TABLE electrocardiograms (
            sampleId INTEGER NOT NULL, file TEXT NOT NULL, voltageCount INTEGER NOT NULL, voltages TEXT NOT NULL);
        CREATE TABLE clinicalDocuments (sampleId INTEGER NOT NULL, file TEXT NOT NULL, resource TEXT, text TEXT);
        """

    static let indexes = """
        CREATE INDEX routePoints_sample ON routePoints(sampleId, position);
        CREATE INDEX electrocardiograms_sample ON electrocardiograms(sampleId);
        CREATE INDEX clinicalDocuments_sample ON clinicalDocuments(sampleId);
        """

    private let point: Statement
    private let recording: Statement
    private let document: Statement

    init(_ db: Database) throws {
        point = try db.makeStatement(
            sql: """
                INSERT INTO routePoints (sampleId, file, position, time, latitude, longitude, elevation, speed, course,
                    horizontalAccuracy, verticalAccuracy)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        recording = try db.makeStatement(
            sql: "INSERT INTO electrocardiograms (sampleId, file, voltageCount, voltages) VALUES (?, ?, ?, ?)")
        document = try db.makeStatement(
            sql: "INSERT INTO clinicalDocuments (sampleId, file, resource, text) VALUES (?, ?, ?, ?)")
    }

    func add(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext) throws {
        guard let id = cursor.integer(.id), let files = context.attachedFiles(cursor) else { return }
        for file in files where file.contentKept {
            guard let digest = file.digest, let bytes = try context.fileContent(digest)?.inflated() else { continue }
            switch file.kind {
            case .route:
                guard let track = TrackCoding.decode(bytes) else { continue }
                try addPoints(track, id: id, file: file.path, &context)
            case .electrocardiogram:
                guard let voltages = VoltageCoding.decode(bytes) else { continue }
                var json: [UInt8] = []
                RecordEncoding.appendVoltages(voltages, to: &json)
                try recording.execute(arguments: [
                    id, file.path, voltages.values.count, String(decoding: json, as: UTF8.self),
                ])
            case .clinicalSummary:
                continue  // no record refers to it
            case .clinicalDocument:
                let canonical = ClinicalDocument.canonical(bytes).map { String(decoding: $0, as: UTF8.self) }
                try document.execute(arguments: [
                    id, file.path, canonical, canonical == nil ? String(decoding: bytes, as: UTF8.self) : nil,
                ])
            }
        }
    }

    private func addPoints(_ track: RouteTrack, id: Int64, file: String, _ context: inout ExportContext) throws {
        for position in 0..<track.count {
            func number(_ field: Int) -> Double? {
                track.value(position, field).map { Double($0) / Double(DecimalText.scale) }
            }
            let time = number(RouteTrack.timeField).map { context.timestamps.text($0) }
            try point.execute(arguments: [
                id, file, position, time, number(1), number(2), number(3), number(4), number(5), number(6), number(7),
            ])
        }
    }
}
