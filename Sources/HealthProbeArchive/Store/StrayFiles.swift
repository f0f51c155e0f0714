import Foundation
internal import GRDB

/// Files an export held that no record refers to — a route whose workout is gone from the XML,
/// a clinical document no record names (a real 2023 export held two such routes). Kept like
/// every other file (their content once in `fileContent`), listed per capture in `strayFile`,
/// watched from export to export, and given back by the rebuild.
enum StrayFiles {

    /// Lists the files read during capture `captureID` (``ReferencedFiles/remember(_:problem:in:)``)
    /// that none of its records refers to.
    static func record(captureID: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO strayFile (captureId, kind, path, digest, items, problem)
                SELECT ?1, kind, path, digest, items, problem FROM temp.fileRead AS f
                WHERE NOT EXISTS (
                    SELECT 1 FROM referencedFile WHERE captureId = ?1 AND kind = f.kind AND path = f.path)
                """, arguments: [captureID])
    }

    /// One stray file as a capture held it.
    struct Sighting {
        var kind: AttachedFile.Kind
        var path: String
        var digest: String
        var items: Int?
    }

    /// The stray files `previous` held whose content `current` holds nowhere — neither as a
    /// stray file nor as a record's (a file written again under another name is no change).
    static func gone(previous: Int64, current: Int64, _ db: Database) throws -> [Sighting] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT kind, path, digest, items FROM strayFile AS s
                WHERE captureId = ?1 AND digest IS NOT NULL AND problem IS NULL AND CASE
                    -- A clinical summary is written anew by every export: missed only when absent.
                    WHEN kind = \(AttachedFile.Kind.clinicalSummary.sqlLiteral) THEN NOT EXISTS (
                        SELECT 1 FROM strayFile WHERE captureId = ?2 AND kind = s.kind)
                    ELSE NOT EXISTS (SELECT 1 FROM strayFile WHERE captureId = ?2 AND digest = s.digest)
                        AND NOT EXISTS (SELECT 1 FROM referencedFile WHERE captureId = ?2 AND digest = s.digest)
                    END
                ORDER BY kind, path
                """, arguments: [previous, current]
        ).compactMap { row in
            guard let kind = AttachedFile.Kind(rawValue: row["kind"]) else { return nil }
            return Sighting(kind: kind, path: row["path"], digest: row["digest"], items: row["items"])
        }
    }
}
