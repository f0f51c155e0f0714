import Foundation
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

/// A real headless Chromium on `healthprobe serve`, as a person would use it. Screenshots of
/// each tab go to `.build/screenshots/`.
@Suite("Dashboard: in a real browser", .enabled(if: WebDriver.isInstalled, "needs chromium and chromium-driver"))
struct BrowserTests {
    static let screenshots: URL = {
        let folder = CommandRunner.executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("screenshots")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// `healthprobe serve` on the archive, and the launch address it printed.
    static func serve(_ archive: AuditedArchive) async throws -> (Process, String) {
        let server = Process()
        server.executableURL = CommandRunner.executable
        server.arguments = ["serve", "--archive", archive.path]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        let line = try await ProcessLines.first(matching: "http://", in: output)
        guard let url = line.split(separator: " ").last.map(String.init) else {
            server.terminate()
            throw WebDriverError(message: "serve printed no address")
        }
        return (server, url)
    }

    @Test func aPersonVisitsEveryTabResolvesChangesASettingAndChecksAnExport() async throws {
        let archive = try AuditedArchive()
        let upload = try archive.writeExport(
            named: "export.zip", SyntheticExportOptions(elementCount: 3_000, seed: 7, omitEveryNth: 25))
        let (server, url) = try await Self.serve(archive)
        defer { server.terminate() }
        #expect(url.hasPrefix("http://127.0.0.1:"))

        let browser = try await WebDriver()
        do {
            try await browser.open(url)
            #expect(try await browser.waitFor("Recent alerts", seconds: 30))
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("dashboard.png"))
            for (label, file, heading) in [
                ("Anomalies", "anomalies", "Anomalies"), ("Audit Trail", "audit", "Audit Trail"),
                ("Archive Status", "archive", "Types covered"), ("Settings", "settings", "Check frequency"),
            ] {
                try await browser.click("nav a[href='/\(file == "anomalies" ? "anomalies" : file)']")
                #expect(try await browser.waitFor(heading, seconds: 30), "\(label)")
                try await browser.screenshot(to: Self.screenshots.appendingPathComponent("\(file).png"))
            }

            // Filter the anomalies, open one, reveal its values, resolve it.
            try await browser.click("nav a[href='/anomalies']")
            try await browser.click("nav.chips a:nth-child(3)")  // Warning
            #expect(try await browser.waitUntil("location.search.includes('severity=warning')"))
            let filtered = try await browser.text()
            #expect(filtered.contains("Warning"))
            #expect(!filtered.contains("Info\nduplicates"))
            try await browser.click("ul.rows a.row-link")
            #expect(try await browser.waitFor("Evidence", seconds: 30))
            let columns = "document.querySelectorAll('table.records thead th').length"
            #expect(try await browser.waitUntil("\(columns) == 4"), "no value column before the reveal")
            try await browser.click("form[action*='/reveal'] button")
            #expect(try await browser.waitUntil("\(columns) == 5"), "a value column after it")
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("anomaly-detail.png"))
            let openBefore = try archive.open().fetchAnomalies().count
            try await browser.click("form[action$='/resolve'] button")
            #expect(try await browser.waitUntil("!document.querySelector(\"form[action$='/resolve']\")"))
            #expect(try archive.open().fetchAnomalies().count == openBefore - 1)

            // Change a setting.
            try await browser.click("nav a[href='/settings']")
            try await browser.click("input[name='frequency'][value='12']")
            try await browser.click("form.settings button[type='submit']")
            #expect(try await browser.waitFor("Settings saved.", seconds: 30))
            #expect(try archive.open().fetchSettings().checkFrequency == .every12Hours)

            // Check an export: upload, progress, result.
            try await browser.open(url.replacingOccurrences(of: "/?token", with: "/check?token"))
            #expect(try await browser.waitUntil("document.querySelector(\"input[type='file']\")"))
            try await browser.type(upload.path, into: "input[type='file']")
            try await browser.click("form.upload button[type='submit']")
            #expect(try await browser.waitFor("Capture 3:"), "the check's result page")
            let result = try await browser.text()
            #expect(result.contains("gone"))
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("check-result.png"))
            #expect(try archive.open().fetchOverview().captures == 3)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    /// Every page at a desktop's and a phone's width, light and dark: nothing wider than the
    /// window, no visible text under 11 px, dark pages dark. Screenshots of each go to
    /// `.build/screenshots/` (`dashboard-390-dark.png`, …) to be looked at.
    @Test func everyPageFitsAPhoneAndReadsInLightAndDark() async throws {
        let archive = try AuditedArchive()
        let store = try archive.open()
        let lost = try #require(try store.fetchAnomalies().first { $0.type == .silentDeletion })
        let captures = try store.fetchCaptures().map(\.id)
        let lostDay = try #require(try store.fetchAnomalyDays(id: lost.id, zone: try store.dayZone())).firstDate
        let (server, url) = try await Self.serve(archive)
        defer { server.terminate() }
        let base = try #require(url.components(separatedBy: "/?").first)
        let pages = [
            ("dashboard", "/"), ("anomalies", "/anomalies"), ("anomaly", "/anomalies/\(lost.id)"),
            ("audit", "/audit"), ("archive", "/archive"), ("settings", "/settings"),
            ("delete", "/settings/delete"), ("check", "/check"), ("captures", "/captures"),
            ("compare", "/captures/compare?from=\(captures[0])&to=\(captures[1])"), ("day", "/day?date=\(lostDay)"),
        ]
        let browser = try await WebDriver()
        do {
            try await browser.open(url)
            for (width, height) in [(1280, 900), (390, 844)] {
                try await browser.resize(width: width, height: height)
                for dark in [false, true] {
                    try await browser.prefersDark(dark)
                    for (name, path) in pages {
                        try await browser.open(base + path)
                        #expect(try await browser.waitUntil("document.readyState === 'complete'"))
                        let problems = try await browser.layoutProblems()
                        let shot = "\(name)-\(width)\(dark ? "-dark" : "")"
                        #expect(problems.overflow <= 0, "\(shot) is \(problems.overflow) px wider than the window")
                        #expect(problems.smallText.isEmpty, "\(shot): text under 11 px: \(problems.smallText)")
                        #expect(problems.cut.isEmpty, "\(shot): cut off or scrolled sideways: \(problems.cut)")
                        #expect(problems.split.isEmpty, "\(shot): numbers broken across lines: \(problems.split)")
                        let background =
                            try await browser.script(
                                "return getComputedStyle(document.body).backgroundColor") as? String
                        #expect(background == (dark ? "rgb(17, 19, 23)" : "rgb(246, 247, 249)"), "\(shot)")
                        try await browser.screenshot(to: Self.screenshots.appendingPathComponent("\(shot).png"))
                        if name == "dashboard" {
                            // Ten years of records on a phone: the card's count stays whole.
                            _ = try await browser.script(
                                "for (const f of document.querySelectorAll('.figure')) f.textContent = '7,510,575'; return 0"
                            )
                            let long = try await browser.layoutProblems()
                            #expect(long.split.isEmpty && long.overflow <= 0, "\(shot) with 7,510,575: \(long)")
                        }
                    }
                }
            }
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }
}
