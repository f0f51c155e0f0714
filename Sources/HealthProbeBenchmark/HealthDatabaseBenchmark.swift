import Foundation
import HealthProbeKit

/// `healthprobe-benchmark healthdb PATH`: reads every sample and deletion of a Health database
/// (a file, a folder, or — with `--password-file` — an encrypted backup; a password never goes
/// on a command line, where other users' `ps` sees it) and prints the counts and
/// the seconds it took; run it under `/usr/bin/time -f %M` for its peak memory.
struct HealthDatabaseBenchmark {
    let arguments: [String]

    func run() {
        guard let path = arguments.first else {
            print("usage: healthprobe-benchmark healthdb PATH [--password-file FILE]")
            exit(64)
        }
        let started = Date()
        do {
            let reader: HealthDatabaseReader
            if let index = arguments.firstIndex(of: "--password-file"), index + 1 < arguments.count {
                let password = try String(contentsOfFile: arguments[index + 1], encoding: .utf8)
                    .trimmingCharacters(in: .newlines)
                reader = try HealthDatabaseReader(backup: URL(fileURLWithPath: path), password: Array(password.utf8))
            } else {
                reader = try HealthDatabaseReader(path: path)
            }
            let opened = Date()
            var samples = 0
            let unread = try reader.forEachSample { _ in samples += 1 }
            let tombstones = try reader.tombstones()
            let seconds = { (from: Date, to: Date) in String(format: "%.2f", to.timeIntervalSince(from)) }
            print(
                "samples \(samples), codes not read \(unread.values.reduce(0, +)), deletions \(tombstones.count) "
                    + "(\(tombstones.filter(\.isHousekeeping).count) housekeeping); opened in \(seconds(started, opened)) s "
                    + "(copy or decrypt), read in \(seconds(opened, Date())) s")
        } catch {
            print("healthprobe-benchmark: \(error)")
            exit(65)
        }
    }
}
