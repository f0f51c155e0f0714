import Foundation
import GRDB

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Runs exports into a test's folder and reads them back the way their users' tools would.
extension ArchiveTestSupport {
    var partialFiles: PartialExportFiles {
        PartialExportFiles(registryFolder: folder.appendingPathComponent("state").path)
    }

    @discardableResult
    func runExport(
        _ store: ArchiveStore, _ format: ExportFormat, name: String? = nil,
        selection: ExportSelection = ExportSelection(),
        zone: String = "UTC", password: [UInt8]? = nil, cancellation: CancellationFlag? = nil
    ) throws -> ExportResult {
        let path = folder.appendingPathComponent(name ?? "export.\(format.rawValue)").path
        let request = ExportRequest(
            format: format, outputPath: path, selection: selection, timeZone: TimeZone(identifier: zone)!,
            password: password, replacesExisting: true)
        return try store.export(request, files: partialFiles, cancellation: cancellation)
    }

    /// A JSONL export's records, one object a line.
    func jsonLines(_ store: ArchiveStore, selection: ExportSelection = ExportSelection(), zone: String = "UTC") throws
        -> [[String: Any]]
    {
        let result = try runExport(store, .jsonl, selection: selection, zone: zone)
        let text = try String(contentsOfFile: result.path, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    /// Files in the test folder that an export left half-written.
    func partialFilesLeft() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".healthprobe-partial") }
    }
}

/// RFC 4180 read strictly: quoted fields, doubled quotes, CRLF line ends.
enum CSVReader {
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return iterator.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.unicodeScalars.append("\"")
                        } else {
                            quoted = false
                            pending = following
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" {
                quoted = true
            } else if scalar == "," {
                row.append(field)
                field = ""
            } else if scalar == "\r" {
                guard next() == "\n" else { return [] }
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.unicodeScalars.append(scalar)
            }
        }
        return rows
    }
}

/// ISO 8601 with the offset, as a reader in another language would write it.
func zonedText(_ seconds: Double, _ zone: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: zone)
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
}
