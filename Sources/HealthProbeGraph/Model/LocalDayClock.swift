import Foundation

/// Puts instants on the person's local days, those of the zone the sync was given (one zone for
/// every face: docs/DESIGN.md §8a), and gives the offset of any zone (a workout's times are
/// written in its own `HKTimeZone`). Offsets are remembered per zone and hour, since a million
/// samples of one type come in time order and share a handful.
public struct LocalDayClock {
    public let defaultZone: TimeZone
    private var zones: [String: TimeZone] = [:]
    private var unknownZones: Set<String> = []
    private var lastOffsets: [String: (hour: Int64, offset: Int64)] = [:]

    public init(defaultZone: TimeZone) {
        self.defaultZone = defaultZone
    }

    /// The local day of an instant (seconds since 1970, UTC).
    public mutating func day(of instant: Double) -> LocalDay {
        let offset = offset(at: instant, zone: nil)
        return LocalDay(Int64(((instant + Double(offset)) / 86_400).rounded(.down)))
    }

    /// The zone's offset from UTC at the instant, in seconds.
    public mutating func offset(at instant: Double, zone zoneName: String?) -> Int64 {
        let zone = resolved(zoneName)
        let hour = Int64((instant / 3600).rounded(.down))
        if let last = lastOffsets[zone.identifier], last.hour == hour { return last.offset }
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)))
        lastOffsets[zone.identifier] = (hour, offset)
        return offset
    }

    private mutating func resolved(_ name: String?) -> TimeZone {
        guard let name, !unknownZones.contains(name) else { return defaultZone }
        if let known = zones[name] { return known }
        guard let zone = TimeZone(identifier: name) else {
            unknownZones.insert(name)
            return defaultZone
        }
        zones[name] = zone
        return zone
    }

    /// The `HKTimeZone` of a record's metadata as the archive stores it (`[["key","value"],…]`),
    /// found without decoding the JSON.
    public static func zoneName(inMetadata metadata: UnsafeBufferPointer<UInt8>?) -> String? {
        guard let metadata, metadata.count > marker.count else { return nil }
        var index = 0
        let last = metadata.count - marker.count
        while index <= last {
            if metadata[index] == marker[0] && zip(marker.indices, index...).allSatisfy({ marker[$0] == metadata[$1] })
            {
                let start = index + marker.count
                guard let end = metadata[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: metadata[start..<end]), as: UTF8.self)
            }
            index += 1
        }
        return nil
    }

    private static let marker = Array("\"HKTimeZone\",\"".utf8)
}
