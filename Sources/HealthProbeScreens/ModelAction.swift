import HealthProbeArchive

/// Runs a model's action: nil when it succeeded, else the error in words — what the model then
/// shows as its `errorMessage`.
func failureMessage(of action: () throws -> Void) -> String? {
    do {
        try action()
        return nil
    } catch {
        return words(for: error)
    }
}

/// An error as a screen says it: a refusal in its own words, anything else as the system puts it.
func words(for error: any Error) -> String {
    (error as? any Refusal)?.message ?? error.localizedDescription
}
