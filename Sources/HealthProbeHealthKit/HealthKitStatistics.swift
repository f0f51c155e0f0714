#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthKit
    import HealthProbeKit
    import HealthProbeArchive

    /// Health's own daily sums: a statistics collection query (`cumulativeSum`, one day a step,
    /// from local midnight), which combines a type's sources as the Health app does. Days and
    /// the unit come from the kit (`LocalDays`, `HealthKitCatalog`); this file only asks HealthKit.
    extension HealthKitDataSource: HealthStatisticsSource {
        public func dailySums(of type: String, unit: String, days: ClosedRange<Int64>, zone: TimeZone) async throws
            -> [Int64: Double]
        {
            guard let quantityType = HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: type))
            else { return [:] }
            var local = LocalDays(zone: zone)
            let start = Date(timeIntervalSince1970: local.start(of: days.lowerBound))
            let end = Date(timeIntervalSince1970: local.start(of: days.upperBound + 1))
            var step = DateComponents()
            step.day = 1
            let query = HKStatisticsCollectionQuery(
                quantityType: quantityType,
                quantitySamplePredicate: HKQuery.predicateForSamples(withStart: start, end: end, options: []),
                options: .cumulativeSum, anchorDate: start, intervalComponents: step)
            return try await withCheckedThrowingContinuation { continuation in
                query.initialResultsHandler = { _, collection, error in
                    guard let collection else {
                        return continuation.resume(throwing: error ?? HealthDataSourceError.databaseInaccessible)
                    }
                    let healthUnit = HKUnit(from: unit)
                    var days = LocalDays(zone: zone)
                    var sums: [Int64: Double] = [:]
                    collection.enumerateStatistics(from: start, to: end) { statistics, _ in
                        guard let sum = statistics.sumQuantity() else { return }
                        sums[days.day(of: statistics.startDate.timeIntervalSince1970)] = sum.doubleValue(
                            for: healthUnit)
                    }
                    continuation.resume(returning: sums)
                }
                store.execute(query)
            }
        }
    }
#endif
