import ArgumentParser
import Foundation
import HealthProbeKit
import HealthProbeSimulation

extension HealthProbeCommand {
    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a synthetic Apple Health export (synthetic data only), for trying HealthProbe out.",
            usage: """
                healthprobe generate <output> [--records <n>] [--seed <n>]
                  [--omit-every <n>] [--multi-source] [--force] [<options>]
                """)

        @Argument(help: "Where to write: a name ending in .zip, .xml, or a folder.")
        var output: String

        @Option(help: "How many items to write (a blood-pressure item writes three elements).")
        var records = 10_000

        @Option(help: "The seed: the same seed gives the same records.")
        var seed: UInt64 = 1

        @Option(help: "The UTC offset every date is written at, like +0100 or -0700.")
        var offset = "+0000"

        @Option(help: "Seeds the HKDevice addresses, which differ from export to export.")
        var deviceSeed: UInt64 = 1

        @Option(help: "Leave out every Nth item (100 leaves out 1%).")
        var omitEvery: Int?

        @Option(help: "Seconds between a route's track points (5 writes about 100 KB of GPX a workout).")
        var routePointSeconds: Int64 = 60

        @Option(help: "Every this many workouts has a route (5: about 2,000 routes in 1M items).")
        var routesEvery = 1

        @Option(help: "How many ECG recordings to write beside the main XML (30 seconds at 512 Hz each).")
        var electrocardiograms = 0

        @Flag(help: "Write the main XML alone, without the route and ECG files beside it.")
        var noFiles = false

        @Flag(help: "Replace a file that is already there (it is never replaced otherwise).")
        var force = false

        @Flag(
            help: """
                Write two weeks in which several sources record one life (Watch and iPhone, a band app, entries by \
                hand, nested sleep, a daylight-saving change in Europe/Berlin) as export.xml, for `healthprobe day`.
                """)
        var multiSource = false

        func validate() throws {
            guard records > 0 else { throw ValidationError("--records must be at least 1") }
            guard Self.parseOffset(offset) != nil else {
                throw ValidationError("--offset must look like +0100 or -0700")
            }
            if let omitEvery, omitEvery < 2 { throw ValidationError("--omit-every must be at least 2") }
            guard routesEvery >= 1 else { throw ValidationError("--routes-every must be at least 1") }
            guard routePointSeconds >= 1 else { throw ValidationError("--route-point-seconds must be at least 1") }
            guard (0...100_000).contains(electrocardiograms) else {
                throw ValidationError("--electrocardiograms must be between 0 and 100000")
            }
        }

        static func parseOffset(_ text: String) -> Int? {
            guard text.count == 5, let sign = text.first, sign == "+" || sign == "-",
                let hours = Int(text.dropFirst().prefix(2)), let minutes = Int(text.suffix(2)), hours < 24, minutes < 60
            else { return nil }
            return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }

        func run() async throws {
            // A file already there may be someone's real export: replaced only when asked.
            if !force && FileManager.default.fileExists(atPath: output) {
                throw CommandFailure.usage("\(output) exists (nothing was written); add --force to replace it")
            }
            if multiSource {
                guard output.hasSuffix(".xml") else { throw CommandFailure.usage("--multi-source writes an .xml file") }
                try MultiSourceExport().write(to: URL(fileURLWithPath: output))
                return FileHandle.standardError.write(Data("wrote two weeks of several sources to \(output)\n".utf8))
            }
            var options = SyntheticExportOptions(
                elementCount: records, seed: seed, utcOffsetSeconds: Self.parseOffset(offset) ?? 0,
                deviceAddressSeed: deviceSeed, omitEveryNth: omitEvery)
            options.routePointSeconds = routePointSeconds
            options.routesEvery = routesEvery
            options.electrocardiograms = electrocardiograms
            options.writesFiles = !noFiles
            let generator = SyntheticExportGenerator(options: options)
            let url = URL(fileURLWithPath: output)
            let written =
                if output.hasSuffix(".zip") {
                    try generator.writeZip(to: url)
                } else if output.hasSuffix(".xml") {
                    try generator.writeXML(to: url)
                } else {
                    try generator.writeFolder(to: url)
                }
            FileHandle.standardError.write(
                Data(
                    "wrote \(Output.grouped(written.elements)) elements (\(Output.size(Int64(written.xmlBytes))) of XML) to \(output)\n"
                        .utf8))
        }
    }
}
