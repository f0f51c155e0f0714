import Foundation
import Testing

@testable import HealthProbeKit

/// Times as people read them are the calendar's: the wall clock of the zone at that instant,
/// daylight saving time and half-hour zones included, written without a calendar.
@Suite("Readable times")
struct ReadableTimeTests {
    static let zones = ["UTC", "Etc/UTC", "Europe/Paris", "America/Los_Angeles", "Asia/Kolkata", "Australia/Lord_Howe"]
    /// 1969 (before the epoch), a winter and a summer instant, the hour daylight saving time
    /// begins and ends in Paris, a fraction of a second, 2100.
    static let instants: [Double] = [
        -86_399.5, 951_868_800, 962_409_600.75, 954_032_399, 954_032_400, 972_781_199, 972_781_200, 4_102_444_799,
    ]

    @Test(arguments: zones) func theWallClockIsTheCalendars(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let readable = ReadableTime(zone: zone)
        for seconds in Self.instants {
            let date = Date(timeIntervalSince1970: seconds)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let clock = String(
                format: "%04d-%02d-%02d %02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
            let minute = readable.minute(date)
            #expect(minute.hasPrefix("\(clock) "), "\(identifier) \(seconds)")
            let name = minute.dropFirst(clock.count + 1)
            #expect(!name.isEmpty && !name.contains(" "))
            #expect(readable.second(date) == "\(clock):\(String(format: "%02d", parts.second!)) \(name)")
        }
    }

    /// Zones are named as people know them ("PST", not Linux Foundation's "GMT-8"), with
    /// daylight saving time; a zone without a known short name keeps its offset.
    @Test func zonesAreNamedAsPeopleKnowThem() throws {
        // A name learnt for another year is not taken for this one (1969 has no "PST" here).
        _ = ReadableTime(zone: try #require(TimeZone(identifier: "America/Los_Angeles")))
            .minute(Date(timeIntervalSince1970: -86_399.5))
        let winter = Date(timeIntervalSince1970: 951_868_800)
        let summer = Date(timeIntervalSince1970: 962_409_600)
        for (identifier, names) in [
            ("America/Los_Angeles", ["PST", "PDT"]), ("America/New_York", ["EST", "EDT"]),
            ("Europe/Paris", ["CET", "CEST"]), ("Europe/London", ["GMT", "BST"]),
            ("Asia/Kolkata", ["GMT+5:30", "GMT+5:30"]),
        ] {
            let readable = ReadableTime(zone: try #require(TimeZone(identifier: identifier)))
            #expect(readable.minute(winter).hasSuffix(" " + names[0]), "\(identifier): \(readable.minute(winter))")
            #expect(readable.minute(summer).hasSuffix(" " + names[1]), "\(identifier): \(readable.minute(summer))")
        }
    }

    @Test func utcReadsAsUTC() {
        #expect(ReadableTime.utc.second(Date(timeIntervalSince1970: 946_722_615)) == "2000-01-01 10:30:15 UTC")
    }
}
