import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The rows a sync's statements share, and the chain's arithmetic.
extension GraphSyncPass {
    /// The day before or after `day` in a sorted chain (whether or not `day` is in it).
    static func neighbour(of day: LocalDay, in chain: [LocalDay], after: Bool) -> LocalDay? {
        var low = 0
        var high = chain.count
        while low < high {
            let middle = (low + high) / 2
            if chain[middle] < day { low = middle + 1 } else { high = middle }
        }
        if after {
            let index = low < chain.count && chain[low] == day ? low + 1 : low
            return index < chain.count ? chain[index] : nil
        }
        return low > 0 ? chain[low - 1] : nil
    }

    static func days(_ range: ClosedRange<LocalDay>) -> [LocalDay] {
        (range.lowerBound.number...range.upperBound.number).map(LocalDay.init)
    }

    static func dateValue(_ day: LocalDay) -> CypherValue { .string(day.description) }

    static func weekRow(_ week: ISOWeek) -> CypherValue {
        .map([
            ("iso", .string(week.iso)), ("year", .integer(Int64(week.year))),
            ("week_number", .integer(Int64(week.number))), ("start_date", .string(week.monday.description)),
        ])
    }

    static var metricTypeRows: [CypherValue] {
        var seen = Set<String>()
        return SummaryMetric.all.compactMap { metric in
            guard seen.insert(metric.sampleType).inserted else { return nil }
            return .map([("identifier", .string(metric.sampleType))] + metricTypeFields(metric.sampleType))
        }
    }

    /// A metric type's properties, the same whether a summary or an anomaly makes its node.
    static func metricTypeFields(_ sampleType: String) -> [(String, CypherValue)] {
        let unit = SummaryMetric.all.first { $0.sampleType == sampleType }?.unitName
        return [
            ("display_name", .string(HealthKitCatalog.shortName(of: sampleType))),
            ("unit", unit.map(CypherValue.string) ?? .null),
            ("category", .string(sampleType.hasPrefix(SummaryMetric.category) ? "category" : "quantity")),
        ]
    }
}
