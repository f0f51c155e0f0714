import ArgumentParser
import Foundation
import HealthProbeWeb

extension HealthProbeCommand {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the dashboard's five screens on this computer (127.0.0.1 only) until Ctrl-C.",
            discussion: """
                Prints one address carrying a key made for this launch: open it in a browser on this \
                computer. Nothing is reachable from other machines, and nothing leaves this one.
                """)

        @OptionGroup var archive: ArchiveOptions

        @Option(help: "The port to listen on (0 lets the system choose one).")
        var port = 0

        @Flag(help: "Open the address in the default browser.")
        var open = false

        @Option(name: .customLong("max-upload-mb"), help: "The largest export Check Now accepts, in MB.")
        var maxUploadMB = 8_192

        func validate() throws {
            guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
            guard maxUploadMB > 0 else { throw ValidationError("--max-upload-mb must be more than 0.") }
        }

        func run() async throws {
            let configuration = WebConfiguration(
                archivePath: archive.resolvedPath, port: port, maxUploadBytes: Int64(maxUploadMB) << 20)
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
