#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import HealthKit
    import HealthProbeKit

    /// Whether this device has a Health store at all (iPad and Mac may not).
    public enum HealthKitAvailability {
        public static var isHealthDataAvailable: Bool { HKHealthStore.isHealthDataAvailable() }
    }
#endif
