import Foundation

/// A clinical record's FHIR resource (`clinical-records/*.json`): its canonical form, which
/// decides whether it changed, and what changed between two versions — key paths, never values.
public enum ClinicalDocument {
    /// The JSON with its keys sorted and no insignificant space; nil when the bytes are not JSON.
    public static func canonical(_ bytes: [UInt8]) -> [UInt8]? {
        guard let object = parse(bytes),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return Array(data)
    }

    static func parse(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// The key paths whose values differ between two versions (`valueQuantity.value`,
    /// `performer[0].display`), added and removed ones too, sorted; at most `limit`.
    public static func changedKeys(from before: [UInt8], to after: [UInt8], limit: Int = 50) -> [String] {
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
