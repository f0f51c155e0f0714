import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Imports one Apple Health export into the archive as a new full capture.
///
/// A reading thread inflates and filters the input, a parser thread reads typed elements in
/// batches, a third maps them to records and fingerprints them, and the calling thread stores them in a single write transaction, so
/// that a failed or killed import leaves nothing behind: the capture becomes visible, complete,
/// only when the transaction commits. See `AppleExportImporter+Stages.swift` for the threads.
public struct AppleExportImporter: Sendable {
    public static let origin = CaptureOrigin.export
    static let batchSize = 512
    /// Batches each hand-off holds. 16 cost about 4 MB more than 4 and, measured interleaved
    /// at 1M (three rounds, BENCHMARKS.md), bought no speed: 4 keeps a 5M-record check in 64 MB.
    static let batchesInFlight = 4

    public let store: ArchiveStore
    public let thresholds: Thresholds
    /// The writer's SQLite page cache during this import, in KiB.
    public let pageCacheKiB: Int
    /// Whether an export made before the one last checked is compared all the same
    /// (``OlderExportRefusal``).
    public let allowOlder: Bool
    /// Check an export that shares almost nothing with the archive all the same
    /// (``UnrelatedCaptureRefusal``).
    public let allowUnrelated: Bool
    /// Set by another thread to stop the import: it throws ``CheckCancelled`` within a batch, and
    /// its transaction is rolled back.
    public let cancellation: CancellationFlag?

    public init(
        store: ArchiveStore, thresholds: Thresholds = Thresholds(), pageCacheKiB: Int = ArchiveStore.importPageCacheKiB,
        allowOlder: Bool = false, allowUnrelated: Bool = false, cancellation: CancellationFlag? = nil
    ) {
        self.store = store
        self.thresholds = thresholds
        self.pageCacheKiB = pageCacheKiB
        self.allowOlder = allowOlder
        self.allowUnrelated = allowUnrelated
        self.cancellation = cancellation
    }

    /// What one import produced.
    public struct Result: Sendable {
        public var capture: CaptureSummary
        /// Unreadable elements by element name and reason, with counts.
        public var unreadable: [UnreadableGroup]
        /// What the detectors found in this capture.
        public var audit: CaptureAudit.Report
    }

    public struct UnreadableGroup: Sendable, Codable, Equatable {
        public var element: String
        public var reason: String
        public var count: Int
    }

    /// What the parser hands to the fingerprint stage.
    enum Parsed: Sendable {
        case elements(ElementBatch)
        case finished(AppleExportSummary, [UnreadableGroup])
        case failed(any Error)
    }

    /// What the fingerprint stage hands to the writer.
    enum Prepared: Sendable {
        case records(PreparedBatch)
        case finished(AppleExportSummary, [UnreadableGroup], CaptureAggregates)
        case failed(any Error)
    }

    /// Imports the export `reader` points at.
    public func importExport(
        _ reader: AppleExportReader, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws -> Result {
        let parsed = BatchChannel<Parsed>(capacity: Self.batchesInFlight)
        let prepared = BatchChannel<Prepared>(capacity: Self.batchesInFlight)
        let started = Date()
        let files = ReferencedFilePrefetch(source: reader.source)
        let parser = Self.startThread("healthprobe.parser") {
            Self.parse(reader, into: parsed, started: started, progress: progress)
        }
        let fingerprinter = Self.startThread("healthprobe.fingerprints") {
            Self.fingerprint(from: parsed, into: prepared)
        }
        // Every thread the import started has ended before it returns, a failed one too.
        defer {
            parser.join()
            fingerprinter.join()
            files.stop()
        }
        do {
            return try store.writeSnapshotCapture(
                origin: Self.origin, inputName: reader.source.displayName, input: "an export", startedAt: started,
                pageCacheKiB: pageCacheKiB
            ) { ingest in
                try store(
                    from: prepared, into: ingest, reader: reader, files: files, started: started, progress: progress)
            }
        } catch {
            // The stages before the writer stop too (the archive's errors come in words).
            prepared.cancel()
            parsed.cancel()
            throw error
        }
    }

    private func store(
        from channel: BatchChannel<Prepared>, into ingest: CaptureIngest, reader: AppleExportReader,
        files: ReferencedFilePrefetch, started: Date, progress: (@Sendable (ImportProgress) -> Void)?
    ) throws -> Result {
        try ingest.matchRecordsBackupsDescribed()
        while let message = channel.receive() {
            switch message {
            case .records(let batch):
                if cancellation?.isCancelled == true { throw CheckCancelled() }
                try ingest.add(batch)
                try files.drain(into: ingest, waiting: false)
            case .failed(let error):
                throw error
            case .finished(let summary, let unreadable, let aggregates):
                progress?(
                    ImportProgress(
                        phase: .finishing, records: ingest.records, bytesRead: summary.bytesRead,
                        totalBytes: reader.source.expectedSize, currentType: nil,
                        elapsed: Date().timeIntervalSince(started)))
                if cancellation?.isCancelled == true { throw CheckCancelled() }
                try files.drain(into: ingest, waiting: true)
                let (capture, audit) = try complete(ingest, summary: summary, aggregates: aggregates, reader: reader)
                return Result(capture: capture, unreadable: unreadable, audit: audit)
            }
        }
        throw BatchChannel<Prepared>.Cancelled()
    }

    private func complete(
        _ ingest: CaptureIngest, summary: AppleExportSummary, aggregates: CaptureAggregates, reader: AppleExportReader
    ) throws -> (CaptureSummary, CaptureAudit.Report) {
        if !allowOlder {
            try ingest.refuseOlderExport(
                exportDate: summary.exportDate.map { Double($0.secondsSince1970) }, inputName: reader.source.displayName
            )
        }
        try ingest.linkCorrelations()
        if cancellation?.isCancelled == true { throw CheckCancelled() }
        let new = try ingest.countNew()
        let gone = try ingest.markGone()
        if !allowUnrelated {
            try ingest.refuseUnrelated(shared: ingest.records - new, gone: gone, inputName: reader.source.displayName)
        }
        try ingest.writeAggregates(aggregates)
        // Every file the export holds was read alongside; what is still unread, it does not hold.
        try ingest.resolveUnreadFiles()
        let counts = CanonicalJSON.object(
            summary.elementCounts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }
        ).text
        var completion = CaptureCompletion(
            records: ingest.records, new: new, gone: gone, unchanged: ingest.records - new, elementCounts: counts)
        completion.exportDate = summary.exportDate.map { Double($0.secondsSince1970) }
        completion.exportUTCOffset = summary.datesUTCOffset.map { Int($0) }
        completion.offsetSpans = summary.offsetSpans
        completion.exportVersion = summary.exportVersion
        completion.locale = summary.locale
        completion.unreadable = summary.unreadableCount
        completion.replacedCharacters = summary.replacedCharacters
        return try ingest.complete(
            completion,
            thresholds: thresholds)
    }
}
