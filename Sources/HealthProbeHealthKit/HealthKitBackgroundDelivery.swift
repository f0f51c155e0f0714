#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthKit
    import HealthProbeKit
    import HealthProbeArchive

    /// Wakes HealthProbe when a monitored type changes: an `HKObserverQuery` per type, with
    /// background delivery (it needs the HealthKit background-delivery entitlement). An observer
    /// only says *that* something changed: the handler runs the monitor's check, which reads the
    /// anchored changes. The completion handler is always called, as HealthKit requires.
    public final class HealthKitBackgroundDelivery: @unchecked Sendable {
        private let store: HKHealthStore
        private let types: [String]
        private let onChange: @Sendable () async -> Void
        private let onRefused: @Sendable (_ type: String, _ reason: String) -> Void
        private var queries: [HKObserverQuery] = []
        private let lock = NSLock()

        /// `onRefused` hears of each type HealthKit would not deliver in the background (the
        /// entitlement missing, the type not allowed), with HealthKit's reason.
        public init(
            store: HKHealthStore, types: [String] = HealthKitCatalog.defaultMonitoredTypes.map(\.identifier),
            onRefused: @escaping @Sendable (_ type: String, _ reason: String) -> Void = { _, _ in },
            onChange: @escaping @Sendable () async -> Void
        ) {
            self.store = store
            // Correlations are observed through the types they hold: HealthKit does not deliver
            // correlation types in the background.
            self.types = HealthKitCatalog.accessTypes(for: types)
            self.onRefused = onRefused
            self.onChange = onChange
        }

        /// The sample types observed, correlations' members in place of correlations.
        public var observedTypes: Set<String> { Set(types) }

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
                let onRefused = self.onRefused
                store.enableBackgroundDelivery(for: type, frequency: frequency) { enabled, error in
                    if !enabled { onRefused(identifier, error?.localizedDescription ?? "refused without a reason") }
                }
            }
        }

        /// Stops the observers, and background delivery for every observed type not in `kept`
        /// (the types the next observers enable): one type at a time, never "disable all", whose
        /// late completion would switch off what was just enabled.
        public func stop(keepingDeliveryFor kept: Set<String> = []) {
            let running = lock.withLock {
                defer { queries.removeAll() }
                return queries
            }
            for query in running { store.stop(query) }
            for identifier in types where !kept.contains(identifier) {
                guard let type = HealthKitDataSource.sampleType(identifier) else { continue }
                store.disableBackgroundDelivery(for: type) { _, _ in }
            }
        }
    }
#endif
