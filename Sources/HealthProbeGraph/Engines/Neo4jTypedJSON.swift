import Foundation

/// Neo4j's typed JSON: every value an object `{"$type": …, "_value": …}`, integers and floats as
/// strings so that no JSON reader rounds them. Asked for as `application/vnd.neo4j.query`, which
/// Neo4j knows since 5.19; its `.v1.1` variant only since 2025.11, so the unversioned type is
/// what every supported server (5.26 and later) takes.
enum Neo4jTypedJSON {
    static let mediaType = "application/vnd.neo4j.query"

    /// A parameter as typed JSON, ready for `JSONSerialization`.
    static func encode(_ value: CypherValue) -> [String: Any] {
        switch value {
        case .null: return ["$type": "Null", "_value": NSNull()]
        case .bool(let flag): return ["$type": "Boolean", "_value": flag]
        case .integer(let number): return ["$type": "Integer", "_value": String(number)]
        case .float(let number):
            guard number.isFinite else { return ["$type": "Null", "_value": NSNull()] }
            return ["$type": "Float", "_value": "\(number)"]
        case .string(let text): return ["$type": "String", "_value": text]
        case .dateTime(let text): return ["$type": "OffsetDateTime", "_value": text]
        case .list(let values): return ["$type": "List", "_value": values.map(encode)]
        case .map(let entries):
            return [
                "$type": "Map",
                "_value": Dictionary(entries.map { ($0.0, encode($0.1) as Any) }, uniquingKeysWith: { $1 }),
            ]
        }
    }

    /// A typed value from a response, as the sync reads results: text for what prints as text,
    /// integers as integers, lists as arrays, null as a missing string.
    static func decode(_ object: Any?) -> RESPValue {
        guard let typed = object as? [String: Any], let type = typed["$type"] as? String else { return .bulk(nil) }
        let value = typed["_value"]
        switch type {
        case "Null": return .bulk(nil)
        case "Integer":
            if let text = value as? String, let number = Int64(text) { return .integer(number) }
            return .bulk(nil)
        case "Boolean": return .bulk((value as? Bool).map { $0 ? "true" : "false" })
        case "List": return .array((value as? [Any] ?? []).map(decode))
        case "Map":
            let entries = (value as? [String: Any] ?? [:]).sorted { $0.key < $1.key }
            return .array(entries.map { .array([.bulk($0.key), decode($0.value)]) })
        default:
            if let text = value as? String { return .bulk(text) }
            return .bulk(value.map { "\($0)" })
        }
    }

    /// A typed parameter back as a value: what the contract server in the tests reads.
    static func value(_ object: Any?) -> CypherValue? {
        guard let typed = object as? [String: Any], let type = typed["$type"] as? String else { return nil }
        let value = typed["_value"]
        switch type {
        case "Null": return .null
        case "Boolean": return (value as? Bool).map(CypherValue.bool)
        case "Integer": return (value as? String).flatMap(Int64.init).map(CypherValue.integer)
        case "Float": return (value as? String).flatMap(Double.init).map(CypherValue.float)
        case "String": return (value as? String).map(CypherValue.string)
        case "OffsetDateTime": return (value as? String).map(CypherValue.dateTime)
        case "List":
            let items = (value as? [Any] ?? []).map(Self.value)
            return items.contains { $0 == nil } ? nil : .list(items.compactMap { $0 })
        case "Map":
            let entries = (value as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map {
                ($0.key, Self.value($0.value))
            }
            return entries.contains { $0.1 == nil } ? nil : .map(entries.map { ($0.0, $0.1!) })
        default: return nil
        }
    }
}
