#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthKit
    import HealthProbeKit
    import HealthProbeArchive

    /// A restore's ``RestoreDestination`` over HealthKit: write permission asked for the types
    /// given (``RestoreApplier`` gives only those ``HealthKitWriting`` knows writable: asking for
    /// a read-only type raises an exception), and each sample saved as HealthProbe's. A sample
    /// whose sync identifier Health already holds is not saved again. The samples come from
    /// `RestoreApplier`, tested on Linux; this file only talks to HealthKit.
    public final class HealthKitRestoreWriter: RestoreDestination, @unchecked Sendable {
        let store: HKHealthStore

        public init(store: HKHealthStore = HKHealthStore()) {
            self.store = store
        }

        public func requestWriteAccess(to types: Set<String>) async throws -> Set<String> {
            let sampleTypes = types.compactMap { identifier in
                HealthKitDataSource.sampleType(identifier).map { (identifier, $0) }
            }
            try await store.requestAuthorization(toShare: Set(sampleTypes.map(\.1)), read: [])
            // Write permission, unlike read permission, is told: only what the person allowed.
            return Set(sampleTypes.filter { store.authorizationStatus(for: $0.1) == .sharingAuthorized }.map(\.0))
        }

        public func saveRestored(_ sample: HealthSample) async throws -> RestoreSave {
            guard let object = Self.object(sample) else { throw Unwritable(type: sample.type) }
            if let identifier = sample.syncIdentifier,
                try await holds(syncIdentifier: identifier, of: object.sampleType)
            {
                return .alreadyThere
            }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                store.save(object) { saved, error in
                    if saved {
                        continuation.resume()
                    } else {
                        continuation.resume(throwing: error ?? Unwritable(type: sample.type))
                    }
                }
            }
            return .saved
        }

        /// Whether Health holds a sample of `type` with this sync identifier (written by an earlier
        /// restore: HealthKit would refuse the same version again).
        private func holds(syncIdentifier: String, of type: HKSampleType) async throws -> Bool {
            let predicate = HKQuery.predicateForObjects(
                withMetadataKey: HKMetadataKeySyncIdentifier, allowedValues: [syncIdentifier])
            return try await withCheckedThrowingContinuation { continuation in
                let query = HKSampleQuery(sampleType: type, predicate: predicate, limit: 1, sortDescriptors: nil) {
                    _, samples, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: !(samples ?? []).isEmpty)
                    }
                }
                store.execute(query)
            }
        }

        /// The HealthKit object for a quantity or category sample; nil for any other kind.
        static func object(_ sample: HealthSample) -> HKSample? {
            let start = Date(timeIntervalSince1970: sample.startDate)
            let end = Date(timeIntervalSince1970: sample.endDate)
            var metadata: [String: Any] = sample.metadata
            // HealthKit takes the sync version as a number.
            if let version = sample.syncVersion { metadata[HKMetadataKeySyncVersion] = NSNumber(value: version) }
            switch sample.kind {
            case .quantity:
                guard let unit = sample.unit, let value = sample.value,
                    let type = HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: sample.type))
                else { return nil }
                return HKQuantitySample(
                    type: type, quantity: HKQuantity(unit: HKUnit(from: unit), doubleValue: value), start: start,
                    end: end, device: nil, metadata: metadata)
            case .category:
                guard let value = sample.value,
                    let type = HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: sample.type))
                else { return nil }
                return HKCategorySample(type: type, value: Int(value), start: start, end: end, metadata: metadata)
            default:
                return nil
            }
        }

        struct Unwritable: Error {
            var type: String
        }
    }
#endif
