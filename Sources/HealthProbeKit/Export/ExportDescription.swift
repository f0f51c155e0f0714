import Foundation
import HealthProbeArchive

/// What an export holds and where it came from: the head of a JSON export, the `exportInfo`
/// table of a SQLite one, and the heart of every manifest. Never a health value.
public struct ExportDescription: Sendable, Codable, Equatable {
    /// The version of the formats documented in docs/EXPORTS.md.
    public static let currentFormatVersion = 1

    public struct Capture: Sendable, Codable, Equatable {
        public var id: Int64
        public var origin: CaptureOrigin
        /// When the capture's data was taken, in the export's time zone.
        public var date: String
    }

    public var formatVersion = currentFormatVersion
    public var generator = "HealthProbe"
    public var format: ExportFormat
    public var generatedAt: String
    public var capture: Capture
    public var timeZone: String
    /// `all`, `since capture 3`, `last 7 days`, …
    public var range: String
    public var types: [String]?
    public var startFrom: String?
    public var startBefore: String?
    public var includesGone: Bool
    public var receivedAfterCapture: Int64?

    /// The pairs a table of keys and values holds (SQLite's `exportInfo`).
    var keyValues: [(String, String)] {
        var pairs: [(String, String)] = [
            ("formatVersion", String(formatVersion)), ("generator", generator), ("format", format.rawValue),
            ("generatedAt", generatedAt), ("captureId", String(capture.id)), ("captureOrigin", capture.origin.rawValue),
            ("captureDate", capture.date), ("timeZone", timeZone), ("range", range),
            ("includesGone", includesGone ? "true" : "false"),
        ]
        if let types { pairs.append(("types", types.joined(separator: ","))) }
        if let startFrom { pairs.append(("startFrom", startFrom)) }
        if let startBefore { pairs.append(("startBefore", startBefore)) }
        if let receivedAfterCapture { pairs.append(("receivedAfterCapture", String(receivedAfterCapture))) }
        return pairs
    }
}

/// What an export wrote, counted as it went.
struct ExportTotals {
    var records = 0
    var gone = 0
    var byType: [String: Int] = [:]
}

/// The manifest written beside every export.
public struct ExportManifest: Sendable, Codable, Equatable {
    public var export: ExportDescription
    public var file: String
    public var encrypted: Bool
    public var records: Int
    public var goneRecords: Int
    public var recordsByType: [String: Int]
    public var bytes: Int64
    /// SHA-256 of the file as written (the ciphertext when encrypted).
    public var sha256: String
}
