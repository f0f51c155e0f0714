import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// On a phone the day figures are held against Health's own statistics (here the simulated
/// store's, computed apart from the archive): where several sources counted the same walks they
/// agree, and a day where the archive holds what Health no longer does is found and noted.
@Suite("Live checks: day figures against Health's own statistics")
struct HealthStatisticsComparisonTests {
    static let phone = HealthSample.Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone")

    /// Steps of one source, `minutes` long, starting `hoursAgo` before the clock.
    static func steps(
        _ timeline: LiveTimeline, source: String, device: HealthSample.Device?, hoursAgo: Double, minutes: Double,
        value: Double, metadata: [String: String] = [:]
    ) -> HealthSample {
        let start = timeline.clock.now.timeIntervalSince1970 - hoursAgo * 3_600
        return HealthSample(
            kind: .quantity, type: LiveTimeline.steps, sourceName: source, device: device, unit: "count", value: value,
            startDate: start, endDate: start + minutes * 60, metadata: metadata)
    }

    /// Saves each sample, returning them as the store keeps them (with their UUIDs).
    static func save(_ samples: [HealthSample], to store: SimulatedHealthStore) async throws -> [HealthSample] {
        var saved: [HealthSample] = []
        for sample in samples { saved.append(try await store.save(sample)) }
        return saved
    }

    @Test func overlappingSourcesAgreeAndADayHealthNoLongerHoldsIsNoted() async throws {
        let timeline = try LiveTimeline()
        let utc = try #require(TimeZone(identifier: "UTC"))
        await timeline.store.setCalendarZone(utc)
        let monitor = try timeline.monitor()
        // The Watch and the iPhone count the same walks, cut differently; the iPhone alone later;
        // a band app's total overlapping both; steps typed in by hand.
        var written: [HealthSample] = []
        for hour in stride(from: 30.0, through: 2, by: -4) {
            written.append(
                Self.steps(
                    timeline, source: "Test User\u{2019}s Apple Watch", device: LiveTimeline.watch,
                    hoursAgo: hour, minutes: 20, value: 900))
            written.append(
                Self.steps(
                    timeline, source: "iPhone-TESTDEVICE", device: Self.phone, hoursAgo: hour + 0.1,
                    minutes: 30, value: 1_100))
        }
        written.append(
            Self.steps(timeline, source: "iPhone-TESTDEVICE", device: Self.phone, hoursAgo: 1, minutes: 10, value: 400))
        written.append(Self.steps(timeline, source: "Band App", device: nil, hoursAgo: 28, minutes: 180, value: 5_000))
        written.append(
            Self.steps(
                timeline, source: "Health", device: nil, hoursAgo: 20, minutes: 15, value: 250,
                metadata: ["HKWasUserEntered": "1"]))
        written = try await Self.save(written, to: timeline.store)
        let outcome = await monitor.runCheck()
        #expect(outcome.kind == .completed)
        #expect(outcome.figureDisagreements.isEmpty)

        // Health's sums, as the simulated store computes them, are the day figures.
        let archive = try timeline.support.openArchive()
        var local = LocalDays(zone: utc)
        let today = local.day(of: timeline.clock.now.timeIntervalSince1970)
        let health = try await timeline.store.dailySums(
            of: LiveTimeline.steps, unit: "count", days: (today - 2)...today)
        let figures = try archive.dayFigures(types: [LiveTimeline.steps], days: (today - 2)...today, zone: utc)
        #expect(figures.count == 2)
        for figure in figures { #expect(abs(figure.value - (health[figure.day] ?? .nan)) < 1e-6, "day \(figure.day)") }
        let summed = written.reduce(0) { $0 + ($1.value ?? 0) }
        #expect(figures.reduce(0) { $0 + $1.value } < summed * 0.7, "overlapping sources are not added up")

        // A Watch sample deleted in Health, not yet read by a check: that day differs.
        let deleted = try #require(written.first)
        await timeline.store.delete([deleted.uuid])
        let found = try await HealthStatisticsComparison.compare(
            archive, with: timeline.store, types: [LiveTimeline.steps], now: timeline.clock.now)
        let day = local.day(of: deleted.startDate)
        #expect(found.map(\.day) == [day])
        #expect((found.first?.share ?? 0) > 0.01)
        #expect(
            HealthStatisticsComparison.auditMessage(found).hasPrefix(
                "day figures differ from Health's own: step count on "))

        // Read access switched off for a check: Health gives nothing, the archive holds the days;
        // the check notes the difference in the trail (types, days and shares, never a value).
        await timeline.store.setReadAccess(false)
        timeline.clock.advance(by: 60)
        let quiet = await monitor.runCheck()
        #expect(!quiet.figureDisagreements.isEmpty)
        let trail = try archive.fetchAuditEntries().filter { $0.event == AuditLog.Event.figuresDiffer.rawValue }
        #expect(trail.count == 1)
        #expect(trail.first?.message.contains("by 100.0 %") == true)
        #expect(trail.first.map { !$0.message.contains("900") && !$0.message.contains("1,100") } == true)
        // The same difference at the next check is not noted again.
        timeline.clock.advance(by: 60)
        _ = await monitor.runCheck()
        #expect(try archive.fetchAuditEntries().filter { $0.event == AuditLog.Event.figuresDiffer.rawValue }.count == 1)
    }

    /// The archive shows days in Los Angeles; the phone is in Berlin, whose calendar HealthKit
    /// steps its days in. A walk at three each morning in Berlin is on the day before in Los
    /// Angeles, and each day's walk is longer than the last: held against Health's days in the
    /// archive's zone, every day would differ. In the phone's zone they agree.
    @Test func daysAreComparedInThePhonesCalendarNotTheArchivesZone() async throws {
        let timeline = try LiveTimeline()
        let archive = try timeline.support.openArchive()
        let angeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        try archive.setDayZone(angeles)
        await timeline.store.setCalendarZone(berlin)
        var phoneDays = LocalDays(zone: berlin)
        let today = phoneDays.day(of: timeline.clock.now.timeIntervalSince1970)
        var walks: [HealthSample] = []
        for daysAgo in Int64(1)...5 {
            let start = phoneDays.start(of: today - daysAgo) + 3 * 3_600
            walks.append(
                HealthSample(
                    kind: .quantity, type: LiveTimeline.steps, sourceName: "iPhone-TESTDEVICE", device: Self.phone,
                    unit: "count", value: Double(600 + 100 * daysAgo), startDate: start, endDate: start + 1_800))
        }
        _ = try await Self.save(walks, to: timeline.store)
        let monitor = try timeline.monitor()
        let outcome = await monitor.runCheck()
        #expect(outcome.kind == .completed)
        #expect(outcome.figureDisagreements.isEmpty, "\(outcome.figureDisagreements)")

        // The same sums against the archive's days in its own zone do differ: the zone is what
        // tells the two apart.
        let period = (today - 6)...today
        let health = try await timeline.store.dailySums(of: LiveTimeline.steps, unit: "count", days: period)
        let inAngeles = try archive.dayFigures(types: [LiveTimeline.steps], days: period, zone: angeles)
        #expect(inAngeles.count == 5)
        #expect(inAngeles.allSatisfy { abs($0.value - (health[$0.day] ?? 0)) > 1 })
    }
}
