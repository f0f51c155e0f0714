import Foundation

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Small hand-written exports for detector edge cases: each record is one line of XML, dates
/// written at the export's offset. Synthetic data only.
struct MiniExport {
    var exportDate = "2000-03-01 12:00:00 +0000"
    var elements: [String] = []

    static let watch = "Test User\u{2019}s Apple Watch"
    static let phone = "iPhone-TESTDEVICE"

    /// A record line. `start` and `end` are full timestamps ("2000-01-01 08:00:00 +0000").
    static func record(
        _ type: String = "HKQuantityTypeIdentifierHeartRate", source: String = watch, value: String = "60",
        unit: String? = "count/min", start: String, end: String? = nil, created: String? = nil,
        metadata: [(String, String)] = []
    ) -> String {
        var text = "<Record type=\"\(type)\" sourceName=\"\(source)\" sourceVersion=\"10.1\""
        if let unit { text += " unit=\"\(unit)\"" }
        text +=
            " creationDate=\"\(created ?? start)\" startDate=\"\(start)\" endDate=\"\(end ?? start)\" value=\"\(value)\""
        guard !metadata.isEmpty else { return text + "/>" }
        return text + ">" + metadata.map { "<MetadataEntry key=\"\($0.0)\" value=\"\($0.1)\"/>" }.joined() + "</Record>"
    }

    /// A blood-pressure correlation holding `children`, which should also stand at top level.
    static func bloodPressure(start: String, children: [String]) -> String {
        "<Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"\(phone)\" sourceVersion=\"17.1\" "
            + "creationDate=\"\(start)\" startDate=\"\(start)\" endDate=\"\(start)\">" + children.joined()
            + "</Correlation>"
    }

    var xml: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="\(exportDate)"/>
         <Me/>
        \(elements.map { " " + $0 }.joined(separator: "\n"))
        </HealthData>

        """
    }

    func write(to folder: URL, name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(xml.utf8).write(to: url)
        return url
    }
}

extension ArchiveTestSupport {
    /// Checks each export in turn in a fresh archive; returns each check's anomalies.
    func audit(_ exports: [MiniExport]) throws -> [[Anomaly]] {
        let store = try openArchive()
        return try exports.enumerated().map { index, export in
            try check(try export.write(to: folder, name: "export\(index).xml"), in: store).audit.anomalies
        }
    }
}

extension [Anomaly] {
    func only(_ type: AnomalyType) -> [Anomaly] { filter { $0.type == type } }
    var summaries: [String] { map { "\($0.type.rawValue) \($0.sampleType) \($0.recordCount)" } }
}
