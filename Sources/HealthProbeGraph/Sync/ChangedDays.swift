import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The local days whose records changed since a destination's last sync: records that arrived
/// since (ids above its ceiling), records that went since (gone in a later capture) and records
/// that came back since (an absence that ended in a later capture), whatever the reason.
struct ChangedDays {
    static func since(_ state: GraphSyncState, _ source: GraphSource, clock: inout LocalDayClock) throws
        -> Set<LocalDay>
    {
        try days(of: source.recordsChanged(since: state, ArchiveDayReader.relevance), clock: &clock)
    }

    /// The local days of an anomaly's records.
    static func ofAnomaly(_ id: Int64, _ source: GraphSource, clock: inout LocalDayClock) throws -> Set<LocalDay> {
        try days(of: source.records(ofAnomaly: id), clock: &clock)
    }

    private static func days(of cursor: GraphRecordCursor, clock: inout LocalDayClock) throws -> Set<LocalDay> {
        var days = Set<LocalDay>()
        while try cursor.step() {
            guard let start = cursor.startDate else { continue }
            if let kind = cursor.kind, kind.elementsEqual(Self.activitySummary) {
                if let day = activityDay(cursor.details) { days.insert(day) }
                continue
            }
            let day = clock.day(of: start)
            days.insert(day)
            // A sample spread over its time touches every day it reaches; a night's sleep, the day
            // it ends on (docs/DESIGN.md §8a). Two more days at most: the day figures look back no
            // further.
            let isSleep = cursor.type.map { $0.elementsEqual(Self.sleepType) } ?? false
            let shift = isSleep ? DayFigure.nightBeforeMidnight : 0
            let end = max(start, (cursor.endDate ?? start) - 0.001)
            let first = isSleep ? clock.day(of: start + shift) : day
            let last = clock.day(of: end + shift)
            guard last.number > first.number || first != day else { continue }
            for number in first.number...min(max(first.number, last.number), first.number + 2) {
                days.insert(LocalDay(number))
            }
        }
        return days
    }

    private static let sleepType = Array(SummaryMetric.sleepType.utf8)

    private static let activitySummary = Array("activitySummary".utf8)

    private static func activityDay(_ details: UnsafeBufferPointer<UInt8>?) -> LocalDay? {
        guard let details, let object = try? JSONSerialization.jsonObject(with: Data(details)) as? [String: Any],
            let text = object["day"] as? String
        else { return nil }
        return LocalDay(text)
    }
}
