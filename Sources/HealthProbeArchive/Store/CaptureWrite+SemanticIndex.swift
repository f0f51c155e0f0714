internal import GRDB

/// A capture into an empty archive builds the semantic index once its records are in, instead
/// of keeping it as they come.
///
/// The semantic key is a hash: each record's entry lands anywhere in the index, so keeping it as
/// the records came read and wrote a random page of it for every record, and at ten years the
/// index (139 MB) is far larger than the import's page cache. SQLite took 19.7 s to fill a table
/// of the ten-year export's 7.5M keys with the index kept, 4.4 s without it, and 3.5 s to build
/// it after, from its sorter (bounded by the page cache). Nothing reads the index while the
/// records stream in: the correlations are linked, and the detectors run, after it is built.
/// Both happen inside the capture's transaction, so a capture that fails, or is killed, leaves
/// the index as it was.
extension CaptureWrite {
    /// The index as the schema has it (docs/schema.sql).
    static let semanticIndex = "CREATE INDEX record_semantic ON record(semanticKey)"

    func deferSemanticIndex() throws {
        try db.execute(sql: "DROP INDEX record_semantic")
        semanticIndexDeferred = true
    }

    /// Builds the index if it waits to be built; before anything reads it.
    func buildDeferredSemanticIndex() throws {
        guard semanticIndexDeferred else { return }
        try db.execute(sql: Self.semanticIndex)
        semanticIndexDeferred = false
    }
}
