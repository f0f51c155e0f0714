import AppleHealthExport
import Foundation
import HealthProbeArchive

/// The pieces of Apple's `export.xml` text: attributes escaped as XML wants them, and dates as
/// Apple writes them — each at the offset the exporting phone's zone had at that date
/// (`2000-01-01 09:00:00 +0100`, `2000-07-01 09:00:00 +0200`).
struct AppleHealthText {
    /// The offsets the capture's export wrote its dates at, when it was an export that kept
    /// them; else its one offset (captures checked before the spans were kept); else the chosen
    /// time zone's, date by date.
    private let spans: OffsetSpans?
    private let fixedOffset: Int?
    private var zoned: ZonedTimestamps

    init(exportUTCOffset: Int?, offsetSpans: OffsetSpans? = nil, zone: TimeZone) {
        spans = offsetSpans
        fixedOffset = exportUTCOffset
        zoned = ZonedTimestamps(zone: zone)
    }

    mutating func offset(at seconds: Double) -> Int {
        if let offset = spans?.offset(at: Int64(seconds.rounded(.down))) { return Int(offset) }
        return fixedOffset ?? zoned.offset(at: seconds)
    }

    /// Appends an instant as Apple writes dates, to the whole second.
    mutating func appendDate(_ seconds: Double, to text: inout [UInt8]) {
        let whole = seconds.rounded(.down)
        AppleExportTimestamp.appendText(seconds: Int64(whole), offsetSeconds: offset(at: whole), to: &text)
    }

    /// A stored value that is a date the archive keeps in UTC (`2000-01-01T08:00:00Z`: an
    /// attribute's timestamp, or a metadata date of a record stored before metadata kept its
    /// offsets) as this export writes dates; nil for any other value, which is written as stored —
    /// a metadata date kept as the export wrote it (`2000-01-01 09:00:00 +0100`) among them.
    mutating func date(fromStored value: String) -> [UInt8]? {
        let count = value.utf8.count
        guard count >= 20, count <= 32, let seconds = UTCText.parseISO8601(value) else { return nil }
        var text: [UInt8] = []
        appendDate(seconds, to: &text)
        return text
    }

    /// A stored beat time (an instant in UTC, else the text as written) as Apple writes it: the
    /// local time of day, to the hundredth (`9:26:02.34 AM`).
    mutating func timeOfDay(fromStored value: String) -> String {
        guard let seconds = UTCText.parseISO8601(value) else { return value }
        let local = seconds + Double(offset(at: seconds))
        let hundredths = Int64((local * 100).rounded()) % (86_400 * 100)
        let positive = hundredths < 0 ? hundredths + 86_400 * 100 : hundredths
        let secondOfDay = Int(positive / 100)
        let hour = secondOfDay / 3600
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return String(
            format: "%d:%02d:%02d.%02d %@", twelve, secondOfDay / 60 % 60, secondOfDay % 60, Int(positive % 100),
            hour < 12 ? "AM" : "PM")
    }
}

/// XML text appended to a byte buffer.
enum XMLText {
    /// ` name="value"`, the value escaped.
    static func appendAttribute(_ name: String, _ value: String, to text: inout [UInt8]) {
        text.append(UInt8(ascii: " "))
        text.append(contentsOf: name.utf8)
        text.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
        appendEscaped(value, to: &text)
        text.append(UInt8(ascii: "\""))
    }

    /// ` name="…"` with bytes that need no escaping (a date).
    static func appendAttribute(_ name: String, plain value: [UInt8], to text: inout [UInt8]) {
        text.append(UInt8(ascii: " "))
        text.append(contentsOf: name.utf8)
        text.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
        text.append(contentsOf: value)
        text.append(UInt8(ascii: "\""))
    }

    /// Text escaped for an attribute or element content. Characters XML 1.0 cannot hold (control
    /// characters other than tab and line ends) are left out: no well-formed export held them.
    static func appendEscaped(_ value: String, to text: inout [UInt8]) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "&"): text.append(contentsOf: Self.ampersand)
            case UInt8(ascii: "<"): text.append(contentsOf: Self.lessThan)
            case UInt8(ascii: ">"): text.append(contentsOf: Self.greaterThan)
            case UInt8(ascii: "\""): text.append(contentsOf: Self.quote)
            case 0x0A: text.append(contentsOf: Self.lineFeed)
            case 0x0D: text.append(contentsOf: Self.carriageReturn)
            case 0x09: text.append(contentsOf: Self.tab)
            case ..<0x20: continue
            default: text.append(byte)
            }
        }
    }

    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8)
    private static let lineFeed = Array("&#10;".utf8)
    private static let carriageReturn = Array("&#13;".utf8)
    private static let tab = Array("&#9;".utf8)
}
