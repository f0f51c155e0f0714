import Foundation
import TestSupport

/// What each process of a soak did: the captures reported complete, operations by kind,
/// refusals (a bounded wait for a check that ran on), and failures (anything else).
actor SoakLog {
    struct Entry {
        var records: Int
        var export: URL
    }

    private(set) var captures: [Int64: Entry] = [:]
    private(set) var operations: [String: Int] = [:]
    private(set) var refusals: [String: Int] = [:]
    private(set) var failures: [String] = []

    func completed(_ capture: Int64, _ records: Int, _ export: URL) {
        if captures[capture] != nil { failures.append("capture \(capture) reported complete twice") }
        captures[capture] = Entry(records: records, export: export)
    }

    /// Until `deadline`, and past it (a minute at most) until four captures are complete: on a
    /// loaded machine fifteen seconds may hold fewer.
    func goesOn(until deadline: Date) -> Bool {
        let now = Date()
        return now < deadline || (captures.count < Self.minimumCaptures && now < deadline.addingTimeInterval(60))
    }

    static let minimumCaptures = 4

    func count(_ kind: String) { operations[kind, default: 0] += 1 }
    func refused(_ kind: String) { refusals[kind, default: 0] += 1 }
    func failed(_ what: String) { failures.append(what) }

    /// A command's outcome: 0 counts, 74 saying the archive is busy is a refusal, anything else
    /// (or SQLite's own words on stderr) a failure.
    func record(_ kind: String, _ outcome: CommandRunner.Outcome) {
        if outcome.stderr.contains("SQLite") || outcome.stderr.contains("sqlite") {
            failures.append("\(kind) printed SQLite's words: \(outcome.stderr)")
        }
        switch outcome.status {
        case 0: count(kind)
        case 74 where outcome.stderr.contains("is busy"): refused(kind)
        default: failures.append("\(kind) exited \(outcome.status): \(outcome.stderr)")
        }
    }

    var summary: String {
        let done = operations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let refused = refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "\(captures.count) captures; completed: \(done); refused: \(refused.isEmpty ? "none" : refused)"
    }
}

/// The soak's processes: Check Now uploads, command-line checks, readers, resolves and one
/// check killed with SIGKILL, all on one archive until the time is up.
enum SharedArchiveSoak {
    struct Outcome {
        var killed: Bool
    }

    /// What "the same archive" means: captures with their counts, records by the captures that
    /// first saw, last saw and lost them, anomalies as found (resolving aside).
    static let comparedState = [
        "SELECT group_concat(id || ':' || records || '/' || new || '/' || gone || '/' || unchanged, ' ') FROM (SELECT * FROM capture ORDER BY id)",
        """
        SELECT group_concat(f || '-' || l || '-' || g || '=' || n, ' ') FROM (
            SELECT firstSeenCapture AS f, lastSeenCapture AS l, ifnull(goneCapture, 0) AS g, COUNT(*) AS n
            FROM record JOIN recordSighting ON recordId = record.id GROUP BY 1, 2, 3 ORDER BY 1, 2, 3)
        """,
        "SELECT group_concat(captureId || ':' || type || ':' || sampleType || ':' || recordCount, ' ') FROM (SELECT * FROM anomaly ORDER BY id)",
    ]

    static func run(
        seconds: Double, archive: String, exports: SharedArchiveTests.Exports, dashboard: DashboardProcess,
        log: SoakLog
    ) async throws -> Outcome {
        let deadline = Date().addingTimeInterval(seconds)
        let environment = ["HEALTHPROBE_ARCHIVE": archive, "HEALTHPROBE_WAIT": "20"]
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {  // Check Now, alternating exports
                var file = exports.second
                while await log.goesOn(until: deadline) {
                    switch try await dashboard.checkNow(file) {
                    case .completed(let capture, let records):
                        await log.completed(capture, records, file)
                        await log.count("Check Now")
                    case .failed(let message, _) where message.contains("is busy"):
                        await log.refused("Check Now")
                    case .failed(let message, _):
                        await log.failed("Check Now: \(message)")
                    }
                    file = exports.other(than: file)
                }
                return false
            }
            group.addTask {  // a terminal's checks, alternating the other way
                var file = exports.first
                while await log.goesOn(until: deadline) {
                    let outcome = try await Background.run(["check", file.path, "--json"], environment: environment)
                    await log.record("check", outcome)
                    if let capture = Background.capture(outcome) {
                        await log.completed(capture.id, capture.records, file)
                    }
                    file = exports.other(than: file)
                }
                return false
            }
            group.addTask {  // readers, as a terminal or a timer runs them
                let output = exports.folder.appendingPathComponent("export.csv").path
                let readers: [(String, [String])] = [
                    ("status", ["status"]), ("anomalies", ["anomalies", "--all", "--json"]),
                    ("captures", ["captures"]),
                    ("export", ["export", "--format", "csv", "--output", output, "--force"]),
                    ("graph status", ["graph", "status"]),
                ]
                var turn = 0
                while await log.goesOn(until: deadline) {
                    let (kind, arguments) = readers[turn % readers.count]
                    await log.record(kind, try await Background.run(arguments, environment: environment))
                    turn += 1
                }
                return false
            }
            group.addTask {  // dashboard pages
                var turn = 0
                let pages = ["/", "/anomalies", "/archive", "/audit", "/settings"]
                while await log.goesOn(until: deadline) {
                    let page = try await dashboard.get(pages[turn % pages.count])
                    if page.status == 200 {
                        await log.count("page")
                    } else {
                        await log.failed("\(pages[turn % pages.count]) answered \(page.status)")
                    }
                    turn += 1
                }
                return false
            }
            group.addTask {  // resolving now and then
                while await log.goesOn(until: deadline) {
                    try await Task.sleep(nanoseconds: 700_000_000)
                    let list = try await Background.run(["anomalies", "--json"], environment: environment)
                    let open = try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
                    guard let id = open?.first?["id"] as? Int else { continue }
                    await log.record(
                        "resolve", try await Background.run(["resolve", "\(id)"], environment: environment))
                }
                return false
            }
            group.addTask {  // one check killed mid-write
                try await Task.sleep(nanoseconds: 3_000_000_000)
                return try await killACheck(archive: archive, export: try exports.large(), log: log)
            }
            var killed = false
            for try await result in group { killed = killed || result }
            return Outcome(killed: killed)
        }
    }

    /// Starts a check of a larger export and kills it with SIGKILL once it has written a
    /// megabyte (its own writes, as the kernel counts them: waiting for another check's lock
    /// writes nothing); true when it was killed before it ended.
    ///
    /// The watching runs on a thread of its own: on the shared pool, under the soak's load, a
    /// millisecond's sleep could last the whole check, which then ended before it was killed.
    static func killACheck(archive: String, export: URL, log: SoakLog) async throws -> Bool {
        let sizeBefore = ProcessProgress.archiveBytes(archive)
        let process = try CommandRunner.start(["check", export.path, "--archive", archive])
        let killed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread {
                let deadline = Date().addingTimeInterval(60)
                // Where there is no `/proc` (a Mac), how much the archive has grown.
                while process.isRunning, Date() < deadline,
                    ProcessProgress.bytesWritten(by: process.processIdentifier)
                        ?? (ProcessProgress.archiveBytes(archive) - sizeBefore) < 1 << 20
                {
                    usleep(1_000)
                }
                guard process.isRunning else { return continuation.resume(returning: false) }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                continuation.resume(returning: true)
            }
        }
        if killed {
            await log.count("killed check")
        } else {
            await log.failed("the check to be killed finished before it could be")
        }
        return killed
    }
}
