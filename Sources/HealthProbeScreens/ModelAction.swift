import HealthProbeArchive

/// Runs a model's action: nil when it succeeded, else the error in words — what the model then
/// shows as its `errorMessage`.
func failureMessage(of action: () throws -> Void) -> String? {
    do {
        try action()
        return nil
    } catch let refusal as any Refusal {
        return refusal.message
    } catch {
        return error.localizedDescription
    }
}
