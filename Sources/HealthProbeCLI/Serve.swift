import ArgumentParser
import Foundation
import HealthProbeWeb

extension HealthProbeCommand {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the dashboard's five screens on this computer (127.0.0.1 only) until Ctrl-C.",
            usage: """
                healthprobe serve [--archive <archive>] [--port <port>] [--open]
                  [<options>]
                """,
            discussion: """
                Prints one address carrying a key made for this launch: open it in a browser on this \
                computer. Nothing is reachable from other machines, and nothing leaves this one.
                """)

        @OptionGroup var archive: ArchiveOptions

        @Option(help: "The port to listen on (0 lets the system choose one).")
        var port = 0

        @Flag(help: "Open the address in the default browser.")
        var open = false

        @Option(
            help: "The largest export Check Now accepts: 500MiB, 8GiB, and so on (binary units, as sizes are shown).")
        var maxUpload = ByteSize(bytes: 8 << 30)

        /// The option's first name, in MiB; still read so that scripts written for it keep working.
        @Option(name: .customLong("max-upload-mb"), help: .hidden)
        var maxUploadMiB: Int?

        func validate() throws {
            guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
            if let maxUploadMiB, maxUploadMiB <= 0 { throw ValidationError("--max-upload-mb must be more than 0.") }
        }

        func run() async throws {
            let configuration = WebConfiguration(
                archivePath: archive.resolvedPath, port: port,
                maxUploadBytes: maxUploadMiB.map { Int64($0) << 20 } ?? maxUpload.bytes)
            let server = DashboardServer(configuration: configuration)
            let open = open
            do {
                try await server.run { url in
                    FileHandle.standardOutput.write(Data("HealthProbe dashboard: \(url.absoluteString)\n".utf8))
                    FileHandle.standardError.write(Data("Press Ctrl-C to stop.\n".utf8))
                    if open { Self.openInBrowser(url) }
                }
            } catch let error as ServeError {
                throw CommandFailure(error.localizedDescription, code: CommandFailure.ioFailureCode)
            }
        }

        private static func openInBrowser(_ url: URL) {
            let process = Process()
            #if os(macOS)
                process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
                process.arguments = [url.absoluteString]
            #else
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["xdg-open", url.absoluteString]
            #endif
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try? process.run()
        }
    }
}
