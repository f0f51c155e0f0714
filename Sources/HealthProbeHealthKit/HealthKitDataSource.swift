#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthKit
    import HealthProbeKit
    import HealthProbeArchive

    /// The live path's ``HealthDataSource`` over HealthKit: anchored object queries, a page at a
    /// time, for changes and for verification scans (from no anchor); anchors archived with
    /// secure coding; a cancelled check stops its query at once. Identifier
    /// tables, units and kinds come from `HealthKitCatalog`, tested on Linux; this file only
    /// talks to HealthKit.
    public final class HealthKitDataSource: HealthDataSource, @unchecked Sendable {
        let store: HKHealthStore
        private let types: [HealthKitCatalog.MonitoredType]

        public init(
            store: HKHealthStore = HKHealthStore(),
            types: [HealthKitCatalog.MonitoredType] = HealthKitCatalog.types
        ) {
            self.store = store
            self.types = types
        }

        /// The types read access is asked for: correlations through the types they hold.
        private var readTypes: Set<HKObjectType> {
            Set(
                HealthKitCatalog.accessTypes(for: types.map(\.identifier)).compactMap {
                    Self.sampleType($0) as HKObjectType?
                })
        }

        /// Asks for read access to the monitored types (HealthKit never says whether it was given).
        public func requestAuthorization() async throws {
            try await store.requestAuthorization(toShare: [], read: readTypes)
        }

        public func authorization() async -> HealthAuthorization {
            guard HKHealthStore.isHealthDataAvailable() else { return .unavailable }
            let read = readTypes
            return await withCheckedContinuation { continuation in
                store.getRequestStatusForAuthorization(toShare: [], read: read) { status, error in
                    // An error is no answer about access (a locked phone's protected store gives
                    // one): the check goes on, and its first query says what stopped it — a locked
                    // device takes the deferral path, never "not given access".
                    continuation.resume(
                        returning: error != nil || status == .unnecessary ? .requested : .notDetermined)
                }
            }
        }

        public func changes(of type: String, since anchor: HealthAnchor?, limit: Int) async throws -> ChangePage {
            guard let sampleType = Self.sampleType(type) else {
                return ChangePage(added: [], deleted: [], anchor: anchor, mayHaveMore: false)
            }
            let queryAnchor = try anchor.flatMap {
                try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: $0.data)
            }
            let unit = unit(for: type)
            // A cancelled check (the background task's expiration) returns at once: the page is
            // abandoned and the query stopped; its late answer, if any, is ignored.
            let recordings = Recordings()
            var page: ChangePage = try await StoppableAnswer.wait { reply in
                let query = HKAnchoredObjectQuery(
                    type: sampleType, predicate: nil, anchor: queryAnchor, limit: limit
                ) { _, samples, deleted, newAnchor, error in
                    if let error { return reply(.failure(Self.mapped(error))) }
                    reply(
                        Result {
                            let added = (samples ?? []).compactMap { HealthSample(healthKit: $0, unit: unit) }
                            recordings.keep((samples ?? []).compactMap { $0 as? HKElectrocardiogram })
                            let removed = (deleted ?? []).map(Self.deletedSample)
                            let archived = try newAnchor.map {
                                HealthAnchor(
                                    data: try NSKeyedArchiver.archivedData(
                                        withRootObject: $0, requiringSecureCoding: true))
                            }
                            let count = (samples?.count ?? 0) + (deleted?.count ?? 0)
                            return ChangePage(
                                added: added, deleted: removed, anchor: archived ?? anchor,
                                mayHaveMore: count >= limit)
                        })
                }
                store.execute(query)
                return RunningQuery(store: store, query: query).stop
            }
            // An ECG recording's voltages come from a query of their own, one recording at a time.
            for recording in recordings.take() {
                try Task.checkCancellation()
                page.added.append(
                    HealthSample(electrocardiogram: recording, microvolts: try await voltages(of: recording)))
            }
            return page
        }

        /// A recording's voltages in µV, in order, from its lead; a cancelled check stops the query.
        private func voltages(of recording: HKElectrocardiogram) async throws -> [Double] {
            let collected = Voltages()
            return try await StoppableAnswer.wait { reply in
                let query = HKElectrocardiogramQuery(recording) { _, result in
                    switch result {
                    case .measurement(let measurement):
                        if let quantity = measurement.quantity(for: .appleWatchSimilarToLeadI) {
                            collected.append(quantity.doubleValue(for: HKUnit.voltUnit(with: .micro)))
                        }
                    case .done: reply(.success(collected.values))
                    case .error(let error): reply(.failure(Self.mapped(error)))
                    // A kind of result a later iOS may add is passed over: `.done` or `.error`
                    // still ends the reading, and the answer is given once.
                    @unknown default: break
                    }
                }
                store.execute(query)
                return RunningQuery(store: store, query: query).stop
            }
        }

        /// The ECG recordings of one page, handed from HealthKit's callback to the reading after it.
        private final class Recordings: @unchecked Sendable {
            private let lock = NSLock()
            private var recordings: [HKElectrocardiogram] = []

            func keep(_ found: [HKElectrocardiogram]) { lock.withLock { recordings = found } }
            func take() -> [HKElectrocardiogram] { lock.withLock { recordings } }
        }

        /// Voltages gathered as HealthKit calls back, one measurement a call.
        private final class Voltages: @unchecked Sendable {
            private let lock = NSLock()
            private var gathered: [Double] = []

            func append(_ value: Double) { lock.withLock { gathered.append(value) } }
            var values: [Double] { lock.withLock { gathered } }
        }

        /// A query HealthKit runs, to be stopped from whichever thread a cancellation comes on
        /// (the store is documented as safe to use from any thread).
        struct RunningQuery: @unchecked Sendable {
            let store: HKHealthStore
            let query: HKQuery

            func stop() { store.stop(query) }
        }

        private func unit(for type: String) -> String? {
            types.first { $0.identifier == type }?.unit
        }

        /// A locked device is a deferral, not an empty store.
        static func mapped(_ error: Error) -> Error {
            if let error = error as? HKError {
                switch error.code {
                case .errorDatabaseInaccessible: return HealthDataSourceError.databaseInaccessible
                case .errorHealthDataUnavailable: return HealthDataSourceError.unavailable
                default: break
                }
            }
            return error
        }

        static func deletedSample(_ object: HKDeletedObject) -> DeletedSample {
            let metadata = object.metadata ?? [:]
            return DeletedSample(
                uuid: object.uuid, syncIdentifier: metadata[HKMetadataKeySyncIdentifier] as? String,
                syncVersion: (metadata[HKMetadataKeySyncVersion] as? NSNumber)?.intValue)
        }

        static func sampleType(_ identifier: String) -> HKSampleType? {
            if identifier == HealthRecord.workoutType { return HKObjectType.workoutType() }
            if identifier == HealthKitCatalog.electrocardiogramType { return HKObjectType.electrocardiogramType() }
            if identifier.hasPrefix("HKQuantityTypeIdentifier") {
                return HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: identifier))
            }
            if identifier.hasPrefix("HKCategoryTypeIdentifier") {
                return HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: identifier))
            }
            if identifier.hasPrefix("HKCorrelationTypeIdentifier") {
                return HKObjectType.correlationType(forIdentifier: HKCorrelationTypeIdentifier(rawValue: identifier))
            }
            return nil
        }
    }
#endif
