import Foundation

/// A Health database's sample met with the record it is: seen again, and bound to the sample's
/// UUID when it was met by content.
package struct MetRecord: Sendable {
    package var id: Int64
    package var uuid: UUID?

    package init(id: Int64, uuid: UUID?) {
        self.id = id
        self.uuid = uuid
    }
}

/// What a Health database's reading hands the archive while its capture is written.
package enum HealthDatabaseCapturePart: Sendable {
    /// Samples met with records, and new records ready to store.
    case samples(met: [MetRecord], new: PreparedBatch)
    /// Every sample read: how many, how many of each type code HealthProbe does not read, and the
    /// new records' totals.
    case end(read: Int, unread: [Int: Int], newTotals: CaptureAggregates)
}

/// A Health database as the kit reads it, on a thread of its own that meets each sample with the
/// ``BackupSampleMatcher`` the archive gave it.
package protocol HealthDatabaseCaptureFeed {
    /// The next part. Throws why the reading stopped, when it stopped before the end.
    func next() throws -> HealthDatabaseCapturePart
    /// The deletions the database remembers.
    func tombstones() throws -> [HealthTombstone]
    /// When the database last wrote a sample: the capture's date.
    func newestEntry() throws -> Double?
    /// Stops the reading and waits until it has ended: the matcher is the reading's until then.
    /// Called on every way out, before the capture's transaction ends.
    func stop()
}

/// How a Health database's capture is written.
package struct HealthDatabaseCaptureRequest: Sendable {
    package var inputName: String
    package var startedAt: Date
    package var thresholds: Thresholds
    /// Compare a database that shares almost nothing with the archive all the same.
    package var allowUnrelated: Bool
    /// Whether the database names each sample's source (then sources are part of a sample's key).
    package var keyingSources: Bool

    package init(
        inputName: String, startedAt: Date, thresholds: Thresholds, allowUnrelated: Bool, keyingSources: Bool
    ) {
        self.inputName = inputName
        self.startedAt = startedAt
        self.thresholds = thresholds
        self.allowUnrelated = allowUnrelated
        self.keyingSources = keyingSources
    }
}

/// A Health database's capture written whole.
public struct HealthDatabaseCapture: Sendable {
    public var capture: CaptureSummary
    /// What the detectors found, with notes on what was left out.
    public var audit: CaptureAudit.Report
    /// Records found deleted in Health, by type and UTC day of the deletion.
    public var deletions: [BackupDeletion]
    /// Samples of types HealthProbe does not read yet, left out.
    public var unreadSamples: Int
    /// Deletions healthd made itself, packing samples into series.
    public var housekeepingDeletions: Int
}

extension ArchiveStore {
    /// Writes a Health database's capture in one transaction (docs/BACKUP.md), every step in its
    /// order: the matcher made from the records earlier backups bound and the previous capture
    /// held, and handed to `reading` to start the kit's reading; each sample met marked seen and
    /// each new one stored as they come; the deletions the database remembers applied; what it
    /// no longer holds marked gone and what it does not describe carried over; the refusal of an
    /// unrelated database; the totals; and the capture completed and audited.
    package func writeHealthDatabaseCapture<Feed: HealthDatabaseCaptureFeed>(
        _ request: HealthDatabaseCaptureRequest, reading: (BackupSampleMatcher) throws -> Feed
    ) throws -> HealthDatabaseCapture {
        try writeSnapshotCapture(
            origin: .backup, inputName: request.inputName, input: "a Health database", startedAt: request.startedAt,
            insertsOnly: true
        ) { writing in
            let matcher = try BackupSampleMatcher(
                writing.db, previous: writing.previousCaptureID, keyingSources: request.keyingSources)
            let feed = try reading(matcher)
            let streamed: Streamed
            do {
                defer { feed.stop() }
                streamed = try writing.store(feed)
            }
            let tombstones = try BackupTombstones(
                captureID: writing.captureID, previous: writing.previousCaptureID, keyingSources: request.keyingSources,
                matcher: matcher
            ).apply(try feed.tombstones(), writing.db)
            return try writing.completeHealthDatabase(
                streamed, tombstones, newestEntry: try feed.newestEntry(), request)
        }
    }
}

/// What a database's samples left for the completion.
private struct Streamed {
    var read = 0
    /// Samples of each type code HealthProbe does not read.
    var unread: [Int: Int] = [:]
    /// The new records' totals, counted by the reading.
    var newTotals = CaptureAggregates()
    /// Records met and marked seen.
    var met = 0
}

extension CaptureWrite {
    fileprivate func store(_ feed: some HealthDatabaseCaptureFeed) throws -> Streamed {
        let marker = try SeenMarker(self)
        while true {
            switch try feed.next() {
            case .samples(let met, let new):
                for record in met { try marker.mark(record.id, uuid: record.uuid) }
                try add(new)
            case .end(let read, let unread, let newTotals):
                return Streamed(read: read, unread: unread, newTotals: newTotals, met: marker.marked)
            }
        }
    }

    fileprivate func completeHealthDatabase(
        _ streamed: Streamed, _ tombstones: BackupTombstones.Outcome, newestEntry: Double?,
        _ request: HealthDatabaseCaptureRequest
    ) throws -> HealthDatabaseCapture {
        let absent = try BackupTombstones.markAbsent(captureID: captureID, db)
        let notCompared = try BackupTombstones.carryOver(captureID: captureID, db)
        let new = try countNew()
        if !request.allowUnrelated {
            try refuseUnrelated(shared: streamed.read - new, gone: absent, inputName: request.inputName)
        }
        // Records met or carried over count as they are stored (an export's text, not the
        // sample's): then the totals are read from what the capture holds.
        let totals =
            streamed.met + notCompared > 0
            ? try CaptureAggregates.of(db, where: "sighting.lastSeenCapture = ?1", capture: captureID)
            : streamed.newTotals
        try writeAggregates(totals.withoutEmptyTypes)
        let unreadable = streamed.unread[HealthDatabaseTypes.unreadableRow] ?? 0
        let unread = streamed.unread.values.reduce(0, +) - unreadable
        let deleted = tombstones.deletions.reduce(0) { $0 + $1.count }
        let counts = CanonicalJSON.object([
            ("deletions", .integer(Int64(tombstones.read))),
            ("housekeepingDeletions", .integer(Int64(tombstones.housekeeping))),
            ("samples", .integer(Int64(streamed.read + unread + unreadable))),
            ("unreadSamples", .integer(Int64(unread))), ("unreadableSamples", .integer(Int64(unreadable))),
        ]).text
        var completion = CaptureCompletion(
            records: streamed.read, new: new, gone: absent + deleted + tombstones.replaced, elementCounts: counts,
            auditSuffix: " (\(EvidenceText.grouped(deleted)) deleted in Health), "
                + "\(EvidenceText.grouped(notCompared)) not compared")
        completion.exportDate = newestEntry
        completion.deletedInHealth = deleted
        completion.notCompared = notCompared
        completion.streamedTimeline = try confirmed(streamed.newTotals.timeline)
        let (capture, audit) = try complete(completion, thresholds: request.thresholds)
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
        if try exportBeforeHeldFiles() {
            notes.append(
                "ECG voltages, workout routes and clinical documents are not read from a Health database: "
                    + "the next export's are compared with the last export's, which the archive keeps")
        }
        return HealthDatabaseCapture(
            capture: capture,
            audit: CaptureAudit.Report(anomalies: audit.anomalies, notes: notes, seconds: audit.seconds),
            deletions: tombstones.deletions, unreadSamples: unread, housekeepingDeletions: tombstones.housekeeping)
    }
}
