import AppleHealthExport
import Foundation
import HealthProbeArchive

/// The import's pipeline stages before the writer, each on its own thread, joined by bounded
/// ``BatchChannel``s so that memory stays flat.
extension AppleExportImporter {
    static func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) -> JoinableThread {
        JoinableThread(name: name, body)
    }

    /// The middle stage: fingerprints each batch's rows and gathers the per-type totals and the
    /// timeline the detectors follow (``StreamedTimeline``), passing the end or a failure through.
    static func fingerprint(
        from input: BatchChannel<Parsed>, into output: BatchChannel<Prepared>,
        followingTimelineUnder thresholds: Thresholds?
    ) {
        var aggregates = CaptureAggregates(followingTimelineUnder: thresholds)
        var fingerprinter = ExportRowFingerprinter()
        while let message = input.receive() {
            do {
                switch consume message {
                case .rows(var batch):
                    fingerprinter.finish(&batch, countingIn: &aggregates)
                    try output.send(.records(batch))
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

    /// The first stage: reads the export, writing each element's text and numbers into batches of
    /// rows (``ExportRowEncoder``), a record of the common shape straight from the reader's bytes.
    static func parse(
        _ reader: AppleExportReader, into channel: BatchChannel<Parsed>, started: Date,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) {
        var encoder = ExportRowEncoder(rowsPerBatch: batchSize)
        var unreadable: [String: UnreadableGroup] = [:]
        var records = 0
        var lastReport = Date.distantPast
        var currentType: String?
        /// Counts the element just appended and hands the batch on once it is full.
        func appended() throws {
            records += 1
            if let full = encoder.takeIfFull() { try channel.send(.rows(full)) }
        }
        do {
            let summary = try reader.read(
                progress: { bytes in
                    guard let progress, Date().timeIntervalSince(lastReport) >= 0.25 else { return }
                    lastReport = Date()
                    progress(
                        ImportProgress(
                            phase: .reading, records: records, bytesRead: bytes, totalBytes: reader.source.expectedSize,
                            currentType: currentType, elapsed: Date().timeIntervalSince(started)))
                },
                recordsInPlace: { record in
                    if records % 256 == 0 { currentType = String(decoding: record.type, as: UTF8.self) }
                    encoder.append(inPlace: record)
                    try appended()
                }
            ) { element in
                if case .unreadable(let raw) = element {
                    let key = raw.raw.name + "\u{0}" + raw.reason
                    unreadable[key, default: UnreadableGroup(element: raw.raw.name, reason: raw.reason, count: 0)]
                        .count += 1
                }
                if records % 256 == 0 { currentType = element.sampleType }
                encoder.append(element)
                try appended()
            }
            if !encoder.isEmpty { try channel.send(.rows(encoder.take())) }
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
