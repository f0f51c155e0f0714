// A `Binding`'s closures are `@isolated(any) @Sendable`: written without `@MainActor in`, they are
// not the view's, and reading a main-actor model from them is refused (as the app's sheet and
// confirmation bindings once did).
import SwiftUI

@MainActor
final class Model {
    var shown = false
    func close() {}
}

struct Sheet: View {
    let model: Model

    var body: some View {
        Text("Test User")
            .sheet(isPresented: Binding(get: { model.shown }, set: { if !$0 { model.close() } })) { Text("2000-01-01") }
    }
}
