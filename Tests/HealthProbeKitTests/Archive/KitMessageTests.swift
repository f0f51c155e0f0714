import Foundation
import HealthProbeArchive
import HealthProbeKit
import Testing

/// The kit states facts; each face adds its own way on (the command line a flag, the dashboard a
/// button). So no kit message names a flag or a command: the dashboard and the app show them too.
@Suite("Kit messages")
struct KitMessageTests {
    static let messages: [String] =
        [
            ArchiveError.notAnArchive(path: "a.sqlite"),
            .writtenByNewerVersion(path: "a.sqlite", unknownMigrations: ["v99"]),
            .cannotCreate(path: "a.sqlite", problem: "permission denied"), .storage(problem: "a problem"),
            .missing(path: "a.sqlite"), .unknownAnomalies(["7"]), .busy(path: "a.sqlite"), .damaged(path: "a.sqlite"),
            .cannotWrite(path: "a.sqlite", problem: "the disk is full"),
        ].map(\.localizedDescription)
        + [
            ExportFailure.nothingCaptured, .unknownCapture(9, known: [1, 2]), .outputExists(path: "out.csv"),
            .cannotWrite(path: "out.csv", problem: "read-only"), .cancelled, .failed(problem: "a problem"),
        ].map(\.localizedDescription)
        + [
            ArchiveCopyError.exists("copy.sqlite"), .sameFile("a.sqlite"), .cannotWrite("copy.sqlite", "read-only"),
            .copyNotIntact(["capture 2 is neither complete nor a check to resume"]),
        ].map(\.localizedDescription)

    @Test(arguments: messages)
    func namesNoFlagOrCommand(_ message: String) {
        #expect(!message.contains("--"))
        #expect(!message.contains("healthprobe "))
        #expect(!message.isEmpty)
    }
}
