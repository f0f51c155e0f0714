import Foundation
import HealthProbeArchive

/// The store's samples as the Health app writes them into `export.xml`: a `Record` element a
/// quantity or category sample, its dates in the export's `yyyy-MM-dd HH:mm:ss Z` form, a
/// category's value by its name, and its metadata as `MetadataEntry` children — so that what an
/// app wrote into the simulated store can be checked as the next export would show it.
extension SimulatedHealthStore {
    /// `Record` elements, one a line group, of every quantity and category sample of `source`
    /// (every source when nil), in time order; `writtenAt` is the creation date of those the
    /// store holds none for.
    public func exportRecordText(source: String? = nil, writtenAt: Double) -> String {
        everySample()
            .filter { ($0.kind == .quantity || $0.kind == .category) && (source == nil || $0.sourceName == source) }
            .sorted { ($0.startDate, $0.endDate, $0.type) < ($1.startDate, $1.endDate, $1.type) }
            .map { ExportRecordText.record($0, writtenAt: writtenAt) }
            .joined()
    }
}

/// One sample as an export's `Record` element.
enum ExportRecordText {
    static func record(_ sample: HealthSample, writtenAt: Double) -> String {
        var attributes: [(String, String)] = [("type", sample.type), ("sourceName", sample.sourceName)]
        if let version = sample.sourceVersion { attributes.append(("sourceVersion", version)) }
        if let unit = sample.unit { attributes.append(("unit", unit)) }
        attributes += [
            ("creationDate", date(sample.creationDate ?? writtenAt)), ("startDate", date(sample.startDate)),
            ("endDate", date(sample.endDate)),
        ]
        if let value = sample.value {
            attributes.append(
                (
                    "value",
                    sample.kind == .category
                        ? HealthKitCatalog.categoryValueName(type: sample.type, rawValue: Int(value)) : number(value)
                ))
        }
        let opening = " <Record " + attributes.map { "\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: " ")
        guard !sample.metadata.isEmpty else { return opening + "/>\n" }
        let entries = sample.metadata.sorted { $0.key < $1.key }.map {
            "  <MetadataEntry key=\"\(escaped($0.key))\" value=\"\(escaped($0.value))\"/>\n"
        }
        return opening + ">\n" + entries.joined() + " </Record>\n"
    }

    /// "2000-01-01 10:00:00 +0000", as the Health app writes a date (in UTC here).
    static func date(_ seconds: Double) -> String {
        UTCText.iso8601(seconds: seconds.rounded(.down)).replacingOccurrences(of: "T", with: " ")
            .replacingOccurrences(of: "Z", with: " +0000")
    }

    /// A whole amount without a fraction ("72"), any other as Swift writes it shortest.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
