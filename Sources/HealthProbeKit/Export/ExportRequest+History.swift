import Foundation
import HealthProbeArchive

/// How an export ended, for its history.
enum ExportOutcome {
    case completed(ExportResult)
    case failed(ExportFailure)
}

extension ArchiveStore {
    /// Notes the export `request` asks for as it starts (``recordExportStart(_:)``).
    func recordExportStart(_ request: ExportRequest, startedAt: Date) -> Int64? {
        recordExportStart(request.runStart(startedAt: startedAt, encrypted: nil))
    }

    /// Records how the export `request` asked for ended.
    func recordExportRun(
        _ request: ExportRequest, startedAt: Date, outcome: ExportOutcome, encrypted: Bool? = nil, run: Int64? = nil
    ) throws {
        let ending: ExportRunEnding
        switch outcome {
        case .completed(let result):
            ending = .completed(
                captureId: result.captureId, records: result.records, bytes: result.bytes, sha256: result.sha256)
        case .failed(let failure):
            ending = .failed(
                problem: failure.localizedDescription,
                cancelled: failure == .cancelled || failure == .cancelledOnStandardOutput)
        }
        try recordExportRun(request.runStart(startedAt: startedAt, encrypted: encrypted), ending: ending, run: run)
    }
}

extension ExportRequest {
    /// What the history notes of this export as it starts; encrypted when a password is given,
    /// unless said otherwise.
    func runStart(startedAt: Date, encrypted: Bool?) -> ExportRunStart {
        ExportRunStart(
            startedAt: startedAt, trigger: trigger, format: format.rawValue, encrypted: encrypted ?? (password != nil),
            range: rangeDescription, path: outputPath)
    }
}
