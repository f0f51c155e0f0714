import Foundation

/// A version as availability writes it: `15`, `15.0`, `17.4`.
struct Version: Comparable, CustomStringConvertible {
    var parts: [Int]

    init?(_ text: String) {
        let parts = text.split(separator: ".").map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        self.parts = parts.compactMap { $0 }
    }

    static func < (left: Version, right: Version) -> Bool {
        let count = max(left.parts.count, right.parts.count)
        let pad = { (parts: [Int]) in parts + Array(repeating: 0, count: count - parts.count) }
        return pad(left.parts).lexicographicallyPrecedes(pad(right.parts))
    }

    var description: String { parts.count == 1 ? "\(parts[0]).0" : parts.map(String.init).joined(separator: ".") }
}

/// The Apple platforms the package declares, each with a version.
enum Platform: String, CaseIterable {
    case macOS, iOS

    /// How swift-api-digester names the platform's introduction.
    var digesterKey: String {
        switch self {
        case .macOS: "intro_Macosx"
        case .iOS: "intro_iOS"
        }
    }

    /// How `@available` and `#available` name it.
    var availabilityNames: Set<String> {
        switch self {
        case .macOS: ["macOS", "OSX", "macOSApplicationExtension"]
        // Not `macCatalyst`: a Mac Catalyst guarantee says nothing of an iPhone's system.
        case .iOS: ["iOS", "iOSApplicationExtension"]
        }
    }
}

/// Versions by platform: when a declaration was introduced, or what a context guarantees.
typealias Versions = [Platform: Version]

/// The declarations of the modules swift-api-digester dumped (`-dump-sdk`), by USR, with the
/// versions that introduced them. A member without its own introduction takes its type's.
struct Introductions {
    /// Versions by USR.
    var versions: [String: Versions] = [:]
    /// Each declaration's twins, by USR: declarations beside it of the same name, the same
    /// parameter and result types and the same staticness. A twin added later (Swift 6's
    /// `FixedWidthInteger.&*` requirement beside the extension's operator) is the one a Linux
    /// build picks, and one a build for an older Apple system does not, since the type checker
    /// ranks a declaration its deployment target lacks below one it has; a twin takes exactly
    /// what the other takes, so the older one would be chosen there. An overload whose types
    /// differ is no twin: it may not accept the same arguments, so it excuses nothing.
    var siblings: [String: [String]] = [:]

    /// The modules dumped.
    var modules: Set<String> = []

    init(dumps: [URL]) throws {
        for dump in dumps {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dump))
            guard let root = (json as? [String: Any])?["ABIRoot"] as? [String: Any] else {
                throw IndexStoreFailure(description: "\(dump.path) is not a swift-api-digester dump")
            }
            if let name = root["name"] as? String { modules.insert(name) }
            walk(root, inherited: [:])
        }
    }

    /// Whether a twin of `usr` (``siblings``) needs no more than `minimum`.
    func hasOlderSibling(_ usr: String, within minimum: Versions) -> Bool {
        (siblings[usr] ?? []).contains { sibling in
            let needed = versions[sibling] ?? [:]
            return needed.allSatisfy { platform, version in minimum[platform].map { version <= $0 } ?? true }
        }
    }

    /// A declaration's name with its types as the dump prints them (result first, then each
    /// parameter's) and whether it is static.
    private static func signature(of node: [String: Any]) -> String {
        let types = (node["children"] as? [[String: Any]] ?? []).filter { $0["declKind"] == nil }
        let printed = types.map { $0["printedName"] as? String ?? "?" }
        let isStatic = node["static"] as? Bool ?? false
        return "\(node["printedName"] as? String ?? "")|\(isStatic)|" + printed.joined(separator: ",")
    }

    private mutating func walk(_ node: [String: Any], inherited: Versions) {
        var own = inherited
        let isDeclaration = node["declKind"] != nil
        if isDeclaration {
            for platform in Platform.allCases {
                if let text = node[platform.digesterKey] as? String, let version = Version(text) {
                    own[platform] = max(version, own[platform] ?? version)
                }
            }
            if let usr = node["usr"] as? String, !own.isEmpty {
                versions[usr] = versions[usr].map { known in known.merging(own) { max($0, $1) } } ?? own
            }
        }
        let children = (node["children"] as? [[String: Any]] ?? []).filter { $0["declKind"] != nil }
        let byName = Dictionary(grouping: children) { Self.signature(of: $0) }
        for group in byName.values where group.count > 1 {
            let usrs = group.compactMap { $0["usr"] as? String }
            for usr in usrs { siblings[usr, default: []] += usrs.filter { $0 != usr } }
        }
        for child in children { walk(child, inherited: isDeclaration ? own : inherited) }
    }
}
