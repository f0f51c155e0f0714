import Crypto
import Foundation
import HealthProbeArchive
import _CryptoExtras

/// An encrypted iPhone backup's keybag (`Manifest.plist`'s `BackupKeyBag`): a list of tag,
/// big-endian length, value; first the bag's own attributes (the salts and iteration counts of
/// the password's two derivation rounds), then per protection class a wrapped key
/// (docs/BACKUP.md). Unlocking derives the password key — PBKDF2-HMAC-SHA256 then
/// PBKDF2-HMAC-SHA1, the counts the bag says — and unwraps each class key (RFC 3394) with it;
/// a wrong password fails the unwrap's integrity check. swift-crypto does all the cryptography.
struct BackupKeybag {
    /// The bag's attributes by tag (`DPSL`, `DPIC`, `SALT`, `ITER`, …).
    private(set) var attributes: [String: Data] = [:]
    /// Wrapped class keys by protection class, with their `WRAP` flags.
    private(set) var wrappedKeys: [UInt32: (wrap: UInt32, key: Data)] = [:]

    /// A class key wrapped with the password key has this `WRAP` bit.
    static let wrappedWithPassword: UInt32 = 2

    init(_ blob: Data) throws {
        var current: [String: Data]?
        var seenUUID = false
        var malformedKey = false
        func finish() {
            guard let current, let clas = current["CLAS"].flatMap(Self.number), let key = current["WPKY"] else {
                return
            }
            // An RFC 3394 wrapped key is whole 8-byte blocks, one more than the key: a key of
            // another length is damage, not a wrong password.
            if key.count < 24 || key.count % 8 != 0 { malformedKey = true }
            wrappedKeys[clas] = (current["WRAP"].flatMap(Self.number) ?? 0, key)
        }
        var offset = blob.startIndex
        while offset + 8 <= blob.endIndex {
            let tag = String(decoding: blob[offset..<offset + 4], as: UTF8.self)
            guard let length = Self.number(blob[offset + 4..<offset + 8]), offset + 8 + Int(length) <= blob.endIndex
            else { throw PhoneBackupError.damaged(what: "its keybag") }
            let value = Data(blob[offset + 8..<offset + 8 + Int(length)])
            offset += 8 + Int(length)
            if tag == "UUID" {
                // The first UUID is the bag's; each later one starts a class key.
                if seenUUID {
                    finish()
                    current = [:]
                }
                seenUUID = true
            } else if current != nil, ["CLAS", "WRAP", "WPKY", "KTYP", "PBKY"].contains(tag) {
                current?[tag] = value
            } else {
                attributes[tag] = value
            }
        }
        finish()
        guard attributes["SALT"] != nil, attributes["ITER"] != nil, !wrappedKeys.isEmpty, !malformedKey else {
            throw PhoneBackupError.damaged(what: "its keybag")
        }
    }

    /// The rounds the password's derivation will take (for saying so while it runs).
    var rounds: (sha256: Int, sha1: Int) {
        (
            attributes["DPIC"].flatMap(Self.number).map(Int.init) ?? 0,
            attributes["ITER"].flatMap(Self.number).map(Int.init) ?? 0
        )
    }

    /// More rounds than any backup uses (about ten million in the first round, ten thousand in
    /// the second): a keybag asking for more is refused rather than left to run for hours.
    static let mostRounds = 100_000_000

    /// The class keys the password unlocks; `PhoneBackupError.wrongPassword` when it unlocks none.
    func unlock(password: [UInt8]) throws -> [UInt32: SymmetricKey] {
        guard rounds.sha256 <= Self.mostRounds, rounds.sha1 <= Self.mostRounds else {
            throw PhoneBackupError.damaged(what: "its keybag")
        }
        var key = SymmetricKey(data: password)
        if let salt = attributes["DPSL"], rounds.sha256 > 0 {
            key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds.sha256)
        }
        let passwordKey = try key.withUnsafeBytes { bytes in
            try KDF.Insecure.PBKDF2.deriveKey(
                from: Array(bytes), salt: attributes["SALT"] ?? Data(), using: .insecureSHA1, outputByteCount: 32,
                unsafeUncheckedRounds: max(1, rounds.sha1))
        }
        var keys: [UInt32: SymmetricKey] = [:]
        for (protectionClass, wrapped) in wrappedKeys where wrapped.wrap & Self.wrappedWithPassword != 0 {
            guard let classKey = try? AES.KeyWrap.unwrap(wrapped.key, using: passwordKey) else {
                throw PhoneBackupError.wrongPassword
            }
            keys[protectionClass] = classKey
        }
        guard !keys.isEmpty else { throw PhoneBackupError.wrongPassword }
        return keys
    }

    /// A big-endian 32-bit number.
    static func number(_ bytes: some DataProtocol) -> UInt32? {
        guard bytes.count == 4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// Why an iPhone backup could not be read, in one line each; never the password.
public enum PhoneBackupError: Error, Equatable, Sendable {
    case wrongPassword
    case notEncrypted
    case noHealthData
    case damaged(what: String)
    /// An encrypted backup given where no password can be asked for (an upload).
    case passwordNeeded

    public var message: String {
        switch self {
        case .wrongPassword:
            "the backup's password is not right: give the one chosen when Encrypt local backup was ticked"
        case .notEncrypted:
            "the backup is not encrypted, and only an encrypted backup holds Health data: tick Encrypt local backup in Finder and back up again"
        case .noHealthData: "the backup holds no Health database: back up the iPhone again with Health data on it"
        case .damaged(let what):
            "the backup cannot be read: \(what) is damaged; copy the backup again or make a new one"
        case .passwordNeeded:
            "the backup is encrypted and its password is needed: check it with `healthprobe check`, which asks for it"
        }
    }
}
