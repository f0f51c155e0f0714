import Foundation
import HealthProbeKit

/// Generates a synthetic export of `--records` items, then measures, each in a fresh process:
/// the libxml2 parse alone (zip and XML), the first import, and the check of a second export with
/// 1% of items gone, every date at another UTC offset and fresh HKDevice addresses.
struct BenchmarkRun {
    var records = 1_000_000
    var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("bench-data")
    var keep = false

    init(arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--records": records = iterator.next().flatMap(Int.init) ?? records
            case "--folder": folder = URL(fileURLWithPath: iterator.next() ?? folder.path)
            case "--keep": keep = true
            default:
                FileHandle.standardError.write(
                    Data("usage: healthprobe-benchmark [--records N] [--folder DIR] [--keep]\n".utf8))
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
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: archive.path + suffix) }

            let parseXML = BenchmarkPhase.measure(["parse", firstXML.path])
            let parseZip = BenchmarkPhase.measure(["parse", first.path])
            let firstImport = BenchmarkPhase.measure(["import", first.path, archive.path])
            let secondCheck = BenchmarkPhase.measure(["import", second.path, archive.path])
            report(
                parseXML: parseXML, parseZip: parseZip, firstImport: firstImport, secondCheck: secondCheck,
                archive: archive)
            if !keep {
                for file in [first, second, firstXML] { try? FileManager.default.removeItem(at: file) }
                for suffix in ["", "-wal", "-shm"] {
                    try? FileManager.default.removeItem(atPath: archive.path + suffix)
                }
            }
        } catch {
            FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
            exit(1)
        }
    }

    private func report(
        parseXML: BenchmarkPhase.Measurement, parseZip: BenchmarkPhase.Measurement,
        firstImport: BenchmarkPhase.Measurement, secondCheck: BenchmarkPhase.Measurement, archive: URL
    ) {
        let megabytes = Double(parseZip.bytes) / 1_048_576
        func row(_ name: String, _ measurement: BenchmarkPhase.Measurement, ratioTo floor: Double) -> String {
            String(
                format: "| %@ | %.2f s | %.0f k/s | %.0f MB/s | %.2f× | %.0f MB |", name, measurement.seconds,
                Double(measurement.records) / measurement.seconds / 1000, megabytes / measurement.seconds,
                measurement.seconds / floor, Double(measurement.peakResidentKiB) / 1024)
        }
        let archiveBytes =
            (try? FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? NSNumber)?.int64Value ?? 0
        print(
            String(
                format: "\n%d top-level elements, %.0f MiB of XML, archive %.0f MiB\n", parseZip.records, megabytes,
                Double(archiveBytes) / 1_048_576))
        print("| phase | time | records/s | XML MB/s | × parse (zip) | peak RSS |")
        print("|---|---|---|---|---|---|")
        print(row("libxml2 parse only, XML file", parseXML, ratioTo: parseZip.seconds))
        print(row("libxml2 parse only, zip", parseZip, ratioTo: parseZip.seconds))
        print(row("first import (zip)", firstImport, ratioTo: parseZip.seconds))
        print(row("check of second export (zip)", secondCheck, ratioTo: parseZip.seconds))
        print(
            String(
                format: "\nsecond check / first import: %.2f×; second check found %d new, %d gone",
                secondCheck.seconds / firstImport.seconds, secondCheck.new ?? -1, secondCheck.gone ?? -1))
        print(
            String(
                format: "detection (inside each import): first %.3f s, %d anomalies; second %.3f s, %d anomalies",
                firstImport.detectionSeconds ?? -1, firstImport.anomalies ?? -1, secondCheck.detectionSeconds ?? -1,
                secondCheck.anomalies ?? -1))
    }
}
