import GRDB

/// Records that may be met again from another kind of source, by their ``SampleMatchKey``s:
/// each record is taken at most once, so identical copies pair off one by one. A sorted array
/// of key and record id — 16 bytes a key, a million records in 16 MB — searched by bisection,
/// and a bit a record id for what was taken.
struct SampleMatchIndex {
    private struct Entry {
        var key: Int
        var recordID: Int64
    }

    private var entries: [Entry] = []
    /// Bit `id - lowestID` is set once the record is taken.
    private var taken: [UInt64] = []
    private var lowestID: Int64 = 0
    private(set) var remaining = 0
    /// Whether some records were keyed without their source (see ``SampleMatchKey``).
    private(set) var hasSourceless = false

    var isEmpty: Bool { remaining == 0 }

    /// Keys the records `sql` selects: id, type, sourceName, unit, value, numericValue,
    /// startDate and endDate, in that order. A record without a source name is keyed without
    /// one, and so is every record unless `keyingSources`.
    init(_ db: Database, sql: String, arguments: StatementArguments = [], keyingSources: Bool = true) throws {
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var (lowest, highest) = (Int64.max, Int64.min)
        while let row = try rows.next() {
            let source: String? = row[2]
            let sourceless = !keyingSources || (source?.isEmpty ?? true)
            hasSourceless = hasSourceless || sourceless
            let content = SampleMatchKey.Content(
                type: row[1], sourceName: source, unit: row[3], value: row[4], numericValue: row[5], startDate: row[6],
                endDate: row[7])
            let id: Int64 = row[0]
            (lowest, highest) = (min(lowest, id), max(highest, id))
            remaining += 1
            for key in SampleMatchKey.keys(content, includingSource: !sourceless) {
                entries.append(Entry(key: key, recordID: id))
            }
        }
        entries.sort { ($0.key, $0.recordID) < ($1.key, $1.recordID) }
        if remaining > 0 {
            lowestID = lowest
            taken = Array(repeating: 0, count: Int((highest - lowest) / 64) + 1)
        }
    }

    /// The first record not taken yet under any of `keys`, now taken.
    mutating func take(_ keys: [Int]) -> Int64? {
        for key in keys {
            var index = lowerBound(key)
            while index < entries.count, entries[index].key == key {
                let id = entries[index].recordID
                let (word, bit) = (Int((id - lowestID) / 64), UInt64(1) << UInt64((id - lowestID) % 64))
                if taken[word] & bit == 0 {
                    taken[word] |= bit
                    remaining -= 1
                    return id
                }
                index += 1
            }
        }
        return nil
    }

    private func lowerBound(_ key: Int) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
