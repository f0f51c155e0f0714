import Foundation
import HealthProbeArchive
import HealthProbeKit
import TestSupport
import Testing

@testable import HealthProbeScreens

@Suite("Screen states")
struct ScreenStateTests {
    @Test func dashboardCountsWhatTheArchiveHoldsAndAlertsAtTheThreshold() throws {
        let archive = try AuditedArchive()
        let store = try archive.open()
        let state = try DashboardState.load(from: store, format: .utc)
        let overview = try store.fetchOverview()
        let open = try store.fetchAnomalies()
        #expect(state.hasArchive)
        #expect(state.recordsTracked == overview.lastCapture?.records)
        #expect(state.openAnomalies == open.count)
        #expect(state.anomaliesAllTime == open.count)
        // Most severe first (a critical loss never below a warning), then latest first.
        let expectedAlerts = open.filter { $0.severity >= .warning }
            .sorted { $0.severity != $1.severity ? $0.severity > $1.severity : $0.id > $1.id }.map(\.id).prefix(3)
        #expect(state.recentAlerts.map(\.id) == Array(expectedAlerts))
        #expect(open.contains { $0.severity == .critical })
        #expect(state.recentAlerts.first.map { row in open.first { $0.id == row.id }?.severity } == .critical)
        // The chart opens on the type of the latest loss, not the alphabetically first type.
        let latestLoss = open.filter { $0.type == .silentDeletion }.max { $0.id < $1.id }
        #expect(state.chartType == latestLoss?.sampleType)
        let worst = open.map(\.severity).max()
        #expect(state.status.label == (worst == .critical ? "critical" : worst == .warning ? "warning" : "healthy"))
        #expect(state.series?.days.isEmpty == false)
        // The anomalies chart spans every day an anomaly is about; no day counts more than exist.
        #expect(!state.timeline.days.isEmpty)
        #expect(state.timeline.days.map(\.total).allSatisfy { $0 <= open.count })
        // Resolving every anomaly makes it healthy again.
        _ = try store.resolveAnomalies(ids: open.map(\.id))
        let resolved = try DashboardState.load(from: store, format: .utc)
        #expect(resolved.status.label == "healthy")
        #expect(resolved.status.symbol == "checkmark.shield.fill")
        #expect(resolved.recentAlerts.isEmpty)
    }

    @Test func anEmptyArchiveSaysHowToMakeTheFirstCheck() throws {
        let store = try ArchiveStore.inMemory()
        let state = try DashboardState.load(from: store)
        #expect(!state.hasArchive)
        #expect(state.status.role == .neutral)
        #expect(state.status.detail == "HealthProbe has not checked yet")
        #expect(DashboardState.firstCheckHint.contains("Check Now"))
    }

    @Test func theAnomalyListIsNewestFirstAndFiltersBySeverityAndType() throws {
        let store = try AuditedArchive().open()
        let all = try AnomalyListState.load(from: store, format: .utc)
        let ids = all.rows.map(\.id)
        #expect(ids == ids.sorted(by: >))
        #expect(!ids.isEmpty)
        let stored = try #require(try store.fetchAnomalies().first { $0.id == ids[0] }?.detectedAt)
        let iso = UTCText.iso8601(stored)
        #expect(all.rows[0].detectedAt == "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(5)) UTC")
        for severity in Severity.allCases {
            let filtered = try AnomalyListState.load(from: store, filter: .init(severity: severity), format: .utc)
            #expect(filtered.rows.allSatisfy { $0.severity == severity })
            #expect(filtered.rows.count == all.rows.filter { $0.severity == severity }.count)
        }
        let duplicates = try AnomalyListState.load(from: store, filter: .init(type: .duplicate), format: .utc)
        #expect(!duplicates.rows.isEmpty)
        #expect(duplicates.rows.allSatisfy { $0.type == .duplicate })
    }

    /// An anomaly about more records than a page shows: every record on one page or another,
    /// each once, in order.
    @Test func theDetailPagesThroughEveryRecord() throws {
        let store = try AuditedArchive(records: 12_000).open()
        let anomaly = try #require(
            try store.fetchAnomalies().filter { $0.recordCount > AnomalyDetailState.recordLimit }.first)
        let all = try store.fetchAnomalyRecords(id: anomaly.id, limit: 100_000).records
        var seen: [String] = []
        var page = 1
        while true {
            let state = try #require(try AnomalyDetailState.load(from: store, id: anomaly.id, page: page, format: .utc))
            #expect(state.firstRecord == (page - 1) * AnomalyDetailState.recordLimit + 1)
            seen += state.records.map { "\($0.role) \($0.start) \($0.source)" }
            if page == state.pageCount { break }
            #expect(state.records.count == AnomalyDetailState.recordLimit)
            page += 1
        }
        #expect(page > 1)
        #expect(seen.count == all.count)
        #expect(
            seen
                == all.map {
                    // Times as every face writes them (here in UTC), never ISO 8601's `Z`.
                    "\($0.role) \($0.startDate.map(ScreenFormat.utc.recordTime) ?? "-") \($0.sourceName ?? "-")"
                })
    }

    @Test func rowsAndTheDetailShowNoHealthValueUntilRevealed() throws {
        let store = try AuditedArchive().open()
        let anomaly = try #require(try store.fetchAnomalies().first { $0.type == .duplicate })
        let records = try store.fetchAnomalyRecords(id: anomaly.id, limit: 50).records
        let values = Set(records.compactMap(\.value))
        #expect(!values.isEmpty)
        let list = try AnomalyListState.load(from: store, format: .utc)
        let row = try #require(list.rows.first { $0.id == anomaly.id })
        for value in values {
            #expect(!row.summary.contains(" \(value) "))
        }
        let hidden = try #require(try AnomalyDetailState.load(from: store, id: anomaly.id, format: .utc))
        #expect(hidden.records.count == records.count)
        #expect(hidden.records.allSatisfy { $0.value == nil })
        #expect(!hidden.valuesRevealed)
        #expect(hidden.markdown.contains("Health values are left out"))
        #expect(hidden.evidence.map(\.key) == anomaly.evidence.keys.sorted())
        let shown = try #require(
            try AnomalyDetailState.load(from: store, id: anomaly.id, revealValues: true, format: .utc))
        #expect(Set(shown.records.compactMap(\.value).map { String($0.split(separator: " ")[0]) }) == values)
        #expect(try AnomalyDetailState.load(from: store, id: 999_999) == nil)
    }

    @Test func theAuditTrailFiltersByEventAndExportsWhatTheCommandLinePrints() throws {
        let store = try AuditedArchive().open()
        let all = try AuditTrailState.load(from: store, format: .utc)
        let entries = try store.fetchAuditEntries()
        #expect(all.total == entries.count)
        #expect(all.rows.map(\.id) == entries.map(\.id).reversed())
        let completed = try AuditTrailState.load(from: store, event: "captureCompleted", format: .utc)
        #expect(completed.total == 2)
        #expect(completed.rows.allSatisfy { $0.event == "captureCompleted" && $0.eventTitle == "capture completed" })
        #expect(completed.chips.first { $0.event == "captureCompleted" }?.selected == true)
        let json = try JSONSerialization.jsonObject(with: AuditTrailState.exportJSON(from: store)) as? [[String: Any]]
        #expect(json?.count == entries.count)
        #expect(json?.first?["event"] as? String == "archiveCreated")
    }

    @Test func archiveStatusShowsIntegrityOnlyOnceChecked() throws {
        let archive = try AuditedArchive()
        let store = try archive.open()
        let context = ContextMonitor(store: store)
        try context.recordICloudAccount(signedIn: true, at: Date(timeIntervalSince1970: 946_684_800))
        try context.record(.iCloudSync, detail: "sync finished", at: Date(timeIntervalSince1970: 946_771_200))
        let before = try ArchiveStatusState.load(from: store, sync: context, path: archive.path, format: .utc)
        #expect(before.integrity == nil)
        #expect(before.iCloud == "signed in")
        #expect(before.lastSync == "2000-01-02 00:00 UTC")
        #expect(before.contextEvents.map(\.kind) == ["iCloud sync", "iCloud account"])
        #expect(before.captures == 2)
        #expect(before.lastVerified != nil)
        #expect(before.types.reduce(0) { $0 + $1.records } == before.recordsTracked)
        #expect(before.sizeBytes > 0)
        try store.checkIntegrity(now: Date(timeIntervalSince1970: 946_857_600))
        let after = try ArchiveStatusState.load(from: store, sync: context, path: archive.path, format: .utc)
        #expect(after.integrity == "ok")
        #expect(after.integrityRole == .healthy)
        #expect(after.integrityCheckedAt == "2000-01-03 00:00 UTC")
    }
}

/// Sizes as a person reads the limits they set.
@Suite("Screen formats")
struct ScreenFormatTests {
    @Test func sizesAreInBinaryUnitsAsTheLimitsAreGiven() {
        let format = ScreenFormat.utc
        #expect(format.bytes(8 << 30) == "8 GiB")
        #expect(format.bytes(40 << 20) == "40 MiB")
        #expect(format.bytes(3 << 19) == "1.5 MiB")
        #expect(format.bytes(512) == "512 bytes")
        #expect(format.bytes(1_000_000) == "976.6 KiB")
    }
}

/// Evidence as people read it, keys kept for tools.
@Suite("Evidence labels")
struct EvidenceLabelTests {
    @Test func keysReadAsWords() {
        #expect(EvidenceText.words("previousCount") == "Previous count")
        #expect(EvidenceText.words("lossPercent") == "Loss percent")
        #expect(EvidenceText.words("dayUTC") == "Day UTC")
        #expect(EvidenceText.words("surplusAlreadyPresent") == "Extra copies already there")
        #expect(EvidenceText.words("masked") == "Hidden by new records")
        #expect(EvidenceText.words("dateRange") == "Date range")
        #expect(EvidenceText.words("sigma") == "Sigma")
    }

    @Test func valuesReadAsPeopleReadThem() {
        let time = ReadableTime(zone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(EvidenceText.shown("false", key: "masked", time: time) == "no")
        #expect(EvidenceText.shown("1728", key: "previousCount", time: time) == "1,728")
        // An id is a name, not an amount: never grouped.
        #expect(EvidenceText.shown("12345", key: "previousCaptureId", time: time) == "12345")
        #expect(
            EvidenceText.shown("2000-02-18T00:07:46.125Z", key: "firstDate", time: time) == "2000-02-18 01:07:46 CET")
        #expect(
            EvidenceText.shown("2000-03-14T00:30:00Z", key: "previousExportDate", time: time)
                == "2000-03-14 01:30:00 CET")
        #expect(EvidenceText.shown("13.9", key: "lossPercent", time: time) == "13.9")
        #expect(
            EvidenceText.shown("2000-02-18 – 2000-02-27", key: "dateRange", time: time) == "2000-02-18 – 2000-02-27")
    }
}
