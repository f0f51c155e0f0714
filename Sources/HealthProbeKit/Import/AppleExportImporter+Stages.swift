import AppleHealthExport
import Foundation
import HealthProbeArchive

/// The import's pipeline stages before the writer, each on its own thread, joined by bounded
/// ``BatchChannel``s so that memory stays flat.
extension AppleExportImporter {
    static func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) -> JoinableThread {
        JoinableThread(name: name, body)
    }

    /// The middle stage: maps each batch to records, fingerprints them and gathers the per-type
    /// totals and the timeline the detectors follow (``StreamedTimeline``), passing the end or a
    /// failure through.
    static func fingerprint(
        from input: BatchChannel<Parsed>, into output: BatchChannel<Prepared>,
        followingTimelineUnder thresholds: Thresholds?
    ) {
        var aggregates = CaptureAggregates(followingTimelineUnder: thresholds)
        var builder = PreparedBatch.Builder(rowsPerBatch: batchSize)
        while let message = input.receive() {
            do {
                switch consume message {
                case .elements(let elements):
                    elements.drain { builder.append(exportElement: $0, countingIn: &aggregates) }
                    try output.send(.records(builder.take(handingOverDayBinsOf: &aggregates)))
                case .finished(let summary, let unreadable):
                    try output.send(.finished(summary, unreadable, aggregates))
                case .failed(let error):
                    try output.send(.failed(error))
                }
            } catch {
                input.cancel()
                return
            }
        }
        output.close()
    }

    static func parse(
        _ reader: AppleExportReader, into channel: BatchChannel<Parsed>, started: Date,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) {
        var batch = ElementBatch(capacity: batchSize)
        var unreadable: [String: UnreadableGroup] = [:]
        var records = 0
        var lastReport = Date.distantPast
        var currentType: String?
        do {
            let summary = try reader.read(progress: { bytes in
                guard let progress, Date().timeIntervalSince(lastReport) >= 0.25 else { return }
                lastReport = Date()
                progress(
                    ImportProgress(
                        phase: .reading, records: records, bytesRead: bytes, totalBytes: reader.source.expectedSize,
                        currentType: currentType, elapsed: Date().timeIntervalSince(started)))
            }) { element in
                if case .unreadable(let raw) = element {
                    let key = raw.raw.name + "\u{0}" + raw.reason
                    unreadable[key, default: UnreadableGroup(element: raw.raw.name, reason: raw.reason, count: 0)]
                        .count += 1
                }
                if records % 256 == 0 { currentType = element.sampleType }
                batch.append(element)
                records += 1
                if batch.isFull {
                    try channel.send(.elements(batch))
                    batch = ElementBatch(capacity: batchSize)
                }
            }
            if !batch.isEmpty { try channel.send(.elements(batch)) }
            let groups = unreadable.values.sorted { ($0.element, $0.reason) < ($1.element, $1.reason) }
            try channel.send(.finished(summary, groups))
        } catch is BatchChannel<Parsed>.Cancelled {
            return
        } catch {
            try? channel.send(.failed(error))
        }
        channel.close()
    }
}
