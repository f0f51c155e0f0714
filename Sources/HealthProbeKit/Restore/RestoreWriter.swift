import Foundation
import HealthProbeArchive

/// What to put back, and where the restore file goes.
public struct RestoreRequest: Sendable {
    public enum Target: Sendable, Equatable {
        /// The records these anomalies prove lost.
        case anomalies([Int64])
        /// What this capture proved lost: the records of its silent deletions.
        case capture(Int64)
    }

    public var target: Target
    public var outputPath: String
    /// Encrypts the file as exports are (docs/ENCRYPTED-EXPORTS.md) when given.
    public var password: [UInt8]?
    public var iterations: UInt32
    public var replacesExisting: Bool

    public init(
        target: Target, outputPath: String, password: [UInt8]? = nil,
        iterations: UInt32 = EncryptedExportHeader.defaultIterations, replacesExisting: Bool = false
    ) {
        self.target = target
        self.outputPath = outputPath
        self.password = password
        self.iterations = max(iterations, EncryptedExportHeader.defaultIterations)
        self.replacesExisting = replacesExisting
    }
}

/// A restore file written.
public struct RestoreResult: Sendable, Equatable {
    public var path: String
    public var file: RestoreFile
    public var encrypted: Bool
    public var bytes: Int64
    /// SHA-256 of the file as written (the ciphertext when encrypted), lowercase hex.
    public var sha256: String
}

/// Why a restore file was not written, when the destination was fine.
public enum RestoreWriteFailure: Refusal, Equatable {
    case failed(problem: String)
    /// Every record the anomalies lost is back, put back already, or not this version's to write:
    /// no file of nothing is written.
    case nothingToPutBack(anomalies: [Int64], leftOut: RestoreFile.LeftOut)

    public var message: String {
        switch self {
        case .failed(let problem): "the restore file could not be written: \(problem); nothing was written"
        case .nothingToPutBack(let anomalies, let leftOut):
            "nothing to put back from \(RestoreWords.anomalies(anomalies))"
                + (leftOut.words.isEmpty ? "" : ": " + leftOut.words.joined(separator: "; "))
                + "; no file written"
        }
    }
    public var exitCode: Int32 {
        switch self {
        case .failed: RefusalCode.unusable
        case .nothingToPutBack: RefusalCode.usage
        }
    }
    public var archiveLeftAsItWas: Bool { true }
}

extension ArchiveStore {
    /// The records `target` proves lost and still gone (``lostRecords(anomalies:)``).
    public func lostRecords(_ target: RestoreRequest.Target) throws -> LostRecordSelection {
        switch target {
        case .anomalies(let ids): try lostRecords(anomalies: ids)
        case .capture(let id): try lostRecords(capture: id)
        }
    }

    /// Writes the restore file of `request` whole or not at all (a temporary beside it, renamed
    /// into place when complete), and notes it in the trail with counts only. `selection`: the
    /// target's lost records when already read (``lostRecords(_:)``), else read here.
    public func writeRestoreFile(
        _ request: RestoreRequest, selection: LostRecordSelection? = nil, files: PartialExportFiles = .standard
    ) throws -> RestoreResult {
        files.removeAbandoned()
        try WholeFile.checkDestination(
            [request.outputPath], archive: self, replacing: request.replacesExisting)
        let selection = try selection ?? lostRecords(request.target)
        let file = RestoreFile(selection)
        guard !file.records.isEmpty else {
            throw RestoreWriteFailure.nothingToPutBack(anomalies: file.anomalies, leftOut: file.leftOut)
        }
        let temporary = try files.create(beside: request.outputPath)
        var kept = false
        defer { if !kept { files.remove(temporary) } }
        let written: (bytes: Int64, sha256: String)
        do {
            written = try RestoreFileBytes.write(file, to: temporary, request: request)
        } catch ExportFailure.failed(let problem) {
            throw RestoreWriteFailure.failed(problem: problem)
        }
        try WholeFile.rename(temporary, to: request.outputPath)
        kept = true
        files.unregister(temporary)
        let ids = file.anomalies.map(String.init).joined(separator: ", ")
        try? recordInAuditTrail(
            .restoreWritten,
            message:
                "restore file written: \(file.records.count) records of anomal\(file.anomalies.count == 1 ? "y" : "ies") "
                + ids + (request.password != nil ? ", encrypted" : ""))
        return RestoreResult(
            path: request.outputPath, file: file, encrypted: request.password != nil,
            bytes: written.bytes,
            sha256: written.sha256)
    }
}

/// The file's bytes: its JSON, encrypted when asked, synced to disk.
private enum RestoreFileBytes {
    static func write(_ file: RestoreFile, to path: String, request: RestoreRequest) throws -> (Int64, String) {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ExportFailure.cannotWrite(path: request.outputPath, problem: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let writer = try ExportFileWriter(
            descriptor: descriptor, password: request.password, iterations: request.iterations)
        var bytes = try ReportJSON.encode(file)
        bytes.append(0x0A)
        try bytes.withUnsafeBytes { try writer.write($0) }
        let sha256 = try writer.finish()
        try WholeFile.syncToDisk(descriptor)
        return (writer.bytesWritten, sha256)
    }
}
