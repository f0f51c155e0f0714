/// One type's figure for one local day as the Health app shows it (docs/DESIGN.md §8a): a
/// cumulative quantity's total with each moment taken from the best-placed source, the time
/// asleep in the day, or a discrete type's average, lowest and highest — with its work shown:
/// what each source gave and what was left out as overlap.
public struct DayFigure: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// Steps, distance, energy…: summed over time, overlaps counted once.
        case cumulative
        /// Time asleep (hours), with time in bed beside it.
        case sleep
        /// Heart rate, body mass…: every sample, copies once.
        case discrete
    }

    /// What one source contributed to the day.
    public struct SourcePart: Sendable, Equatable {
        public var source: String
        /// Its place in the type's order: 1 is the most trusted.
        public var place: Int
        /// Why it has that place ("entered by hand", "Apple Watch", "iPhone", "app or device").
        public var tier: SourceTier
        /// What of it counts in the figure (the quantity, or hours asleep).
        public var counted: Double
        /// What of it was left out: covered at that moment by a better-placed source.
        public var overlapped: Double
        /// Its samples that touch the day (exact copies once).
        public var samples: Int
    }

    /// One sample of the day: who wrote it, and when it began and ended (seconds since 1970).
    public struct Entry: Sendable, Equatable {
        public var source: String
        public var tier: SourceTier
        public var start: Double
        public var end: Double

        public var hours: Double { (end - start) / 3_600 }
    }

    /// How long before local midnight a day's night begins: sleep counts on the day it ends
    /// (the night from Monday to Tuesday is Tuesday's, as Health shows it), from 18:00 the evening
    /// before to 18:00, so that a night is never split at midnight and a day never holds more
    /// than its own length asleep.
    public static let nightBeforeMidnight: Double = 6 * 3_600

    public var type: String
    /// Days since 1970-01-01 in the zone the figures were read in.
    public var day: Int64
    public var kind: Kind
    /// The unit the figures are in (the records' own; hours for sleep).
    public var unit: String?
    /// The day's figure: the total, the hours asleep, or the mean.
    public var value: Double
    public var minimum: Double?
    public var maximum: Double?
    /// Hours in bed (sleep only), beside the hours asleep.
    public var inBed: Double?
    /// When the night's counted sleep began (sleep only; seconds since 1970).
    public var asleepFrom: Double?
    /// The night's longest asleep entry (sleep only), what a night that looks wrong is read by.
    public var longestAsleep: Entry?
    /// Samples that touch the day, exact copies once.
    public var samples: Int
    /// Exact copies left out (same source, times and value).
    public var copies: Int
    /// The sources in the type's order.
    public var sources: [SourcePart]
}

/// Where a source stands in Health's default order, before the user reorders it.
public enum SourceTier: String, Sendable, Codable, Comparable {
    /// A sample entered by hand in the Health app (`HKWasUserEntered`).
    case enteredByHand
    /// An Apple Watch (its device's model or name, else the source's name, says "Watch").
    case appleWatch
    /// An iPhone (its device's model or name, else the source's name, says "iPhone").
    case iPhone
    /// Every other app or device: the one that began writing the type last comes first.
    case otherApp

    public static func < (left: SourceTier, right: SourceTier) -> Bool { left.rank < right.rank }

    var rank: Int {
        switch self {
        case .enteredByHand: 0
        case .appleWatch: 1
        case .iPhone: 2
        case .otherApp: 3
        }
    }

    /// How people name it.
    public var words: String {
        switch self {
        case .enteredByHand: "entered by hand"
        case .appleWatch: "Apple Watch"
        case .iPhone: "iPhone"
        case .otherApp: "app or device"
        }
    }
}
