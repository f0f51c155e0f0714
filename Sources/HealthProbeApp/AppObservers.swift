#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthKit
    import HealthProbeHealthKit
    import HealthProbeKit
    import HealthProbeArchive

    /// The observer queries with background delivery, owned by the launch so that they start as
    /// the app launches, before the archive is open (Apple: set them up in the launch, so that
    /// they exist when HealthKit wakes the app; an unanswered wake is retried with backoff and
    /// delivery eventually stops). Their types come from the plan kept beside the archive; each
    /// handler waits for the archive within the wake's bounded time and always calls HealthKit's
    /// completion. No logic here.
    @MainActor
    public final class AppObservers {
        private let health: HKHealthStore
        private let planFile: URL
        private var delivery: HealthKitBackgroundDelivery?
        private var current: ObserverPlan?
        /// What a wake does: a check, once the archive is open.
        var whenChanged: @Sendable () async -> Void = {}
        /// Where a type HealthKit would not deliver is noted, once the archive is open.
        var whenRefused: @Sendable (_ type: String, _ reason: String) async -> Void = { _, _ in }

        init(health: HKHealthStore, planFile: URL) {
            self.health = health
            self.planFile = planFile
        }

        /// The plan the last observers were started with (the defaults' before any).
        var savedPlan: ObserverPlan { ObserverPlan.read(from: planFile) }

        /// Starts observers for `plan`, replacing those running, and keeps the plan for the next
        /// launch. With `restart` false, observers already running for the same plan are kept.
        func start(_ plan: ObserverPlan, restart: Bool = true) {
            if !restart, plan == current, delivery != nil { return }
            let refused = whenRefused
            let next = HealthKitBackgroundDelivery(
                store: health, types: plan.types,
                onRefused: { type, reason in Task { await refused(type, reason) } },
                onChange: whenChanged)
            // The old observers stop; delivery is turned off only for the types no longer
            // observed, so that no "disable all" can land after the new types are enabled.
            delivery?.stop(keepingDeliveryFor: next.observedTypes)
            next.start(frequency: plan.hourly ? .hourly : .daily)
            delivery = next
            current = plan
            try? plan.write(to: planFile)
        }
    }
#endif
