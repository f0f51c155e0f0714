#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import HealthProbeScreens
    import SwiftUI

    /// Putting back what vanished: what will be written and what cannot be, then the writing with
    /// its progress and a cancel, then the summary. Everything it says comes from ``RestoreModel``.
    struct RestoreView: View {
        let model: RestoreModel
        @State private var password = ""

        var body: some View {
            NavigationStack {
                List {
                    if model.needsPassword {
                        Section("Encrypted restore file") {
                            SecureField("Password", text: $password)
                            Button("Open") { model.unlock(password: password) }
                        }
                    }
                    if let message = model.errorMessage { Section { Text(message) } }
                    if let plan = model.plan {
                        Section(plan.title) { ForEach(plan.types, id: \.self) { Text($0) } }
                        if !plan.notWritten.isEmpty {
                            Section("Not written") { ForEach(plan.notWritten, id: \.self) { Text($0) } }
                        }
                        if !plan.leftOut.isEmpty {
                            Section("Left out") { ForEach(plan.leftOut, id: \.self) { Text($0) } }
                        }
                    }
                    switch model.phase {
                    case .idle:
                        EmptyView()
                    case .ready:
                        Button("Put Back into Health") { Task { await model.start() } }
                    case .writing:
                        Section("Writing") {
                            ProgressView(value: Double(model.done), total: Double(max(model.total, 1)))
                            Button("Cancel") { model.cancel() }
                        }
                    case .finished:
                        Section("Done") { ForEach(model.summary, id: \.self) { Text($0) } }
                    }
                }
                .navigationTitle("Restore")
            }
        }
    }
#endif
