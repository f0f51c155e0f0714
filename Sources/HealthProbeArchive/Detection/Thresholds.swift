/// Every number the detectors decide with, in one place, with its reason. Per sample type, the
/// grace period for late writers can be overridden (``graceOverrides``), and any detector's
/// limits can be replaced wholesale (``perSampleType``).
public struct Thresholds: Sendable, Equatable {
    // MARK: silent_deletion — severity by proof and harm (docs/DESIGN.md §8)
    //
    // A record that vanished with nothing to explain it (no deletion, sync-version replacement or
    // edit) is a proven loss: each one is a fact established by identity, not a noisy count drop,
    // so it is a warning however small its share. It is critical when the loss is large, or when
    // what was lost cannot be measured again.

    /// More than this share of the type's records in P vanished: critical.
    public var deletionCriticalShare = 0.05
    /// At least this many records vanished: critical whatever the share.
    public var deletionCriticalCount = 1_000
    /// A vanished record that ended this long before P's export date is critical: a year-old
    /// sample is history no device will record again.
    public var deletionCriticalAgeSeconds = 365.0 * 86_400
    /// Kinds of record whose every loss is critical: a workout, an ECG recording or a clinical
    /// record cannot be measured again. (An export files clinical records under their FHIR
    /// resource type, `Procedure`, `Immunization`, …, hence kinds as well as types.)
    public var irreplaceableKinds: Set<HealthRecord.Kind> = [.workout, .electrocardiogram, .clinicalRecord]
    /// Sample types whose every loss is critical, matched by prefix: one entry covers every
    /// HealthKit clinical type.
    public var irreplaceableTypePrefixes = [
        "HKWorkoutTypeIdentifier", "HKDataTypeIdentifierElectrocardiogram", "HKClinicalTypeIdentifier",
    ]

    /// Whether every loss of `sampleType`, or of a record of one of `kinds`, is critical.
    public func isIrreplaceable(_ sampleType: String, kinds: Set<HealthRecord.Kind> = []) -> Bool {
        !kinds.isDisjoint(with: irreplaceableKinds) || irreplaceableTypePrefixes.contains { sampleType.hasPrefix($0) }
    }

    // MARK: historical_insertion

    /// How late a sample may arrive before it counts as backfilled: its end must be this long
    /// before the previous export's date. HealthKit writers commonly sync within days.
    public var graceSeconds = 7.0 * 86_400
    /// Known late writers: matched by sample type, and by source when `sourceContains` is set.
    public var graceOverrides: [GraceOverride] = GraceOverride.knownLateWriters
    /// At least this many backfilled records is a warning; fewer is info…
    public var insertionWarningCount = 10
    /// …unless one of them is older than this, which is a warning too (a year-old sample
    /// appearing now is worth a look however few).
    public var insertionWarningAgeSeconds = 365.0 * 86_400

    // MARK: duplicate

    /// Copies lose nothing, and a day's figures count each sample once (docs/DESIGN.md §8a):
    /// surplus copies are information, never critical. A replay storm — one sample written at
    /// least this many times — is a warning: a writer gone wrong.
    public var duplicateStormCopies = 10

    // MARK: value_modified

    /// Rewritten values are a warning; critical when they reach this share of the type's records.
    public var modificationCriticalShare = 0.10

    // MARK: times_modified — a record whose start or end moved, its value kept

    /// A vanished record and a new one of the same type, source, value and unit are one record
    /// edited when neither end moved more than this…
    public var timesModifiedWindowSeconds = 3_600.0
    /// …information when neither moved more than this (a night re-analysed by a minute), else a
    /// warning: the day's figures may move.
    public var timesModifiedInfoShiftSeconds = 900.0

    // MARK: bulk_deletion (live path) — explicit deletions are audit entries unless this large

    /// Explicit deletions of at least this share of a type's records in one check…
    public var bulkDeletionShare = 0.25
    /// …and at least this many records are a bulk deletion (a warning); fewer is a user tidying up.
    public var bulkDeletionCount = 50

    // MARK: source_overlap — always info: it inflates sums, nothing is lost.

    // MARK: self_overlap — one source's records of a summed type or sleep covering the same time

    /// A self-overlap is a warning when one case claims at least this much time beyond what
    /// passed (a night of nested sessions claiming 28 hours); a few minutes shared where one
    /// session ends as the next begins inflates nothing anyone would see: information.
    public var selfOverlapWarningExcessSeconds = 3_600.0
    /// Two records of one source overlap when they share more than this much time. Exports write
    /// whole seconds, and a writer may start its next sample a few seconds before the last one
    /// ended: a minute of shared time is noise; nested sessions share hours.
    public var selfOverlapToleranceSeconds = 60.0
    /// Summed types whose records self-overlap compares too (steps, energy, distance: sums count
    /// shared time twice). None by default: nested sleep is the pattern reported in the field,
    /// while one source's summed samples overlapping by a few minutes is common in data that
    /// loses nothing (the demo's and the generators' writers do it). `HealthKitCatalog` lists
    /// the summed types for whoever opts in.
    public var selfOverlapSummedTypes: Set<String> = []

    // MARK: conflicting_values — one source, one type, one interval, two values

    /// The later of two such records must have been written at least this long after the other
    /// to be an edit that added instead of replacing; closer, they are one sensor's samples that
    /// an export's whole seconds made look simultaneous.
    public var conflictMinimumRewriteSeconds = 60.0

    // MARK: divergence — recent window against the baseline window before it, by local day

    /// The recent window: the last full days before the export's day.
    public var divergenceRecentDays = 7
    /// The baseline window just before the recent one.
    public var divergenceBaselineDays = 28
    /// Days with data the baseline needs before the test says anything.
    public var divergenceMinimumBaselineDays = 21
    /// Days with data the recent window needs.
    public var divergenceMinimumRecentDays = 5
    /// σ-ratio test: |recent mean − baseline mean| / baseline σ at or above this fires.
    public var divergenceSigmaRatio = 3.0
    /// σ is at least this share of the baseline mean, so that a flat series does not make any
    /// wobble a divergence.
    public var divergenceMinimumRelativeSigma = 0.05
    /// Level-shift test: the recent median differs from the baseline median by at least this
    /// share of it, and every recent day lies on that side of the baseline median.
    public var divergenceLevelShift = 0.5
    /// A drop of at least this share is a warning (a writer that nearly stopped); else info.
    public var divergenceWarningDrop = 0.8

    /// Limits replaced for particular sample types.
    public var perSampleType: [String: Thresholds] = [:]

    public init() {}

    /// The limits that apply to `sampleType`.
    public func applying(to sampleType: String) -> Thresholds {
        perSampleType[sampleType] ?? self
    }

    /// The grace period for a sample of `sampleType` written by `source`.
    public func grace(sampleType: String, source: String?) -> Double {
        let limits = applying(to: sampleType)
        var grace = limits.graceSeconds
        for override in limits.graceOverrides where override.matches(sampleType: sampleType, source: source) {
            grace = max(grace, override.graceSeconds)
        }
        return grace
    }
}

/// A longer grace period for writers known to deliver late.
public struct GraceOverride: Sendable, Equatable {
    public var sampleType: String
    /// Case-insensitive part of the source name; nil for any source.
    public var sourceContains: String?
    public var graceSeconds: Double

    public init(sampleType: String, sourceContains: String? = nil, days: Double) {
        self.sampleType = sampleType
        self.sourceContains = sourceContains
        self.graceSeconds = days * 86_400
    }

    func matches(sampleType: String, source: String?) -> Bool {
        guard sampleType == self.sampleType else { return false }
        guard let part = sourceContains else { return true }
        return source?.lowercased().contains(part.lowercased()) ?? false
    }

    /// Samples HealthKit or their apps compute after the fact: resting and walking heart rate,
    /// VO₂ max and walking steadiness are derived from days or weeks of data; third-party scales
    /// and blood-pressure cuffs sync when their app is next opened.
    public static let knownLateWriters: [GraceOverride] =
        [
            GraceOverride(sampleType: "HKQuantityTypeIdentifierRestingHeartRate", days: 14),
            GraceOverride(sampleType: "HKQuantityTypeIdentifierWalkingHeartRateAverage", days: 14),
            GraceOverride(sampleType: "HKQuantityTypeIdentifierVO2Max", days: 30),
            GraceOverride(sampleType: "HKQuantityTypeIdentifierAppleWalkingSteadiness", days: 30),
            GraceOverride(sampleType: "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute", days: 14),
        ]
        + [
            "BodyMass", "BodyFatPercentage", "BodyMassIndex", "LeanBodyMass", "BloodPressureSystolic",
            "BloodPressureDiastolic",
        ].map { GraceOverride(sampleType: "HKQuantityTypeIdentifier\($0)", days: 30) }
}
