import Foundation
internal import GRDB

/// Per-type totals carried from one live capture to the next: what was present after the
/// previous capture, plus what arrived, minus what went. The sums and hashes are additive, so a
/// record is taken out as it was put in, and a check costs what it changed, not what the archive
/// holds.
extension CaptureAggregates {
    /// The totals a capture stored (its per-type counts and day bins); nil when it stored none.
    static func stored(_ db: Database, capture: Int64) throws -> CaptureAggregates? {
        let snapshots = try Row.fetchAll(
            db, sql: "SELECT type, count, checksum, sourceCounts FROM typeSnapshot WHERE captureId = ?",
            arguments: [capture])
        guard !snapshots.isEmpty else { return nil }
        var types: [String: TypeTotals] = [:]
        for row in snapshots {
            var totals = TypeTotals()
            totals.count = row["count"]
            guard let checksum = UInt64(row["checksum"] as String, radix: 16) else { return nil }
            totals.checksum = checksum
            let sources: String = row["sourceCounts"]
            let parsed = Array(sources.utf8).withUnsafeBufferPointer { CanonicalJSON(canonicalText: $0) }
            guard case .object(let pairs)? = parsed else { return nil }
            for (source, value) in pairs {
                guard case .integer(let count) = value else { return nil }
                totals.sources[source] = Int(count)
            }
            types[row["type"]] = totals
        }
        let bins = try Row.fetchCursor(
            db, sql: "SELECT type, day, count, contentHash, valueSum, valueCount FROM typeDayBin WHERE captureId = ?",
            arguments: [capture])
        while let row = try bins.next() {
            guard let hash = UInt64(row["contentHash"] as String, radix: 16) else { return nil }
            types[row["type"], default: TypeTotals()].days[row["day"]] = DayBin(
                count: row["count"], hash: hash, valueSum: row["valueSum"] ?? 0, valueCount: row["valueCount"])
        }
        return CaptureAggregates(types: types)
    }

    /// Types left without records are no longer present.
    var withoutEmptyTypes: CaptureAggregates {
        CaptureAggregates(types: types.filter { $0.value.count > 0 })
    }
}

extension CaptureAggregates.TypeTotals {
    mutating func remove(sourceName: String?, numbers: PreparedBatch.Numbers, contribution: UInt64) {
        flushPendingSource()
        count -= 1
        checksum &-= contribution
        let source = sourceName ?? ""
        let left = (sources[source] ?? 0) - 1
        sources[source] = left > 0 ? left : nil
        guard let start = numbers.startDate else { return }
        let day = UTCDay.of(start)
        guard var bin = days[day] else { return }
        bin.count -= 1
        bin.hash &-= contribution
        if let value = numbers.numericValue {
            bin.valueCount -= 1
            bin.valueSum = bin.valueCount > 0 ? bin.valueSum - value : 0
        }
        days[day] = bin.count > 0 ? bin : nil
    }
}
