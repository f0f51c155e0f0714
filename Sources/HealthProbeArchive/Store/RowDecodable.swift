internal import GRDB

/// A value read from a row of the archive's own queries: GRDB's `FetchableRecord`, kept inside
/// the archive, so that the records, captures and anomalies it gives the faces carry no GRDB.
protocol RowDecodable {
    init(row: Row) throws
}

extension RowDecodable {
    static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Self] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Self(row: $0) }
    }

    static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Self? {
        try Row.fetchOne(db, sql: sql, arguments: arguments).map { try Self(row: $0) }
    }
}

/// A word the archive stores as text (a capture's origin, why a record is gone): read from a row
/// by its raw value, given to a statement as `rawValue`.
protocol StoredWord: RawRepresentable where RawValue == String {}

/// A stored word no version of HealthProbe writes.
struct UnknownStoredWord: Error {
    var column: String
    var text: String?
}

extension Row {
    subscript<Word: StoredWord>(_ column: String) -> Word? {
        (self[column] as String?).flatMap(Word.init(rawValue:))
    }

    subscript<Word: StoredWord>(_ column: String) -> Word {
        get throws {
            let text = self[column] as String?
            guard let word = text.flatMap(Word.init(rawValue:)) else {
                throw UnknownStoredWord(column: column, text: text)
            }
            return word
        }
    }
}

extension RowDecodable where Self: Decodable {
    /// Decoded by column name, as GRDB decodes a `Decodable` record.
    init(row: Row) throws {
        self = try DecodedRow<Self>(row: row).value
    }
}

/// GRDB's decoding of a row into any `Decodable`, behind the archive's own protocol.
private struct DecodedRow<Value: Decodable>: Decodable, FetchableRecord {
    let value: Value

    init(from decoder: any Decoder) throws {
        value = try Value(from: decoder)
    }
}
