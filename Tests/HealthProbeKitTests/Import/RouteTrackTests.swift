import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Routes read from beside the export's XML by the kit's importer, as the archive keeps them.
@Suite("Routes kept as tracks")
struct RouteTrackTests {
    /// A route is kept as its track: the points of its GPX file, stored once by their digest,
    /// which the archive decodes back point for point.
    @Test func workoutRoutesAreKeptAsTracks() throws {
        let support = try ArchiveTestSupport()
        let export = try support.generate("export.zip", SyntheticExportOptions(elementCount: 3_000, seed: 7))
        let store = try support.openArchive()
        let capture = try support.check(export, in: store).capture
        let (routes, tracks) = try store.writer.read { db in
            (
                try Row.fetchAll(
                    db, sql: "SELECT digest, items FROM referencedFile WHERE captureId = ? AND kind = 'route'",
                    arguments: [capture.id]),
                try Row.fetchAll(db, sql: "SELECT digest, content FROM fileContent WHERE kind = 'route'")
            )
        }
        #expect(routes.count == capture.elementCounts["Workout"])
        #expect(routes.allSatisfy { ($0["digest"] as String?)?.count == 32 && ($0["items"] as Int? ?? 0) >= 5 })
        let row = try #require(tracks.first)
        let content = FileContent(digest: row["digest"], compressed: Array(row["content"] as Data), items: 0)
        let track = try #require(content.inflated().flatMap(TrackCoding.decode))
        #expect(routes.first { $0["digest"] == content.digest }?["items"] == track.count)
        #expect(
            (0..<track.count).allSatisfy {
                track.value($0, 0) != nil && track.value($0, 1) != nil && track.value($0, 2) != nil
            })
    }
}
