/// Records that may be met again, by 64-bit keys — a sample's UUID, or its ``SampleMatchKey``s —
/// each record taken at most once, so that identical copies pair off one by one.
///
/// Keys are hashes, spread evenly: they are kept sorted with a directory of where each run of
/// leading bits starts, so that a look-up reads one directory slot and a bucket of about one
/// entry (two cache misses, where bisecting a million entries took twenty). A million records
/// take 16 MB of entries, 1 MB of directory and a bit each for what was taken.
struct SampleMatchIndex: Sendable {
    fileprivate struct Entry {
        var key: UInt64
        var recordID: Int64
    }

    /// Sorted by key.
    private var entries: [Entry] = []
    /// Bucket `b` holds entries `starts[b]..<starts[b + 1]`.
    private var starts: [Int32] = []
    private var bucketShift: UInt64 = 64
    /// Bit `id - lowestID` is set once the record is taken.
    private var taken: [UInt64] = []
    private var lowestID: Int64 = 0
    /// Records not taken yet.
    private(set) var remaining = 0

    var isEmpty: Bool { remaining == 0 }

    /// Collects keys, then sorts them in place into an index.
    struct Builder {
        fileprivate var entries: [Entry] = []
        fileprivate var records = 0
        fileprivate var lowest = Int64.max
        fileprivate var highest = Int64.min

        /// `expected` entries are room for: growing by doubling would hold up to twice as many.
        init(expected: Int = 0) {
            entries.reserveCapacity(expected)
        }

        mutating func add(_ recordID: Int64, keys: some Sequence<UInt64>) {
            records += 1
            (lowest, highest) = (min(lowest, recordID), max(highest, recordID))
            for key in keys { entries.append(Entry(key: key, recordID: recordID)) }
        }

        /// The index; the builder is left empty. The entries are taken out by a swap, so that
        /// sorting them in place never copies them (a builder still shared would).
        mutating func build() -> SampleMatchIndex {
            var entries: [Entry] = []
            swap(&entries, &self.entries)
            var index = SampleMatchIndex()
            guard records > 0 else { return index }
            // About four entries a bucket: one or two cache lines, and a directory a quarter the size.
            let bits = max(1, min(24, Int.bitWidth - entries.count.leadingZeroBitCount - 2))
            index.bucketShift = UInt64(64 - bits)
            index.starts = Self.sortInPlace(&entries, shift: index.bucketShift, buckets: 1 << bits)
            index.entries = entries
            index.lowestID = lowest
            index.taken = Array(repeating: 0, count: Int((highest - lowest) / 64) + 1)
            index.remaining = records
            return index
        }

        /// Sorts `entries` by key without a second array: counted into buckets by their leading
        /// bits, moved into place bucket by bucket (keys are hashes, so buckets are even), each
        /// bucket's few entries then sorted. Returns where each bucket starts.
        private static func sortInPlace(_ entries: inout [Entry], shift: UInt64, buckets: Int) -> [Int32] {
            var starts = [Int32](repeating: 0, count: buckets + 1)
            for entry in entries { starts[Int(entry.key >> shift) + 1] += 1 }
            for bucket in 0..<buckets { starts[bucket + 1] += starts[bucket] }
            var next = starts
            for bucket in 0..<buckets {
                while next[bucket] < starts[bucket + 1] {
                    let position = Int(next[bucket])
                    let home = Int(entries[position].key >> shift)
                    if home == bucket {
                        next[bucket] += 1
                    } else {
                        entries.swapAt(position, Int(next[home]))
                        next[home] += 1
                    }
                }
            }
            for bucket in 0..<buckets {
                var position = Int(starts[bucket]) + 1
                while position < Int(starts[bucket + 1]) {
                    let entry = entries[position]
                    var slot = position
                    while slot > Int(starts[bucket]),
                        (entries[slot - 1].key, entries[slot - 1].recordID) > (entry.key, entry.recordID)
                    {
                        entries[slot] = entries[slot - 1]
                        slot -= 1
                    }
                    entries[slot] = entry
                    position += 1
                }
            }
            return starts
        }
    }

    /// The first record not taken yet under any of `keys`, now taken.
    mutating func take(_ keys: [UInt64]) -> Int64? {
        for key in keys {
            for position in bucket(of: key) where entries[position].key == key {
                let id = entries[position].recordID
                let (word, bit) = (Int((id - lowestID) / 64), UInt64(1) << UInt64((id - lowestID) % 64))
                if taken[word] & bit == 0 {
                    taken[word] |= bit
                    remaining -= 1
                    return id
                }
            }
        }
        return nil
    }

    /// The first record under `key`, taken or not.
    func first(_ key: UInt64) -> Int64? {
        bucket(of: key).first { entries[$0].key == key }.map { entries[$0].recordID }
    }

    private func bucket(of key: UInt64) -> Range<Int> {
        guard !starts.isEmpty else { return 0..<0 }
        let bucket = Int(key >> bucketShift)
        return Int(starts[bucket])..<Int(starts[bucket + 1])
    }
}
