import AppleHealthExport
import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

/// One archive used at once by `serve` (Check Now, pages, resolving), command-line checks,
/// readers as a timer or a terminal runs them, and a check killed mid-write — each a process of
/// its own, as a user's are.
@Suite("One archive, many processes", .serialized)
struct SharedArchiveTests {
    /// Two exports of one history: the second lost every 30th record and came from other
    /// device addresses; checked in turn, each check finds losses or returns.
    struct Exports {
        let folder: URL
        let first: URL
        let second: URL
        /// When both say they were made.
        let exportDate: Int64

        init(records: Int = 3_000) throws {
            folder = try FixtureFiles.temporaryFolder()
            first = folder.appendingPathComponent("first.zip")
            second = folder.appendingPathComponent("second.zip")
            var options = SyntheticExportOptions(elementCount: records, seed: 11)
            exportDate = try SyntheticExportGenerator(options: options).writeZip(to: first).exportInstant
            options.omitEveryNth = 30
            options.deviceAddressSeed = 2
            try SyntheticExportGenerator(options: options).writeZip(to: second)
        }

        func other(than file: URL) -> URL { file == first ? second : first }

        /// A larger export of another history, for the check that is killed, made at the same
        /// time as the other two (an older one is refused, a newer one would make them older).
        func large() throws -> URL {
            let url = folder.appendingPathComponent("large.zip")
            var options = SyntheticExportOptions(elementCount: 40_000, seed: 12)
            options.exportDate = exportDate
            try SyntheticExportGenerator(options: options).writeZip(to: url)
            return url
        }
    }

    /// The sequence that corrupted archives before: Check Now, `status` in a terminal, Check Now
    /// again with a command-line check beside it, a resolve on the dashboard.
    @Test func theDashboardAndATerminalSeeOneArchive() async throws {
        let exports = try Exports()
        let archive = exports.folder.appendingPathComponent("a.sqlite").path
        let dashboard = try await DashboardProcess(archive: archive)
        var reported: [Int64: Int] = [:]

        guard case .completed(let first, let records) = try await dashboard.checkNow(exports.first) else {
            Issue.record("the first Check Now did not complete")
            return await dashboard.stop()
        }
        reported[first] = records
        let status = try await Background.run(["status", "--archive", archive])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("1 capture, "))

        async let upload = dashboard.checkNow(exports.second)
        try await Task.sleep(nanoseconds: 50_000_000)
        let terminal = try await Background.run(["check", exports.first.path, "--archive", archive, "--json"])
        let uploaded = try await upload
        #expect(terminal.status == 0, "\(terminal.stderr)")
        if let capture = Background.capture(terminal) { reported[capture.id] = capture.records }
        if case .completed(let capture, let records) = uploaded { reported[capture] = records }
        #expect(reported.count == 3, "\(uploaded)")

        // A resolve on the dashboard is what the command line then sees. (`--all`: when the
        // terminal's check of the first export came last, the loss the upload found is back,
        // recovered, and no longer open.)
        let open = try await Background.run(["anomalies", "--all", "--archive", archive, "--json"])
        let anomalies = try JSONSerialization.jsonObject(with: Data(open.stdout.utf8)) as? [[String: Any]] ?? []
        let id = try #require(anomalies.first?["id"] as? Int)
        #expect(try await dashboard.post("/anomalies/\(id)/resolve", "return=%2F") == 303)
        let after = try await Background.run(["show", "\(id)", "--archive", archive, "--format", "json"])
        #expect(after.stdout.contains("\"resolved\" : true"))

        #expect(try await dashboard.get("/archive").status == 200)
        if Platform.isLinux {  // /proc/PID/fd: what a Mac cannot list this way is not claimed
            #expect(Self.deletedFiles(of: dashboard.process.processIdentifier, under: exports.folder.path).isEmpty)
        }
        await dashboard.stop()

        #expect(try ArchiveInspection.integrity(archive) == "ok")
        for (capture, records) in reported {
            #expect(
                try ArchiveInspection.scalar(
                    archive, "SELECT records FROM capture WHERE id = \(capture) AND status = 'complete'") == records)
        }
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture") == 3)
    }

    /// About fifteen seconds of everything at once (`HEALTHPROBE_SOAK_SECONDS` for the longer run
    /// BENCHMARKS.md reports); afterwards the archive is intact, holds every capture reported
    /// complete with its records and nothing else, and equals what the same checks make one
    /// after another.
    @Test func everythingAtOnceLosesNothing() async throws {
        let seconds = ProcessInfo.processInfo.environment["HEALTHPROBE_SOAK_SECONDS"].flatMap(Double.init) ?? 15
        let exports = try Exports()
        let archive = exports.folder.appendingPathComponent("a.sqlite").path
        let first = try await Background.run(["check", exports.first.path, "--archive", archive, "--json"])
        let log = SoakLog()
        if let capture = Background.capture(first) { await log.completed(capture.id, capture.records, exports.first) }
        let dashboard = try await DashboardProcess(archive: archive)
        let soak = try await SharedArchiveSoak.run(
            seconds: seconds, archive: archive, exports: exports, dashboard: dashboard, log: log)
        if Platform.isLinux {  // /proc/PID/fd: what a Mac cannot list this way is not claimed
            #expect(Self.deletedFiles(of: dashboard.process.processIdentifier, under: exports.folder.path).isEmpty)
        }
        await dashboard.stop()

        let summary = await log.summary
        print("soak: \(summary)")
        let failures = await log.failures
        #expect(failures.isEmpty, "\(failures)")
        #expect(soak.killed, "the check meant to be killed finished first")
        #expect(try ArchiveInspection.integrity(archive) == "ok")
        let verify = try CommandRunner.run(["archive", "verify", "--archive", archive])
        #expect(verify.status == 0, "\(verify.stdout)")

        // Every capture reported complete is there with its records, and no other.
        let reported = await log.captures
        #expect(reported.count >= SoakLog.minimumCaptures, "\(summary)")
        let present = try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture")
        #expect(present == reported.count)
        for (capture, entry) in reported {
            #expect(
                try ArchiveInspection.scalar(
                    archive, "SELECT records FROM capture WHERE id = \(capture) AND status = 'complete'")
                    == entry.records, "capture \(capture)")
        }

        // The same checks, one after another, make the same archive.
        let sequential = exports.folder.appendingPathComponent("sequential.sqlite").path
        let store = try ArchiveStore.open(at: sequential)
        for (_, entry) in reported.sorted(by: { $0.key < $1.key }) {
            _ = try AppleExportImporter(store: store).importExport(AppleExportReader(url: entry.export))
        }
        for query in SharedArchiveSoak.comparedState {
            #expect(
                try ArchiveInspection.text(archive, query) == ArchiveInspection.text(sequential, query), "\(query)")
        }
    }

    /// Files a process holds open that were deleted under it: a write-ahead log or shared
    /// memory file removed by another process that took itself for the archive's last user.
    static func deletedFiles(of pid: Int32, under folder: String) -> [String] {
        let fds = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\($0)") }
            .filter { $0.contains(folder) && $0.hasSuffix("(deleted)") }
    }
}

/// Runs the command line off Swift's cooperative threads, which a blocking wait would starve.
enum Background {
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandRunner.Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try CommandRunner.run(arguments, environment: environment) })
            }
        }
    }

    /// The capture a `check --json` reported.
    static func capture(_ outcome: CommandRunner.Outcome) -> (id: Int64, records: Int)? {
        guard outcome.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
            let capture = object["capture"] as? [String: Any], let id = capture["id"] as? Int,
            let records = capture["records"] as? Int
        else { return nil }
        return (Int64(id), records)
    }
}
