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

    /// A record the reading thread met: seen again, and bound to the sample's UUID when met by
    /// content.
    struct SeenRecord: Sendable {
        var id: Int64
        var uuid: UUID?
    }

    /// What the reading thread hands to the writer.
    enum Stage: Sendable {
        /// Records met, new records ready to store, and how many samples were read so far.
        case samples(seen: [SeenRecord], new: PreparedBatch, read: Int, type: String?)
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
    public struct Result: Sendable {
        public var capture: CaptureSummary
        public var audit: CaptureAudit.Report
        /// Records found deleted in Health, by type and UTC day of the deletion.
        public var deletions: [Deletion]
        /// Samples of types HealthProbe does not read yet, left out.
        public var unreadSamples: Int
        /// Deletions healthd made itself, packing samples into series.
        public var housekeepingDeletions: Int
    }

    public typealias Deletion = BackupDeletion

    /// Checks the database `reader` holds open; `inputName` names it in the capture.
    public func importDatabase(
        _ reader: HealthDatabaseReader, inputName: String, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws -> Result {
        let started = Date()
        return try store.writeSnapshotCapture(
            origin: Self.origin, inputName: inputName, input: "a Health database", startedAt: started,
            insertsOnly: true
        ) { ingest in
            try check(reader, into: ingest, inputName: inputName, started: started, progress: progress)
        }
    }

    private func check(
        _ reader: HealthDatabaseReader, into ingest: CaptureIngest, inputName: String, started: Date,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) throws -> Result {
        let keyingSources = reader.layout.hasSourceDatabase
        let matcher = try ingest.backupSampleMatcher(keyingSources: keyingSources)
        let streamed = try stream(reader, matching: matcher, into: ingest, started: started, progress: progress)
        progress?(
            ImportProgress(
                phase: .finishing, records: streamed.read, bytesRead: 0, totalBytes: nil, currentType: nil,
                elapsed: Date().timeIntervalSince(started)))
        let tombstones = try ingest.applyTombstones(
            try reader.tombstones(), keyingSources: keyingSources, matcher: matcher)
        return try complete(
            ingest, streamed, tombstones, newestEntry: try reader.latestEntryDate(), inputName: inputName)
    }

    /// What the samples' stream left for the completion.
    private struct Streamed {
        var read = 0
        /// Samples of each code HealthProbe does not read.
        var unread: [Int: Int] = [:]
        /// The new records' totals, counted by the reading thread.
        var newTotals = CaptureAggregates()
        /// Records met and marked seen.
        var met = 0
    }

    /// Reads the samples on a thread of their own, which meets each with the record it is or
    /// prepares it as new, and writes what it hands over here.
    private func stream(
        _ reader: HealthDatabaseReader, matching matcher: BackupSampleMatcher, into ingest: CaptureIngest,
        started: Date, progress: (@Sendable (ImportProgress) -> Void)?
    ) throws -> Streamed {
        let channel = BatchChannel<Stage>(capacity: Self.batchesInFlight)
        let reading = JoinableThread(name: "healthprobe.backup") { Self.read(reader, matching: matcher, into: channel) }
        // Joined on every way out: the matcher is the reading thread's until then.
        defer {
            channel.cancel()
            reading.join()
        }
        let marker = try SeenMarker(ingest)
        var streamed = Streamed()
        while let stage = channel.receive() {
            switch stage {
            case .samples(let seen, let new, let read, let type):
                for record in seen { try marker.mark(record.id, uuid: record.uuid) }
                try ingest.add(new)
                streamed.read = read
                guard read % 32_768 < Self.batchSize else { continue }
                progress?(
                    ImportProgress(
                        phase: .reading, records: read, bytesRead: 0, totalBytes: nil, currentType: type,
                        elapsed: Date().timeIntervalSince(started)))
            case .finished(let read, let unread, let newTotals):
                (streamed.read, streamed.unread, streamed.newTotals) = (read, unread, newTotals)
                streamed.met = marker.marked
                return streamed
            case .failed(let error):
                throw error
            }
        }
        throw BatchChannel<Stage>.Cancelled()
    }

    /// Marks what is gone, carries over what a database does not describe, stores the totals and
    /// the counts, and audits the capture against the previous one.
    private func complete(
        _ ingest: CaptureIngest, _ streamed: Streamed, _ tombstones: BackupTombstones.Outcome, newestEntry: Double?,
        inputName: String
    ) throws -> Result {
        let absent = try ingest.markAbsentFromHealthDatabase()
        let notCompared = try ingest.carryOverWhatHealthDatabasesDoNotDescribe()
        let new = try ingest.countNew()
        if !allowUnrelated {
            try ingest.refuseUnrelated(shared: streamed.read - new, gone: absent, inputName: inputName)
        }
        // Records met or carried over count as they are stored (an export's text, not the
        // sample's): then the totals are read from what the capture holds.
        let totals =
            streamed.met + notCompared > 0
            ? try ingest.aggregatesOfWhatItHolds() : streamed.newTotals
        try ingest.writeAggregates(totals.withoutEmptyTypes)
        let unreadable = streamed.unread[HealthDatabaseTypes.unreadableRow] ?? 0
        let unread = streamed.unread.values.reduce(0, +) - unreadable
        let records = streamed.read
        let deleted = tombstones.deletions.reduce(0) { $0 + $1.count }
        let gone = absent + deleted + tombstones.replaced
        let counts = CanonicalJSON.object([
            ("deletions", .integer(Int64(tombstones.read))),
            ("housekeepingDeletions", .integer(Int64(tombstones.housekeeping))),
            ("samples", .integer(Int64(streamed.read + unread + unreadable))),
            ("unreadSamples", .integer(Int64(unread))), ("unreadableSamples", .integer(Int64(unreadable))),
        ]).text
        var completion = CaptureCompletion(
            records: records, new: new, gone: gone, unchanged: records - new, elementCounts: counts,
            auditSuffix: " (\(EvidenceText.grouped(deleted)) deleted in Health), "
                + "\(EvidenceText.grouped(notCompared)) not compared")
        completion.exportDate = newestEntry
        completion.deletedInHealth = deleted
        completion.notCompared = notCompared
        let (capture, audit) = try ingest.complete(completion, thresholds: thresholds)
        var notes = audit.notes
        if unread > 0 {
            notes.insert(
                "\(unread) samples of types HealthProbe does not read yet were left out of this capture", at: 0)
        }
        if unreadable > 0 {
            notes.insert(
                "\(unreadable) samples could not be read (no type, an impossible date or value) and were left out "
                    + "of this capture", at: 0)
        }
        if try ingest.exportBeforeHeldFiles() {
            notes.append(
                "ECG voltages, workout routes and clinical documents are not read from a Health database: "
                    + "the next export's are compared with the last export's, which the archive keeps")
        }
        return Result(
            capture: capture,
            audit: CaptureAudit.Report(anomalies: audit.anomalies, notes: notes, seconds: audit.seconds),
            deletions: tombstones.deletions, unreadSamples: unread, housekeepingDeletions: tombstones.housekeeping)
    }
}

extension BackupImporter {
    /// The reading stage: each sample met with the record it is, or made a new record and
    /// fingerprinted, in batches; the end or a failure passed on. Stops when the writer cancels.
    static func read(
        _ reader: HealthDatabaseReader, matching matcher: BackupSampleMatcher, into channel: BatchChannel<Stage>
    ) {
        var builder = PreparedBatch.Builder(rowsPerBatch: batchSize)
        var totals = CaptureAggregates()
        var seen: [SeenRecord] = []
        var new = 0
        var read = 0
        do {
            let unread = try reader.forEachSample { sample in
                read += 1
                switch matcher.meet(sample) {
                case .byUUID(let id): seen.append(SeenRecord(id: id, uuid: nil))
                case .byContent(let id): seen.append(SeenRecord(id: id, uuid: sample.uuid))
                case nil:
                    var record = HealthRecord(sample: sample)
                    record.healthKitUUID = nil
                    record.sampleUUID = sample.uuid
                    totals.add(record, strict: builder.append(record).strict)
                    new += 1
                }
                if seen.count + new == batchSize {
                    try channel.send(.samples(seen: seen, new: builder.take(), read: read, type: sample.type))
                    seen.removeAll(keepingCapacity: true)
                    new = 0
                }
            }
            try channel.send(.samples(seen: seen, new: builder.take(), read: read, type: nil))
            try channel.send(.finished(read: read, unread: unread, newTotals: totals))
        } catch is BatchChannel<Stage>.Cancelled {
        } catch {
            try? channel.send(.failed(error))
        }
        channel.close()
    }
}
