import Foundation
import HealthProbeArchive

extension HealthMonitor {
    /// Changes since each type's anchor, page by page, each page stored with the position that
    /// follows it; a check cut off between pages resumes after the last one, and a type read to
    /// the end in an earlier window is not read again (every window makes progress). A verification
    /// stores what changed too (its scan then finds it held), and skips the types it has never
    /// read: their scan from the beginning reads the same history.
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
                try capture.store(page, of: type, progress: &reached, store)
                progress[type] = reached
                if !page.mayHaveMore { break }
            }
        }
    }

    /// Re-reads every type from the beginning a page at a time (memory bounded by the page, not
    /// by the type), from where an earlier window's scan stopped. A type the archive holds records
    /// of is first only added up (``UUIDDigest``) and compared with what the archive holds, in one
    /// pass over the records once every such scan finished: equal, and nothing is missing or new.
    /// Only a type that came up short is read again, noting each held record it meets, so that
    /// what it did not meet can be marked gone when the check completes. Deletions a scan meets are marked too: they happened while
    /// a check spanned windows.
    func scan(_ types: [String], _ capture: LiveCapture, progress: inout [String: LiveProgress]) async throws {
        try capture.recordHeld(types, progress: &progress, store)
        for type in types where progress[type]?.comparesDigests == true {
            try await scanToEnd(type, progress: &progress) {
                try capture.storeDigested($0, of: type, progress: &$1, store)
            }
        }
        try Task.checkCancellation()
        let unsettled = types.filter { type in
            guard let reached = progress[type] else { return false }
            return reached.comparesDigests && reached.scanMatched != reached.scanHeld
        }
        let settling = progress
        progress = try await interruptible { cancellation in
            var settled = settling
            try capture.settleDigests(unsettled, progress: &settled, store, cancellation: cancellation)
            return settled
        }
        for type in types {
            try await scanToEnd(type, progress: &progress) {
                try capture.storeScanned($0, of: type, progress: &$1, store)
            }
        }
    }

    /// Reads `type`'s scan to its end from where it stopped, a page at a time, each page handed
    /// to `keep` with the progress that follows it.
    private func scanToEnd(
        _ type: String, progress: inout [String: LiveProgress],
        keep: (ChangePage, inout LiveProgress) throws -> Void
    ) async throws {
        var reached = progress[type] ?? LiveProgress()
        while !reached.scanDone {
            try Task.checkCancellation()
            let page = try await source.changes(of: type, since: reached.scanAnchor, limit: configuration.pageLimit)
            reached.scanAnchor = page.anchor ?? reached.scanAnchor
            reached.scanSeen += page.added.count
            reached.scanDone = !page.mayHaveMore
            try keep(page, &reached)
            progress[type] = reached
        }
    }

    /// What a finished verification concluded per type: a scan that matched every record held
    /// found nothing missing; after a marking scan, what the archive holds and the scan did not
    /// meet is gone without a trace (`marked`) — unless the scan met nothing at all where the
    /// archive holds records, which is what denied read access looks like (`suspected`): the
    /// type is not emptied.
    struct Verification {
        var marked: [String] = []
        var suspected: [String] = []
        var typesWithRecords = 0

        init() {}

        init(types: [String], progress: [String: LiveProgress]) {
            for type in types {
                let reached = progress[type] ?? LiveProgress()
                let held = reached.scanHeld ?? 0
                if held > 0 { typesWithRecords += 1 }
                if reached.scanSeen == 0 && held > 0 {
                    suspected.append(type)
                } else if reached.scanMarking {
                    marked.append(type)
                }
            }
        }
    }

    /// Runs long archive work (a pass over millions of records) so that a cancellation — a
    /// background task's time running out — stops it at once: `body` checks the flag between
    /// rows, and the statement running is interrupted (``ArchiveStore/interruptStatements()``).
    func interruptible<T: Sendable>(_ body: (CancellationFlag) throws -> T) async throws -> T {
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            do {
                return try body(cancellation)
            } catch  where ArchiveStore.isInterruption(error) {
                throw CancellationError()
            }
        } onCancel: {
            cancellation.cancel()
            store.interruptStatements()
        }
    }
}
