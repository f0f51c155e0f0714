import AppleHealthExport
import Foundation
internal import GRDB

/// How a record row is written: its columns, its parameters, the device table it refers to, and
/// what correlations and workouts leave to resolve at the end.
extension CaptureWrite {
    static let columns = """
        kind, type, sourceName, sourceVersion, deviceId, unit, value, numericValue,
        creationDate, startDate, endDate, metadata, details, healthKitUUID,
        strictFingerprint, semanticFingerprint, fuzzyFingerprint, identityKey, semanticKey, metadataAsWritten, sampleUUID,
        occurrence, firstSeenCapture
        """
    /// The parameters each row binds (``bind(_:_:to:at:)``), from `kind` to `sampleUUID`.
    static let parametersPerRow: Int32 = 21

    /// One row's values: its parameters from `firstParameter`, then `occurrence` and the capture.
    static func values(captureID: Int64, firstParameter: Int32, occurrence: String) -> String {
        let fields = (firstParameter..<(firstParameter + parametersPerRow)).map { "?\($0)" }.joined(separator: ", ")
        return "(\(fields), \(occurrence), \(captureID))"
    }

    /// Binds a row's parameters from `first` on, in the order of ``columns``.
    func bind(_ row: PreparedBatch.Row, _ bytes: UnsafeRawBufferPointer, to binding: SQLiteBinding, at first: Int32)
        throws
    {
        binding.bindText(first, row.text.kind, in: bytes)
        binding.bindText(first + 1, row.text.type, in: bytes)
        binding.bindText(first + 2, row.text.sourceName, in: bytes)
        binding.bindText(first + 3, row.text.sourceVersion, in: bytes)
        binding.bind(first + 4, try deviceID(row.text.device, bytes))
        binding.bindText(first + 5, row.text.unit, in: bytes)
        binding.bindText(first + 6, row.text.value, in: bytes)
        binding.bind(first + 7, row.numbers.numericValue)
        binding.bind(first + 8, row.numbers.creationDate)
        binding.bind(first + 9, row.numbers.startDate)
        binding.bind(first + 10, row.numbers.endDate)
        binding.bindText(first + 11, row.text.metadata, in: bytes)
        binding.bindText(first + 12, row.text.details, in: bytes)
        binding.bindText(first + 13, row.text.healthKitUUID, in: bytes)
        binding.bindBlob(first + 14, row.strictFingerprint, in: bytes)
        binding.bindBlob(first + 15, row.semanticFingerprint, in: bytes)
        binding.bindBlob(first + 16, row.fuzzyFingerprint, in: bytes)
        binding.bind(first + 17, row.identityKey)
        binding.bind(first + 18, row.semanticKey)
        binding.bindText(first + 19, row.text.metadataAsWritten, in: bytes)
        binding.bindBlob(first + 20, row.text.sampleUUID, in: bytes)
    }

    /// The id of a device description, stored once: the few most recent are compared byte for
    /// byte, the rest found by text (``DeviceTable``).
    private func deviceID(_ span: PreparedBatch.Span, _ bytes: UnsafeRawBufferPointer) throws -> Int64? {
        guard !span.isNull else { return nil }
        let text = UnsafeRawBufferPointer(rebasing: bytes[span.range])
        return try devices.id(of: text, db)
    }

    /// Stores what a record carries beyond its row: the samples a correlation holds (resolved
    /// once every record is in), and the files it came with or refers to, for this capture —
    /// with their content when it is already known (an ECG's, or one read alongside), stored once
    /// by its digest; the rest are given theirs when the capture completes. Kept in the archive,
    /// not in memory, so that memory stays flat whatever the export's size.
    func remember(_ extras: PreparedBatch.Extras, recordID: Int64?) throws {
        guard let id = recordID else { return }
        let statements = try extrasStatements()
        for member in extras.members {
            member.semantic.bytes.withUnsafeBytes { fingerprint in
                statements.member.bind(1, id)
                statements.member.bind(2, member.key)
                statements.member.bindBlob(3, copying: fingerprint)
                // Into an empty archive the copies stored before the correlation are linked now,
                // while their pages are in memory (``linkCorrelations()`` does the rest).
                statements.earlierCopies?.bind(1, id)
                statements.earlierCopies?.bind(2, member.key)
                statements.earlierCopies?.bindBlob(3, copying: fingerprint)
            }
            _ = try statements.member.stepCountingChanges(db)
            _ = try statements.earlierCopies?.stepCountingChanges(db)
        }
        for file in extras.files {
            if let content = file.content { try ReferencedFiles.store(content, kind: file.kind, db) }
            let known =
                try file.content.map { ReferencedFiles.Known(digest: $0.digest, items: $0.items, problem: nil) }
                ?? ReferencedFiles.read(kind: file.kind, path: file.path, in: self)
            let statement = statements.referencedFile
            statement.bind(1, id)
            statement.bindText(2, copying: file.kind.rawValue)
            statement.bindText(3, copying: file.path)
            statement.bindText(4, copying: known?.digest)
            statement.bind(5, known?.items.map(Int64.init))
            statement.bindText(6, copying: known?.problem)
            _ = try statement.stepCountingChanges(db)
        }
    }
}

/// What a record carries beyond its row is stored through these, bound directly: an export of a
/// million records holds tens of thousands of correlations' samples and routes, and each through
/// GRDB's arguments cost some ten microseconds more.
final class ExtrasStatements {
    /// A correlation's sample, once per correlation.
    let member: SQLiteBinding
    /// Links the copies of a sample stored before its correlation; into an empty archive only,
    /// where every record is this capture's.
    let earlierCopies: SQLiteBinding?
    let referencedFile: SQLiteBinding

    init(_ db: Database, captureID: Int64, linkingEarlierCopies: Bool) throws {
        member = SQLiteBinding(
            statement: try db.makeStatement(
                sql: """
                    INSERT INTO correlationMember (correlationId, memberKey, memberFingerprint)
                    SELECT ?1, ?2, ?3 WHERE NOT EXISTS (
                        SELECT 1 FROM correlationMember WHERE correlationId = ?1 AND memberFingerprint = ?3)
                    """))
        earlierCopies =
            linkingEarlierCopies
            ? SQLiteBinding(
                statement: try db.makeStatement(
                    sql: """
                        UPDATE record SET correlationId = ?1
                        WHERE semanticKey = ?2 AND id < ?1 AND semanticFingerprint = ?3 AND kind = 'record'
                        """))
            : nil
        referencedFile = SQLiteBinding(
            statement: try db.makeStatement(
                sql: """
                    INSERT OR IGNORE INTO referencedFile (captureId, recordId, kind, path, digest, items, problem)
                    VALUES (\(captureID), ?, ?, ?, ?, ?, ?)
                    """))
    }
}

/// Device descriptions repeat on nearly every record; each is stored once in `device`.
final class DeviceTable {
    private var ids: [String: Int64] = [:]
    /// The descriptions met last, found by their bytes.
    private var recent = RecentByteKeys<Int64>(capacity: 16)

    func id(of text: UnsafeRawBufferPointer, _ db: Database) throws -> Int64 {
        if let known = recent.value(of: text) { return known }
        let id = try lookUp(String(decoding: text, as: UTF8.self), db)
        recent.remember(text, as: id)
        return id
    }

    private func lookUp(_ description: String, _ db: Database) throws -> Int64 {
        if let known = ids[description] { return known }
        try db.execute(sql: "INSERT OR IGNORE INTO device (description) VALUES (?)", arguments: [description])
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE description = ?", arguments: [description])!
        if ids.count < 65_536 { ids[description] = id }
        return id
    }
}
