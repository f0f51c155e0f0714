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
            let name = ["UTC", "Etc/UTC"].contains(identifier) ? "UTC" : zone.abbreviation(for: date)!
            #expect(readable.minute(date) == "\(clock) \(name)", "\(identifier) \(seconds)")
            #expect(readable.second(date) == "\(clock):\(String(format: "%02d", parts.second!)) \(name)")
        }
    }

    @Test func utcReadsAsUTC() {
        #expect(ReadableTime.utc.second(Date(timeIntervalSince1970: 946_722_615)) == "2000-01-01 10:30:15 UTC")
    }
}
