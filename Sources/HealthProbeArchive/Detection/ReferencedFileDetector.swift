internal import GRDB

/// The files records refer to, compared between P and C for the records both hold: a clinical
/// record whose document vanished (`document_missing`) or changed (`document_changed`), a
/// workout whose route vanished, lost or changed points (`route_changed`). A file written again
/// under another name, or with a new export time inside, has the same digest and is no change.
/// A record that vanished itself is `silent_deletion`'s, not this detector's.
struct ReferencedFileDetector {
    let pair: CapturePair

    /// One file of a record, as one capture held it.
    struct Sighting {
        var path: String
        var digest: String?
        var items: Int?
        var problem: String?
    }

    /// A record whose files differ between P and C.
    struct Change {
        var recordID: Int64
        var sampleType: String
        var source: String?
        var start: Double?
        var end: Double?
        var before: [Sighting]
        var after: [Sighting]
    }

    func detect(_ db: Database) throws -> [Finding] {
        // Only exports carry files; a backup or the phone between two exports does not make the
        // second export's files unchecked: they are compared with the export before.
        guard pair.current.origin == .export, let previous = try previousExport(db) else { return [] }
        let pair = CapturePair(
            current: pair.current, previous: previous, recordIDFloor: pair.recordIDFloor, dayZone: pair.dayZone)
        var findings: [Finding] = []
        let documents = try changes(of: .clinicalDocument, previous: previous.id, current: pair.current.id, db)
        // Missing: nothing readable in C; else it changed.
        let isMissing = { (change: Change) in change.after.allSatisfy { $0.digest == nil || $0.problem != nil } }
        let missing = documents.filter(isMissing)
        let changed = documents.filter { !isMissing($0) }
        let held = try heldCount(of: .clinicalDocument, db)
        findings += Dictionary(grouping: missing, by: \.sampleType).sorted { $0.key < $1.key }.map {
            DocumentFindings.missing($0.key, $0.value, exportHeldNone: held == 0, pair: pair)
        }
        findings += try Dictionary(grouping: changed, by: \.sampleType).sorted { $0.key < $1.key }.map {
            try DocumentFindings.changed($0.key, $0.value, pair: pair, db)
        }
        let routes = try changes(of: .route, previous: previous.id, current: pair.current.id, db)
        if !routes.isEmpty {
            findings.append(
                try RouteFindings.changed(routes, exportHeldNone: try heldCount(of: .route, db) == 0, pair: pair, db))
        }
        findings += StrayFileFindings.gone(
            try StrayFiles.gone(previous: previous.id, current: pair.current.id, db), pair: pair)
        return findings
    }

    /// The last complete export before C: P itself unless P was a backup or a live capture.
    private func previousExport(_ db: Database) throws -> CapturePair.Capture? {
        if let previous = pair.previous, previous.origin == .export { return previous }
        guard let export = try LatestCapture.id(db, origins: [.export], scope: .full, before: pair.current.id) else {
            return nil
        }
        return try CapturePair.Capture.fetchOne(
            db, sql: "SELECT id, origin, scope, exportDate, startedAt FROM capture WHERE id = ?", arguments: [export])
    }

    /// Records both captures hold whose files of `kind` P had read and C holds otherwise.
    private func changes(
        of kind: AttachedFile.Kind, previous: Int64, current: Int64, _ db: Database
    ) throws -> [Change] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT f.captureId, f.recordId, f.path, f.digest, f.items, f.problem,
                    r.type, r.sourceName, r.startDate, r.endDate
                FROM referencedFile AS f JOIN record AS r ON r.id = f.recordId
                WHERE f.kind = ?1 AND f.captureId IN (?2, ?3) AND f.recordId IN (
                    SELECT recordId FROM referencedFile WHERE captureId = ?2 AND kind = ?1 AND digest IS NOT NULL)
                ORDER BY f.recordId, f.path
                """, arguments: [kind.rawValue, previous, current])
        // Rows come record by record: each record's sightings follow one another.
        var records: [Change] = []
        while let row = try rows.next() {
            let id: Int64 = row["recordId"]
            if records.last?.recordID != id {
                records.append(
                    Change(
                        recordID: id, sampleType: row["type"], source: row["sourceName"], start: row["startDate"],
                        end: row["endDate"], before: [], after: []))
            }
            let sighting = Sighting(
                path: row["path"], digest: row["digest"], items: row["items"], problem: row["problem"])
            if row["captureId"] as Int64 == previous {
                records[records.count - 1].before.append(sighting)
            } else {
                records[records.count - 1].after.append(sighting)
            }
        }
        return records.filter { change in
            // Not in C at all: the record itself vanished, which is silent deletion's to say.
            guard !change.after.isEmpty else { return false }
            let readBefore = change.before.filter { $0.problem == nil }.compactMap(\.digest).sorted()
            let readAfter = change.after.filter { $0.problem == nil }.compactMap(\.digest).sorted()
            return readBefore != readAfter
        }
    }

    /// How many files of `kind` C read: none means the export came without its folder.
    private func heldCount(of kind: AttachedFile.Kind, _ db: Database) throws -> Int {
        try Int.fetchOne(
            db,
            sql: "SELECT COUNT(*) FROM referencedFile WHERE captureId = ? AND kind = ? AND digest IS NOT NULL",
            arguments: [pair.current.id, kind.rawValue]) ?? 0
    }
}
