import Foundation
internal import GRDB

/// Vanished records paired one to one with the new records that rewrote them (another value, or
/// times moved), by sample type, in the order a detector's query offers the pairs: the first pair
/// a record is offered in is its own.
struct RewrittenPairs {
    struct Tally {
        var before: RecordTally
        var after: [Int64] = []
        /// What the detector measures of the type's pairs (how many changed unit, the largest move).
        var measure = 0.0
    }

    private(set) var types: [String: Tally] = [:]
    private var usedDepartures: Set<Int64> = []
    private var usedArrivals: Set<Int64> = []
    private let zone: TimeZone

    init(zone: TimeZone) { self.zone = zone }

    /// Takes the pair unless either record was taken already; `measure` then updates the type's.
    mutating func take(
        before: Int64, after: Int64, type: String, source: String?, start: Double?, end: Double?,
        measure: (inout Double) -> Void = { _ in }
    ) {
        guard !usedDepartures.contains(before), !usedArrivals.contains(after) else { return }
        usedDepartures.insert(before)
        usedArrivals.insert(after)
        var tally = types[type] ?? Tally(before: RecordTally(zone: zone))
        tally.before.add(id: before, source: source, start: start, end: end)
        tally.after.append(after)
        measure(&tally.measure)
        types[type] = tally
    }

    /// Each type's pairs, by type, explained in the capture's difference as modified (neither a
    /// deletion nor an insertion), the vanished records gone as `modified`.
    func explained(_ db: Database) throws -> [(sampleType: String, tally: Tally)] {
        let sorted = types.sorted { $0.key < $1.key }
        for (_, tally) in sorted {
            try CaptureDiff.explain(db, table: "departure", ids: tally.before.ids, as: "modified")
            try CaptureDiff.explain(db, table: "arrival", ids: tally.after, as: "modified")
            try CaptureDiff.setGoneReason(db, ids: tally.before.ids, reason: .modified)
        }
        return sorted.map { ($0.key, $0.value) }
    }
}
