internal import GRDB

/// `document_missing` and `document_changed`: what a clinical record's FHIR document became,
/// in words and evidence — the files, the changed keys, never a value.
enum DocumentFindings {
    static func missing(
        _ sampleType: String, _ changes: [ReferencedFileDetector.Change], exportHeldNone: Bool, pair: CapturePair
    ) -> Finding {
        var tally = RecordTally(zone: pair.dayZone)
        for change in changes {
            tally.add(id: change.recordID, source: change.source, start: change.start, end: change.end)
        }
        var evidence = tally.evidence
        let unreadable = changes.flatMap(\.after).compactMap(\.problem)
        evidence["unreadable"] = String(unreadable.count)
        evidence["notInExport"] = String(changes.count - unreadable.count)
        evidence["files"] = files(changes.flatMap(\.before).map(\.path))
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        evidence["exportHeldNoDocuments"] = exportHeldNone ? "true" : "false"
        let count = changes.count
        let note =
            exportHeldNone
            ? "; the export checked held no clinical document at all — was its main XML checked without its folder?"
            : "; the archive keeps the last version"
        return Finding(
            type: .documentMissing, severity: .warning, sampleType: sampleType,
            summary: "\(EvidenceText.grouped(count)) \(HealthKitCatalog.displayName(of: sampleType)) "
                + "clinical record\(count == 1 ? "" : "s") lost \(count == 1 ? "its" : "their") document\(note)",
            recordCount: count, evidence: evidence, records: [.ids(role: "record", tally.ids)])
    }

    static func changed(
        _ sampleType: String, _ changes: [ReferencedFileDetector.Change], pair: CapturePair, _ db: Database
    ) throws -> Finding {
        var tally = RecordTally(zone: pair.dayZone)
        var keys: Set<String> = []
        for change in changes {
            tally.add(id: change.recordID, source: change.source, start: change.start, end: change.end)
            guard let before = change.before.first?.digest,
                let after = change.after.first(where: { $0.problem == nil })?.digest,
                let old = try ReferencedFiles.content(digest: before, db),
                let new = try ReferencedFiles.content(digest: after, db)
            else { continue }
            keys.formUnion(ClinicalDocument.changedKeys(from: old, to: new))
        }
        var evidence = tally.evidence
        let sorted = keys.sorted()
        evidence["changedKeys"] = sorted.prefix(30).joined(separator: ", ") + (sorted.count > 30 ? ", …" : "")
        evidence["files"] = files(changes.flatMap(\.after).map(\.path))
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        let count = changes.count
        return Finding(
            type: .documentChanged, severity: .warning, sampleType: sampleType,
            summary: "\(EvidenceText.grouped(count)) \(HealthKitCatalog.displayName(of: sampleType)) clinical "
                + "document\(count == 1 ? "" : "s") changed (\(sorted.prefix(3).joined(separator: ", "))"
                + "\(sorted.count > 3 ? " and \(sorted.count - 3) more keys" : "")); both versions are in the archive",
            recordCount: count, evidence: evidence, records: [.ids(role: "record", tally.ids)])
    }

    /// File names, the first few, then how many more.
    static func files(_ paths: [String], limit: Int = 10) -> String {
        let names = Array(Set(paths)).sorted()
        return names.prefix(limit).joined(separator: ", ")
            + (names.count > limit ? " and \(names.count - limit) more" : "")
    }
}
