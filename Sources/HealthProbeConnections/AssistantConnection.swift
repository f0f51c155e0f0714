import Foundation
import HealthProbeArchive
import HealthProbeCLI
import HealthProbeMCP

extension HealthProbeCommand.Assistant {
    func answer() async throws {
        let path = archive.resolvedPath
        guard FileManager.default.fileExists(atPath: path) else {
            throw ArchiveError.missing(path: path)
        }
        try await AssistantServer(archivePath: path, revealValues: revealValues).run(
            version: HealthProbeVersion.number)
    }
}
