import Foundation
import Testing

@testable import AppleHealthExport

@Suite("Dates, devices and times of day")
struct ValueParsingTests {
    @Test func exportTimestampsBecomeUTCInstants() throws {
        let plus = try #require(AppleExportTimestamp(exportText: "2000-01-01 01:00:00 +0100"))
        let minus = try #require(AppleExportTimestamp(exportText: "1999-12-31 17:00:00 -0700"))
        #expect(plus.secondsSince1970 == 946_684_800)
        #expect(minus.secondsSince1970 == 946_684_800)
        #expect(plus.utcOffsetSeconds == 3600)
    }

    @Test(arguments: [
        "2000-13-01 00:00:00 +0000", "2000-02-30 00:00:00 +0000", "2000-01-01 24:00:00 +0000",
        "2000-01-01 00:00:00 0000", "2000-01-01T00:00:00 +0000", "2000-01-01 00:00:00", "",
    ])
    func impossibleTimestampsAreRejected(_ text: String) {
        #expect(AppleExportTimestamp(exportText: text) == nil)
    }

    @Test func leapDayIsAccepted() {
        #expect(AppleExportTimestamp(exportText: "2000-02-29 12:00:00 +0000") != nil)
        #expect(AppleExportTimestamp(exportText: "1900-02-29 12:00:00 +0000") == nil)
    }

    @Test func civilCalendarRoundTrips() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let date = CivilCalendar.date(daysSince1970: days)
            #expect(CivilCalendar.daysSince1970(year: date.year, month: date.month, day: date.day) == days)
        }
    }

    @Test func deviceDescriptionDropsTheAddress() {
        let first = DeviceDescription(
            exportText:
                "<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch2,4, software:4.3.1>"
        )
        let second = DeviceDescription(
            exportText:
                "<<HKDevice: 0x3012772a0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch2,4, software:4.3.1>"
        )
        #expect(first == second)
        #expect(
            first.canonicalText
                == "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch2,4, software:4.3.1")
        #expect(first["hardware"] == "Watch2,4")
        #expect(first["manufacturer"] == "Apple Inc.")
    }

    @Test func freeTextDeviceIsKept() {
        let device = DeviceDescription(exportText: "Test Scale, firmware 2")
        #expect(device.isFreeText)
        #expect(device.canonicalText == "Test Scale, firmware 2")
        #expect(device.fields.isEmpty)
    }

    @Test func beatTimesResolveOnTheRecordsLocalDay() throws {
        let start = try #require(AppleExportTimestamp(exportText: "2000-01-01 11:26:00 -0800"))
        let instant = try #require(TimeOfDay.resolve("11:26:02.34 AM", onDayOf: start))
        #expect(abs(instant - Double(start.secondsSince1970) - 2.34) < 0.001)
        let afterMidnight = try #require(AppleExportTimestamp(exportText: "2000-01-01 23:59:59 +0100"))
        let next = try #require(TimeOfDay.resolve("00:00:01,5", onDayOf: afterMidnight))
        #expect(abs(next - Double(afterMidnight.secondsSince1970) - 2.5) < 0.001)
        #expect(TimeOfDay.resolve("noon-ish", onDayOf: start) == nil)
    }

    /// Beat times in the usual shapes are read on their bytes; the result must be what the
    /// general reading gives, and anything else must be left to it.
    @Test(arguments: [
        "11:26:02.34 AM", "11:26:02,34 pm", "9:05:59.5 P.M.", "12:00 a.m.", "12:00:00 AM", "23:26:02,34",
        "0:00:00", "07:08", "11:26:02.34\u{202F}PM", "11:26PM", "13:00 PM", "24:00:00", "11:60:00",
        "11:26:61.5", "11:26:02.", "11:5", "005:10", "+5:10", "11::26", "11:26:02.34.5", "11:26 xyz AM",
        "noon-ish", "", "١١:٢٦",
    ])
    func commonBeatTimeShapesReadAsTheGeneralReadingDoes(_ text: String) {
        if let fast = TimeOfDay.commonShape(text) {
            #expect(fast == TimeOfDay.anyShape(text), "\(text)")
        }
        #expect(TimeOfDay.secondsSinceMidnight(text) == TimeOfDay.anyShape(text), "\(text)")
    }

    @Test func theUsualShapesTakeTheFastReading() {
        for text in ["11:26:02.34 AM", "23:26:02,34", "12:00 a.m.", "11:26:02.34\u{202F}PM", "07:08"] {
            #expect(TimeOfDay.commonShape(text) != nil, "\(text)")
        }
    }
}

/// What a file that is not an export is told.
@Suite("Refusals")
struct RefusalMessageTests {
    @Test func aFileThatIsNotXMLIsNotQuotedAsItsRootElement() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("photo.xml")
        try Data([0x3C, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x3E, 0x00, 0x01]).write(to: binary)
        let xml = folder.appendingPathComponent("other.xml")
        try Data("<?xml version=\"1.0\"?><svg width=\"1\"/>".utf8).write(to: xml)
        for (url, expected) in [
            (binary, "photo.xml: not an Apple Health export (it does not read as XML)"),
            (xml, "other.xml: not an Apple Health export (the root element is <svg>, not <HealthData>)"),
        ] {
            do {
                try AppleExportReader(url: url).read { _ in }
                Issue.record("\(url.lastPathComponent) was read")
            } catch {
                #expect(error.localizedDescription == expected)
            }
        }
    }
}
