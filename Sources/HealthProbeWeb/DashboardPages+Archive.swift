import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import Hummingbird

extension DashboardPages {
    struct AuditView: Sendable {
        var rows: [AuditTrailState.Row]
        var chips: [AuditTrailState.EventChip]
        var event: String?
        var total: Int
        var page: Int
        var pageCount: Int
        var previousHref: String?
        var nextHref: String?
    }

    func audit(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let event = query["event"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let page = query["page"].flatMap { Int($0) } ?? 1
        let format = try await dayFormat()
        guard
            let state = try await withArchive({
                try AuditTrailState.load(from: $0, event: event, page: page, format: format)
            })
        else { return await noArchive() }
        func href(_ page: Int) -> String {
            "/audit?" + (event.map { "event=\($0)&" } ?? "") + "page=\(page)"
        }
        let view = AuditView(
            rows: state.rows, chips: state.chips, event: state.event, total: state.total, page: state.page,
            pageCount: state.pageCount, previousHref: state.page > 1 ? href(state.page - 1) : nil,
            nextHref: state.page < state.pageCount ? href(state.page + 1) : nil)
        return renderer.html("audit", title: "Audit Trail", tab: .audit, body: view)
    }

    /// The whole trail as JSON, oldest first, as `healthprobe audit --json` prints it.
    func auditJSON() async throws -> Response {
        guard let data = try await withArchive({ try AuditTrailState.exportJSON(from: $0) }) else {
            return await noArchive()
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/json",
                .contentDisposition: "attachment; filename=\"healthprobe-audit-trail.json\"",
            ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    struct ArchiveView: Sendable {
        var archiveIcon = Icons.svg("externaldrive.fill.badge.checkmark")
        var path: String
        var size: String
        var integrity: String?
        var integrityRole: String
        var integrityCheckedAt: String?
        var captures: Int
        var lastVerified: String?
        var recordsTracked: String
        var types: [TypeView]
        var iCloud: String
        var lastSync: String?
        var contextEvents: [ArchiveStatusState.ContextRow]

        struct TypeView: Sendable {
            var type: String
            var name: String
            var records: String
            var sources: Int
            var monitored: Bool
        }
    }

    func archive(_ request: Request) async throws -> Response {
        let format = try await dayFormat()
        let path = configuration.archivePath
        guard
            let state = try await withArchive({
                try ArchiveStatusState.load(from: $0, sync: ContextMonitor(store: $0), path: path, format: format)
            })
        else { return await noArchive() }
        let view = ArchiveView(
            path: state.path ?? "in memory", size: state.size, integrity: state.integrity,
            integrityRole: state.integrityRole.rawValue, integrityCheckedAt: state.integrityCheckedAt,
            captures: state.captures, lastVerified: state.lastVerified,
            recordsTracked: format.count(state.recordsTracked),
            types: state.types.map {
                ArchiveView.TypeView(
                    type: $0.type, name: $0.name, records: format.count($0.records), sources: $0.sources,
                    monitored: $0.monitored)
            }, iCloud: state.iCloud, lastSync: state.lastSync, contextEvents: state.contextEvents)
        let query = request.uri.queryParameters
        let flash =
            query["integrity"] == "started"
            ? "The integrity check is running; reload this page in a moment for its result."
            : query["backup"] == "done" ? lastBackup.withLockedValue { $0 } : nil
        return renderer.html("archive", title: "Archive Status", tab: .archive, body: view, flash: flash)
    }

    /// Starts the integrity check in the background (it reads the whole archive) and returns;
    /// while one runs, another click starts nothing.
    func checkIntegrity(_ request: Request) async throws -> Response {
        guard try await FormFields.read(request).hasValidCSRF(configuration.csrfToken) else { return forbidden() }
        guard let store = try await access.forReading() else { return await noArchive() }
        let started = integrityRunning.withLockedValue { running in
            defer { running = true }
            return !running
        }
        if started {
            let running = integrityRunning
            Task.detached {
                _ = try? store.checkIntegrity(now: Date())
                running.withLockedValue { $0 = false }
            }
        }
        return redirect(to: "/archive?integrity=started")
    }

    /// Writes a verified backup into `backups/` beside the archive, then shows where, on the
    /// Archive Status page. Only reads the archive, so it runs beside a check; one at a time.
    func backUp(_ request: Request) async throws -> Response {
        guard try await FormFields.read(request).hasValidCSRF(configuration.csrfToken) else { return forbidden() }
        let started = backupRunning.withLockedValue { running in
            defer { running = true }
            return !running
        }
        guard started else { return redirect(to: "/archive") }
        defer { backupRunning.withLockedValue { $0 = false } }
        let message = try await withArchive { store -> String in
            do {
                return try store.copy(to: try store.defaultCopyPath()).summary + "."
            } catch {
                return "The backup was not made: \(error.localizedDescription)."
            }
        }
        guard let message else { return await noArchive() }
        lastBackup.withLockedValue { $0 = message }
        return redirect(to: "/archive?backup=done")
    }
}
