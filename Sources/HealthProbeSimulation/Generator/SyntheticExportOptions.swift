import HealthProbeKit

/// What a synthetic export holds. Every record is derived from (seed, index) alone, so two
/// exports made with the same seed hold the same records whatever else differs: the UTC offset
/// the dates are written at, the HKDevice addresses, or which records were left out.
public struct SyntheticExportOptions: Sendable {
    /// How many top-level elements (records, correlations, workouts, summaries) to write at most.
    public var elementCount: Int
    public var seed: UInt64
    /// The offset every timestamp of the export is written at, in seconds (`+0100` is 3600).
    public var utcOffsetSeconds: Int
    /// Seeds the HKDevice memory addresses, which change from export to export.
    public var deviceAddressSeed: UInt64
    /// Leave out every element whose index is a multiple of this (100 leaves out 1%).
    public var omitEveryNth: Int?
    /// Days since 1970 of the first sample (10957 is 2000-01-01).
    public var firstDay: Int64
    /// Seconds between consecutive elements.
    public var spacingSeconds: Int64
    /// Write the malformed DTD of iOS 16 exports.
    public var malformedDTD: Bool
    /// Put a stray 0x0B byte in some metadata values, as some exports do.
    public var strayControlBytes: Bool
    /// Write the `HealthData` root under this file name inside the zip or folder.
    public var mainFileName: String
    /// What goes wrong in this export, for scenarios: losses, writer bugs, rewrites, overlaps.
    public var incidents: [SyntheticIncident] = []
    /// Seconds between a route's track points (60: a few dozen points a workout; 5: about
    /// 100 KB of GPX a workout, as a real run's route).
    public var routePointSeconds: Int64 = 60
    /// Every this many workouts has a route (1: all of them; 5: a fifth, about 2,000 in 1M items).
    public var routesEvery = 1
    /// ECG recordings written beside the main XML (`electrocardiograms/`), 30 seconds at 512 Hz each.
    public var electrocardiograms = 0
    /// The instant the export says it was made (seconds since 1970); nil for a day after its last
    /// sample. Two exports of other sizes made "at the same time" share one.
    public var exportDate: Int64?
    /// Whether a zip or folder holds the route and ECG files; without them, the main XML alone
    /// (its workouts still refer to their routes), for comparing what the files cost.
    public var writesFiles = true

    public init(
        elementCount: Int, seed: UInt64 = 1, utcOffsetSeconds: Int = 0, deviceAddressSeed: UInt64 = 1,
        omitEveryNth: Int? = nil, firstDay: Int64 = 10_957, spacingSeconds: Int64 = 90, malformedDTD: Bool = false,
        strayControlBytes: Bool = false, mainFileName: String = "export.xml"
    ) {
        self.elementCount = elementCount
        self.seed = seed
        self.utcOffsetSeconds = utcOffsetSeconds
        self.deviceAddressSeed = deviceAddressSeed
        self.omitEveryNth = omitEveryNth
        self.firstDay = firstDay
        self.spacingSeconds = spacingSeconds
        self.malformedDTD = malformedDTD
        self.strayControlBytes = strayControlBytes
        self.mainFileName = mainFileName
    }
}

/// Something that happens to some items of a synthetic export — the troubles HealthProbe exists
/// to notice. Applies to items in `items`, of `sampleType` only when one is given.
public struct SyntheticIncident: Sendable {
    public enum Effect: Sendable {
        /// Left out (a loss; or, left out of earlier exports, a later backfill).
        case omit
        /// Written this many times in all (a writer bug).
        case duplicate(copies: Int)
        /// Written with another value (records only).
        case rewriteValue
        /// Written a second time from the other source (Watch and iPhone both writing; records only).
        case crossSourceCopy
    }

    public var items: Range<Int>
    public var sampleType: String?
    public var effect: Effect

    public init(_ effect: Effect, items: Range<Int>, sampleType: String? = nil) {
        self.effect = effect
        self.items = items
        self.sampleType = sampleType
    }

    func applies(to index: Int, sampleType: String) -> Bool {
        items.contains(index) && (self.sampleType == nil || self.sampleType == sampleType)
    }
}

/// SplitMix64: a small, fast, seedable generator; each element gets its own stream (and the
/// tests' random sequences theirs, replayed from a seed).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64, stream: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ stream &* 0xD1B5_4A32_D192_ED03
        _ = next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
