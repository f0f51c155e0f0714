import Foundation
import HealthProbeArchive
import HealthProbeKit

/// Writing as HealthProbe, as HealthKit lets an app write: only the types the person allowed
/// (asked for once, answered per type), each sample HealthProbe's own, a sync identifier
/// replacing only by a higher version.
extension SimulatedHealthStore: RestoreDestination {
    /// The source every sample HealthProbe writes carries, as HealthKit names it by the app.
    public static let healthProbeSource = "HealthProbe"

    public enum WriteError: Error, Equatable {
        /// The person did not let HealthProbe write this type.
        case notAuthorized(String)
    }

    /// How the simulated person answers a request to write: every type asked (nil), or only these.
    public func answerWriteRequests(allowing types: Set<String>?) {
        writeAnswer = types
    }

    /// Every sample the store holds, of every type (for tests and the demo's narration).
    public func everySample() -> [HealthSample] { samples.values.flatMap(\.values).map(\.sample) }

    /// Every type HealthProbe has asked to write, for tests of what it asks.
    public var writeTypesAsked: Set<String> { writeAsked }

    public func requestWriteAccess(to types: Set<String>) async throws -> Set<String> {
        writeAsked.formUnion(types)
        let allowed = writeAnswer.map { types.intersection($0) } ?? types
        writeAuthorized.formUnion(allowed)
        return allowed
    }

    public func saveRestored(_ sample: HealthSample) async throws -> RestoreSave {
        guard writeAuthorized.contains(sample.type) else { throw WriteError.notAuthorized(sample.type) }
        var own = sample
        own.sourceName = Self.healthProbeSource
        own.sourceVersion = nil
        own.device = nil
        do {
            try save(own)
            return .saved
        } catch SaveError.olderSyncVersion {
            return .alreadyThere
        }
    }
}
