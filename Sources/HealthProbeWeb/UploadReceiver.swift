import Foundation
import HealthProbeKit
import Hummingbird
import MultipartKit

/// Receives Check Now's upload: a multipart form whose CSRF field comes before the files — the
/// export or Health database (`export`), and a database's `healthdb.sqlite` when given
/// (`sources`) — each streamed to a private folder as it arrives, never held in memory, and
/// refused past the size cap (the two together), leaving nothing behind.
struct UploadReceiver {
    enum Failure: Error, Equatable {
        case notAForm
        case forbidden
        case noFile
        case tooLarge(limit: Int64)
    }

    struct Upload {
        /// The file, named as the user's file was (made safe).
        var file: URL
        /// The private folder holding it, to remove after the check.
        var folder: URL
        var name: String
        /// The choices a refusal offered, sent back with the same file (`allow=older`,
        /// `allow=unrelated`): `--allow-older` and `--allow-unrelated` on the command line.
        var allowOlder = false
        var allowUnrelated = false
    }

    let csrfToken: String
    let limit: Int64
    let directory: URL

    func receive(_ request: Request) async throws -> Upload {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.boundary(of: type)
        else { throw Failure.notAForm }
        let folder = try makePrivateFolder()
        do {
            return try await stream(request.body, boundary: boundary, folder: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private func stream(_ body: RequestBody, boundary: String, folder: URL) async throws -> Upload {
        let parser = MultipartParser(boundary: boundary)
        let state = PartState(csrfToken: csrfToken, limit: limit, folder: folder)
        parser.onHeader = { name, value in state.header(name, value) }
        parser.onBody = { buffer in state.body(&buffer) }
        parser.onPartComplete = { state.partComplete() }
        for try await chunk in body {
            try parser.execute(chunk)
            if let failure = state.failure { throw failure }
        }
        state.close()
        if let failure = state.failure { throw failure }
        guard let file = state.file, state.fileComplete else { throw Failure.noFile }
        return Upload(
            file: file, folder: folder, name: file.lastPathComponent, allowOlder: state.allowed.contains("older"),
            allowUnrelated: state.allowed.contains("unrelated"))
    }

    /// Where a Health database's sources file is kept: beside the database, under the name its
    /// reader looks for (or, when the database itself came so named, nowhere).
    static func sourcesFile(in folder: URL, besides main: URL?) -> URL? {
        let url = folder.appendingPathComponent(HealthDatabaseReader.sourcesName)
        return main?.lastPathComponent == url.lastPathComponent ? nil : url
    }

    private func makePrivateFolder() throws -> URL {
        let folder = directory.appendingPathComponent("healthprobe-upload-" + Secrets.token().prefix(16))
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// A file name safe to create: the last component, letters, digits, dot, dash, underscore.
    static func safeName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let kept = String(
            last.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._-".unicodeScalars.contains($0)
            }.map(Character.init))
        let trimmed = kept.drop { $0 == "." }
        return trimmed.isEmpty ? "export.zip" : String(trimmed.prefix(100))
    }
}

/// The parser's callbacks' state: which part is arriving and where its bytes go.
private final class PartState {
    let csrfToken: String
    let limit: Int64
    let folder: URL
    var failure: UploadReceiver.Failure?
    var file: URL?
    var fileComplete = false
    /// The `allow` fields' values: which refusal the user chose to override.
    var allowed: Set<String> = []
    private var partName: String?
    private var fileName: String?
    private var field = [UInt8]()
    private var handle: FileHandle?
    /// Bytes of both files so far.
    private var written: Int64 = 0
    private var writtenToPart: Int64 = 0
    private var csrfVerified = false
    static let fileParts: Set<String> = ["export", "sources"]

    init(csrfToken: String, limit: Int64, folder: URL) {
        self.csrfToken = csrfToken
        self.limit = limit
        self.folder = folder
    }

    func header(_ name: String, _ value: String) {
        guard name.lowercased() == "content-disposition" else { return }
        partName = Self.parameter("name", in: value)
        fileName = Self.parameter("filename", in: value)
    }

    func body(_ buffer: inout ByteBuffer) {
        guard failure == nil else { return }
        if let partName, Self.fileParts.contains(partName) {
            guard csrfVerified else { return failure = .forbidden }
            if handle == nil { openFile() }
            written += Int64(buffer.readableBytes)
            writtenToPart += Int64(buffer.readableBytes)
            guard written <= limit else { return failure = .tooLarge(limit: limit) }
            if let bytes = buffer.readBytes(length: buffer.readableBytes) { handle?.write(Data(bytes)) }
        } else if field.count < 1_024, let bytes = buffer.readBytes(length: buffer.readableBytes) {
            field += bytes
        }
    }

    func partComplete() {
        if partName == FormFields.csrf {
            csrfVerified = Secrets.matches(String(decoding: field, as: UTF8.self), csrfToken)
            if !csrfVerified { failure = .forbidden }
        } else if partName == FormFields.allow {
            allowed.insert(String(decoding: field, as: UTF8.self))
        } else if partName == "export" {
            if handle == nil && failure == nil && csrfVerified { openFile() }
            fileComplete = failure == nil && writtenToPart > 0
            try? handle?.close()
            handle = nil
        } else if partName == "sources" {
            try? handle?.close()
            handle = nil
            // A sources field left empty is no file.
            if writtenToPart == 0, let empty = sourcesFile { try? FileManager.default.removeItem(at: empty) }
        }
        writtenToPart = 0
        field.removeAll()
        partName = nil
    }

    func close() {
        try? handle?.close()
        handle = nil
    }

    /// The sources file's place, once the export part has named the main file.
    private var sourcesFile: URL? { UploadReceiver.sourcesFile(in: folder, besides: file) }

    private func openFile() {
        if partName == "sources" {
            guard let url = sourcesFile, (fileName ?? "").isEmpty == false else { return }
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            handle = FileHandle(forWritingAtPath: url.path)
            return
        }
        let url = folder.appendingPathComponent(UploadReceiver.safeName(fileName ?? "export.zip"))
        _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        handle = FileHandle(forWritingAtPath: url.path)
        file = url
    }

    static func parameter(_ name: String, in value: String) -> String? {
        for part in value.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
