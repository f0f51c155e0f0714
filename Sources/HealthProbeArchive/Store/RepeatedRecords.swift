/// The next occurrence for each record a capture holds more than once, so that the n-th identical
/// copy goes straight to occurrence n instead of trying 0, 1, … n − 1 first: a writer that replays
/// one sample ten thousand times costs ten thousand statements, not fifty million.
///
/// Kept per identity key with the strict fingerprint that earned it: a record of another
/// fingerprint that merely shares the 64-bit key starts from 0, since an occurrence below may be
/// its own, from an earlier capture. Only records met more than once are held.
struct RepeatedRecords {
    private struct Entry {
        var fingerprint: (UInt64, UInt64)
        var next: Int64
    }

    /// More than this many distinct repeated records, and the oldest knowledge is dropped: the
    /// next copy of one of them tries from 0 again, which is slower, never wrong.
    static let limit = 1 << 20

    private var entries: [Int64: Entry] = [:]

    /// Where to start looking for a free occurrence of the record with `key` and `fingerprint`.
    func nextOccurrence(of key: Int64, fingerprint: UnsafeRawBufferPointer) -> Int64 {
        guard let entry = entries[key], entry.fingerprint == Self.words(fingerprint) else { return 0 }
        return entry.next
    }

    /// The record was stored at `occurrence`: its next copy goes after it.
    mutating func stored(_ key: Int64, fingerprint: UnsafeRawBufferPointer, at occurrence: Int64) {
        if entries.count >= Self.limit, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
        entries[key] = Entry(fingerprint: Self.words(fingerprint), next: occurrence + 1)
    }

    private static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        guard bytes.count >= 16 else { return (0, 0) }
        return (
            bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
            bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        )
    }
}
