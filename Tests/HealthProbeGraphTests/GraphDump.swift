import Foundation
import HealthProbeGraph

/// A graph in FalkorDB as sorted lines of text — every node with its labels and properties,
/// every relationship with its ends' keys and its properties — for comparing two graphs whole.
struct GraphDump: Equatable, CustomStringConvertible {
    var nodes: [String]
    var relationships: [String]

    static let keyOf = "toString(coalesce(%@.date, %@.uid, %@.iso, %@.identifier, %@.name, %@.id))"

    init(_ graph: FalkorDBGraph) throws {
        nodes = try graph.run("MATCH (n) RETURN n").rows.map { row in Self.describe(row[0]) }.sorted()
        let from = Self.keyOf.replacingOccurrences(of: "%@", with: "a")
        let to = Self.keyOf.replacingOccurrences(of: "%@", with: "b")
        relationships = try graph.run(
            "MATCH (a)-[r]->(b) RETURN labels(a)[0], \(from), type(r), r.hours_between, labels(b)[0], \(to)"
        ).rows.map { row in row.map { $0.text ?? "null" }.joined(separator: " | ") }.sorted()
    }

    var description: String { (nodes + relationships).joined(separator: "\n") }

    /// "Label {key=value, …}" with the properties sorted by name.
    private static func describe(_ node: RESPValue) -> String {
        guard case .array(let parts?) = node else { return "?" }
        var labels: [String] = []
        var properties: [String] = []
        for part in parts {
            guard case .array(let pair?) = part, pair.count == 2, let name = pair[0].text else { continue }
            if name == "labels", case .array(let values?) = pair[1] { labels = values.compactMap(\.text) }
            if name == "properties", case .array(let entries?) = pair[1] {
                properties = entries.compactMap { entry in
                    guard case .array(let keyValue?) = entry, keyValue.count == 2, let key = keyValue[0].text else {
                        return nil
                    }
                    return "\(key)=\(keyValue[1].text ?? "null")"
                }.sorted()
            }
        }
        return "\(labels.joined(separator: ":")) {\(properties.joined(separator: ", "))}"
    }

    /// Each node label's count.
    func count(_ label: String) -> Int { nodes.filter { $0.hasPrefix(label + " {") }.count }

    /// Each relationship type's count.
    func count(relationship type: String) -> Int {
        relationships.filter { $0.components(separatedBy: " | ").dropFirst(2).first == type }.count
    }
}
