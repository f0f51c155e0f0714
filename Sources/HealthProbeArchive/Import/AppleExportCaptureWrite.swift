import AppleHealthExport
import Foundation

/// What an export's reading hands the archive while its capture is written.
package enum ExportCapturePart: Sendable {
    /// The next records, mapped and fingerprinted, in the export's order.
    case records(PreparedBatch)
    /// The export's end: what reading it found, and the totals of every record read.
    case end(AppleExportSummary, CaptureAggregates)
}

/// An export as the kit reads it, on threads of its own: its records a batch at a time, then its
/// end; the files beside its XML as they are read; and whether the user stopped the check.
package protocol AppleExportCaptureFeed {
    /// Whom to ask what the archive holds of files, once the capture's transaction holds the
    /// archive: the files' reader waits for it (nothing it names can go before the capture is
    /// written).
    func begin(holding held: HeldFiles)
    /// The next part. Throws why the reading stopped, when it stopped before the end.
    func next() throws -> ExportCapturePart
    /// Hands over each file read since last asked; with `all`, every file, once all are read.
    func files(all: Bool, _ store: (_ file: AttachedFile, _ problem: String?) throws -> Void) throws
    /// Throws when the check was stopped: then nothing of the capture is kept.
    func checkpoint() throws
}

/// How an export's capture is written and what it may be refused for.
package struct AppleExportCaptureRequest: Sendable {
    /// The export's name in the capture, the trail and messages.
    package var inputName: String
    package var startedAt: Date
    package var thresholds: Thresholds
    /// Compare an export made before the one last checked all the same (``OlderExportRefusal``).
    package var allowOlder: Bool
    /// Compare an export that shares almost nothing with the archive all the same
    /// (``UnrelatedCaptureRefusal``).
    package var allowUnrelated: Bool
    /// The writer's SQLite page cache while the capture is written, in KiB.
    package var pageCacheKiB: Int

    package init(
        inputName: String, startedAt: Date, thresholds: Thresholds, allowOlder: Bool, allowUnrelated: Bool,
        pageCacheKiB: Int
    ) {
        self.inputName = inputName
        self.startedAt = startedAt
        self.thresholds = thresholds
        self.allowOlder = allowOlder
        self.allowUnrelated = allowUnrelated
        self.pageCacheKiB = pageCacheKiB
    }
}

/// A capture written whole: its row as completed, and what the detectors found in it.
package struct WrittenCapture: Sendable {
    package var capture: CaptureSummary
    package var audit: CaptureAudit.Report
}

extension ArchiveStore {
    /// Writes an export's capture in one transaction, every step in its order: the records a
    /// backup described first made ready to meet; each batch stored as it comes, with the files
    /// read meanwhile; at the end the refusals (an older export, an unrelated one), correlations
    /// linked, what is new and what is gone counted, the totals and the files no record named
    /// stored, and the capture completed and audited. A throw anywhere leaves the archive as it
    /// was.
    package func writeAppleExportCapture(
        _ request: AppleExportCaptureRequest, from feed: some AppleExportCaptureFeed
    ) throws -> WrittenCapture {
        try writeSnapshotCapture(
            origin: .export, inputName: request.inputName, input: "an export", startedAt: request.startedAt,
            pageCacheKiB: request.pageCacheKiB
        ) { writing in
            feed.begin(holding: try HeldFiles.asked(of: self, writing: writing.db))
            try writing.matchRecordsBackupsDescribed()
            while true {
                switch try feed.next() {
                case .records(let batch):
                    try feed.checkpoint()
                    try writing.add(batch)
                    try feed.files(all: false) { try ReferencedFiles.remember($0, problem: $1, in: writing) }
                case .end(let summary, let aggregates):
                    try feed.checkpoint()
                    try feed.files(all: true) { try ReferencedFiles.remember($0, problem: $1, in: writing) }
                    return try writing.completeExport(summary, aggregates: aggregates, request, feed: feed)
                }
            }
        }
    }
}

extension CaptureWrite {
    fileprivate func completeExport(
        _ summary: AppleExportSummary, aggregates: CaptureAggregates, _ request: AppleExportCaptureRequest,
        feed: some AppleExportCaptureFeed
    ) throws -> WrittenCapture {
        let exportDate = summary.exportDate.map { Double($0.secondsSince1970) }
        if !request.allowOlder {
            try refuseOlderExport(exportDate: exportDate, inputName: request.inputName)
        }
        try linkCorrelations()
        try feed.checkpoint()
        let new = try countNew()
        let gone = try markGone()
        if !request.allowUnrelated {
            try refuseUnrelated(shared: records - new, gone: gone, inputName: request.inputName)
        }
        try writeAggregates(aggregates)
        // Every file the export holds was read alongside; what is still unread, it does not hold.
        try resolveUnreadFiles()
        let counts = CanonicalJSON.object(
            summary.elementCounts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }
        ).text
        var completion = CaptureCompletion(records: records, new: new, gone: gone, elementCounts: counts)
        completion.exportDate = exportDate
        completion.exportUTCOffset = summary.datesUTCOffset.map { Int($0) }
        completion.offsetSpans = summary.offsetSpans
        completion.exportVersion = summary.exportVersion
        completion.locale = summary.locale
        completion.unreadable = summary.unreadableCount
        completion.replacedCharacters = summary.replacedCharacters
        completion.streamedTimeline = try confirmed(aggregates.timeline)
        let (capture, audit) = try complete(completion, thresholds: request.thresholds)
        return WrittenCapture(capture: capture, audit: audit)
    }
}
