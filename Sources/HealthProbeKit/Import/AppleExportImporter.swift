import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Imports one Apple Health export into the archive as a new full capture.
///
/// A reading thread inflates and filters the input, a parser thread writes each element's text
/// into batches of rows (most records straight from the parser's bytes), a third fingerprints
/// and counts them, and the calling thread stores them in a single write transaction, so
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

    /// What the parser hands to the fingerprint stage: rows with their text, not yet their
    /// fingerprints.
    enum Parsed: Sendable {
        case rows(PreparedBatch)
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
        // Only a first capture uses the timeline followed as records stream in.
        let following = store.holdsRecords() ? nil : thresholds
        let started = Date()
        let files = ReferencedFilePrefetch(source: reader.source)
        let parser = Self.startThread("healthprobe.parser") {
            Self.parse(reader, into: parsed, started: started, progress: progress)
        }
        let fingerprinter = Self.startThread("healthprobe.fingerprints") {
            Self.fingerprint(from: parsed, into: prepared, followingTimelineUnder: following)
        }
        // Every thread the import started has ended before it returns, a failed one too.
        defer {
            parser.join()
            fingerprinter.join()
            files.stop()
        }
        let feed = AppleExportFeed(
            channel: prepared, files: files, cancellation: cancellation, totalBytes: reader.source.expectedSize,
            started: started, progress: progress)
        do {
            let written = try store.writeAppleExportCapture(
                AppleExportCaptureRequest(
                    inputName: reader.source.displayName, startedAt: started, thresholds: thresholds,
                    allowOlder: allowOlder, allowUnrelated: allowUnrelated, pageCacheKiB: pageCacheKiB),
                from: feed)
            return Result(capture: written.capture, unreadable: feed.unreadable, audit: written.audit)
        } catch {
            // The stages before the writer stop too (the archive's errors come in words).
            prepared.cancel()
            parsed.cancel()
            throw error
        }
    }
}

/// The export as the archive takes it while it writes the capture: the fingerprint stage's
/// batches, the files read alongside, and the user's stop.
private final class AppleExportFeed: AppleExportCaptureFeed {
    private let channel: BatchChannel<AppleExportImporter.Prepared>
    private let files: ReferencedFilePrefetch
    private let cancellation: CancellationFlag?
    private let totalBytes: Int64?
    private let started: Date
    private let progress: (@Sendable (ImportProgress) -> Void)?
    private var records = 0
    /// Unreadable elements by element name and reason, known at the end.
    private(set) var unreadable: [AppleExportImporter.UnreadableGroup] = []

    init(
        channel: BatchChannel<AppleExportImporter.Prepared>, files: ReferencedFilePrefetch,
        cancellation: CancellationFlag?, totalBytes: Int64?, started: Date,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) {
        self.channel = channel
        self.files = files
        self.cancellation = cancellation
        self.totalBytes = totalBytes
        self.started = started
        self.progress = progress
    }

    func next() throws -> ExportCapturePart {
        switch channel.receive() {
        case .records(let batch):
            records += batch.count
            return .records(batch)
        case .finished(let summary, let unreadable, let aggregates):
            self.unreadable = unreadable
            progress?(
                ImportProgress(
                    phase: .finishing, records: records, bytesRead: summary.bytesRead, totalBytes: totalBytes,
                    currentType: nil, elapsed: Date().timeIntervalSince(started)))
            return .end(summary, aggregates)
        case .failed(let error):
            throw error
        case nil:
            throw BatchChannel<AppleExportImporter.Prepared>.Cancelled()
        }
    }

    func begin(holding held: HeldFiles) {
        files.begin(holding: held)
    }

    func files(all: Bool, _ store: (AttachedFile, String?) throws -> Void) throws {
        try files.drain(waiting: all, into: store)
    }

    func checkpoint() throws {
        if cancellation?.isCancelled == true { throw CheckCancelled() }
    }
}
