import Foundation
import HealthProbeArchive

/// Why a file opened for restoring was not read. Nothing was written anywhere.
public enum RestoreFileRefusal: Refusal, Equatable {
    case notARestoreFile
    /// Written by a later HealthProbe: this one does not know the version.
    case unknownVersion(Int)
    /// Encrypted (docs/ENCRYPTED-EXPORTS.md): it opens with its password.
    case needsPassword
    case unreadable(problem: String)

    public var message: String {
        switch self {
        case .notARestoreFile: "this is not a HealthProbe restore file"
        case .unknownVersion(let version):
            "this restore file is version \(version), newer than this HealthProbe reads: update the app"
        case .needsPassword: "this restore file is encrypted: give its password"
        case .unreadable(let problem): "the restore file cannot be read: \(problem)"
        }
    }
    public var exitCode: Int32 { RefusalCode.unusable }
    public var archiveLeftAsItWas: Bool { true }
}

/// Opens a restore file as the app receives it (shared to it, or chosen in Files): plain JSON, or
/// encrypted as exports are, each segment verified before any record is used.
public enum RestoreFileReader {
    /// The file at `url`; `password` for an encrypted one.
    public static func read(_ url: URL, password: [UInt8]? = nil) throws -> RestoreFile {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw RestoreFileRefusal.unreadable(problem: "it cannot be opened")
        }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: EncryptedExportHeader.magic.count)) ?? Data()
        var bytes = Data()
        if Array(start) == EncryptedExportHeader.magic {
            guard let password else { throw RestoreFileRefusal.needsPassword }
            try handle.seek(toOffset: 0)
            try StreamingDecryptor.decrypt(password: password, input: handle) { bytes.append(contentsOf: $0) }
        } else {
            bytes = start + ((try? handle.readToEnd()) ?? Data())
        }
        return try decode(bytes)
    }

    /// A restore file's JSON, its format and version checked first.
    public static func decode(_ bytes: Data) throws -> RestoreFile {
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: bytes),
            header.format == RestoreFile.formatName, let version = header.version
        else { throw RestoreFileRefusal.notARestoreFile }
        guard version == RestoreFile.currentVersion else { throw RestoreFileRefusal.unknownVersion(version) }
        do {
            return try JSONDecoder().decode(RestoreFile.self, from: bytes)
        } catch {
            throw RestoreFileRefusal.unreadable(problem: "a record is not as version 1 writes it")
        }
    }
}
