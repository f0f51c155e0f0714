import Foundation
import HealthProbeSimulation

/// `healthprobe-benchmark pair FOLDER [--samples N]`: writes the same synthetic samples (a million
/// by default: a watch's heart rate every two minutes, with steps, distance, sleep and weight)
/// as an export, `FOLDER/export.xml`, and as a Health database pair, `FOLDER/Health/`, for
/// timing `healthprobe check` of each (`Scripts/benchmark-backup.sh`).
struct PairBenchmark {
    let arguments: [String]

    func run() {
        guard let folder = arguments.first else {
            print("usage: healthprobe-benchmark pair FOLDER [--samples N]")
            exit(64)
        }
        var samples = 1_000_000
        if let index = arguments.firstIndex(of: "--samples"), index + 1 < arguments.count,
            let count = Int(arguments[index + 1])
        {
            samples = count
        }
        let perDay = 720
        let data = PairedHealthData.baseline(days: max(1, samples / (perDay + 10)), heartRatesPerDay: perDay)
        let url = URL(fileURLWithPath: folder)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try data.writeExport(to: url.appendingPathComponent("export.xml"))
            try data.writeDatabase(to: url.appendingPathComponent("Health"))
            print("\(data.samples.count) samples written as \(folder)/export.xml and \(folder)/Health/")
        } catch {
            print("healthprobe-benchmark: \(error)")
            exit(74)
        }
    }
}
