import AppleHealthExport
import Foundation
import GRDB

/// What every row of an export shares: the capture, the devices by id, capture dates, workout
/// route digests, and the time zone its dates are written in. Small tables, read once.
struct ExportContext {
    struct RouteDigest {
        var file: String
        var sha256: String?
        var points: Int?
    }

    let resolved: ResolvedSelection
    let devices: [Int64: DeviceDescription]
    /// Each device as its JSON object, encoded once.
    let deviceJSON: [Int64: [UInt8]]
    let routes: [Int64: [RouteDigest]]
    var timestamps: ZonedTimestamps
    private let captureDateTexts: [Int64: [UInt8]]

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
        deviceJSON = devices.mapValues { device in
            var bytes: [UInt8] = []
            RecordEncoding.appendDeviceObject(device, to: &bytes)
            return bytes
        }
        routes = try Self.routeDigests(db, upTo: resolved.capture.id)
    }

    /// Each workout's route files as the latest capture up to `capture` that saw them read them.
    private static func routeDigests(_ db: Database, upTo capture: Int64) throws -> [Int64: [RouteDigest]] {
        var latest: [Int64: (capture: Int64, digests: [RouteDigest])] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT recordId, captureId, path, contentHash, pointCount FROM routeFile
                WHERE captureId <= ? ORDER BY recordId, captureId, path
                """, arguments: [capture])
        while let row = try rows.next() {
            let record: Int64 = row[0]
            let seenIn: Int64 = row[1]
            let digest = RouteDigest(file: row[2], sha256: row[3], points: row[4])
            if let known = latest[record], known.capture == seenIn {
                latest[record]?.digests.append(digest)
            } else {
                latest[record] = (seenIn, [digest])
            }
        }
        return latest.mapValues(\.digests)
    }

    /// `present`, or `gone` for a record the capture no longer held.
    static func status(_ cursor: ArchivedRecordCursor) -> String {
        cursor.isNull(.goneAt) ? "present" : "gone"
    }

    /// Why a record went, in the anomaly vocabulary: `silent_deletion`, `deleted`, `replaced`,
    /// `reissued`, `value_modified`.
    static func goneReason(_ stored: String?) -> String? {
        switch stored {
        case nil: nil
        case "absent": "silent_deletion"
        case "modified": "value_modified"
        case let other?: other
        }
    }

    /// A capture's date as the export writes it: a few captures, each written for a million rows.
    func captureDateText(_ id: Int64?) -> [UInt8]? {
        id.flatMap { captureDateTexts[$0] }
    }
}
