import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import Hummingbird

extension DashboardPages {
    struct SettingsView: Sendable {
        var error: String?
        var frequencies: [ChoiceView]
        var thresholds: [ChoiceView]
        var types: [ChoiceView]
        /// Whether `check` follows the threshold: only once one is saved.
        var thresholdChosen: Bool
        var thresholdName: String
        /// How days are counted; nil before the first check.
        var days: DaySettingsView?
        var daysError: String?

        init(_ state: SettingsState, error: String?) {
            self.error = error
            thresholdChosen = state.settings.alertThresholdChosen
            thresholdName = state.settings.alertThreshold.rawValue
            frequencies = state.frequencies.map {
                ChoiceView(value: String($0.hours), label: $0.title, selected: $0 == state.settings.checkFrequency)
            }
            thresholds = state.thresholds.map {
                ChoiceView(value: $0.rawValue, label: $0.title, selected: $0 == state.settings.alertThreshold)
            }
            types = state.types.map { ChoiceView(value: $0.identifier, label: $0.name, selected: $0.selected) }
        }
    }

    struct DeletionView: Sendable {
        var captures: String
        var records: String
        var anomalies: String
    }

    /// The settings; before the first check, the defaults, which saving keeps in a new archive.
    func settings(_ request: Request) async throws -> Response {
        var flash: String? =
            switch request.uri.queryParameters["done"] {
            case "saved": "Settings saved."
            case "deleted": "All audit data was deleted. The settings stay."
            default: nil
            }
        guard
            let (state, days) = try await withArchive({
                (try SettingsState.load(from: $0), try DaySettingsState.load(from: $0))
            })
        else {
            if await access.isFillingFirstCapture { return await noArchive() }
            flash =
                flash ?? "No check yet: these are the defaults. Saving keeps them in a new archive for the first check."
            return renderer.html(
                "settings", title: "Settings", tab: .settings,
                body: SettingsView(SettingsState.make(.defaults), error: nil), flash: flash)
        }
        var view = SettingsView(state, error: nil)
        view.days = DaySettingsView(days)
        return renderer.html("settings", title: "Settings", tab: .settings, body: view, flash: flash)
    }

    /// Saves the form; a value out of range shows the page again with the message (422).
    func saveSettings(_ request: Request) async throws -> Response {
        let form = try await FormFields.read(request)
        guard form.hasValidCSRF(configuration.csrfToken) else { return forbidden() }
        let (hours, types, threshold) = (form["frequency"], form.all("type"), form["threshold"])
        if try await withArchive({ _ in }) == nil {
            // Before the first check: refuse a bad form before the archive is made.
            do {
                _ = try SettingsState.settings(fromHours: hours, types: types, threshold: threshold, current: .defaults)
                    .validated()
            } catch let refusal as SettingsError {
                return refusedSettings(refusal, current: .defaults, types: types)
            }
            guard try await access.forSettings() != nil else { return await noArchive() }
        }
        let outcome = try await withArchive { store -> (refusal: SettingsError?, current: MonitoringSettings) in
            let current = try store.fetchSettings()
            do {
                try store.saveSettings(
                    try SettingsState.settings(fromHours: hours, types: types, threshold: threshold, current: current))
                return (nil, current)
            } catch let error as SettingsError {
                return (error, current)
            }
        }
        guard let outcome else { return await noArchive() }
        guard let refusal = outcome.refusal else { return redirect(to: "/settings?done=saved") }
        return refusedSettings(refusal, current: outcome.current, types: types)
    }

    /// The form again, as it was sent, with what was wrong (422).
    private func refusedSettings(_ refusal: SettingsError, current: MonitoringSettings, types: [String]) -> Response {
        var shown = SettingsState.make(current)
        let chosen = Set(types)
        for index in shown.types.indices {
            shown.types[index].selected = chosen.contains(shown.types[index].identifier)
        }
        return renderer.html(
            "settings", title: "Settings", tab: .settings, body: SettingsView(shown, error: refusal.message),
            status: .unprocessableContent)
    }

    func confirmDeletion() async throws -> Response {
        guard let overview = try await withArchive({ try $0.fetchOverview() }) else { return await noArchive() }
        let view = DeletionView(
            captures: format.count(overview.captures), records: format.count(overview.recordsTracked),
            anomalies: format.count(overview.anomaliesAllTime))
        return renderer.html("confirmDeletion", title: "Delete all audit data?", tab: .settings, body: view)
    }

    func deleteAllAuditData(_ request: Request) async throws -> Response {
        guard try await FormFields.read(request).hasValidCSRF(configuration.csrfToken) else { return forbidden() }
        if jobs.runningJobID != nil {
            return renderer.error(
                .conflict, title: "A check is running",
                message: "Wait for the check to finish before deleting the audit data.", link: ("/settings", "Settings")
            )
        }
        guard try await withArchive({ try $0.deleteAllAuditData() }) != nil else { return await noArchive() }
        return redirect(to: "/settings?done=deleted")
    }
}
