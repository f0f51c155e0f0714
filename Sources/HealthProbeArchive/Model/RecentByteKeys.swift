import Foundation

/// Values of the few byte strings rows repeat (types, sources, devices), found by those bytes: an
/// export interleaves a few dozen, and making a `String` of each row's to look it up would
/// allocate for most. The keys' bytes lie in one arena, their places beside it as plain numbers,
/// so that a lookup compares in place and retains nothing but the value it returns. Once
/// ``capacity`` keys are held it starts again, so that it stays small whatever the input.
struct RecentByteKeys<Value> {
    private var arena: [UInt8] = []
    private var places: [Range<Int>] = []
    private var values: [Value] = []
    /// The key found last: rows of one name come in runs.
    private var last = 0
    private let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The value remembered for exactly these bytes, if any.
    mutating func value(of key: UnsafeRawBufferPointer) -> Value? {
        guard let found = place(of: key) else { return nil }
        last = found
        return values[found]
    }

    mutating func remember(_ key: UnsafeRawBufferPointer, as value: Value) {
        if places.count == capacity {
            arena.removeAll(keepingCapacity: true)
            places.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            last = 0
        }
        places.append(arena.count..<(arena.count + key.count))
        arena.append(contentsOf: key)
        values.append(value)
    }

    private func place(of key: UnsafeRawBufferPointer) -> Int? {
        arena.withUnsafeBytes { arena in
            func matches(_ index: Int) -> Bool {
                let place = places[index]
                return place.count == key.count
                    && (key.isEmpty || memcmp(arena.baseAddress! + place.lowerBound, key.baseAddress!, key.count) == 0)
            }
            if last < places.count, matches(last) { return last }
            return places.indices.first(where: matches)
        }
    }
}

extension RecentByteKeys where Value == String {
    /// The name `span` of `bytes` holds, as `make` gives it from the bytes the first time they are
    /// met (their text, unless told otherwise); nil for a null span.
    mutating func name(
        _ span: PreparedBatch.Span, in bytes: UnsafeRawBufferPointer,
        making make: (UnsafeRawBufferPointer) -> String = { String(decoding: $0, as: UTF8.self) }
    ) -> String? {
        guard !span.isNull else { return nil }
        let text = UnsafeRawBufferPointer(rebasing: bytes[span.range])
        if let known = value(of: text) { return known }
        let name = make(text)
        remember(text, as: name)
        return name
    }
}
