import Crypto
import Foundation
import GRDB
import HealthProbeKit
import _CryptoExtras

/// Writes an encrypted iPhone backup holding a Health database pair, laid out as Finder writes
/// one (docs/BACKUP.md): `Manifest.plist` with the keybag and the wrapped manifest key, an
/// encrypted `Manifest.db` listing the files, and each file encrypted with its own key under
/// `<first two hex digits>/<SHA-1 of "HealthDomain-<path>">`. The password's rounds are few, to
/// keep tests fast (a real backup's take seconds); an independent decrypter checks the layout.
public enum EncryptedBackupFixture {
    /// `declaredSize`, when given, is what each file's record says its size is, whatever it is
    /// (for backups that lie).
    public static func write(
        healthFolder: URL, to backup: URL, password: String, rounds: (sha256: Int, sha1: Int) = (100, 10),
        declaredSize: Int64? = nil
    ) throws {
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let salt = random(20)
        let dpsl = random(20)
        let round1 = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: dpsl, using: .sha256, outputByteCount: 32,
            unsafeUncheckedRounds: rounds.sha256)
        let passwordKey = try round1.withUnsafeBytes {
            try KDF.Insecure.PBKDF2.deriveKey(
                from: Array($0), salt: salt, using: .insecureSHA1, outputByteCount: 32,
                unsafeUncheckedRounds: rounds.sha1)
        }
        var classKeys: [UInt32: SymmetricKey] = [:]
        var bag = tlv("VERS", number(3)) + tlv("TYPE", number(1)) + tlv("UUID", random(16))
        bag += tlv("HMCK", random(40)) + tlv("WRAP", number(0)) + tlv("SALT", salt) + tlv("ITER", number(rounds.sha1))
        bag += tlv("DPWT", number(1)) + tlv("DPIC", number(rounds.sha256)) + tlv("DPSL", dpsl)
        for protectionClass in UInt32(1)...4 {
            let key = SymmetricKey(size: .bits256)
            classKeys[protectionClass] = key
            bag += tlv("UUID", random(16)) + tlv("CLAS", number(Int(protectionClass))) + tlv("WRAP", number(2))
            bag += tlv("KTYP", number(0)) + tlv("WPKY", try AES.KeyWrap.wrap(key, using: passwordKey))
        }
        let manifestKey = SymmetricKey(size: .bits256)
        let storedManifestKey = littleEndian(4) + (try AES.KeyWrap.wrap(manifestKey, using: classKeys[4]!))

        let index = backup.appendingPathComponent("Manifest.plain.db")
        let queue = try DatabaseQueue(path: index.path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER,
                        file BLOB);
                    CREATE TABLE Properties (key TEXT PRIMARY KEY, value BLOB);
                    """)
            for name in ["healthdb_secure.sqlite", "healthdb.sqlite"] {
                let file = healthFolder.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                let path = "Health/\(name)"
                let id = Insecure.SHA1.hash(data: Data("HealthDomain-\(path)".utf8)).map { String(format: "%02x", $0) }
                    .joined()
                let key = SymmetricKey(size: .bits256)
                let contents = try Data(contentsOf: file)
                let folder = backup.appendingPathComponent(String(id.prefix(2)))
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try encrypt(contents, key).write(to: folder.appendingPathComponent(id))
                let record = fileRecord(
                    size: declaredSize ?? Int64(contents.count),
                    key: littleEndian(3) + (try AES.KeyWrap.wrap(key, using: classKeys[3]!)))
                try db.execute(
                    sql:
                        "INSERT INTO Files (fileID, domain, relativePath, flags, file) VALUES (?, 'HealthDomain', ?, 1, ?)",
                    arguments: [id, path, record])
            }
        }
        try queue.close()
        try encrypt(try Data(contentsOf: index), manifestKey).write(to: backup.appendingPathComponent("Manifest.db"))
        try FileManager.default.removeItem(at: index)

        let manifest: [String: Any] = [
            "IsEncrypted": true, "BackupKeyBag": bag, "ManifestKey": storedManifestKey, "Version": "10.0",
            "Date": Date(timeIntervalSince1970: 946_684_800),
            "Lockdown": ["DeviceName": "iPhone-TESTDEVICE", "ProductVersion": "17.5"],
        ]
        try PropertyListSerialization.data(fromPropertyList: manifest, format: .binary, options: 0)
            .write(to: backup.appendingPathComponent("Manifest.plist"))
    }

    /// An `MBFile` archive as `NSKeyedArchiver` writes it: the root's class, size and protection
    /// class, and its key in a linked `NSMutableData`.
    static func fileRecord(size: Int64, key: Data) -> Data {
        BinaryPropertyListWriter.encode(
            .dictionary([
                ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
                ("$top", .dictionary([("root", .uid(1))])),
                (
                    "$objects",
                    .array([
                        .string("$null"),
                        .dictionary([
                            ("$class", .uid(3)), ("EncryptionKey", .uid(2)), ("ProtectionClass", .integer(3)),
                            ("Size", .integer(size)), ("Mode", .integer(33188)),
                        ]),
                        .dictionary([("NS.data", .data(key)), ("$class", .uid(4))]),
                        .dictionary([
                            ("$classname", .string("MBFile")),
                            ("$classes", .array([.string("MBFile"), .string("NSObject")])),
                        ]),
                        .dictionary([
                            ("$classname", .string("NSMutableData")),
                            ("$classes", .array([.string("NSMutableData"), .string("NSData"), .string("NSObject")])),
                        ]),
                    ])
                ),
            ]))
    }

    static func encrypt(_ data: Data, _ key: SymmetricKey) throws -> Data {
        try AES._CBC.encrypt(data, using: key, iv: AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16)))
    }

    static func tlv(_ tag: String, _ value: Data) -> Data {
        Data(tag.utf8) + number(value.count) + value
    }

    static func number(_ value: Int) -> Data {
        Data((0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    static func littleEndian(_ value: UInt32) -> Data {
        Data((0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    static func random(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
