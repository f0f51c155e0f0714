/// The offsets from UTC an export wrote its dates at, as spans of instants. Apple writes each
/// date at the offset the phone's time zone has at that date — `+0100` in winter and `+0200`
/// after the spring change in Europe — so one offset per export does not say it; a few spans do
/// (two a year for a zone with daylight saving time). Built as dates stream past: records come
/// grouped by type and in time within a type, so nearly every date falls in or beside the span
/// the last one did.
public struct OffsetSpans: Sendable, Equatable {
    public struct Span: Sendable, Equatable {
        /// The first and last instant seen at this offset, seconds since 1970.
        public var first: Int64
        public var last: Int64
        public var offset: Int32

        public init(first: Int64, last: Int64, offset: Int32) {
            self.first = first
            self.last = last
            self.offset = offset
        }
    }

    /// In time order, not overlapping.
    public private(set) var spans: [Span] = []
    /// Dates written at another offset than the span around them says (a zone changed between
    /// two dates of one span): counted, the span kept.
    public private(set) var conflicts = 0
    private var lastIndex = 0

    public init(_ spans: [Span] = []) {
        self.spans = spans
    }

    /// Notes one date as the export wrote it.
    public mutating func note(_ timestamp: AppleExportTimestamp) {
        let instant = timestamp.secondsSince1970
        let offset = timestamp.utcOffsetSeconds
        if lastIndex < spans.count, spans[lastIndex].offset == offset {
            let span = spans[lastIndex]
            if instant >= span.first, instant <= span.last { return }
            // Just past the span, before the next: the common case of dates in time order.
            if instant > span.last, lastIndex + 1 == spans.count || instant < spans[lastIndex + 1].first {
                spans[lastIndex].last = instant
                return
            }
        }
        insert(instant, offset)
    }

    /// The offset the export wrote dates near `instant` at: the span's that holds it; between
    /// spans, the nearer one's; nil when the export wrote no date.
    public func offset(at instant: Int64) -> Int32? {
        guard !spans.isEmpty else { return nil }
        let index = lastSpan(startingAtOrBefore: instant)
        guard let index else { return spans[0].offset }
        if instant <= spans[index].last || index + 1 == spans.count { return spans[index].offset }
        let next = spans[index + 1]
        return instant - spans[index].last <= next.first - instant ? spans[index].offset : next.offset
    }

    private mutating func insert(_ instant: Int64, _ offset: Int32) {
        let index = lastSpan(startingAtOrBefore: instant)
        if let index, instant <= spans[index].last {
            if spans[index].offset != offset { conflicts += 1 }
            lastIndex = index
            return
        }
        let nextIndex = (index ?? -1) + 1
        if let index, spans[index].offset == offset {
            spans[index].last = instant
            lastIndex = index
            mergeIfSameOffset(index)
            return
        }
        if nextIndex < spans.count, spans[nextIndex].offset == offset {
            spans[nextIndex].first = instant
            lastIndex = nextIndex
            return
        }
        spans.insert(Span(first: instant, last: instant, offset: offset), at: nextIndex)
        lastIndex = nextIndex
    }

    /// Joins span `index` with the next when nothing at another offset lies between them.
    private mutating func mergeIfSameOffset(_ index: Int) {
        guard index + 1 < spans.count, spans[index + 1].offset == spans[index].offset else { return }
        spans[index].last = max(spans[index].last, spans[index + 1].last)
        spans.remove(at: index + 1)
    }

    /// The last span whose first instant is at or before `instant`.
    private func lastSpan(startingAtOrBefore instant: Int64) -> Int? {
        var low = 0
        var high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].first <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
