import Foundation

/// A statement parameter, as both graph engines take it: sent to Neo4j as typed JSON, written
/// into FalkorDB's `CYPHER name=value` prefix as a Cypher literal. Dates travel as ISO text and
/// become DATEs in the statement (`date(row.date)`), which both accept.
public indirect enum CypherValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case float(Double)
    case string(String)
    /// A local time with its offset, ISO 8601 (`2000-01-01T07:31:30+01:00`): a zoned DATETIME on
    /// Neo4j (typed JSON's `OffsetDateTime`, as HealthGraphSync's workouts have); text on
    /// FalkorDB, which has no datetime type.
    case dateTime(String)
    case list([CypherValue])
    case map([(String, CypherValue)])

    public static func == (left: CypherValue, right: CypherValue) -> Bool {
        left.literal == right.literal
    }

    /// The value as a Cypher literal: strings single-quoted with `\` and `'` escaped, map keys
    /// back-quoted; a float that is not finite becomes null (no engine stores one).
    public var literal: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .float(let value):
            guard value.isFinite else { return "null" }
            let text = "\(value)"
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        case .string(let value), .dateTime(let value): return "'" + Self.escaped(value) + "'"
        case .list(let values): return "[" + values.map(\.literal).joined(separator: ", ") + "]"
        case .map(let entries):
            return "{"
                + entries.map { "`\($0.0.replacingOccurrences(of: "`", with: "``"))`: \($0.1.literal)" }
                .joined(separator: ", ") + "}"
        }
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
