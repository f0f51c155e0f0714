import Foundation
import HealthProbeArchive

/// How an anomaly's evidence keys read to people: the faces' words, not the archive's.
extension EvidenceText {
    /// A record's part in an anomaly as people say it ("extra copy"), where the archive keeps
    /// its identifier ("surplus"; the JSON and the Markdown report keep that).
    public static func role(_ stored: String) -> String {
        stored == "surplus" ? "extra copy" : stored
    }

    /// `lossPercent` → `Loss percent`, `dayUTC` → `Day UTC`: an evidence key as people read it.
    public static func words(_ key: String) -> String {
        if let named = namedKeys[key] { return named }
        var words: [String] = []
        var current = ""
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord =
                character.isUppercase && !current.isEmpty
                && (!(current.last?.isUppercase ?? false) || (next?.isLowercase ?? false))
            if startsWord {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        let lowered = words.map { word in word.allSatisfy(\.isUppercase) ? word : word.lowercased() }
        return sentence(lowered.joined(separator: " "))
    }

    /// Keys whose words alone would be the archive's jargon.
    private static let namedKeys = [
        "masked": "Hidden by new records",
        "surplusPercent": "Extra copies percent",
        "surplusAlreadyPresent": "Extra copies already there",
        "exportHeldNoDocuments": "Export held no documents",
        "exportHeldNoRoutes": "Export held no routes",
    ]

    /// An evidence value as people read it: yes or no for a flag, a count grouped (`1,728`), a
    /// time as every face writes one (in `time`'s zone); anything else as the archive holds it.
    public static func shown(_ value: String, key: String, time: ReadableTime) -> String {
        switch value {
        case "true": return "yes"
        case "false": return "no"
        default: break
        }
        if !key.hasSuffix("Id"), value.count > 3, value.allSatisfy(\.isASCIIDigit), let number = Int(value) {
            return grouped(number)
        }
        if value.count >= 20, value.dropFirst(10).first == "T", let date = instant(value) {
            return time.second(date)
        }
        return value
    }
}

/// The instant of an ISO 8601 time as the archive writes them (`2000-01-01T07:00:00.75Z`).
private func instant(_ text: String) -> Date? {
    let whole = Date.ISO8601FormatStyle()
    let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    return (try? whole.parse(text)) ?? (try? fractional.parse(text))
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
