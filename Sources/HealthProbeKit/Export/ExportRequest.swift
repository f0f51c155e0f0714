import Foundation
import HealthProbeArchive

/// One export to run.
public struct ExportRequest: Sendable {
    public var format: ExportFormat
    /// Where the export goes; written beside as a temporary and renamed into place when complete.
    public var outputPath: String
    public var selection: ExportSelection
    /// Dates are written as local times with their offset in this zone.
    public var timeZone: TimeZone
    /// The password's UTF-8 bytes when the export is encrypted; nil for plain.
    public var password: [UInt8]?
    /// Replace an existing file at `outputPath`.
    public var replacesExisting: Bool
    public var trigger: ExportTrigger
    /// How the selection reads in the history (`all`, `since capture 3`, …).
    public var rangeDescription: String
    /// The PBKDF2 iteration count of an encrypted export; never below the default.
    public var iterations: UInt32

    public init(
        format: ExportFormat, outputPath: String, selection: ExportSelection = ExportSelection(),
        timeZone: TimeZone = TimeZone(identifier: "UTC")!, password: [UInt8]? = nil, replacesExisting: Bool = false,
        trigger: ExportTrigger = .manual, rangeDescription: String = "all",
        iterations: UInt32 = EncryptedExportHeader.defaultIterations
    ) {
        self.format = format
        self.outputPath = outputPath
        self.selection = selection
        self.timeZone = timeZone
        self.password = password
        self.replacesExisting = replacesExisting
        self.trigger = trigger
        self.rangeDescription = rangeDescription
        self.iterations = max(iterations, EncryptedExportHeader.defaultIterations)
    }

    /// The manifest beside the export.
    public var manifestPath: String { outputPath + ".manifest.json" }

    /// The output path that means standard output (`--output -`).
    public static let standardOutput = "-"

    /// Whether the export streams to standard output instead of a file.
    public var writesToStandardOutput: Bool { outputPath == Self.standardOutput }
}

/// Where an export stands, for a progress line: the type being written, records and types done.
public struct ExportProgress: Sendable {
    public var currentType: String?
    public var recordsDone: Int
    public var recordsExpected: Int
    public var typesDone: Int
    public var typesExpected: Int
    /// Seconds since the export began.
    public var elapsed: Double
    /// Seconds since the first record was written: the pace is measured from there, not from
    /// the start, which includes the archive's sort before any row comes.
    public var writingSeconds: Double = 0

    /// Seconds left at the pace so far; nil until there is a pace worth trusting.
    public var estimatedSecondsLeft: Double? {
        guard recordsExpected > 0 else { return nil }
        return PaceEstimate.secondsLeft(
            fractionDone: Double(recordsDone) / Double(recordsExpected), over: writingSeconds)
    }
}

/// Time left at the pace so far, for progress lines: only after two seconds of work and 2 % of
/// it done — an earlier pace mostly measures the start-up.
public enum PaceEstimate {
    public static func secondsLeft(fractionDone: Double, over seconds: Double) -> Double? {
        guard seconds >= 2, fractionDone >= 0.02, fractionDone < 1, fractionDone.isFinite else { return nil }
        return seconds / fractionDone * (1 - fractionDone)
    }
}

/// What a finished export wrote.
public struct ExportResult: Sendable, Codable, Equatable {
    public var path: String
    public var manifestPath: String
    public var format: ExportFormat
    public var encrypted: Bool
    public var captureId: Int64
    public var records: Int
    public var recordsByType: [String: Int]
    public var goneRecords: Int
    public var bytes: Int64
    /// SHA-256 of the file as written (the ciphertext when encrypted), lowercase hex.
    public var sha256: String
    /// For `apple-health`, what became of the files beside the XML.
    public var files: AppleHealthFileCounts?
    /// False when the file was written but the export history could not note it (the archive
    /// stayed busy with a check longer than the wait): the export stands, its entry is missing.
    public var inHistory = true
}

/// Why an export did not happen. Each case is one line for the command line.
public enum ExportFailure: Refusal, Equatable, LocalizedError {
    case nothingCaptured
    case unknownCapture(Int64, known: [Int64])
    case outputExists(path: String)
    /// The output names a folder, a device or a pipe: only a file is written.
    case notAFile(path: String, folder: Bool)
    /// The output (or its manifest) would be the archive itself or one of its files.
    case outputIsTheArchive(path: String)
    case cannotWrite(path: String, problem: String)
    case cancelled
    /// Stopped by Ctrl-C while streaming: what reached standard output cannot be taken back.
    case cancelledOnStandardOutput
    case refusedOnStandardOutput(reason: String)
    /// Standard output's reader stopped reading before the end (as `head` does).
    case readerStoppedEarly
    /// Writing to standard output failed part-way: what reached it cannot be taken back.
    case failedOnStandardOutput(problem: String)
    case failed(problem: String)

    public var errorDescription: String? { message }
    public var exitCode: Int32 { isUsageError ? RefusalCode.usage : RefusalCode.unusable }

    public var wayOn: WayOn? {
        switch self {
        case .outputExists: .replaceOutput
        case .nothingCaptured: .checkFirst
        default: nil
        }
    }

    public var message: String {
        switch self {
        case .nothingCaptured: "the archive holds no complete capture yet"
        case .unknownCapture(let id, let known):
            "there is no complete capture \(id); captures: \(known.map(String.init).joined(separator: ", "))"
        case .outputExists(let path): "\(path) exists"
        case .notAFile(let path, let folder):
            folder
                ? "\(path) is a folder: name a file to write, inside it or elsewhere (nothing was written)"
                : "\(path) is not a file (a device or a pipe): name a file to write, or - for standard output (nothing was written)"
        case .outputIsTheArchive(let path):
            "\(path) is the archive itself or one of its files; export to another file (nothing was written)"
        case .cannotWrite(let path, let problem): "cannot write \(path): \(problem)"
        case .cancelled: "export cancelled; nothing was written"
        case .cancelledOnStandardOutput: "export cancelled; what reached standard output is incomplete"
        case .refusedOnStandardOutput(let reason): "cannot export to standard output: \(reason); give --output FILE"
        case .readerStoppedEarly:
            "standard output was closed early: what reached it is incomplete"
        case .failedOnStandardOutput(let problem):
            "the export failed: \(problem); what reached standard output is incomplete"
        case .failed(let problem): "the export failed: \(problem); nothing was written"
        }
    }

    /// The problem alone, without "nothing was written" (said otherwise on standard output).
    var problemText: String {
        switch self {
        case .failed(let problem): problem
        case .cannotWrite(_, let problem): problem
        default: errorDescription ?? "it failed"
        }
    }

    /// Whether the user asked for something impossible (64) rather than the system failing (74).
    public var isUsageError: Bool {
        switch self {
        case .nothingCaptured, .unknownCapture, .outputExists, .notAFile, .outputIsTheArchive, .refusedOnStandardOutput:
            true
        case .cannotWrite, .cancelled, .cancelledOnStandardOutput, .readerStoppedEarly, .failedOnStandardOutput,
            .failed:
            false
        }
    }
}
