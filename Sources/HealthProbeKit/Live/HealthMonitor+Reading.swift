import Foundation

extension HealthMonitor {
    /// Changes since each type's anchor, page by page, each page stored with the position that
    /// follows it; a check cut off between pages resumes after the last one, and a type read to
    /// the end in an earlier window is not read again (every window makes progress). A verification
    /// stores only the deletions here (its scan stores every sample once), and skips the types it
    /// has never read: their scan from the beginning reads the same history.
    func readChanges(
        of types: [String], into capture: LiveCapture, anchors saved: [String: HealthAnchor],
        progress: inout [String: LiveProgress]
    ) async throws {
        for type in types {
            var reached = progress[type] ?? LiveProgress()
            var anchor = reached.changeAnchor ?? saved[type]
            if reached.changesDone || (capture.isFull && anchor == nil) { continue }
            while true {
                try Task.checkCancellation()
                let page = try await source.changes(of: type, since: anchor, limit: configuration.pageLimit)
                anchor = page.anchor ?? anchor
                reached.changeAnchor = anchor
                reached.changesDone = !page.mayHaveMore
                reached.added += page.added.count
                if !capture.isFull { reached.stored += page.added.count }
                reached.deleted += try capture.store(
                    page, of: type, storingAdded: !capture.isFull, progress: reached, store)
                progress[type] = reached
                if !page.mayHaveMore { break }
            }
        }
    }

    /// Re-reads every type from the beginning a page at a time (memory bounded by the page, not
    /// by the type), from where an earlier window's scan stopped. Deletions a scan meets are
    /// marked too: they happened while a check spanned windows.
    func scan(_ types: [String], _ capture: LiveCapture, progress: inout [String: LiveProgress]) async throws {
        for type in types {
            var reached = progress[type] ?? LiveProgress()
            while !reached.scanDone {
                try Task.checkCancellation()
                let page = try await source.changes(
                    of: type, since: reached.scanAnchor, limit: configuration.pageLimit)
                reached.scanAnchor = page.anchor ?? reached.scanAnchor
                reached.scanSeen += page.added.count
                reached.stored += page.added.count
                reached.scanDone = !page.mayHaveMore
                reached.deleted += try capture.store(page, of: type, storingAdded: true, progress: reached, store)
                progress[type] = reached
            }
        }
    }

    /// What a finished verification concluded per type: what the archive holds and the scan did
    /// not meet is gone without a trace (`confirmed`) — unless the scan met nothing at all where
    /// the archive holds records, which is what denied read access looks like (`suspected`): the
    /// type is not emptied.
    struct Verification {
        var confirmed: [String] = []
        var suspected: [String] = []
        var typesWithRecords = 0

        init() {}

        init(types: [String], progress: [String: LiveProgress], present: [String: Int]) {
            for type in types {
                let held = present[type] ?? 0
                if held > 0 { typesWithRecords += 1 }
                if (progress[type]?.scanSeen ?? 0) == 0 && held > 0 {
                    suspected.append(type)
                } else {
                    confirmed.append(type)
                }
            }
        }
    }
}
