import Foundation
import HealthProbeArchive

/// Decrypting an encrypted export to a file, all or nothing.
public enum EncryptedExportFile {
    /// Decrypts `input` into a temporary beside `output`, renamed into place only once the last
    /// segment verifies; on any failure the temporary is removed and nothing is left.
    public static func decrypt(
        _ input: FileHandle, password: [UInt8], to output: String, files: PartialExportFiles = .standard
    ) throws {
        let temporary = try files.create(beside: output)
        var kept = false
        defer { if !kept { files.remove(temporary) } }
        guard let handle = FileHandle(forWritingAtPath: temporary) else {
            throw ExportFailure.cannotWrite(path: output, problem: "cannot open its temporary file")
        }
        defer { try? handle.close() }
        try StreamingDecryptor.decrypt(password: password, input: input) { bytes in
            do {
                try handle.write(contentsOf: Data(bytes))
            } catch {
                throw ExportFailure.failed(problem: error.localizedDescription)
            }
        }
        try handle.synchronize()
        guard rename(temporary, output) == 0 else {
            throw ExportFailure.cannotWrite(path: output, problem: String(cString: strerror(errno)))
        }
        kept = true
        files.unregister(temporary)
    }
}
