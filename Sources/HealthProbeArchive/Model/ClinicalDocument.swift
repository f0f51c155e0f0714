import Foundation

/// A clinical record's FHIR resource (`clinical-records/*.json`): its canonical form, which
/// decides whether it changed, and what changed between two versions — key paths, never values.
package enum ClinicalDocument {
    /// The JSON with its keys sorted and no insignificant space; nil when the bytes are not JSON,
    /// or hold more than a document does (``beyondBudget(_:)``).
    package static func canonical(_ bytes: [UInt8]) -> [UInt8]? {
        guard let object = parse(bytes),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return Array(data)
    }

    /// Parsed only within the budget: Foundation's objects take kilobytes each, so a 16 MiB file
    /// of two million empty objects would otherwise take gigabytes.
    static func parse(_ bytes: [UInt8]) -> Any? {
        guard beyondBudget(bytes) == nil else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Values a document may hold, and how deep: a FHIR resource as Health writes it holds tens
    /// to a few thousand values, a few levels deep.
    static let maximumValues = 50_000
    package static let maximumDepth = 64

    /// Why `bytes` hold more than a clinical document, counted in one pass without building
    /// anything (each opening bracket or separator outside a string is a value); nil within budget.
    package static func beyondBudget(_ bytes: [UInt8]) -> String? {
        var values = 1
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= maximumDepth else { return "it nests deeper than \(maximumDepth) levels" }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","):
                values += 1
                guard values <= maximumValues else {
                    return "it holds more than \(EvidenceText.grouped(maximumValues)) values"
                }
            default: break
            }
        }
        return nil
    }

    /// The key paths whose values differ between two versions (`valueQuantity.value`,
    /// `performer[0].display`), added and removed ones too, sorted; at most `limit`.
    package static func changedKeys(from before: [UInt8], to after: [UInt8], limit: Int = 50) -> [String] {
        guard let old = parse(before), let new = parse(after) else { return ["(the whole document)"] }
        var keys: [String] = []
        differences(old, new, path: "", into: &keys, limit: limit)
        return keys.sorted()
    }

    private static func differences(_ old: Any, _ new: Any, path: String, into keys: inout [String], limit: Int) {
        guard keys.count < limit else { return }
        switch (old, new) {
        case (let old as [String: Any], let new as [String: Any]):
            for key in Set(old.keys).union(new.keys).sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                guard let oldValue = old[key], let newValue = new[key] else {
                    keys.append(child)
                    continue
                }
                differences(oldValue, newValue, path: child, into: &keys, limit: limit)
            }
        case (let old as [Any], let new as [Any]):
            for index in 0..<max(old.count, new.count) {
                let child = "\(path)[\(index)]"
                guard index < old.count, index < new.count else {
                    keys.append(child)
                    continue
                }
                differences(old[index], new[index], path: child, into: &keys, limit: limit)
            }
        default:
            if !isEqual(old, new) { keys.append(path.isEmpty ? "(the whole document)" : path) }
        }
    }

    private static func isEqual(_ old: Any, _ new: Any) -> Bool {
        guard
            let oldData = try? JSONSerialization.data(withJSONObject: old, options: [.sortedKeys, .fragmentsAllowed]),
            let newData = try? JSONSerialization.data(withJSONObject: new, options: [.sortedKeys, .fragmentsAllowed])
        else { return false }
        return oldData == newData
    }
}
