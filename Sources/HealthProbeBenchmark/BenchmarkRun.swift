import Foundation
import HealthProbeKit
import HealthProbeSimulation

/// Generates a synthetic export of `--records` items, then measures, each in a fresh process:
/// the libxml2 parse alone (zip and XML), the first import, and the check of a second export with
/// 1% of items gone, every date at another UTC offset and fresh HKDevice addresses.
///
/// The parse of the zip, the first import and the second check run `--rounds` times, one after
/// the other in each round, so that a machine's drift touches all three alike; ratios are taken
/// within a round, and the report gives each round and the median.
struct BenchmarkRun {
    var records = 1_000_000
    var rounds = 3
    var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("bench-data")
    var keep = false

    init(arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--records": records = iterator.next().flatMap(Int.init) ?? records
            case "--folder": folder = URL(fileURLWithPath: iterator.next() ?? folder.path)
            case "--rounds": rounds = max(1, iterator.next().flatMap(Int.init) ?? rounds)
            case "--keep": keep = true
            default:
                FileHandle.standardError.write(
                    Data("usage: healthprobe-benchmark [--records N] [--rounds N] [--folder DIR] [--keep]\n".utf8))
                exit(64)
            }
        }
    }

    func run() {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let first = folder.appendingPathComponent("first-\(records).zip")
            let second = folder.appendingPathComponent("second-\(records).zip")
            let firstXML = folder.appendingPathComponent("first-\(records).xml")
            let archive = folder.appendingPathComponent("archive-\(records).sqlite")
            let base = SyntheticExportOptions(
                elementCount: records, seed: 1, utcOffsetSeconds: 3600, deviceAddressSeed: 1)
            var changed = base
            changed.utcOffsetSeconds = -7 * 3600
            changed.deviceAddressSeed = 2
            changed.omitEveryNth = 100
            print("generating \(records) items in \(folder.path) …")
            if !FileManager.default.fileExists(atPath: first.path) {
                try SyntheticExportGenerator(options: base).writeZip(to: first)
            }
            if !FileManager.default.fileExists(atPath: firstXML.path) {
                try SyntheticExportGenerator(options: base).writeXML(to: firstXML)
            }
            if !FileManager.default.fileExists(atPath: second.path) {
                try SyntheticExportGenerator(options: changed).writeZip(to: second)
            }
            let parseXML = BenchmarkPhase.measure(["parse", firstXML.path])
            var measured: [Round] = []
            for _ in 0..<rounds {
                removeArchive(archive)
                measured.append(
                    Round(
                        parseZip: BenchmarkPhase.measure(["parse", first.path]),
                        firstImport: BenchmarkPhase.measure(["import", first.path, archive.path]),
                        secondCheck: BenchmarkPhase.measure(["import", second.path, archive.path])))
            }
            report(parseXML: parseXML, rounds: measured, archive: archive)
            if !keep {
                for file in [first, second, firstXML] { try? FileManager.default.removeItem(at: file) }
                removeArchive(archive)
            }
        } catch {
            FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
            exit(1)
        }
    }

    /// One round: the parse-only floor, then the two imports it is compared with.
    struct Round {
        var parseZip: BenchmarkPhase.Measurement
        var firstImport: BenchmarkPhase.Measurement
        var secondCheck: BenchmarkPhase.Measurement

        var importRatio: Double { firstImport.seconds / parseZip.seconds }
        var checkRatio: Double { secondCheck.seconds / firstImport.seconds }
    }

    private func removeArchive(_ archive: URL) { BenchmarkArchive.remove(archive) }

    private func report(parseXML: BenchmarkPhase.Measurement, rounds: [Round], archive: URL) {
        let parseZip = rounds.map(\.parseZip).medianBySeconds
        let firstImport = rounds.map(\.firstImport).medianBySeconds
        let secondCheck = rounds.map(\.secondCheck).medianBySeconds
        let megabytes = Double(parseZip.bytes) / 1_048_576
        func row(_ name: String, _ measurement: BenchmarkPhase.Measurement, ratio: Double) -> String {
            String(
                format: "| %@ | %.2f s | %.0f k/s | %.0f MB/s | %.2f× | %.0f MB |", name, measurement.seconds,
                Double(measurement.records) / measurement.seconds / 1000, megabytes / measurement.seconds, ratio,
                Double(measurement.peakResidentKiB) / 1024)
        }
        let archiveBytes =
            (try? FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? NSNumber)?.int64Value ?? 0
        print(
            String(
                format: "\n%d top-level elements, %.0f MiB of XML, archive %.0f MiB; %d rounds, medians below\n",
                parseZip.records, megabytes, Double(archiveBytes) / 1_048_576, rounds.count))
        print("| phase | time | records/s | XML MB/s | × parse (zip) | peak RSS |")
        print("|---|---|---|---|---|---|")
        print(row("libxml2 parse only, XML file", parseXML, ratio: parseXML.seconds / parseZip.seconds))
        print(row("libxml2 parse only, zip", parseZip, ratio: 1))
        print(row("first import (zip)", firstImport, ratio: rounds.map(\.importRatio).median))
        print(
            row(
                "check of second export (zip)", secondCheck,
                ratio: rounds.map { $0.secondCheck.seconds / $0.parseZip.seconds }.median))
        print("\n| round | parse only, zip | first import | × parse | second check | × first import | peak RSS |")
        print("|---|---|---|---|---|---|---|")
        for (index, round) in rounds.enumerated() {
            print(
                String(
                    format: "| %d | %.2f s | %.2f s | %.2f× | %.2f s | %.2f× | %.0f / %.0f MB |", index + 1,
                    round.parseZip.seconds, round.firstImport.seconds, round.importRatio, round.secondCheck.seconds,
                    round.checkRatio, Double(round.firstImport.peakResidentKiB) / 1024,
                    Double(round.secondCheck.peakResidentKiB) / 1024))
        }
        print(
            String(
                format: "\nfirst import / parse only: median %.2f×, %.2f–%.2f×", rounds.map(\.importRatio).median,
                rounds.map(\.importRatio).min() ?? 0, rounds.map(\.importRatio).max() ?? 0))
        print(
            String(
                format: "second check / first import: median %.2f×, %.2f–%.2f×; second check found %d new, %d gone",
                rounds.map(\.checkRatio).median, rounds.map(\.checkRatio).min() ?? 0,
                rounds.map(\.checkRatio).max() ?? 0, secondCheck.new ?? -1, secondCheck.gone ?? -1))
        print(
            String(
                format: "detection (inside each import): first %.3f s, %d anomalies; second %.3f s, %d anomalies",
                firstImport.detectionSeconds ?? -1, firstImport.anomalies ?? -1, secondCheck.detectionSeconds ?? -1,
                secondCheck.anomalies ?? -1))
    }
}

extension Array where Element == Double {
    /// The middle value; the mean of the two middle ones for an even count.
    var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    }
}

extension Array where Element == BenchmarkPhase.Measurement {
    /// The measurement with the median time (the lower middle one for an even count).
    var medianBySeconds: BenchmarkPhase.Measurement {
        sorted { $0.seconds < $1.seconds }[(count - 1) / 2]
    }
}
