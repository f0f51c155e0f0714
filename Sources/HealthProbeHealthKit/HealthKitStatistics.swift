#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthKit
    import HealthProbeKit
    import HealthProbeArchive

    /// Health's own daily sums: a statistics collection query (`cumulativeSum`, one day a step,
    /// from local midnight), which combines a type's sources as the Health app does. Days and
    /// the unit come from the kit (`LocalDays`, `HealthKitCatalog`); this file only asks HealthKit.
    extension HealthKitDataSource: HealthStatisticsSource {
        /// HealthKit steps the days of a statistics collection query in the current calendar.
        public var calendarZone: TimeZone { Calendar.current.timeZone }

        public func dailySums(of type: String, unit: String, days: ClosedRange<Int64>) async throws -> [Int64: Double] {
            let zone = calendarZone
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
            // A cancelled check (a background task's expiry) stops the query and returns at once.
            return try await StoppableAnswer.wait { reply in
                query.initialResultsHandler = { _, collection, error in
                    guard let collection else {
                        return reply(.failure(error ?? HealthDataSourceError.databaseInaccessible))
                    }
                    let healthUnit = HKUnit(from: unit)
                    var days = LocalDays(zone: zone)
                    var sums: [Int64: Double] = [:]
                    collection.enumerateStatistics(from: start, to: end) { statistics, _ in
                        guard let sum = statistics.sumQuantity() else { return }
                        sums[days.day(of: statistics.startDate.timeIntervalSince1970)] = sum.doubleValue(
                            for: healthUnit)
                    }
                    reply(.success(sums))
                }
                store.execute(query)
                return RunningQuery(store: store, query: query).stop
            }
        }
    }
#endif
