#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthKit
    import HealthProbeKit

    /// Wakes HealthProbe when a monitored type changes: an `HKObserverQuery` per type, with
    /// background delivery (it needs the HealthKit background-delivery entitlement). An observer
    /// only says *that* something changed: the handler runs the monitor's check, which reads the
    /// anchored changes. The completion handler is always called, as HealthKit requires.
    public final class HealthKitBackgroundDelivery: @unchecked Sendable {
        private let store: HKHealthStore
        private let types: [String]
        private let onChange: @Sendable () async -> Void
        private var queries: [HKObserverQuery] = []
        private let lock = NSLock()

        public init(
            store: HKHealthStore, types: [String] = HealthKitCatalog.defaultMonitoredTypes.map(\.identifier),
            onChange: @escaping @Sendable () async -> Void
        ) {
            self.store = store
            // Correlations are observed through the types they hold: HealthKit does not deliver
            // correlation types in the background.
            self.types = HealthKitCatalog.accessTypes(for: types)
            self.onChange = onChange
        }

        /// How long a background wake's check may run before it is cut short (HealthKit gives a
        /// wake about half a minute, undocumented; the completion must come before).
        static let wakeSeconds = 20.0

        /// HealthKit's completion handler, handed to the task that runs the check.
        private struct Completion: @unchecked Sendable {
            let call: HKObserverQueryCompletionHandler
        }

        public func start(frequency: HKUpdateFrequency = .hourly) {
            for identifier in types {
                guard let type = HealthKitDataSource.sampleType(identifier) else { continue }
                let onChange = self.onChange
                let query = HKObserverQuery(sampleType: type, predicate: nil) { _, completion, error in
                    let done = Completion(call: completion)
                    guard error == nil else { return done.call() }
                    // HealthKit backs off, then stops delivering, when the completion is late or
                    // never called: the check gets a bounded time and resumes at the next wake.
                    Task {
                        await BoundedWork.run(within: Self.wakeSeconds) { await onChange() }
                        done.call()
                    }
                }
                lock.withLock { queries.append(query) }
                store.execute(query)
                store.enableBackgroundDelivery(for: type, frequency: frequency) { _, _ in }
            }
        }

        public func stop() {
            let running = lock.withLock {
                defer { queries.removeAll() }
                return queries
            }
            for query in running { store.stop(query) }
            store.disableAllBackgroundDelivery { _, _ in }
        }
    }
#endif
