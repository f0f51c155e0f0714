import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// HealthKit raises an exception (the app ends) for a statistic a type's aggregation style does
/// not support. The catalog's summed types, the simulated store's styles (as Apple's pages say
/// them) and docs/HEALTHKIT.md's table are one answer, and a check that monitors every type asks
/// the simulated store for nothing it refuses.
@Suite("Live checks: only the statistics a type supports")
struct AggregationStyleTests {
    static let prefix = "HKQuantityTypeIdentifier"

    @Test func theCatalogSumsADayOnlyOfTheTypesAppleDocumentsAsCumulative() throws {
        let quantities = HealthKitCatalog.types.filter { $0.kind == .quantity }.map(\.identifier)
        #expect(quantities.count > 50)
        for identifier in quantities {
            let name = String(identifier.dropFirst(Self.prefix.count))
            let style = try #require(SimulatedHealthStore.aggregationStyles[name], "\(name) has no style")
            let summed = HealthKitCatalog.dailyAggregation(of: identifier, hasValues: true) == .sum
            #expect(summed == (style == .cumulative), "\(name): \(style.rawValue), summed \(summed)")
        }
        for identifier in HealthKitCatalog.cumulativeQuantities {
            let name = String(identifier.dropFirst(Self.prefix.count))
            #expect(SimulatedHealthStore.aggregationStyles[name] == .cumulative, "\(name)")
        }
        #expect(SimulatedHealthStore.aggregationStyles["UVExposure"] == .discrete)
    }

    /// docs/HEALTHKIT.md's table, a row a type with Apple's page beside it, is the simulated
    /// store's: a style changed in one place and not the other fails here.
    @Test func theDocumentedTableIsTheSimulatedStores() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../docs/HEALTHKIT.md").standardized
        let text = try String(contentsOf: url, encoding: .utf8)
        var documented: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") && line.contains("developer.apple.com") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count == 3, "\(line)")
            #expect(cells[2].hasSuffix("/hkquantitytypeidentifier/" + cells[0].lowercased()), "\(cells[0])")
            documented[cells[0]] = cells[1]
        }
        #expect(documented == SimulatedHealthStore.aggregationStyles.mapValues(\.rawValue))
    }

    @Test func theSimulatedStoreRefusesASumOfADiscreteTypeAsHealthKitDoes() async throws {
        let timeline = try LiveTimeline()
        let uv = Self.prefix + "UVExposure"
        let refusal = await #expect(throws: SimulatedHealthStore.UnsupportedStatistic.self) {
            _ = try await timeline.store.dailySums(of: uv, unit: "count", days: 0...1)
        }
        #expect(refusal?.type == uv)
        #expect(refusal?.option == "cumulativeSum")
        let steps = try await timeline.store.dailySums(of: LiveTimeline.steps, unit: "count", days: 0...1)
        #expect(steps.isEmpty)
    }

    /// Every type the settings may choose, monitored at once: the comparison asks only for the
    /// sums HealthKit gives (a sum of UV exposure, asked before, ends the app on a phone).
    @Test func comparingEveryTypeAsksForNothingHealthKitRefuses() async throws {
        let timeline = try LiveTimeline()
        let archive = try timeline.support.openArchive()
        let every = HealthKitCatalog.types.map(\.identifier)
        let found = try await HealthStatisticsComparison.compare(
            archive, with: timeline.store, types: every, now: timeline.clock.now)
        #expect(found.isEmpty)
    }
}
