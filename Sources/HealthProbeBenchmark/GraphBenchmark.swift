import Foundation
import HealthProbeKit
import HealthProbeSimulation

/// Graph sync at the scale of the import benchmark (`healthprobe-benchmark graph`): a synthetic
/// export of `--records` (a million by default) spread over five years, checked into an archive,
/// then synced to a local FalkorDB on a unix socket (started with `Scripts/falkordb.sh`, so run
/// it from the package's folder), each step in its own process:
///
/// 1. the first sync: every day;
/// 2. a sync with nothing changed;
/// 3. a sync after one more day's export was checked;
/// 4. `--full`, every day rewritten in the same zone;
/// 5. a sync in another time zone (Los Angeles), then back in UTC: every day rewritten twice.
struct GraphBenchmark {
    var records = 1_000_000
    var days: Int64 = 1826
    var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("bench-data")

    init(arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--records": records = iterator.next().flatMap(Int.init) ?? records
            case "--days": days = iterator.next().flatMap(Int64.init) ?? days
            case "--folder": folder = URL(fileURLWithPath: iterator.next() ?? folder.path)
            default:
                FileHandle.standardError.write(
                    Data("usage: healthprobe-benchmark graph [--records N] [--days N] [--folder DIR]\n".utf8))
                exit(64)
            }
        }
    }

    func run() {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let spacing = max(1, days * 86_400 / Int64(records))
            let perDay = Int(86_400 / spacing)
            let first = try export("graph-first-\(records).zip", items: records, spacing: spacing)
            let second = try export("graph-second-\(records).zip", items: records + perDay, spacing: spacing)
            let archive = folder.appendingPathComponent("graph-\(records).sqlite")
            BenchmarkArchive.remove(archive)
            let imported = BenchmarkPhase.measure(["import", first.path, archive.path])
            print("archive: \(imported.records) records over \(days) days (\(perDay) a day)")
            let server = folder.appendingPathComponent("graph-falkordb")
            try? FileManager.default.removeItem(at: server)
            try script(["start", server.path])
            defer { try? script(["stop", server.path]) }
            let socket = server.appendingPathComponent("falkordb.sock").path
            let firstSync = BenchmarkPhase.measure(["graph", socket, archive.path])
            let unchanged = BenchmarkPhase.measure(["graph", socket, archive.path])
            _ = BenchmarkPhase.measure(["import", second.path, archive.path])
            let oneDay = BenchmarkPhase.measure(["graph", socket, archive.path])
            let full = BenchmarkPhase.measure(["graph", socket, archive.path, "UTC", "full"])
            let angeles = BenchmarkPhase.measure(["graph", socket, archive.path, "America/Los_Angeles"])
            let back = BenchmarkPhase.measure(["graph", socket, archive.path, "UTC"])
            print("| step | days written | time | peak memory | the engine's counters |")
            print("|---|---:|---:|---:|---|")
            for (name, step) in [
                ("first sync", firstSync), ("nothing changed", unchanged), ("one more day", oneDay),
                ("--full", full), ("to Los Angeles", angeles), ("back to UTC", back),
            ] {
                print(
                    "| \(name) | \(step.records) | \(String(format: "%.2f", step.seconds)) s | \(step.peakResidentKiB / 1024) MB | \(step.outcome ?? "") |"
                )
            }
        } catch {
            FileHandle.standardError.write(Data("graph benchmark failed: \(error)\n".utf8))
            exit(1)
        }
    }

    private func export(_ name: String, items: Int, spacing: Int64) throws -> URL {
        let url = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let options = SyntheticExportOptions(elementCount: items, seed: 11, spacingSeconds: spacing)
        try SyntheticExportGenerator(options: options).writeZip(to: url)
        return url
    }

    private func script(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["Scripts/falkordb.sh"] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    }
}
