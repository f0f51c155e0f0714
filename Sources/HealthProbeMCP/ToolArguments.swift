import HealthProbeArchive
import MCP

/// A tool's arguments checked against the schema it publishes, before anything is answered or
/// noted: a name the tool does not take, a value of another type, a number out of its range or a
/// word outside its list is invalid params (-32602), naming the argument — never echoing an
/// unknown name whole, which may be long or hold what was meant to be kept.
enum ToolArguments {
    static func problem(_ arguments: [String: Value], schema: Value) -> String? {
        let properties = schema.objectValue?["properties"]?.objectValue ?? [:]
        let unknown = arguments.keys.filter { properties[$0] == nil }.sorted()
        if !unknown.isEmpty {
            let named = unknown.prefix(3).map { "\"\(shown($0))\"" }.joined(separator: ", ")
            let more = unknown.count > 3 ? " and \(unknown.count - 3) more" : ""
            let takes = properties.keys.sorted().joined(separator: ", ")
            return "unknown argument\(unknown.count == 1 ? "" : "s") \(named)\(more); this tool takes "
                + (takes.isEmpty ? "none" : takes)
        }
        for name in schema.objectValue?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        where arguments[name] == nil || arguments[name] == .null {
            return "\(name) is required"
        }
        for (name, value) in arguments.sorted(by: { $0.key < $1.key }) {
            guard let property = properties[name]?.objectValue, value != .null else { continue }
            if let problem = problem(value, property) { return "\(name) \(problem)" }
        }
        return nil
    }

    private static func problem(_ value: Value, _ property: [String: Value]) -> String? {
        switch property["type"]?.stringValue {
        case "string":
            guard let text = value.stringValue else { return "must be a string" }
            if let cases = property["enum"]?.arrayValue?.compactMap(\.stringValue), !cases.contains(text) {
                return "must be one of \(cases.joined(separator: ", "))"
            }
        case "boolean":
            if value.boolValue == nil { return "must be true or false" }
        case "integer":
            guard let number = value.intValue else { return "must be a whole number" }
            let minimum = property["minimum"]?.intValue
            let maximum = property["maximum"]?.intValue
            if let minimum, number < minimum {
                return maximum.map { "must be from \(minimum) to \($0)" } ?? "must be at least \(minimum)"
            }
            if let maximum, number > maximum {
                return minimum.map { "must be from \($0) to \(maximum)" } ?? "must be at most \(maximum)"
            }
        default:
            break
        }
        return nil
    }

    /// An unknown name as it may be shown: at most 40 characters, controls escaped.
    static func shown(_ name: String) -> String {
        let cut = name.count > 40 ? String(name.prefix(40)) + "…" : name
        return UntrustedText.terminal(cut)
    }
}
