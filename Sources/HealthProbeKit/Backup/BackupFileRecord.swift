import Foundation
import HealthProbeArchive

/// A file's row in `Manifest.db`: an `NSKeyedArchiver` archive of an `MBFile`, read as the
/// property list it is (``BinaryPropertyList``): the root object's `ProtectionClass`, and its
/// `EncryptionKey`, a linked `NSMutableData` whose `NS.data` is 4 bytes of class, then the
/// wrapped key.
struct FileRecord {
    var protectionClass: UInt32
    var encryptionKey: Data
    /// The file's size as the backup declares it, when it does: what its decryption may give.
    var size: Int64?

    init(_ archived: Data) throws {
        guard case .dictionary(let archive)? = try? BinaryPropertyList.parse(archived),
            case .array(let objects)? = archive["$objects"],
            case .dictionary(let top)? = archive["$top"], case .uid(let root)? = top["root"],
            objects.indices.contains(root), case .dictionary(let file) = objects[root],
            case .integer(let protectionClass)? = file["ProtectionClass"], protectionClass >= 0,
            case .uid(let keyIndex)? = file["EncryptionKey"], objects.indices.contains(keyIndex),
            case .dictionary(let keyObject) = objects[keyIndex], case .data(let key)? = keyObject["NS.data"],
            key.count > 4
        else { throw PhoneBackupError.damaged(what: "a file's record") }
        self.protectionClass = UInt32(truncatingIfNeeded: protectionClass)
        encryptionKey = key.dropFirst(4)
        if case .integer(let declared)? = file["Size"], declared >= 0 { size = declared }
    }
}
