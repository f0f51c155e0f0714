import Testing

@testable import AppleHealthExport

/// The offsets an export wrote its dates at, as spans: built from dates in any order, merged
/// where nothing else lies between, and read back for any instant.
@Suite("Offset spans")
struct OffsetSpansTests {
    static func stamp(_ seconds: Int64, _ hours: Int32) -> AppleExportTimestamp {
        AppleExportTimestamp(secondsSince1970: seconds, utcOffsetSeconds: hours * 3_600)
    }

    @Test func datesInAnyOrderMakeOneSpanPerOffsetChange() {
        var spans = OffsetSpans()
        // Two types, each in time order, across one change from +1 to +2 at 1,000.
        for type in 0..<2 {
            for instant in stride(from: Int64(type), to: 2_000, by: 10) {
                spans.note(Self.stamp(instant, instant < 1_000 ? 1 : 2))
            }
        }
        #expect(spans.spans.map(\.offset) == [3_600, 7_200])
        #expect(spans.spans.first?.first == 0 && spans.spans.last?.last == 1_991)
        #expect(spans.conflicts == 0)
        #expect(spans.offset(at: 500) == 3_600)
        #expect(spans.offset(at: 1_500) == 7_200)
        // Before the first, after the last, and between two spans: the nearer one.
        #expect(spans.offset(at: -50) == 3_600)
        #expect(spans.offset(at: 5_000) == 7_200)
        #expect(spans.offset(at: spans.spans[0].last + 1) == 3_600)
        #expect(spans.offset(at: spans.spans[1].first - 1) == 7_200)
        #expect(OffsetSpans().offset(at: 0) == nil)
    }

    @Test func aDateInsideASpanAtAnotherOffsetIsCountedNotSplit() {
        var spans = OffsetSpans()
        for instant: Int64 in [0, 100, 200] { spans.note(Self.stamp(instant, 1)) }
        spans.note(Self.stamp(150, -7))
        #expect(spans.spans.count == 1)
        #expect(spans.conflicts == 1)
        // Spans of one offset either side of nothing else become one.
        spans.note(Self.stamp(400, 1))
        spans.note(Self.stamp(300, 1))
        #expect(spans.spans == [OffsetSpans.Span(first: 0, last: 400, offset: 3_600)])
    }
}
