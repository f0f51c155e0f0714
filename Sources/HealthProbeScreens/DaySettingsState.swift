import Foundation
import HealthProbeArchive
import HealthProbeKit

/// How days are counted (docs/DESIGN.md §8a): the time zone of local days and each type's source
/// order, as the Settings screen shows and changes them.
public struct DaySettingsState: Sendable, Equatable {
    public struct ChosenOrder: Sendable, Equatable {
        public var type: String
        public var typeName: String
        public var sources: [String]
    }

    public struct TypeSources: Sendable, Equatable {
        public var type: String
        public var typeName: String
        public var sources: [String]
    }

    /// The zone the user chose, nil for the computer's.
    public var chosenZone: String?
    public var systemZone: String
    public var chosenOrders: [ChosenOrder]
    /// The types two or more sources wrote: those an order changes.
    public var orderableTypes: [TypeSources]

    public static func load(from store: ArchiveStore) throws -> DaySettingsState {
        let known = try store.knownSources()
        return DaySettingsState(
            chosenZone: try store.chosenDayZone(), systemZone: TimeZone.current.identifier,
            chosenOrders: try store.chosenSourceOrders().map {
                ChosenOrder(type: $0.key, typeName: HealthKitCatalog.displayName(of: $0.key), sources: $0.value)
            }.sorted { $0.typeName < $1.typeName },
            orderableTypes: known.filter { $0.value.count > 1 }.map {
                TypeSources(type: $0.key, typeName: HealthKitCatalog.displayName(of: $0.key), sources: $0.value)
            }.sorted { $0.typeName < $1.typeName })
    }

    /// A zone from the form: empty for the computer's; an unknown name refused.
    public static func zone(from text: String?) throws -> TimeZone? {
        let name = (text ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        guard let zone = TimeZone(identifier: name) else {
            throw SettingsError(message: "Unknown time zone “\(name)”: use a name such as Europe/Paris.")
        }
        return zone
    }

    /// A type's order from the form's lines (best first); empty restores Health's default. Each
    /// name must be one of the type's sources: a misspelt name would silently change nothing.
    public func sourceOrder(type: String, lines: String?) throws -> [String] {
        guard let known = orderableTypes.first(where: { $0.type == type }) else {
            throw SettingsError(message: "No type with several sources is called “\(type)”.")
        }
        var names: [String] = []
        for line in (lines ?? "").split(whereSeparator: \.isNewline) {
            let name = line.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !names.contains(name) else { continue }
            guard known.sources.contains(name) else {
                throw SettingsError(
                    message: "“\(name)” has written no \(known.typeName): its sources are "
                        + known.sources.joined(separator: ", ") + ".")
            }
            names.append(name)
        }
        return names
    }
}
