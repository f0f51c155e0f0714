import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation

/// One step of the phone benchmark, in its own process: `phone ARCHIVE DAYS PAGE WINDOW STEP`,
/// where STEP is `first` (the first sync, cancelled after WINDOW seconds unless 0), `daily` (one
/// day more and five heart rates deleted), `verify` (a verification scan of everything) or `loss`
/// (the same scan after 1 % of the heart rates vanished without a trace). Every step but `daily`
/// can be cut off after WINDOW seconds and resumed by the next.
enum PhoneWindow {
    static func run(_ arguments: [String]) async -> BenchmarkPhase.Measurement {
        guard arguments.count == 5, let days = Int(arguments[1]), let page = Int(arguments[2]),
            let window = Double(arguments[3])
        else { fatalError("usage: phase phone ARCHIVE DAYS PAGE WINDOW first|daily|verify|loss") }
        let step = arguments[4]
        do {
            let store = SyntheticWatchStore(days: days)
            var configuration = HealthMonitor.Configuration()
            configuration.pageLimit = page
            if step != "first" {
                await store.addDay()
                await store.delete((1...5).map { days * perHeartRateDay - $0 * 7 }, of: heartRate)
            }
            if step == "loss" {
                let count = days * perHeartRateDay
                await store.vanish(Array(stride(from: 50, to: count, by: 100)), of: heartRate)
            }
            if step == "verify" || step == "loss" { configuration.verificationEvery = 1 }
            let now = Date(timeIntervalSince1970: await store.endOfData + 600)
            let archive = try ArchiveStore.open(at: arguments[0])
            let monitor = try HealthMonitor(
                source: store, store: archive,
                types: HealthKitCatalog.types.filter { store.types.contains($0.identifier) },
                configuration: configuration, clock: { now })
            let started = Date()
            let check = Task { await monitor.runCheck() }
            let timer = Task<Date?, Never> {
                guard window > 0, (try? await Task.sleep(for: .seconds(window))) != nil else { return nil }
                check.cancel()
                return Date()
            }
            let outcome = await check.value
            let finished = Date()
            timer.cancel()
            let cancelledAt = await timer.value
            let stored = try archive.countPresentRecords()
            var measurement = BenchmarkPhase.Measurement(
                seconds: finished.timeIntervalSince(started), peakResidentKiB: 0, records: stored, bytes: 0)
            measurement.outcome = outcome.kind.rawValue
            measurement.cancelLatency = cancelledAt.map { finished.timeIntervalSince($0) }
            measurement.new = outcome.capture?.new
            measurement.gone = outcome.capture?.gone
            measurement.anomalies = outcome.anomalies.count
            if outcome.kind == .failed { throw PhoneWindowError.failed(outcome.status.message) }
            return measurement
        } catch {
            FileHandle.standardError.write(Data("phone step failed: \(error)\n".utf8))
            exit(1)
        }
    }

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let perHeartRateDay = SyntheticWatchStore.watchRates.first { $0.type == heartRate }?.perPeriod ?? 0

    enum PhoneWindowError: Error {
        case failed(String)
    }
}
