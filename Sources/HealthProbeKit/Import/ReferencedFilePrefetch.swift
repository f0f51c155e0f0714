import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Reads an export's clinical documents and routes on a thread of its own while the main XML is
/// imported, so that a check of years of routes does not read them all after the records. Each
/// file's content comes through a bounded channel (memory stays flat), which the writer drains
/// between batches (``drain(into:waiting:)``): it stores the content and keeps only the path's
/// digest, a few dozen bytes, for the records that refer to it.
package final class ReferencedFilePrefetch: @unchecked Sendable {
    /// One file as read.
    struct Item: Sendable {
        var file: AttachedFile
        var problem: String?
    }

    /// Files in flight between the thread and the writer: a route's content is a few kilobytes.
    static let inFlight = 32

    private let channel = BatchChannel<Item>(capacity: inFlight)
    /// What the archive holds, once the capture's transaction has read it.
    private let held = BatchChannel<HeldFiles>(capacity: 1)
    private var thread: JoinableThread?

    /// Reads `source`'s files once told what the archive holds (``begin(holding:)``).
    package init(source: AppleExportSource) {
        if case .bytes = source.container {
            channel.close()
            return
        }
        thread = JoinableThread(name: "healthprobe.files") { [channel, held] in
            defer { channel.close() }
            guard let files = try? AuxiliaryFiles(source: source), let held = held.receive() else { return }
            // The clinical summary beside the main XML (`export_cda.xml`) too: no record refers to it.
            let kinds: [AttachedFile.Kind] = [.clinicalDocument, .route, .clinicalSummary]
            try? held.asking { answers in
                try files.forEachFile(in: kinds.map(ReferencedFileReader.place(of:))) { place, path, stream in
                    let (content, problem) = ReferencedFileReader.content(
                        kinds[place], path: path, held: answers, stream)
                    try channel.send(
                        Item(file: AttachedFile(kind: kinds[place], path: path, content: content), problem: problem))
                }
            }
        }
    }

    /// Lets the files be read: content whose digest is `held` is left uncompressed, and a route
    /// whose bytes the archive read before is not read again.
    package func begin(holding held: HeldFiles) {
        try? self.held.send(held)
        self.held.close()
    }

    /// Hands the files read so far to `store`; with `waiting`, every file, once all are read.
    package func drain(waiting: Bool, into store: (AttachedFile, String?) throws -> Void) throws {
        while let item = waiting ? channel.receive() : channel.poll() {
            try store(item.file, item.problem)
        }
    }

    /// Stops the thread (a failed import needs no files) and waits until it has ended.
    func stop() {
        channel.cancel()
        held.cancel()
        thread?.join()
    }
}
