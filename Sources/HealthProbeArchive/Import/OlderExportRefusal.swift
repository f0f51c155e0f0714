import Foundation
internal import GRDB

/// An export made before the one the archive last checked: compared with it, everything recorded
/// in between would look lost — a user who picked the wrong file would be told of losses that
/// did not happen. Refused unless asked for (``AppleExportImporter/allowOlder``); the archive is left
/// as it was.
public struct OlderExportRefusal: Refusal, LocalizedError, Sendable {
    public var inputName: String
    /// When the export was made, and when the export the archive last checked was.
    public var exportDate: Double
    public var lastExportDate: Double
    public var lastCaptureID: Int64

    public var exitCode: Int32 { RefusalCode.unreadableInput }
    public var wayOn: WayOn? { .allowOlder }
    public func trailLine(for input: URL) -> String? { "refused \(inputName): older than the export last checked" }
    public var errorDescription: String? { message }

    public var message: String {
        "\(inputName): exported \(UTCText.day(UTCDay.of(exportDate))), before the export the archive last checked "
            + "(capture \(lastCaptureID), exported \(UTCText.day(UTCDay.of(lastExportDate)))): compared with it, "
            + "everything recorded since would look lost; check the newest export"
    }

    /// Throws when the capture `previous` is an export made after `exportDate`. (A backup's
    /// capture is dated when the backup was made, and a backup compares only what it describes:
    /// an export made hours before it is no wrong file.)
    static func check(exportDate: Double?, previous: Int64?, inputName: String, _ db: Database) throws {
        guard let exportDate, let previous,
            let last = try Double.fetchOne(
                db, sql: "SELECT exportDate FROM capture WHERE id = ? AND origin = \(CaptureOrigin.export.sqlLiteral)",
                arguments: [previous]),
            last > exportDate
        else { return }
        throw OlderExportRefusal(
            inputName: inputName, exportDate: exportDate, lastExportDate: last, lastCaptureID: previous)
    }
}

extension CaptureWrite {
    /// Refuses an export made before the one the capture is compared with
    /// (``OlderExportRefusal``).
    func refuseOlderExport(exportDate: Double?, inputName: String) throws {
        try OlderExportRefusal.check(exportDate: exportDate, previous: previousCaptureID, inputName: inputName, db)
    }
}
