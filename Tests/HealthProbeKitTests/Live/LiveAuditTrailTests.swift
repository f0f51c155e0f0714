import Foundation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// What the live path writes to the audit trail when HealthKit will not do what the app asked.
@Suite("Live path: the audit trail")
struct LiveAuditTrailTests {
    /// A missing background-delivery entitlement is seen: the Audit Trail screen names the type
    /// and HealthKit's reason, and says when the type is checked instead.
    @Test func refusedBackgroundDeliveryIsWrittenDown() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        try store.noteBackgroundDeliveryRefused(
            type: "HKQuantityTypeIdentifierHeartRate",
            reason: "Missing com.apple.developer.healthkit.background-delivery entitlement.")
        let entry = try #require(try store.fetchAuditEntries().last)
        #expect(entry.event == "deliveryRefused")
        #expect(
            entry.message
                == "HealthKit refused background delivery of heart rate (Missing com.apple.developer.healthkit.background-delivery entitlement.); it is checked when HealthProbe is opened"
        )
    }
}
