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
        let routes = try changes(of: .route, previous: previous.id, current: pair.current.id, db).filter {
            try !RouteFindings.isUnchanged($0, db)
        }
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
        // Each capture's files in record order, as its key stores them, met record by record:
        // only the records whose files changed are kept (a capture holds ten thousand routes).
        var before = try SightingGroups(db, capture: previous, kind: kind)
        var after = try SightingGroups(db, capture: current, kind: kind)
        var changes: [Change] = []
        var earlier = try before.next()
        var later = try after.next()
        while let old = earlier, let new = later {
            if old.recordID < new.recordID {
                earlier = try before.next()
                continue
            }
            if new.recordID < old.recordID {
                later = try after.next()
                continue
            }
            // Records P had read a file of, that C holds.
            let readBefore = old.sightings.filter { $0.problem == nil }.compactMap(\.digest).sorted()
            let readAfter = new.sightings.filter { $0.problem == nil }.compactMap(\.digest).sorted()
            if old.sightings.contains(where: { $0.digest != nil }) && readBefore != readAfter,
                let record = try Row.fetchOne(
                    db, sql: "SELECT type, sourceName, startDate, endDate FROM record WHERE id = ?",
                    arguments: [old.recordID])
            {
                changes.append(
                    Change(
                        recordID: old.recordID, sampleType: record["type"], source: record["sourceName"],
                        start: record["startDate"], end: record["endDate"], before: old.sightings,
                        after: new.sightings))
            }
            earlier = try before.next()
            later = try after.next()
        }
        return changes
    }

    /// One capture's files of one kind, a record's at a time, in record order.
    private struct SightingGroups {
        private let cursor: SQLiteRowCursor
        private var pending: (recordID: Int64, sighting: Sighting)?
        /// Stepped to its end: stepped again, SQLite would start over.
        private var finished = false

        init(_ db: Database, capture: Int64, kind: AttachedFile.Kind) throws {
            cursor = try SQLiteRowCursor(
                db,
                sql: """
                    SELECT recordId, path, digest, items, problem FROM referencedFile
                    WHERE captureId = ? AND kind = ? ORDER BY recordId, path
                    """, arguments: [capture, kind.rawValue])
        }

        mutating func next() throws -> (recordID: Int64, sightings: [Sighting])? {
            var group = pending.map { ($0.recordID, [$0.sighting]) }
            pending = nil
            while !finished, try cursor.step() {
                let id = cursor.integer(0) ?? 0
                let sighting = Sighting(
                    path: cursor.string(1) ?? "", digest: cursor.string(2), items: cursor.integer(3).map { Int($0) },
                    problem: cursor.string(4))
                guard let current = group else {
                    group = (id, [sighting])
                    continue
                }
                guard current.0 == id else {
                    pending = (id, sighting)
                    return group
                }
                group?.1.append(sighting)
            }
            finished = true
            return group
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
