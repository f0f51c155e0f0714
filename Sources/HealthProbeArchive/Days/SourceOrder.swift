import Foundation

/// A type's source order, best first, as Health combines sources (support article HT204351):
/// the user's own order for the type when one is set, else data entered by hand, then the Apple
/// Watch, then the iPhone, then other apps and devices, the one added last first. Sources the
/// user's order does not name follow it in the default order.
struct SourceOrder: Sendable {
    /// What is known of a source when it is placed.
    public struct Source: Sendable, Hashable {
        public var name: String
        public var tier: SourceTier
        /// When it began writing the type (``SourceArrival``), for the order among other apps.
        public var firstWritten: Double?
    }

    /// The setting that holds a type's order, names separated by commas.
    static func settingKey(type: String) -> String { "sourceOrder." + type }

    /// The user's order (names, best first), empty for the default.
    public let chosen: [String]

    public init(chosen: [String] = []) {
        self.chosen = chosen
    }

    /// The sources best first. A source the user named comes in their order, before any other.
    func ordered(_ sources: [Source]) -> [Source] {
        let chosenPlace = Dictionary(chosen.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return sources.sorted { left, right in
            switch (chosenPlace[left.name], chosenPlace[right.name]) {
            case (let l?, let r?): return l < r
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return Self.defaultOrder(left, right)
            }
        }
    }

    /// Health's default: by tier; among other apps the latest to arrive first; then by name.
    static func defaultOrder(_ left: Source, _ right: Source) -> Bool {
        if left.tier != right.tier { return left.tier < right.tier }
        if left.tier == .otherApp, left.firstWritten != right.firstWritten {
            return (left.firstWritten ?? -.infinity) > (right.firstWritten ?? -.infinity)
        }
        return left.name < right.name
    }

    /// The tier of a sample's source: by hand when its metadata says so, else by the device's
    /// model or name, else by the source's name.
    public static func tier(sourceName: String, deviceModel: String?, enteredByHand: Bool) -> SourceTier {
        if enteredByHand { return .enteredByHand }
        for text in [deviceModel, sourceName].compactMap({ $0 }) {
            if text.contains("Watch") { return .appleWatch }
            if text.contains("iPhone") { return .iPhone }
        }
        return .otherApp
    }

    /// The name a hand-entered sample's source goes by: Health keeps what a person typed apart
    /// from what an app wrote, even when the Health app itself wrote both.
    static func handEnteredName(_ sourceName: String) -> String { sourceName + " (entered by hand)" }
}
