import Foundation

/// Small hand-written exports for detector edge cases: each record is one line of XML, dates
/// written at the export's offset. Synthetic data only.
public struct MiniExport: Sendable {
    public var exportDate = "2000-03-01 12:00:00 +0000"
    public var elements: [String] = []

    public init(exportDate: String = "2000-03-01 12:00:00 +0000", elements: [String] = []) {
        self.exportDate = exportDate
        self.elements = elements
    }

    public static let watch = "Test User\u{2019}s Apple Watch"
    public static let phone = "iPhone-TESTDEVICE"

    /// The instant `hour`:00 UTC on 2000-`month`-`day`, written at `offset` hours ("2000-02-01 01:00:00 -0700").
    public static func instant(_ month: Int, _ day: Int, _ hour: Int = 8, offset: Int = 0) -> String {
        let instant = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: 2000,
            month: month, day: day, hour: hour
        ).date!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: offset * 3600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.string(from: instant)
    }

    /// A record line. `start` and `end` are full timestamps ("2000-01-01 08:00:00 +0000").
    public static func record(
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
    public static func bloodPressure(start: String, children: [String]) -> String {
        "<Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"\(phone)\" sourceVersion=\"17.1\" "
            + "creationDate=\"\(start)\" startDate=\"\(start)\" endDate=\"\(start)\">" + children.joined()
            + "</Correlation>"
    }

    public var xml: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="\(exportDate)"/>
         <Me/>
        \(elements.map { " " + $0 }.joined(separator: "\n"))
        </HealthData>

        """
    }

    public func write(to folder: URL, name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(xml.utf8).write(to: url)
        return url
    }
}
