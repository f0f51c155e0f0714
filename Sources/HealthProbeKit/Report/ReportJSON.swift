import Foundation

/// JSON as HealthProbe writes it for people and scripts (`--json`, the dashboard's exports):
/// indented, keys sorted, slashes left as they are.
public enum ReportJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
