import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Checks an iPhone's Health database into the archive as one full capture of origin `backup`,
/// in one write transaction, compared with the latest export or backup (docs/BACKUP.md):
///
/// 1. Each sample is met by the HealthKit UUID an earlier backup bound to a record; else by its
///    ``SampleMatchKey`` among the records the previous capture held (an export's whole seconds
///    and units against the database's); else it is new. A record met takes the UUID.
/// 2. A deletion the database remembers (a tombstone) marks the record it names — by UUID, else
///    by type, source and times — gone as deleted in Health, with an audit entry a type and day:
///    never a silent deletion. healthd's own deletions, of samples it packed into a series, mark
///    theirs replaced.
/// 3. What the previous capture held of the kinds a database describes (quantity and category
///    samples, workouts) and this one did not meet is gone; everything else it held (activity
///    summaries, correlations, clinical records, types not read yet) is carried over, not
///    compared, and counted as such in the capture.
public struct BackupImporter: Sendable {
    public static let origin = CaptureOrigin.backup
    static let batchSize = 512
    static let batchesInFlight = 4

    /// What the reading thread hands to the writer.
    enum Stage: Sendable {
        /// Records met, new records ready to store, and how many samples were read so far.
        case samples(met: [MetRecord], new: PreparedBatch, read: Int, type: String?)
        /// Every sample read; how many of each code HealthProbe does not read; the totals of the
        /// new records.
        case finished(read: Int, unread: [Int: Int], newTotals: CaptureAggregates)
        case failed(any Error)
    }

    public let store: ArchiveStore
    public let thresholds: Thresholds

    /// Check a database that shares almost nothing with the archive all the same.
    public let allowUnrelated: Bool

    public init(store: ArchiveStore, thresholds: Thresholds = Thresholds(), allowUnrelated: Bool = false) {
        self.allowUnrelated = allowUnrelated
        self.store = store
        self.thresholds = thresholds
    }

    /// What one backup check produced.
    public typealias Result = HealthDatabaseCapture

    public typealias Deletion = BackupDeletion

    /// Checks the database `reader` holds open; `inputName` names it in the capture.
    public func importDatabase(
        _ reader: HealthDatabaseReader, inputName: String, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws -> Result {
        let started = Date()
        // Only a first capture uses the timeline followed as samples stream in.
        let following = store.holdsRecords() ? nil : thresholds
        return try store.writeHealthDatabaseCapture(
            HealthDatabaseCaptureRequest(
                inputName: inputName, startedAt: started, thresholds: thresholds, allowUnrelated: allowUnrelated,
                keyingSources: reader.layout.hasSourceDatabase)
        ) { matcher in
            HealthDatabaseFeed(
                reader, matching: matcher, followingTimelineUnder: following, started: started, progress: progress)
        }
    }
}

/// The database as the archive takes it while it writes the capture: a thread reads the samples
/// and meets each with the record it is, or prepares it as new.
private final class HealthDatabaseFeed: HealthDatabaseCaptureFeed {
    private let reader: HealthDatabaseReader
    private let channel = BatchChannel<BackupImporter.Stage>(capacity: BackupImporter.batchesInFlight)
    private let reading: JoinableThread
    private let started: Date
    private let progress: (@Sendable (ImportProgress) -> Void)?

    init(
        _ reader: HealthDatabaseReader, matching matcher: BackupSampleMatcher,
        followingTimelineUnder thresholds: Thresholds?, started: Date, progress: (@Sendable (ImportProgress) -> Void)?
    ) {
        self.reader = reader
        self.started = started
        self.progress = progress
        reading = JoinableThread(name: "healthprobe.backup") { [channel] in
            BackupImporter.read(reader, matching: matcher, followingTimelineUnder: thresholds, into: channel)
        }
    }

    func next() throws -> HealthDatabaseCapturePart {
        switch channel.receive() {
        case .samples(let met, let new, let read, let type):
            if read % 32_768 < BackupImporter.batchSize {
                progress?(
                    ImportProgress(
                        phase: .reading, records: read, bytesRead: 0, totalBytes: nil, currentType: type,
                        elapsed: Date().timeIntervalSince(started)))
            }
            return .samples(met: met, new: new)
        case .finished(let read, let unread, let newTotals):
            progress?(
                ImportProgress(
                    phase: .finishing, records: read, bytesRead: 0, totalBytes: nil, currentType: nil,
                    elapsed: Date().timeIntervalSince(started)))
            return .end(read: read, unread: unread, newTotals: newTotals)
        case .failed(let error):
            throw error
        case nil:
            throw BatchChannel<BackupImporter.Stage>.Cancelled()
        }
    }

    func tombstones() throws -> [HealthTombstone] { try reader.tombstones() }

    func newestEntry() throws -> Double? { try reader.latestEntryDate() }

    func stop() {
        channel.cancel()
        reading.join()
    }
}

extension BackupImporter {
    /// The reading stage: each sample met with the record it is, or made a new record and
    /// fingerprinted, in batches, the new records' totals and timeline followed (``StreamedTimeline``);
    /// the end or a failure passed on. Stops when the writer cancels.
    static func read(
        _ reader: HealthDatabaseReader, matching matcher: BackupSampleMatcher,
        followingTimelineUnder thresholds: Thresholds?, into channel: BatchChannel<Stage>
    ) {
        var builder = PreparedBatch.Builder(rowsPerBatch: batchSize)
        var totals = CaptureAggregates(followingTimelineUnder: thresholds)
        var seen: [MetRecord] = []
        var new = 0
        var read = 0
        do {
            let unread = try reader.forEachSample { sample in
                read += 1
                switch matcher.meet(sample) {
                case .byUUID(let id): seen.append(MetRecord(id: id, uuid: nil))
                case .byContent(let id): seen.append(MetRecord(id: id, uuid: sample.uuid))
                case nil:
                    var record = HealthRecord(sample: sample)
                    record.healthKitUUID = nil
                    record.sampleUUID = sample.uuid
                    builder.append(record, countingIn: &totals)
                    new += 1
                }
                if seen.count + new == batchSize {
                    try channel.send(.samples(met: seen, new: builder.take(), read: read, type: sample.type))
                    seen.removeAll(keepingCapacity: true)
                    new = 0
                }
            }
            try channel.send(.samples(met: seen, new: builder.take(), read: read, type: nil))
            try channel.send(.finished(read: read, unread: unread, newTotals: totals))
        } catch is BatchChannel<Stage>.Cancelled {
        } catch {
            try? channel.send(.failed(error))
        }
        channel.close()
    }
}
