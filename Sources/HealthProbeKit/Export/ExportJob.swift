import Crypto
import Foundation
import HealthProbeArchive

extension ArchiveStore {
    /// Runs one export: checks the destination before any work, writes a temporary beside it,
    /// renames it into place only when complete, writes the manifest, and records the run in the
    /// export history (failures too). On any failure or cancellation no file is left.
    public func export(
        _ request: ExportRequest, files: PartialExportFiles = .standard, cancellation: CancellationFlag? = nil,
        progress: (@Sendable (ExportProgress) -> Void)? = nil
    ) throws -> ExportResult {
        let startedAt = Date()
        let run = recordExportStart(request, startedAt: startedAt)
        do {
            var result = try ExportJob(archive: self, request: request, files: files, cancellation: cancellation)
                .run(progress: progress)
            // The file is in place: a history that cannot be written now does not undo it.
            result.inHistory =
                (try? recordExportRun(request, startedAt: startedAt, outcome: .completed(result), run: run)) != nil
            return result
        } catch let failure as ExportFailure {
            // A request refused before any work (a file in the way, an unknown capture) is not a run.
            if failure.isUsageError {
                forgetExportRun(run)
            } else {
                try? recordExportRun(request, startedAt: startedAt, outcome: .failed(failure), run: run)
            }
            throw failure
        } catch {
            let failure = ExportFailure.failed(problem: error.localizedDescription)
            try? recordExportRun(request, startedAt: startedAt, outcome: .failed(failure), run: run)
            throw failure
        }
    }
}

/// One export's work, from checking the destination to renaming the result into place.
private struct ExportJob {
    let archive: ArchiveStore
    let request: ExportRequest
    let files: PartialExportFiles
    let cancellation: CancellationFlag?

    func run(progress: (@Sendable (ExportProgress) -> Void)?) throws -> ExportResult {
        files.removeAbandoned()
        if request.writesToStandardOutput { return try runToStandardOutput(progress: progress) }
        try WholeFile.checkDestination(
            [request.outputPath, request.manifestPath], archive: archive, replacing: request.replacesExisting)
        let temporary = try files.create(beside: request.outputPath)
        var keep = false
        defer { if !keep { files.remove(temporary) } }
        let written = try write(to: temporary, progress: progress)
        try checkCancelled()
        let manifest = ExportManifest(
            export: written.description, file: URL(fileURLWithPath: request.outputPath).lastPathComponent,
            encrypted: request.password != nil, records: written.totals.records, goneRecords: written.totals.gone,
            recordsByType: written.totals.byType, bytes: written.bytes, sha256: written.sha256)
        let manifestTemporary = try files.create(beside: request.manifestPath)
        defer { files.remove(manifestTemporary) }
        do {
            try ReportJSON.encode(manifest).write(to: URL(fileURLWithPath: manifestTemporary))
        } catch {
            throw ExportFailure.failed(problem: "the manifest could not be written")
        }
        try rename(temporary, to: request.outputPath)
        keep = true
        files.unregister(temporary)
        try rename(manifestTemporary, to: request.manifestPath)
        return ExportResult(
            path: request.outputPath, manifestPath: request.manifestPath, format: request.format,
            encrypted: request.password != nil, captureId: written.description.capture.id,
            records: written.totals.records, recordsByType: written.totals.byType, goneRecords: written.totals.gone,
            bytes: written.bytes, sha256: written.sha256, files: written.files)
    }

    private struct Written {
        var description: ExportDescription
        var totals: ExportTotals
        var bytes: Int64
        var sha256: String
        var files: AppleHealthFileCounts?
    }

    /// `--output -`: the export streamed to standard output, for a pipe (`| duckdb`, `| gzip`):
    /// no temporary, no manifest; what was written before a failure or Ctrl-C stays written,
    /// and the failure says so. SQLite (a file it must seek in) and encrypted exports refuse.
    private func runToStandardOutput(progress: (@Sendable (ExportProgress) -> Void)?) throws -> ExportResult {
        guard request.format != .sqlite else {
            throw ExportFailure.refusedOnStandardOutput(reason: "a SQLite export is a file it must write in place")
        }
        guard request.password == nil else {
            throw ExportFailure.refusedOnStandardOutput(reason: "an encrypted export goes to a file, not to a pipe")
        }
        let written: Written
        do {
            written = try write(descriptor: STDOUT_FILENO, progress: progress)
        } catch ExportFailure.cancelled {
            throw ExportFailure.cancelledOnStandardOutput
        } catch ExportFailure.readerStoppedEarly {
            throw ExportFailure.readerStoppedEarly
        } catch let failure as ExportFailure {
            throw ExportFailure.failedOnStandardOutput(problem: failure.problemText)
        }
        return ExportResult(
            path: ExportRequest.standardOutput, manifestPath: "", format: request.format, encrypted: false,
            captureId: written.description.capture.id, records: written.totals.records,
            recordsByType: written.totals.byType, goneRecords: written.totals.gone, bytes: written.bytes,
            sha256: written.sha256, files: written.files)
    }

    private func write(to temporary: String, progress: (@Sendable (ExportProgress) -> Void)?) throws -> Written {
        if request.format == .sqlite {
            return try writeSQLite(to: temporary, progress: progress)
        }
        let descriptor = open(temporary, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ExportFailure.cannotWrite(path: request.outputPath, problem: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let written = try write(descriptor: descriptor, progress: progress)
        try syncToDisk(descriptor)
        return written
    }

    /// The text formats and the rebuilt Apple export, written through `descriptor`.
    private func write(descriptor: Int32, progress: (@Sendable (ExportProgress) -> Void)?) throws -> Written {
        let file = try ExportFileWriter(
            descriptor: descriptor, password: request.password, iterations: request.iterations)
        let writer: any ExportFormatWriter
        switch request.format {
        case .appleHealth:
            writer = try AppleHealthExportWriter(file: file, timeZone: request.timeZone, cancellation: cancellation)
        case .csv: writer = CSVExportWriter(stream: AppleExportByteStream(writer: file))
        case .json, .jsonl, .sqlite:
            writer = JSONExportWriter(stream: AppleExportByteStream(writer: file), lines: request.format == .jsonl)
        }
        let (description, totals) = try readRecords(into: writer, progress: progress)
        let sha256 = try file.finish()
        return Written(
            description: description, totals: totals, bytes: file.bytesWritten, sha256: sha256,
            files: (writer as? AppleHealthExportWriter)?.files)
    }

    /// SQLite writes its own file: the database is built in the temporary (a second, plain one
    /// when encrypting, removed as soon as it is encrypted), then read back once to hash or
    /// encrypt it.
    private func writeSQLite(to temporary: String, progress: (@Sendable (ExportProgress) -> Void)?) throws -> Written {
        let database = request.password == nil ? temporary : try files.create(beside: request.outputPath)
        defer { if database != temporary { files.remove(database) } }
        let (description, totals) = try readRecords(into: try SQLiteExportWriter(path: database), progress: progress)
        try checkCancelled()
        let descriptor = open(temporary, O_WRONLY | O_CLOEXEC | (database == temporary ? O_APPEND : O_TRUNC))
        guard descriptor >= 0 else {
            throw ExportFailure.cannotWrite(path: request.outputPath, problem: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        guard let input = FileHandle(forReadingAtPath: database) else {
            throw ExportFailure.failed(problem: "the database vanished while it was written")
        }
        defer { try? input.close() }
        if database == temporary {
            var hasher = SHA256()
            var bytes: Int64 = 0
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
                bytes += Int64(chunk.count)
            }
            return Written(
                description: description, totals: totals, bytes: bytes,
                sha256: HexText.encode(Array(hasher.finalize())))
        }
        let file = try ExportFileWriter(
            descriptor: descriptor, password: request.password, iterations: request.iterations)
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try checkCancelled()
            try chunk.withUnsafeBytes { try file.write($0) }
        }
        let sha256 = try file.finish()
        try syncToDisk(descriptor)
        return Written(description: description, totals: totals, bytes: file.bytesWritten, sha256: sha256)
    }

    /// Reads the selection in one read transaction of the archive (a check running meanwhile changes
    /// nothing it sees) and hands each record to the format.
    private func readRecords(
        into writer: any ExportFormatWriter, progress: (@Sendable (ExportProgress) -> Void)?
    ) throws -> (ExportDescription, ExportTotals) {
        do {
            return try archive.readSelection(request.selection, timeZone: request.timeZone) { selected in
                let description = describe(selected.resolved, &selected.context)
                var tracker = ProgressTracker(expected: try selected.expectedCounts(), report: progress)
                var context = selected.context
                return try writer.withAccess {
                    try writer.begin(description, context)
                    let cursor = try selected.records(
                        [.sqlite, .appleHealth].contains(request.format) ? .id : .numbersFirstThenTypeAndStart)
                    var totals = ExportTotals()
                    var type = ""
                    while try cursor.step() {
                        if let current = cursor.text(.type), !current.elementsEqual(type.utf8) {
                            type = String(decoding: current, as: UTF8.self)
                        }
                        try writer.write(cursor, &context)
                        totals.records += 1
                        totals.byType[type, default: 0] += 1
                        if !cursor.isNull(.goneAt) { totals.gone += 1 }
                        if totals.records & 1023 == 0 {
                            try checkCancelled()
                            tracker.report(totals, currentType: type)
                        }
                    }
                    try checkCancelled()
                    try writer.finish(totals)
                    return (description, totals)
                }
            }
        } catch {
            writer.abandon()
            if cancellation?.isCancelled == true { throw ExportFailure.cancelled }
            switch error as? SelectionError {
            case .nothingCaptured: throw ExportFailure.nothingCaptured
            case .unknownCapture(let id, let known): throw ExportFailure.unknownCapture(id, known: known)
            case nil: throw error
            }
        }
    }

    private func describe(_ resolved: ResolvedSelection, _ context: inout ExportContext) -> ExportDescription {
        let selection = request.selection
        return ExportDescription(
            format: request.format, generatedAt: context.timestamps.text(Date().timeIntervalSince1970.rounded(.down)),
            capture: .init(
                id: resolved.capture.id, origin: resolved.capture.origin,
                date: context.timestamps.text(resolved.capture.date)),
            timeZone: ["GMT", "UTC", "Etc/UTC"].contains(request.timeZone.identifier)
                ? "UTC" : request.timeZone.identifier, range: request.rangeDescription, types: selection.types,
            startFrom: selection.startFrom.map { context.timestamps.text($0) },
            startBefore: selection.startBefore.map { context.timestamps.text($0) }, includesGone: selection.includeGone,
            receivedAfterCapture: selection.receivedAfterCapture)
    }

    private func checkCancelled() throws {
        if cancellation?.isCancelled == true { throw ExportFailure.cancelled }
    }

    private func syncToDisk(_ descriptor: Int32) throws { try WholeFile.syncToDisk(descriptor) }

    private func rename(_ temporary: String, to path: String) throws { try WholeFile.rename(temporary, to: path) }
}

/// Turns rows written into ``ExportProgress`` reports, every thousand rows.
private struct ProgressTracker {
    let expected: [String: Int]
    let report: (@Sendable (ExportProgress) -> Void)?
    let started = Date()
    var current = ExportProgress(recordsDone: 0, recordsExpected: 0, typesDone: 0, typesExpected: 0, elapsed: 0)

    init(expected: [String: Int], report: (@Sendable (ExportProgress) -> Void)?) {
        self.expected = expected
        self.report = report
        current.recordsExpected = expected.values.reduce(0, +)
        current.typesExpected = expected.count
    }

    /// A type is done once its expected records are all written, whatever the order.
    mutating func report(_ totals: ExportTotals, currentType: String) {
        current.recordsDone = totals.records
        current.currentType = currentType
        current.typesDone = expected.count { totals.byType[$0.key, default: 0] >= $0.value }
        send()
    }

    private var firstRecordAt: Date?

    private mutating func send() {
        guard let report else { return }
        let now = Date()
        if current.recordsDone > 0, firstRecordAt == nil { firstRecordAt = now }
        current.elapsed = now.timeIntervalSince(started)
        current.writingSeconds = firstRecordAt.map { now.timeIntervalSince($0) } ?? 0
        report(current)
    }
}
