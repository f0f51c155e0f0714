import AppleHealthExport
import Foundation
import HealthProbeArchive

/// An automatic export: how often, at what local time, in what format, to which folder.
///
/// No phone or laptop runs a task at an exact time, so the schedule does not try to: it knows its
/// slots (the times exports are due) and ``ExportScheduler`` runs one catch-up export whenever the
/// latest slot is later than the last one completed — however many were missed while the machine
/// was off, as systemd's persistent timers do.
public struct ExportSchedule: Sendable, Codable, Equatable {
    public enum Cadence: String, Sendable, Codable, CaseIterable {
        case daily, weekly, monthly
    }

    /// Which records each run exports.
    public enum Range: Sendable, Codable, Equatable {
        case all
        /// What the archive received since the last completed run (by capture, never by sample
        /// date, so late writers are not missed); everything the first time.
        case sinceLast
        /// Samples that started in the `n` days before the slot.
        case lastDays(Int)

        public var description: String {
            switch self {
            case .all: "all"
            case .sinceLast: "since-last"
            case .lastDays(let days): "last-days \(days)"
            }
        }
    }

    public var cadence: Cadence
    public var hour: Int
    public var minute: Int
    /// An IANA name: slots follow this zone's clock, daylight-saving changes included.
    public var timeZone: String
    /// Weekly: the weekday (1 = Sunday) of the day it was made; monthly: the day of the month,
    /// taken as the month's last day in shorter months.
    public var anchorDay: Int
    public var format: ExportFormat
    public var folder: String
    public var encrypted: Bool
    /// Where the password of an encrypted schedule is read from; the password is never stored.
    public var passwordFile: String?
    public var range: Range
    /// Seconds since 1970: slots before it never ran and are not owed.
    public var createdAt: Double

    public init(
        cadence: Cadence, hour: Int, minute: Int, timeZone: String, format: ExportFormat, folder: String,
        encrypted: Bool = false, passwordFile: String? = nil, range: Range = .all, createdAt: Date
    ) {
        self.cadence = cadence
        self.hour = hour
        self.minute = minute
        self.timeZone = timeZone
        self.format = format
        self.folder = folder
        self.encrypted = encrypted
        self.passwordFile = passwordFile
        self.range = range
        self.createdAt = createdAt.timeIntervalSince1970
        let day = ScheduleCalendar(zone: TimeZone(identifier: timeZone) ?? .gmt).localDay(
            of: createdAt.timeIntervalSince1970)
        anchorDay = cadence == .weekly ? day.weekday : day.day
    }

    var calendar: ScheduleCalendar { ScheduleCalendar(zone: TimeZone(identifier: timeZone) ?? .gmt) }

    /// The latest slot at or before `now`, not before the schedule was made; nil when none yet.
    public func latestSlot(atOrBefore now: Date) -> Date? {
        let calendar = calendar
        var day = calendar.localDay(of: now.timeIntervalSince1970)
        for _ in 0..<400 {
            if let slot = slot(on: day, calendar), slot <= now.timeIntervalSince1970 {
                return slot > createdAt ? Date(timeIntervalSince1970: slot) : nil
            }
            day = day.adding(days: -1)
        }
        return nil
    }

    /// The first slot after `instant`.
    public func nextSlot(after instant: Date) -> Date {
        let calendar = calendar
        var day = calendar.localDay(of: instant.timeIntervalSince1970)
        for _ in 0..<400 {
            if let slot = slot(on: day, calendar), slot > instant.timeIntervalSince1970 {
                return Date(timeIntervalSince1970: slot)
            }
            day = day.adding(days: 1)
        }
        return instant.addingTimeInterval(86_400 * 31)
    }

    /// The slot on a local day, if the cadence has one that day.
    private func slot(on day: ScheduleDay, _ calendar: ScheduleCalendar) -> Double? {
        switch cadence {
        case .daily: break
        case .weekly: guard day.weekday == anchorDay else { return nil }
        case .monthly:
            guard day.day == min(anchorDay, CivilCalendar.daysIn(month: day.month, year: day.year)) else { return nil }
        }
        return calendar.instant(of: day, hour: hour, minute: minute)
    }
}

/// A calendar day on the schedule's clock.
struct ScheduleDay: Equatable {
    var daysSince1970: Int64

    var civil: (year: Int, month: Int, day: Int) { CivilCalendar.date(daysSince1970: daysSince1970) }
    var year: Int { civil.year }
    var month: Int { civil.month }
    var day: Int { civil.day }
    /// 1 = Sunday … 7 = Saturday (1970-01-01 was a Thursday).
    var weekday: Int { Int(((daysSince1970 % 7) + 7 + 4) % 7) + 1 }

    func adding(days: Int64) -> ScheduleDay { ScheduleDay(daysSince1970: daysSince1970 + days) }
}

/// Local days and wall-clock times in one zone, across daylight-saving changes.
struct ScheduleCalendar {
    let zone: TimeZone

    func offset(_ seconds: Double) -> Double {
        Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
    }

    func localDay(of seconds: Double) -> ScheduleDay {
        ScheduleDay(daysSince1970: Int64(((seconds + offset(seconds)) / 86_400).rounded(.down)))
    }

    /// The instant the clock shows `hour:minute` on `day`. A time that occurs twice (clocks
    /// going back) is its first occurrence; a time that does not exist (clocks going forward)
    /// is the moment the clocks jump.
    func instant(of day: ScheduleDay, hour: Int, minute: Int) -> Double {
        let wall = Double(day.daysSince1970 * 86_400) + Double(hour * 3600 + minute * 60)
        let before = offset(wall - 86_400)
        let after = offset(wall + 86_400)
        let candidates = [wall - before, wall - after].filter { $0 + offset($0) == wall }
        if let first = candidates.min() { return first }
        let jump = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: wall - before - 2 * 86_400))
        return jump?.timeIntervalSince1970 ?? wall - before
    }
}
