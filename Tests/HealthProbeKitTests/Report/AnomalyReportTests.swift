import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// What `show` prints and scripts read: the report of one anomaly, in text, Markdown and JSON.
@Suite("Reports")
struct AnomalyReportTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// Two exports of 2000-03-01 and 2000-03-08 (UTC+1), the second without two heart rates.
    static func lossReport(includeValues: Bool) throws -> AnomalyReport {
        let support = try ArchiveTestSupport()
        let records = (1...3).map {
            MiniExport.record(value: "6\($0)", start: "2000-02-0\($0) 08:00:00 +0100")
        }
        let store = try support.openArchive()
        _ = try support.check(
            try MiniExport(exportDate: "2000-03-01 12:00:00 +0100", elements: records)
                .write(to: support.folder, name: "first.xml"), in: store)
        let second = try support.check(
            try MiniExport(exportDate: "2000-03-08 12:00:00 +0100", elements: [records[2]])
                .write(to: support.folder, name: "second.xml"), in: store)
        let loss = try #require(second.audit.anomalies.first { $0.type == .silentDeletion })
        return try #require(try store.exportReport(anomalyID: loss.id, includeValues: includeValues))
    }

    @Test func jsonCarriesDatesAsISO8601AndKindsAsWords() throws {
        let report = try Self.lossReport(includeValues: false)
        let json = try #require(
            try JSONSerialization.jsonObject(with: ReportJSON.encode(report)) as? [String: Any])
        let capture = try #require(json["capture"] as? [String: Any])
        #expect(capture["exportDate"] as? String == "2000-03-08T11:00:00Z")
        #expect(capture["origin"] as? String == "export")
        #expect(capture["scope"] as? String == "full")
        let started = try #require(capture["startedAt"] as? String)
        #expect(started.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
        let anomaly = try #require(json["anomaly"] as? [String: Any])
        #expect((anomaly["detectedAt"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
        #expect(anomaly["recordCount"] as? Int == 2)
        #expect(json["recordTotal"] as? Int == 2)
    }

    @Test func valuesAppearOnlyWhenAskedFor() throws {
        let without = try Self.lossReport(includeValues: false)
        #expect(!without.text.contains("61") && !without.markdown.contains("62"))
        let with = try Self.lossReport(includeValues: true)
        #expect(with.text.contains("61") && with.text.contains("62"))
        // Times as every face writes them, in this machine's zone.
        let exported = ReadableTime().minute(Date(timeIntervalSince1970: 952_513_200))
        #expect(with.markdown.contains("export of \(exported)"))
    }

    @Test func theVerdictNamesWhatNeedsALook() throws {
        let report = try Self.lossReport(includeValues: false)
        let verdict = CheckVerdict.text([report.anomaly], howToShow: "Show it.")
        #expect(verdict == "Critical: silent deletion of heart rate. Show it.")
        #expect(
            CheckVerdict.text([], howToShow: "")
                == "Healthy. Nothing vanished, appeared late, was duplicated or rewritten.")
        #expect(
            CheckVerdict.text([], firstCapture: true, howToShow: "")
                == "Healthy so far: no duplicates, overlaps or drift; losses and backfills show from the next check.")
        // Under a heading that says the status, the verdict does not say it again.
        #expect(
            CheckVerdict.detail([], howToShow: "") == "Nothing vanished, appeared late, was duplicated or rewritten.")
        #expect(
            CheckVerdict.detail([report.anomaly], howToShow: "Show it.") == "Silent deletion of heart rate. Show it.")
    }
}
