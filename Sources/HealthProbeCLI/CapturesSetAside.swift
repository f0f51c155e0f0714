import ArgumentParser
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct CapturesExclude: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "exclude",
            abstract: "Set a capture aside (the wrong file, someone else's export): kept, compared with nothing.",
            discussion: """
                Its records, counts and anomalies stay in the archive and the trail; the records are \
                compared as if it had never been checked, its anomalies are withdrawn with the reason, and \
                the next export is compared with the capture before it. Only the latest export or backup \
                capture can be set aside (set later ones aside first); `captures include` takes it back.
                """)

        @OptionGroup var archive: ArchiveOptions

        @Argument(help: "The capture's id, as `healthprobe captures` lists it.")
        var id: Int64

        @Option(help: "Why, in a few words (\"not my export\"): the trail keeps it.")
        var reason: String

        func run() async throws {
            let store = try archive.openExisting()
            let capture = try store.setCaptureAside(id, reason: reason)
            let withdrawn = try store.fetchAnomalies(.init(includeResolved: true, captureID: id)).filter(\.withdrawn)
            let anomalies =
                withdrawn.isEmpty
                ? "" : "; \(withdrawn.count) \(withdrawn.count == 1 ? "anomaly" : "anomalies") withdrawn"
            Output.line(
                "Set capture \(capture.id) aside: compared with nothing from now on\(anomalies). "
                    + "`healthprobe captures include \(capture.id)` takes it back.")
        }
    }

    struct CapturesInclude: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "include",
            abstract: "Take a capture set aside back: compared as before, its anomalies open again.")

        @OptionGroup var archive: ArchiveOptions

        @Argument(help: "The capture's id, as `healthprobe captures` lists it.")
        var id: Int64

        func run() async throws {
            let store = try archive.openExisting()
            let capture = try store.includeCapture(id)
            Output.line("Capture \(capture.id) is compared again, with its anomalies, as before it was set aside.")
        }
    }
}
