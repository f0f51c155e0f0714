import AppleHealthExport
import Foundation
internal import GRDB

/// The offsets an export capture's dates were written at (``OffsetSpans``), kept with the
/// capture as `[[first, last, offset], …]` so that the Apple-format rebuild writes each date as
/// that export did (`+0100` before the spring change, `+0200` after it).
enum CaptureOffsets {

    static func text(_ spans: OffsetSpans) -> String {
        CanonicalJSON.array(
            spans.spans.map {
                CanonicalJSON.array([.integer($0.first), .integer($0.last), .integer(Int64($0.offset))])
            }
        ).text
    }

    static func spans(_ text: String?) -> OffsetSpans? {
        guard let text, let rows = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[NSNumber]] else {
            return nil
        }
        let spans = rows.compactMap { row -> OffsetSpans.Span? in
            guard row.count == 3 else { return nil }
            return OffsetSpans.Span(first: row[0].int64Value, last: row[1].int64Value, offset: row[2].int32Value)
        }
        return spans.isEmpty ? nil : OffsetSpans(spans)
    }
}
