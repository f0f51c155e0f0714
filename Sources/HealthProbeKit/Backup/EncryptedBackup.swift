import Crypto
import Foundation
import GRDB
import HealthProbeArchive
import _CryptoExtras

/// An encrypted iPhone backup folder (`Manifest.plist`, `Manifest.db`, files stored by hashed
/// name), opened with its password to take out the Health database (docs/BACKUP.md): the keybag
/// unlocked, `Manifest.db` decrypted with the manifest key, the Health files found in
/// `HealthDomain` and each decrypted with its own key (AES-256-CBC, zero IV, PKCS 7 padding), a
/// megabyte at a time, into a private folder the caller removes. Nothing is written beside the
/// backup, and the password is never kept.
public enum EncryptedBackup {
    /// The Health files a backup may hold, by their path in `HealthDomain`.
    static let healthFiles = [
        "Health/healthdb_secure.sqlite", "Health/healthdb_secure.sqlite-wal", "Health/healthdb.sqlite",
        "Health/healthdb.sqlite-wal",
    ]

    /// Whether `folder` is a backup (it has `Manifest.plist`).
    public static func isBackup(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("Manifest.plist").path)
    }

    /// Decrypts the backup's Health files into `folder` (which must be private); `deriving` is
    /// told the rounds before the password's key is derived (seconds on a real backup).
    public static func extractHealthFiles(
        from backup: URL, password: [UInt8], into folder: URL, deriving: ((Int) -> Void)? = nil
    ) throws {
        guard
            let manifest = BackupPropertyList.dictionary(
                backup.appendingPathComponent("Manifest.plist"), inside: backup)
        else { throw PhoneBackupError.damaged(what: "its Manifest.plist") }
        guard manifest["IsEncrypted"]?.bool == true else { throw PhoneBackupError.notEncrypted }
        guard let bag = manifest["BackupKeyBag"]?.data, let manifestKey = manifest["ManifestKey"]?.data,
            manifestKey.count > 4
        else { throw PhoneBackupError.damaged(what: "its Manifest.plist") }
        let keybag = try BackupKeybag(bag)
        deriving?(keybag.rounds.sha256 + keybag.rounds.sha1)
        let classKeys = try keybag.unlock(password: password)
        let databaseKey = try unwrap(manifestKey, with: classKeys, what: "its manifest key")
        let index = folder.appendingPathComponent("Manifest.db")
        defer { try? FileManager.default.removeItem(at: index) }
        try decrypt(
            stored(backup.appendingPathComponent("Manifest.db"), inside: backup, what: "Manifest.db"), to: index,
            key: databaseKey, what: "Manifest.db")
        let files = try healthFileRows(index)
        guard files.contains(where: { $0.path == healthFiles[0] }) else { throw PhoneBackupError.noHealthData }
        for file in files {
            let record = try FileRecord(file.record)
            let key = try unwrap(record.encryptionKey, with: classKeys, protectionClass: record.protectionClass)
            let name = URL(fileURLWithPath: file.path).lastPathComponent
            let location = try stored(
                backup.appendingPathComponent(String(file.id.prefix(2))).appendingPathComponent(file.id),
                inside: backup,
                what: name)
            // What is decrypted is bounded by what the backup declares: a stored file longer than
            // its record says (by more than the cipher's last block) is damage, never read. The
            // declared size is the file's to say, up to 2^63 − 1: it is never added to.
            let storedSize = (try? FileManager.default.attributesOfItem(atPath: location.path))?[.size] as? Int64 ?? 0
            if let declared = record.size, storedSize - 16 > declared {
                throw PhoneBackupError.damaged(what: "\(name) (longer than the backup says)")
            }
            try decrypt(location, to: folder.appendingPathComponent(name), key: key, what: name)
        }
    }

    /// The Health files' rows in the decrypted `Manifest.db`: their hashed names, checked to be
    /// 40 hexadecimal digits (a name never leads out of the backup).
    private static func healthFileRows(_ index: URL) throws -> [(id: String, path: String, record: Data)] {
        do {
            let queue = try DatabaseQueue(path: index.path)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT fileID, relativePath, file FROM Files
                        WHERE domain = 'HealthDomain' AND relativePath IN (\(healthFiles.map { "'\($0)'" }.joined(separator: ", ")))
                        """
                ).map { row in
                    guard let id = row.foreignText("fileID"), id.count == 40, id.allSatisfy(\.isHexDigit),
                        let path = row.foreignText("relativePath"), let record = row.foreignData("file")
                    else { throw PhoneBackupError.damaged(what: "its Manifest.db") }
                    return (id.lowercased(), path, record)
                }
            }
        } catch let error as PhoneBackupError {
            throw error
        } catch {
            throw PhoneBackupError.damaged(what: "its Manifest.db")
        }
    }

    /// A file the backup stores: a regular file inside the backup — never a link leading out of
    /// it, a pipe that would block, or a device that never ends.
    private static func stored(_ url: URL, inside backup: URL, what: String) throws -> URL {
        do {
            return try HealthDatabaseReader.regularFile(url, inside: backup)
        } catch {
            throw PhoneBackupError.damaged(what: "\(what) (not a regular file inside the backup)")
        }
    }

    /// A key stored as a protection class (4 bytes, little-endian) and the key wrapped with it.
    private static func unwrap(_ stored: Data, with classKeys: [UInt32: SymmetricKey], what: String) throws
        -> SymmetricKey
    {
        let bytes = Array(stored)
        let protectionClass = bytes.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return try unwrap(Data(bytes.dropFirst(4)), with: classKeys, protectionClass: protectionClass, what: what)
    }

    private static func unwrap(
        _ wrapped: Data, with classKeys: [UInt32: SymmetricKey], protectionClass: UInt32, what: String = "a file's key"
    ) throws -> SymmetricKey {
        guard let classKey = classKeys[protectionClass], let key = try? AES.KeyWrap.unwrap(wrapped, using: classKey)
        else { throw PhoneBackupError.damaged(what: what) }
        return key
    }

    /// AES-256-CBC with a zero IV, a megabyte at a time, the padding checked and taken off the
    /// end; the plaintext is written owner-only.
    static func decrypt(_ input: URL, to output: URL, key: SymmetricKey, what: String) throws {
        guard let reader = try? FileHandle(forReadingFrom: input) else { throw PhoneBackupError.damaged(what: what) }
        defer { try? reader.close() }
        guard
            FileManager.default.createFile(atPath: output.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let writer = try? FileHandle(forWritingTo: output)
        else { throw PhoneBackupError.damaged(what: what) }
        defer { try? writer.close() }
        var iv = [UInt8](repeating: 0, count: 16)
        var held: Data?
        while let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty {
            guard chunk.count % 16 == 0,
                let plain = try? AES._CBC.decrypt(chunk, using: key, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
            else { throw PhoneBackupError.damaged(what: what) }
            iv = Array(chunk.suffix(16))
            if let held { try writer.write(contentsOf: held) }
            held = plain
        }
        guard let last = held, let padding = last.last, (1...16).contains(padding), last.count >= Int(padding),
            last.suffix(Int(padding)).allSatisfy({ $0 == padding })
        else { throw PhoneBackupError.damaged(what: what) }
        try writer.write(contentsOf: last.dropLast(Int(padding)))
    }
}
