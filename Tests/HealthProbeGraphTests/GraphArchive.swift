import AppleHealthExport
import Foundation
import HealthProbeArchive
import HealthProbeGraph
import HealthProbeKit
import TestSupport

/// An archive in a folder of its own, filled by checks of hand-written exports, and the syncs
/// of it to a real FalkorDB.
struct GraphArchive {
    let folder: URL
    let store: ArchiveStore
    static let utc = TimeZone(identifier: "UTC")!
    /// Every sync's clock, so that two graphs synced apart are equal to the `Sync` node.
    static let syncTime = Date(timeIntervalSince1970: 946_800_000)

    init() throws {
        folder = try FixtureFiles.temporaryFolder()
        store = try ArchiveStore.open(at: folder.appendingPathComponent("archive.sqlite").path)
    }

    func check(_ xml: String, named name: String) throws {
        let url = folder.appendingPathComponent(name)
        try Data(xml.utf8).write(to: url)
        _ = try AppleExportImporter(store: store).importExport(AppleExportReader(url: url))
    }

    /// The engine, patient: the suite runs beside a multi-process soak and browser tests on two
    /// cores, where one reply has taken longer than a user's 30 s.
    func engine(_ server: LocalFalkorDB, graph: String = "health") -> FalkorDBEngine {
        FalkorDBEngine(
            endpoint: .unixSocket(server.socket), graph: graph, destination: "falkordb-test/\(graph)", timeout: 180)
    }

    func plan(_ engine: any GraphEngine, zone: TimeZone = utc) throws -> GraphSyncPlan {
        try GraphSyncPlanner.plan(store, destination: engine.destination, timeZone: zone, now: Self.syncTime)
    }

    @discardableResult
    func sync(_ engine: any GraphEngine, zone: TimeZone = utc, batchSize: Int = 500) async throws -> GraphSyncReport {
        try await GraphSyncRunner.run(plan(engine, zone: zone), on: engine, store: store, batchSize: batchSize)
    }
}
