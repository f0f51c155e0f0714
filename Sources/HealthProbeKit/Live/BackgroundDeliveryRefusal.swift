import Foundation
import HealthProbeArchive

extension ArchiveStore {
    /// HealthKit would not wake HealthProbe in the background for `type` (most often the app
    /// lacks the background-delivery entitlement): said in the audit trail, with HealthKit's
    /// reason, so that checks that only run while the app is open are not a surprise.
    public func noteBackgroundDeliveryRefused(type: String, reason: String) throws {
        try recordInAuditTrail(
            .deliveryRefused,
            message: "HealthKit refused background delivery of \(HealthKitCatalog.displayName(of: type)) (\(reason)); "
                + "it is checked when HealthProbe is opened")
    }
}
