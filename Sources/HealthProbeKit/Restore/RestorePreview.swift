import Foundation
import HealthProbeArchive

/// What a restore would write, per type and local day: `restore --dry-run`'s answer.
public struct RestorePreview: Sendable, Equatable, Encodable {
    public struct TypeDays: Sendable, Equatable, Encodable {
        public var type: String
        public var records: Int
        /// Records per local day, `2000-01-31` → count, in day order.
        public var days: [Day]
    }

    public struct Day: Sendable, Equatable, Encodable {
        public var date: String
        public var records: Int
    }

    public var anomalies: [Int64]
    public var records: Int
    public var timeZone: String
    public var types: [TypeDays]
    public var leftOut: RestoreFile.LeftOut

    public init(_ selection: LostRecordSelection, zone: TimeZone) {
        var days = LocalDays(zone: zone)
        var counts: [String: [Int64: Int]] = [:]
        var undated = 0
        for record in selection.records {
            guard let start = record.startDate, record.endDate != nil else {
                undated += 1
                continue
            }
            counts[record.type, default: [:]][days.day(of: start), default: 0] += 1
        }
        anomalies = selection.anomalies
        records = selection.records.count - undated
        timeZone = zone.identifier
        types = counts.map { type, byDay in
            TypeDays(
                type: type, records: byDay.values.reduce(0, +),
                days: byDay.keys.sorted().map { Day(date: UTCText.day($0), records: byDay[$0] ?? 0) })
        }.sorted { HealthKitCatalog.displayName(of: $0.type) < HealthKitCatalog.displayName(of: $1.type) }
        leftOut = RestoreFile.LeftOut(selection, undated: undated)
    }
}
