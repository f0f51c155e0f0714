import AppleHealthExport
import Foundation
import HealthProbeKit

/// One measured phase, run in its own process; prints one line of JSON with its measurements.
enum BenchmarkPhase {
    struct Measurement: Codable {
        var seconds: Double
        var peakResidentKiB: Int
        var records: Int
        var bytes: Int64
        var new: Int?
        var gone: Int?
        /// Detection alone (inside the import), and what it found.
        var detectionSeconds: Double?
        var anomalies: Int?
    }

    static func runAsChild(_ arguments: [String]) {
        guard arguments.count >= 2 else { fatalError("usage: phase parse|import INPUT [ARCHIVE]") }
        let input = URL(fileURLWithPath: arguments[1])
        do {
            let started = Date()
            var measurement: Measurement
            switch arguments[0] {
            case "parse":
                let summary = try ExportReader(url: input).parseOnly()
                measurement = Measurement(
                    seconds: Date().timeIntervalSince(started), peakResidentKiB: 0,
                    records: summary.elementCounts["*"] ?? 0, bytes: summary.bytesRead)
            case "elements":
                // Reading and building typed elements, without mapping them.
                var count = 0
                let summary = try ExportReader(url: input).read { _ in count += 1 }
                measurement = Measurement(
                    seconds: Date().timeIntervalSince(started), peakResidentKiB: 0, records: count,
                    bytes: summary.bytesRead)
            case "import":
                let store = try ArchiveStore.open(at: arguments[2])
                let reader = try ExportReader(url: input)
                let result = try ExportImporter(store: store).importExport(reader)
                measurement = Measurement(
                    seconds: Date().timeIntervalSince(started), peakResidentKiB: 0, records: result.capture.records,
                    bytes: reader.source.expectedSize ?? 0, new: result.capture.new, gone: result.capture.gone,
                    detectionSeconds: result.audit.seconds, anomalies: result.audit.anomalies.count)
            default:
                fatalError("unknown phase \(arguments[0])")
            }
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            measurement.peakResidentKiB = Int(usage.ru_maxrss)
            let data = try JSONEncoder().encode(measurement)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("phase failed: \(error)\n".utf8))
            exit(1)
        }
    }

    static func measure(_ arguments: [String]) -> Measurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
            process.executableURL = Bundle.main.executableURL
        }
        process.arguments = ["phase"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            fatalError("cannot start a phase: \(error)")
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let measurement = try? JSONDecoder().decode(Measurement.self, from: output)
        else { fatalError("phase \(arguments) failed") }
        return measurement
    }
}
