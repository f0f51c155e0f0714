import AppleHealthExport
import Foundation
import HealthProbeArchive

/// How the files records refer to — clinical documents and workout routes — are read from an
/// export's folders (``ReferencedFilePrefetch`` reads them beside the import), each streamed and
/// capped. A file the export does not hold keeps no digest (``ReferencedFiles``); one that cannot
/// be read is named with its problem; neither fails the check.
enum ReferencedFileReader {
    /// The largest clinical document read: FHIR resources are a few kilobytes.
    static let maximumDocumentBytes = 16 << 20

    /// Where an export keeps a kind of file.
    static func place(of kind: AttachedFile.Kind) -> ExportFilePlace {
        switch kind {
        case .electrocardiogram: ExportFilePlace(folder: AppleExportReader.electrocardiogramFolder, suffix: ".csv")
        case .clinicalDocument: ExportFilePlace(folder: "clinical-records", suffix: ".json")
        case .route: ExportFilePlace(folder: "workout-routes", suffix: ".gpx")
        case .clinicalSummary: ExportFilePlace(folder: "", suffix: "_cda.xml")
        }
    }

    /// The largest clinical summary read: years of health records take a few megabytes.
    static let maximumSummaryBytes = 256 << 20

    /// The file's content as the archive keeps it, or the problem that kept it from being read.
    /// Content `held` by the archive is left uncompressed; a route whose bytes it read before is
    /// given as the content it holds, unread.
    static func content(
        _ kind: AttachedFile.Kind, path: String, held: HeldFileAnswers = .nothing,
        _ stream: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) -> (FileContent?, String?) {
        do {
            switch kind {
            case .route:
                return (try route(path: path, held: held, stream), nil)
            case .electrocardiogram:
                // Read with the main XML as a record of its own (AppleExportReader), never referred to.
                return (nil, "an ECG recording is read as a record, not as a file a record refers to")
            case .clinicalSummary:
                var bytes: [UInt8] = []
                try stream { chunk in
                    guard bytes.count + chunk.count <= maximumSummaryBytes else { throw TooLarge() }
                    bytes.append(contentsOf: chunk)
                }
                return (FileContent(bytes, items: bytes.count, unlessHeld: held.holds), nil)
            case .clinicalDocument:
                var bytes: [UInt8] = []
                try stream { chunk in
                    guard bytes.count + chunk.count <= maximumDocumentBytes else {
                        throw TooLarge()
                    }
                    bytes.append(contentsOf: chunk)
                }
                if let excess = ClinicalDocument.beyondBudget(bytes) {
                    return (
                        FileContent(bytes, items: bytes.count, unlessHeld: held.holds),
                        "\(excess), more than a clinical document; kept as it was"
                    )
                }
                guard let canonical = ClinicalDocument.canonical(bytes) else {
                    return (
                        FileContent(bytes, items: bytes.count, unlessHeld: held.holds),
                        "it is not JSON; kept as it was"
                    )
                }
                return (FileContent(bytes, identity: canonical, items: bytes.count, unlessHeld: held.holds), nil)
            }
        } catch is TooLarge {
            return (nil, "it is larger than the \(maximumDocumentBytes >> 20) MiB a clinical document may be")
        } catch let failure as GPXTrackParser.Failure {
            return (nil, failure.reason)
        } catch let error as AppleExportError {
            return (nil, error.problem)
        } catch {
            return (nil, "it could not be read")
        }
    }

    /// A route's content. When the archive knows any route's bytes, the file is first only
    /// hashed, and read as a track when its bytes are new; the digest kept with a read track is of
    /// the very bytes it was read from (a folder's file may change between two readings).
    private static func route(
        path: String, held: HeldFileAnswers, _ stream: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> FileContent {
        if held.knowsSources {
            var source = RouteSourceDigest()
            var bytes = 0
            try stream { chunk in
                bytes += chunk.count
                guard bytes <= GPXTrackParser.maximumBytes else { throw GPXTrackParser.tooLarge }
                source.update(chunk)
            }
            if let content = held.content(source: source.finalize()) { return content }
        }
        let parser = GPXTrackParser(path: path)
        var source = RouteSourceDigest()
        try stream { chunk in
            source.update(chunk)
            try parser.feed(chunk)
        }
        let track = try parser.finish()
        var content = FileContent(TrackCoding.encode(track), items: track.count, unlessHeld: held.holds)
        content.source = source.finalize()
        return content
    }

    private struct TooLarge: Error {}
}
