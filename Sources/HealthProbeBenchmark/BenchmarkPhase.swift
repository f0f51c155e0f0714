import AppleHealthExport
import Foundation
import HealthProbeArchive
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
        /// A live check's outcome, and how long it took to return once cancelled.
        var outcome: String?
        var cancelLatency: Double?
    }

    static func runAsChild(_ arguments: [String]) async {
        guard arguments.count >= 2 else { fatalError("usage: phase parse|elements|import|files|phone INPUT [ARCHIVE]") }
        let input = URL(fileURLWithPath: arguments[1])
        do {
            let started = Date()
            var measurement: Measurement
            switch arguments[0] {
            case "parse":
                let summary = try AppleExportReader(url: input).parseOnly()
                measurement = Measurement(
                    seconds: Date().timeIntervalSince(started), peakResidentKiB: 0,
                    records: summary.elementCounts["*"] ?? 0, bytes: summary.bytesRead)
            case "elements":
                // Reading and building typed elements, without mapping them.
                var count = 0
                let summary = try AppleExportReader(url: input).read { _ in count += 1 }
                measurement = Measurement(
                    seconds: Date().timeIntervalSince(started), peakResidentKiB: 0, records: count,
                    bytes: summary.bytesRead)
            case "import":
                let store = try ArchiveStore.open(at: arguments[2])
                let reader = try AppleExportReader(url: input)
                let result = try AppleExportImporter(store: store).importExport(reader)
                measurement = Measurement(
                    seconds: Date().timeIntervalSince(started), peakResidentKiB: 0, records: result.capture.records,
                    bytes: reader.source.expectedSize ?? 0, new: result.capture.new, gone: result.capture.gone,
                    detectionSeconds: result.audit.seconds, anomalies: result.audit.anomalies.count)
            case "files":
                // The files records refer to, read as the import's own thread reads them: every
                // route parsed, encoded and compressed, every clinical document canonicalised.
                var files = 0
                var items = 0
                let reader = ReferencedFilePrefetch(source: try AppleExportSource.locate(input))
                reader.begin(holding: HeldFiles())
                try reader.drain(waiting: true) { file, _ in
                    files += 1
                    items += file.content?.items ?? 0
                }
                measurement = Measurement(
                    seconds: Date().timeIntervalSince(started), peakResidentKiB: 0, records: files, bytes: Int64(items))
            case "phone":
                measurement = await PhoneWindow.run(Array(arguments.dropFirst()))
            case "graph":
                measurement = try await GraphPhase.run(Array(arguments.dropFirst()))
            default:
                fatalError("unknown phase \(arguments[0])")
            }
            measurement.peakResidentKiB = Self.ownPeakResidentKiB()
            let data = try JSONEncoder().encode(measurement)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("phase failed: \(error)\n".utf8))
            exit(1)
        }
    }

    /// This process's peak resident memory in KiB: Glibc's `RUSAGE_SELF` is an enumeration and
    /// its `ru_maxrss` KiB; Darwin's a plain number and its `ru_maxrss` bytes.
    static func ownPeakResidentKiB() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Int(usage.ru_maxrss)
        #else
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss) / 1024
        #endif
    }

    /// Runs a phase in a child process and reads its measurements. Its peak resident memory is
    /// measured from outside, by `/usr/bin/time -f %M`, where that exists (it counts what the
    /// process's own `getrusage` may read before the last pages are touched).
    static func measure(_ arguments: [String]) -> Measurement {
        var executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: executable.path), let own = Bundle.main.executableURL {
            executable = own
        }
        let time = URL(fileURLWithPath: "/usr/bin/time")
        // GNU time's `-f %M` (KiB); a Mac's BSD time has no `-f`, and the phase's own count is read.
        #if os(Linux)
            let outside = FileManager.default.isExecutableFile(atPath: time.path)
        #else
            let outside = false
        #endif
        let process = Process()
        process.executableURL = outside ? time : executable
        process.arguments = (outside ? ["-f", "%M", executable.path] : []) + ["phase"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            fatalError("cannot start a phase: \(error)")
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let reported = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            var measurement = try? JSONDecoder().decode(Measurement.self, from: printed)
        else { fatalError("phase \(arguments) failed: \(reported)") }
        let lines = reported.split(separator: "\n")
        if outside, let peak = lines.last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            measurement.peakResidentKiB = peak
        }
        return measurement
    }
}
