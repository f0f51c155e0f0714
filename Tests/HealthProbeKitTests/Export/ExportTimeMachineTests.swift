import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// `--as-of-capture` and `--include-gone` after a scripted series of captures: a loss that
/// comes back, a rewritten value, a sync replacement and a backfill.
@Suite("Export: any capture, and what went")
struct ExportTimeMachineTests {
    typealias Export = MiniExport
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"

    static func at(_ month: Int, _ day: Int) -> String {
        String(format: "2000-%02d-%02d 08:00:00 +0000", month, day)
    }

    static let a = Export.record(value: "60", start: at(2, 21))
    static let b = Export.record(value: "60", start: at(2, 22))
    static let bRewritten = Export.record(value: "61", start: at(2, 22))
    static let c = Export.record(value: "60", start: at(2, 23))
    static let s = Export.record(steps, value: "100", unit: "count", start: at(2, 21))
    static let r = Export.record(
        value: "70", start: at(2, 24),
        metadata: [("HKMetadataKeySyncIdentifier", "X"), ("HKMetadataKeySyncVersion", "1")])
    static let rReplaced = Export.record(
        value: "71", start: at(2, 24),
        metadata: [("HKMetadataKeySyncIdentifier", "X"), ("HKMetadataKeySyncVersion", "2")])
    /// Written weeks late: a backfill in the second capture.
    static let d = Export.record(value: "55", start: at(1, 10))

    /// Three captures: C vanishes in the second and comes back in the third.
    static func archive() throws -> (ArchiveTestSupport, ArchiveStore) {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let exports = [
            Export(exportDate: at(3, 1), elements: [a, b, c, s, r]),
            Export(exportDate: at(3, 8), elements: [a, bRewritten, s, d, rReplaced]),
            Export(exportDate: at(3, 15), elements: [a, bRewritten, s, d, rReplaced, c]),
        ]
        for (index, export) in exports.enumerated() {
            _ = try support.check(try export.write(to: support.folder, name: "export\(index).xml"), in: store)
        }
        return (support, store)
    }

    /// Each line as `start value status reason`.
    static func summary(_ lines: [[String: Any]]) -> Set<String> {
        Set(
            lines.map { line in
                var text = "\((line["startDate"] as! String).prefix(10)) \(line["value"]!) \(line["status"]!)"
                if let reason = line["goneReason"] as? String { text += " \(reason)" }
                return text
            })
    }

    @Test func eachCaptureIsExportedExactlyAsItHeldTheRecords() throws {
        let (support, store) = try Self.archive()
        #expect(
            Self.summary(try support.jsonLines(store, selection: ExportSelection(asOfCapture: 1))) == [
                "2000-02-21 60 present", "2000-02-22 60 present", "2000-02-23 60 present", "2000-02-21 100 present",
                "2000-02-24 70 present",
            ])
        // C had gone by the second capture: it came back later, but not into this one.
        #expect(
            Self.summary(try support.jsonLines(store, selection: ExportSelection(asOfCapture: 2))) == [
                "2000-02-21 60 present", "2000-02-22 61 present", "2000-02-21 100 present", "2000-02-24 71 present",
                "2000-01-10 55 present",
            ])
        #expect(
            Self.summary(try support.jsonLines(store)) == [
                "2000-02-21 60 present", "2000-02-22 61 present", "2000-02-21 100 present", "2000-02-24 71 present",
                "2000-01-10 55 present", "2000-02-23 60 present",
            ])
    }

    @Test func goneRecordsComeWithWhenAndWhyTheyWent() throws {
        let (support, store) = try Self.archive()
        let asOfSecond = try support.jsonLines(store, selection: ExportSelection(asOfCapture: 2, includeGone: true))
        let gone = asOfSecond.filter { $0["status"] as? String == "gone" }
        #expect(
            Self.summary(gone) == [
                "2000-02-22 60 gone value_modified", "2000-02-23 60 gone silent_deletion",
                "2000-02-24 70 gone replaced",
            ])
        for line in gone {
            #expect(line["lastSeen"] as? String == "2000-03-01T08:00:00+00:00")
            #expect(line["goneSince"] as? String == "2000-03-08T08:00:00+00:00")
        }
        #expect(asOfSecond.count == 5 + 3)
        // Once C is back it is no longer gone; the rewritten and replaced records still are.
        let latest = try support.jsonLines(store, selection: ExportSelection(includeGone: true))
        #expect(
            Self.summary(latest.filter { $0["status"] as? String == "gone" }) == [
                "2000-02-22 60 gone value_modified", "2000-02-24 70 gone replaced",
            ])
    }

    @Test func anIncrementalExportFollowsWhenTheArchiveReceivedARecord() throws {
        let (support, store) = try Self.archive()
        // The backfilled sample has an old date, but the archive received it in capture 2.
        let received = try support.jsonLines(store, selection: ExportSelection(receivedAfterCapture: 1))
        #expect(
            Self.summary(received) == ["2000-02-22 61 present", "2000-02-24 71 present", "2000-01-10 55 present"])
    }

    @Test func anUnknownCaptureIsRefusedAndNothingIsWritten() throws {
        let (support, store) = try Self.archive()
        #expect(throws: ExportFailure.unknownCapture(9, known: [1, 2, 3])) {
            try support.runExport(store, .json, selection: ExportSelection(asOfCapture: 9))
        }
        #expect(!FileManager.default.fileExists(atPath: support.folder.appendingPathComponent("export.json").path))
        #expect(try support.partialFilesLeft().isEmpty)
    }
}
