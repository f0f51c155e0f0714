import Foundation
import HealthProbeKit
import HealthProbeSimulation

/// The live path at phone scale (`healthprobe-benchmark phone`): a computed store holding one
/// Watch wearer's `--days` (five years by default, over five million samples), read by the
/// monitor as on an iPhone, each step in its own process so that its peak memory is its own:
///
/// 1. the first sync in one go, into one archive (the reference);
/// 2. the same first sync cut into `--window`-second background windows, into another: each
///    window a new process whose check is cancelled when its time is up, as the background
///    task's expiration handler does; the next resumes it;
/// 3. a daily check on the full archive: one more day of samples and a few deletions;
/// 4. a verification scan of everything;
/// 5. with `--loss`, a verification scan after 1 % of five years of heart rate vanished without a
///    trace, in `--window`-second windows like the first sync: the case HealthProbe exists for.
struct PhoneBenchmark {
    var days = 1826
    var window = 30.0
    var pageLimit = 1_000
    var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("bench-data")
    var skipReference = false
    var loss = false

    init(arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--days": days = iterator.next().flatMap(Int.init) ?? days
            case "--window": window = iterator.next().flatMap(Double.init) ?? window
            case "--page": pageLimit = iterator.next().flatMap(Int.init) ?? pageLimit
            case "--folder": folder = URL(fileURLWithPath: iterator.next() ?? folder.path)
            case "--no-reference": skipReference = true
            case "--loss": loss = true
            default:
                FileHandle.standardError.write(
                    Data(
                        "usage: healthprobe-benchmark phone [--days N] [--window SECONDS] [--page N] [--folder DIR] [--no-reference] [--loss]\n"
                            .utf8))
                exit(64)
            }
        }
    }

    func run() {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let reference = folder.appendingPathComponent("phone-reference-\(days).sqlite")
            let windowed = folder.appendingPathComponent("phone-windowed-\(days).sqlite")
            for archive in [reference, windowed] { BenchmarkArchive.remove(archive) }
            let store = SyntheticWatchStore(days: days)
            print("a computed Watch store of \(days) days: \(store.generatedCount) samples, pages of \(pageLimit)")
            let common = [String(days), String(pageLimit)]
            var one: BenchmarkPhase.Measurement?
            if !skipReference {
                one = BenchmarkPhase.measure(["phone", reference.path] + common + ["0", "first"])
                BenchmarkArchive.remove(reference)
            }
            var windows: [BenchmarkPhase.Measurement] = []
            repeat {
                windows.append(BenchmarkPhase.measure(["phone", windowed.path] + common + [String(window), "first"]))
            } while windows.last?.outcome == "cutOff" && windows.count < 500
            let daily = BenchmarkPhase.measure(["phone", windowed.path] + common + ["0", "daily"])
            let verification = BenchmarkPhase.measure(["phone", windowed.path] + common + ["0", "verify"])
            report(one: one, windows: windows, daily: daily, verification: verification)
            if loss {
                var lossWindows: [BenchmarkPhase.Measurement] = []
                repeat {
                    lossWindows.append(
                        BenchmarkPhase.measure(["phone", windowed.path] + common + [String(window), "loss"]))
                } while lossWindows.last?.outcome == "cutOff" && lossWindows.count < 500
                reportLoss(lossWindows)
            }
            BenchmarkArchive.remove(windowed)
        } catch {
            FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
            exit(1)
        }
    }

    private func report(
        one: BenchmarkPhase.Measurement?, windows: [BenchmarkPhase.Measurement], daily: BenchmarkPhase.Measurement,
        verification: BenchmarkPhase.Measurement
    ) {
        func megabytes(_ measurement: BenchmarkPhase.Measurement) -> String {
            String(format: "%.0f MB", Double(measurement.peakResidentKiB) / 1024)
        }
        print("\n| step | outcome | time | records stored | cancel → return | peak RSS |")
        print("|---|---|---|---|---|---|")
        func row(_ name: String, _ measurement: BenchmarkPhase.Measurement) {
            let latency = measurement.cancelLatency.map { String(format: "%.2f s", $0) } ?? "–"
            print(
                String(
                    format: "| %@ | %@ | %.1f s | %d | %@ | %@ |", name, measurement.outcome ?? "?",
                    measurement.seconds,
                    measurement.records, latency, megabytes(measurement)))
        }
        if let one { row("first sync, one go", one) }
        for (index, measurement) in windows.enumerated() { row("first sync, window \(index + 1)", measurement) }
        row("daily check (1 day added, 5 deleted)", daily)
        row("verification scan of everything", verification)
        let total = windows.reduce(0) { $0 + $1.seconds }
        print(String(format: "\nfirst sync over %d windows: %.1f s in all", windows.count, total))
        if let one {
            print(String(format: "in one go: %.1f s; windows / one go: %.2f×", one.seconds, total / one.seconds))
        }
        print(
            String(
                format: "daily check: %d new, %d gone, %d anomalies; verification: %d read, %d gone",
                daily.new ?? -1, daily.gone ?? -1, daily.anomalies ?? -1, verification.records,
                verification.gone ?? -1))
    }
}

extension PhoneBenchmark {
    fileprivate func reportLoss(_ windows: [BenchmarkPhase.Measurement]) {
        print("\n| verification after a 1 % loss of heart rate | outcome | time | cancel → return | peak RSS |")
        print("|---|---|---|---|---|")
        for (index, measurement) in windows.enumerated() {
            let latency = measurement.cancelLatency.map { String(format: "%.2f s", $0) } ?? "–"
            print(
                String(
                    format: "| window %d | %@ | %.1f s | %@ | %.0f MB |", index + 1, measurement.outcome ?? "?",
                    measurement.seconds, latency, Double(measurement.peakResidentKiB) / 1024))
        }
        let total = windows.reduce(0) { $0 + $1.seconds }
        let peak = windows.map(\.peakResidentKiB).max() ?? 0
        print(
            String(
                format: "loss found over %d windows: %.1f s in all, at most %.0f MB; %d gone, %d anomalies",
                windows.count, total, Double(peak) / 1024, windows.last?.gone ?? -1, windows.last?.anomalies ?? -1))
    }
}

/// An archive file with its SQLite companions.
enum BenchmarkArchive {
    static func remove(_ archive: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: archive.path + suffix)
        }
    }
}
