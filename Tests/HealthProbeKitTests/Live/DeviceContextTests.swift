import Foundation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// What the phone can see of its context — system and app versions, time zone, iCloud account,
/// which device the app runs on — noted when it changes, each change making the next check a
/// verification scan, on the simulated store. Identities only as digests.
@Suite("Live: the phone's context")
struct DeviceContextTests {
    static func context(
        system: String = "18.4", app: String = "1.0", zone: String = "Europe/Paris", token: String? = "account-A",
        install: String? = "00000000-0000-0000-0000-00000000000A"
    ) -> DeviceContext {
        DeviceContext(
            systemVersion: system, appVersion: app, timeZone: zone, iCloudToken: token.map { Data($0.utf8) },
            installIdentifier: install)
    }

    @Test(arguments: [
        (context(system: "18.5"), ContextMonitor.Kind.systemUpdate),
        (context(app: "1.1"), .appUpdate),
        (context(zone: "America/New_York"), .timeZone),
        (context(token: "account-B"), .iCloudAccount),
        (context(token: nil), .iCloudAccount),
        (context(install: "00000000-0000-0000-0000-00000000000B"), .deviceMigration),
    ])
    func eachChangeIsNotedAndMakesTheNextCheckAVerification(changed: DeviceContext, kind: ContextMonitor.Kind)
        async throws
    {
        var timeline = try LiveTimeline()
        timeline.configuration.verificationEvery = 100
        let monitor = try timeline.monitor()
        let store = try timeline.support.openArchive()
        let context = ContextMonitor(store: store)
        try await timeline.writeDay()
        #expect(try context.observe(Self.context(), at: timeline.clock.now).isEmpty, "the first is only kept")
        #expect(await monitor.runCheck().verified, "a first check reads everything")
        _ = try await timeline.nextDay(monitor)
        let quiet = try await timeline.nextDay(monitor)
        #expect(!quiet.verified, "nothing changed: an incremental check")

        timeline.clock.advance(by: 3_600)
        #expect(try context.observe(changed, at: timeline.clock.now) == [kind])
        #expect(try context.observe(changed, at: timeline.clock.now).isEmpty, "noted once")
        let after = try await timeline.nextDay(monitor)
        #expect(after.verified, "the check after a \(kind.rawValue) change verifies")
        let noted = try #require(try context.latest(kind))
        // The trail says what changed in words; an identity never appears, not even digested.
        #expect(!noted.detail.contains("account-") && !noted.detail.contains("0000"))
        let stored = try #require(try store.storedSetting(ContextMonitor.lastContextKey))
        #expect(!stored.contains("account-") && !stored.contains("00000000-0000"))
    }
}
