import Foundation

/// JSON as HealthProbe writes it for people and scripts (`--json`, the dashboard's exports):
/// indented, keys sorted, slashes left as they are, dates in ISO 8601 (UTC, whole seconds).
public enum ReportJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }
}

extension ReportJSON {
    /// On one line, keys sorted: for the head and tail of a JSON export.
    public static func encodeCompact<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }
}
