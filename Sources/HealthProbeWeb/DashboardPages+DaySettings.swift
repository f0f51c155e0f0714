import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import Hummingbird

extension DashboardPages {
    /// The Settings page's "Each day's figures" section: the time zone of days and the source
    /// orders, each with a form of its own.
    struct DaySettingsView: Sendable {
        struct Order: Sendable {
            var type: String
            var typeName: String
            var sources: String
        }

        struct TypeChoice: Sendable {
            var type: String
            var typeName: String
            var sources: String
            var selected: Bool
        }

        var zone: String
        var systemZone: String
        var zones: [String]
        var orders: [Order]
        var types: [TypeChoice]
        var lines: String

        init(_ state: DaySettingsState, chosenType: String? = nil, lines: String = "") {
            zone = state.chosenZone ?? ""
            systemZone = state.systemZone
            zones = TimeZone.knownTimeZoneIdentifiers.sorted()
            orders = state.chosenOrders.map {
                Order(
                    type: $0.type, typeName: EvidenceText.sentence($0.typeName),
                    sources: $0.sources.joined(separator: " › ")
                )
            }
            types = state.orderableTypes.map {
                TypeChoice(
                    type: $0.type, typeName: EvidenceText.sentence($0.typeName),
                    sources: $0.sources.joined(separator: ", "),
                    selected: $0.type == chosenType)
            }
            self.lines = lines
        }
    }

    /// Saves the time zone of days (empty: the computer's).
    func saveDayZone(_ request: Request) async throws -> Response {
        let form = try await FormFields.read(request)
        guard form.hasValidCSRF(configuration.csrfToken) else { return forbidden() }
        let zone: TimeZone?
        do {
            zone = try DaySettingsState.zone(from: form["zone"])
        } catch let refusal as SettingsError {
            return try await refusedDaySettings(refusal)
        }
        guard try await withArchive({ try $0.setDayZone(zone) }) != nil else { return await noArchive() }
        return redirect(to: "/settings?done=saved#days")
    }

    /// Saves a type's source order, or restores Health's default (an empty order).
    func saveSourceOrder(_ request: Request) async throws -> Response {
        let form = try await FormFields.read(request)
        guard form.hasValidCSRF(configuration.csrfToken) else { return forbidden() }
        let type = form["type"] ?? ""
        let lines = form["order"] ?? ""
        let outcome = try await withArchive { store -> SettingsError? in
            do {
                let names = try DaySettingsState.load(from: store).sourceOrder(type: type, lines: lines)
                try store.setSourceOrder(names, of: type)
                return nil
            } catch let refusal as SettingsError {
                return refusal
            }
        }
        guard let outcome else { return await noArchive() }
        guard let refusal = outcome else { return redirect(to: "/settings?done=saved#days") }
        return try await refusedDaySettings(refusal, type: type, lines: lines)
    }

    /// The Settings page again with what was wrong in the days' section (422).
    private func refusedDaySettings(_ refusal: SettingsError, type: String? = nil, lines: String = "") async throws
        -> Response
    {
        guard
            let (settings, days) = try await withArchive({
                (try SettingsState.load(from: $0), try DaySettingsState.load(from: $0))
            })
        else { return await noArchive() }
        var view = SettingsView(settings, error: nil)
        view.days = DaySettingsView(days, chosenType: type, lines: lines)
        view.daysError = refusal.message
        return renderer.html(
            "settings", title: "Settings", tab: .settings, body: view, status: .unprocessableContent)
    }
}
