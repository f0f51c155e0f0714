import Foundation

extension ArchiveStore {
    /// The setting naming the zone whose local days every face shows (an IANA name).
    static let dayZoneKey = "dayTimeZone"

    /// The zone days are shown in: the one the user chose (`settings --time-zone`), else this
    /// computer's. One zone for every face, so that a day has one answer.
    public func dayZone() throws -> TimeZone {
        try storedSetting(Self.dayZoneKey).flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
    }

    /// The chosen zone's name, nil when none was chosen.
    public func chosenDayZone() throws -> String? {
        try storedSetting(Self.dayZoneKey)
    }

    /// Chooses the zone days are shown in (nil: this computer's), noted in the trail.
    public func setDayZone(_ zone: TimeZone?) throws {
        try storeSettings(
            [Self.dayZoneKey: zone?.identifier],
            auditMessage: "Days shown in \(zone?.identifier ?? "this computer's time zone")")
    }
}
