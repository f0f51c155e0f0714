import AppleHealthExport
import Foundation

@testable import HealthProbeArchive

/// An export read whole on the test's thread, handed to the archive as the kit's fingerprint stage
/// hands it over: batches of prepared records in the export's order, then the end with its totals
/// and the timeline followed on the way. Small batches, so that what the timeline follows crosses
/// them.
final class ReadExportFeed: AppleExportCaptureFeed {
    private var parts: [ExportCapturePart] = []
    /// The totals as the end hands them over, the followed timeline with them.
    let aggregates: CaptureAggregates

    init(_ url: URL, thresholds: Thresholds, rowsPerBatch: Int = 3) throws {
        var encoder = ExportRowEncoder(rowsPerBatch: rowsPerBatch)
        var fingerprinter = ExportRowFingerprinter()
        var aggregates = CaptureAggregates(followingTimelineUnder: thresholds)
        var parts: [ExportCapturePart] = []
        func handOverIf(full: Bool) {
            guard encoder.isFull || (!full && !encoder.isEmpty) else { return }
            var batch = encoder.take()
            fingerprinter.finish(&batch, countingIn: &aggregates)
            parts.append(.records(batch))
        }
        let summary = try AppleExportReader(url: url).read(
            recordsInPlace: { record in
                encoder.append(inPlace: record)
                handOverIf(full: true)
            },
            { element in
                encoder.append(element)
                handOverIf(full: true)
            })
        handOverIf(full: false)
        parts.append(.end(summary, aggregates))
        self.parts = parts
        self.aggregates = aggregates
    }

    func begin(holding held: HeldFiles) {}
    func next() throws -> ExportCapturePart { parts.removeFirst() }
    func files(all: Bool, _ store: (AttachedFile, String?) throws -> Void) throws {}
    func checkpoint() throws {}
}

extension ArchiveStore {
    /// Writes the export at `url` as a capture, read by ``ReadExportFeed``.
    func writeExport(_ url: URL, thresholds: Thresholds) throws -> (WrittenCapture, ReadExportFeed) {
        let feed = try ReadExportFeed(url, thresholds: thresholds)
        let request = AppleExportCaptureRequest(
            inputName: url.lastPathComponent, startedAt: Date(), thresholds: thresholds, allowOlder: false,
            allowUnrelated: false, pageCacheKiB: ArchiveStore.importPageCacheKiB)
        return (try writeAppleExportCapture(request, from: feed), feed)
    }
}
