#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import HealthProbeKit
    import HealthProbeScreens
    import SwiftUI
    import HealthProbeArchive

    /// The Dashboard: reads its model only.
    struct DashboardView: View {
        let model: DashboardModel

        var body: some View {
            NavigationStack {
                List {
                    if let state = model.state {
                        Section {
                            HStack(spacing: 16) {
                                Image(systemName: state.status.symbol).font(.system(size: 48))
                                    .foregroundStyle(state.status.role.color).accessibilityHidden(true)
                                VStack(alignment: .leading, spacing: 8) {
                                    Text(state.status.title).font(.title2.bold())
                                    Text(state.status.detail).font(.body)
                                    Text(state.lastCheckedRelative.map { "Last checked \($0)" } ?? "Never checked")
                                        .font(.footnote).foregroundStyle(.secondary)
                                }
                            }
                            .accessibilityElement(children: .combine)
                            Button(model.isChecking ? "Checking…" : "Check Now") { Task { await model.checkNow() } }
                                .disabled(model.isChecking)
                                .accessibilityHint("Reads what changed in Health and audits it")
                        }
                        Section("Summary") {
                            LabeledContent("Samples tracked", value: state.recordsTracked.formatted())
                            LabeledContent("Anomalies found, all time", value: state.anomaliesAllTime.formatted())
                        }
                        Section("Recent alerts") {
                            ForEach(state.recentAlerts) { row in AnomalyRowView(row: row) }
                        }
                    }
                }
                .navigationTitle("Dashboard")
                .onAppear { model.refresh() }
            }
        }
    }

    struct AnomalyRowView: View {
        let row: AnomalyRow

        var body: some View {
            HStack(spacing: 8) {
                Text(row.severity.title).font(.caption.bold()).foregroundStyle(row.severity.role.color)
                VStack(alignment: .leading) {
                    Text("\(row.typeTitle) · \(row.sampleTypeName)").font(.body)
                    Text(row.detectedAt).font(.caption).foregroundStyle(.secondary)
                }
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(row.accessibilityLabel)
        }
    }

    struct AnomaliesView: View {
        let model: AnomaliesModel
        let restore: RestoreModel

        var body: some View {
            NavigationStack {
                List(model.list?.rows ?? []) { row in
                    Button {
                        model.open(row.id)
                    } label: {
                        AnomalyRowView(row: row)
                    }
                    .swipeActions { Button("Resolve") { model.resolve([row.id]) }.tint(.gray) }
                }
                .navigationTitle("Anomalies")
                .sheet(
                    isPresented: Binding(
                        get: { @MainActor in model.detail != nil }, set: { @MainActor in if !$0 { model.close() } })
                ) {
                    if let detail = model.detail { AnomalyDetailView(detail: detail, model: model, restore: restore) }
                }
                .onAppear { model.refresh() }
            }
        }
    }

    struct AnomalyDetailView: View {
        let detail: AnomalyDetailState
        let model: AnomaliesModel
        let restore: RestoreModel

        var body: some View {
            List {
                Section { Label(detail.row.summary, systemImage: "doc.text.magnifyingglass") }
                Section("Evidence") {
                    ForEach(detail.evidence, id: \.key) { row in
                        LabeledContent(row.label) { Text(row.value).font(.body.monospaced()) }
                    }
                }
                Section("Records") {
                    if !detail.valuesRevealed { Button("Reveal values") { model.revealValues() } }
                    ForEach(Array(detail.records.enumerated()), id: \.offset) { _, record in
                        LabeledContent(record.start, value: record.value ?? record.role)
                    }
                }
                if let title = detail.restoreTitle {
                    Button(title) { restore.prepare(anomalies: [detail.row.id]) }
                }
                ShareLink("Share as Markdown", item: detail.markdown)
                if !detail.row.resolved { Button("Mark Resolved") { model.resolve([detail.row.id]) } }
            }
        }
    }

    struct AuditTrailView: View {
        let model: AuditTrailModel

        var body: some View {
            NavigationStack {
                List(model.state?.rows ?? []) { row in
                    VStack(alignment: .leading, spacing: 8) {
                        Text(row.eventTitle).font(.caption.bold())
                        Text(row.message)
                        Text(row.at).font(.caption).foregroundStyle(.secondary)
                    }
                    .accessibilityElement(children: .combine)
                }
                .navigationTitle("Audit Trail")
                .onAppear { model.refresh() }
            }
        }
    }

    struct ArchiveStatusView: View {
        let model: ArchiveStatusModel

        var body: some View {
            NavigationStack {
                List {
                    if let state = model.state {
                        LabeledContent("File integrity", value: state.integrity ?? "never checked")
                        Button(model.isCheckingIntegrity ? "Checking…" : "Check Integrity Now") {
                            Task { await model.checkIntegrity() }
                        }
                        .disabled(model.isCheckingIntegrity)
                        LabeledContent("Size", value: state.size)
                        LabeledContent("Last full check of the data", value: state.lastVerified ?? "none yet")
                        Section("Types covered") {
                            ForEach(state.types, id: \.type) { LabeledContent($0.name, value: $0.records.formatted()) }
                        }
                        Section("Health and iCloud") {
                            ForEach(Array(state.contextEvents.enumerated()), id: \.offset) { _, event in
                                LabeledContent(event.kind, value: event.at)
                            }
                        }
                    }
                }
                .navigationTitle("Archive Status")
                .onAppear { model.refresh() }
            }
        }
    }

    struct SettingsView: View {
        let model: SettingsModel
        let exportSchedule: ExportScheduleModel

        var body: some View {
            NavigationStack {
                List {
                    if let state = model.state {
                        Picker("Check frequency", selection: binding(state, \.checkFrequency)) {
                            ForEach(state.frequencies, id: \.self) { Text($0.title).tag($0) }
                        }
                        Picker("Alert threshold", selection: binding(state, \.alertThreshold)) {
                            ForEach(state.thresholds, id: \.self) { Text($0.title).tag($0) }
                        }
                        Section("Sample types") {
                            ForEach(state.types, id: \.identifier) { option in
                                Toggle(option.name, isOn: typeBinding(state, option.identifier))
                            }
                        }
                        Section("Export") {
                            NavigationLink("Scheduled Export") { ScheduledExportView(model: exportSchedule) }
                        }
                        Button("Delete All Audit Data", role: .destructive) { model.askToDeleteAllAuditData() }
                    }
                }
                .navigationTitle("Settings")
                .confirmationDialog(
                    "Delete all audit data?",
                    isPresented: Binding(
                        get: { @MainActor in model.isConfirmingDeletion },
                        set: { @MainActor in if !$0 { model.cancelDeletion() } }),
                    titleVisibility: .visible
                ) {
                    Button("Delete Everything", role: .destructive) { model.confirmDeletion() }
                    Button("Cancel", role: .cancel) { model.cancelDeletion() }
                }
                .onAppear { model.refresh() }
            }
        }

        /// `Binding`'s closures are `@isolated(any) @Sendable`: each says it runs on the main
        /// actor (as the model it calls does), and the key path it captures is `Sendable`.
        private func binding<Value: Sendable>(
            _ state: SettingsState, _ path: WritableKeyPath<MonitoringSettings, Value> & Sendable
        ) -> Binding<Value> {
            Binding(
                get: { @MainActor in state.settings[keyPath: path] },
                set: { @MainActor value in
                    var settings = state.settings
                    settings[keyPath: path] = value
                    if path == \MonitoringSettings.alertThreshold { settings.alertThresholdChosen = true }
                    model.save(settings)
                })
        }

        private func typeBinding(_ state: SettingsState, _ identifier: String) -> Binding<Bool> {
            Binding(
                get: { @MainActor in state.settings.monitoredTypes.contains(identifier) },
                set: { @MainActor on in
                    var settings = state.settings
                    settings.monitoredTypes.removeAll { $0 == identifier }
                    if on { settings.monitoredTypes.append(identifier) }
                    model.save(settings)
                })
        }
    }

    extension ColorRole {
        /// Colours by role: the system's, so dark mode and contrast settings follow.
        var color: Color {
            switch self {
            case .healthy: .green
            case .warning: .orange
            case .critical: .red
            case .neutral: .gray
            }
        }
    }

    /// The scheduled export: how often, when, in which format, encrypted with a password kept in
    /// the Keychain. Edits are a draft until Save.
    struct ScheduledExportView: View {
        let model: ExportScheduleModel
        @State private var draft = ExportScheduleModel.Form()
        @State private var password = ""
        @State private var confirmation = ""

        var body: some View {
            Form {
                Toggle("Export on a schedule", isOn: $draft.isOn)
                if draft.isOn {
                    Picker("Every", selection: $draft.cadence) {
                        ForEach(ExportSchedule.Cadence.allCases, id: \.self) { Text($0.rawValue.capitalized).tag($0) }
                    }
                    Stepper("At \(draft.hour):\(String(format: "%02d", draft.minute))", value: $draft.hour, in: 0...23)
                    Stepper("Minute \(String(format: "%02d", draft.minute))", value: $draft.minute, in: 0...59, step: 5)
                    Picker("Format", selection: $draft.format) {
                        ForEach(ExportFormat.allCases, id: \.self) { Text($0.rawValue).tag($0) }
                    }
                    Toggle("Only what arrived since the last export", isOn: $draft.sinceLastOnly)
                    Toggle("Encrypt", isOn: $draft.encrypted)
                    if draft.encrypted {
                        SecureField("Password (kept in this iPhone's Keychain)", text: $password)
                        SecureField("The same password again", text: $confirmation)
                    }
                }
                Section {
                    Button("Save") {
                        model.save(draft, password: password, confirmation: confirmation)
                        password = ""
                        confirmation = ""
                    }
                } footer: {
                    Text(model.errorMessage ?? model.summary)
                }
            }
            .navigationTitle("Scheduled Export")
            .onAppear {
                model.refresh()
                draft = model.form
            }
        }
    }
#endif
