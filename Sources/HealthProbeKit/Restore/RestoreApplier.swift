import Foundation
import HealthProbeArchive

/// Where restored samples are written: HealthKit on the iPhone (`HealthProbeHealthKit`), the
/// simulated store in tests and the demo.
public protocol RestoreDestination: Sendable {
    /// Asks the person to let HealthProbe write `types` (only types ``HealthKitWriting`` knows
    /// writable are ever asked); returns those it may write.
    func requestWriteAccess(to types: Set<String>) async throws -> Set<String>
    /// Saves one sample as HealthProbe's. `.alreadyThere` when Health holds a sample of its sync
    /// identifier at an equal or higher version (HealthKit refuses it: written before).
    func saveRestored(_ sample: HealthSample) async throws -> RestoreSave
}

public enum RestoreSave: Sendable, Equatable {
    case saved
    case alreadyThere
}

/// What a restore did: the counts a person is told and the trail keeps, never a value.
public struct RestoreOutcome: Sendable, Equatable {
    public var written = 0
    /// Written by an earlier restore of the same record: left as it is.
    public var alreadyThere = 0
    /// Types Health keeps for itself, or that this version does not know writable: listed, never
    /// asked for (type → records).
    public var notWritable: [String: Int] = [:]
    /// Types the person did not let HealthProbe write (type → records).
    public var refused: [String: Int] = [:]
    /// Records whose save failed for another reason.
    public var failed = 0
    /// Stopped before the end: what was written stays, and a second restore finishes the rest.
    public var cancelled = false
}

/// Writes a restore file's samples into Health once: each with the archived record's identifier
/// as `HKMetadataKeySyncIdentifier` at version 1 (a second restore replaces nothing and adds
/// nothing), the original source, device and creation date in HealthProbe's own metadata keys,
/// never marked entered by hand; permission asked for just the types it holds that apps may write.
public struct RestoreApplier: Sendable {
    /// The metadata keys a restored sample carries besides the sync identifier and version.
    public enum Key {
        public static let originalSource = "HealthProbeOriginalSource"
        public static let originalSourceVersion = "HealthProbeOriginalSourceVersion"
        public static let originalDevice = "HealthProbeOriginalDevice"
        public static let originalCreationDate = "HealthProbeOriginalCreationDate"
        /// The anomaly that proved the record lost.
        public static let anomaly = "HealthProbeRestoredAnomaly"
    }

    /// The keys never written back: who entered it by hand is the person, not HealthProbe; the
    /// original's own sync keys would fight the restore's.
    static let keysNotWritten: Set<String> = [
        "HKWasUserEntered", HealthSample.syncIdentifierKey, HealthSample.syncVersionKey,
    ]

    public let file: RestoreFile

    public init(_ file: RestoreFile) { self.file = file }

    /// The samples it would write, and those it will not (type → records).
    public func plan() -> (samples: [HealthSample], notWritable: [String: Int]) {
        var samples: [HealthSample] = []
        var notWritable: [String: Int] = [:]
        for record in file.records {
            guard HealthKitWriting.verdict(for: record.type) == .writable, let sample = Self.sample(record) else {
                notWritable[record.type, default: 0] += 1
                continue
            }
            samples.append(sample)
        }
        return (samples, notWritable)
    }

    /// Writes the samples, telling `progress` how many of how many are done; stops between two
    /// saves when `isCancelled` says so.
    public func apply(
        to destination: any RestoreDestination, progress: (@Sendable (Int, Int) -> Void)? = nil,
        isCancelled: @Sendable () -> Bool = { false }
    ) async throws -> RestoreOutcome {
        let (samples, notWritable) = plan()
        var outcome = RestoreOutcome(notWritable: notWritable)
        let types = Set(samples.map(\.type))
        let allowed = types.isEmpty ? [] : try await destination.requestWriteAccess(to: types)
        for (index, sample) in samples.enumerated() {
            if isCancelled() {
                outcome.cancelled = true
                break
            }
            if !allowed.contains(sample.type) {
                outcome.refused[sample.type, default: 0] += 1
            } else {
                do {
                    switch try await destination.saveRestored(sample) {
                    case .saved: outcome.written += 1
                    case .alreadyThere: outcome.alreadyThere += 1
                    }
                } catch {
                    outcome.failed += 1
                }
            }
            progress?(index + 1, samples.count)
        }
        return outcome
    }

    /// One record as HealthProbe writes it back; nil for a category value this version cannot name.
    static func sample(_ record: RestoreFile.Sample) -> HealthSample? {
        guard let start = UTCText.parseISO8601(record.startDate), let end = UTCText.parseISO8601(record.endDate)
        else { return nil }
        let isCategory = record.type.hasPrefix("HKCategoryTypeIdentifier")
        let value: Double
        if isCategory {
            let raw = record.categoryValue.flatMap { HealthKitCatalog.categoryRawValue(type: record.type, text: $0) }
            guard let raw = raw.map(Double.init) ?? record.value else { return nil }
            value = raw
        } else {
            guard let quantity = record.value, record.unit != nil else { return nil }
            value = quantity
        }
        var metadata: [String: String] = [:]
        for pair in record.metadata where pair.count == 2 && !keysNotWritten.contains(pair[0]) {
            metadata[pair[0]] = pair[1]
        }
        metadata[HealthSample.syncIdentifierKey] = record.restoreIdentifier
        metadata[HealthSample.syncVersionKey] = "1"
        metadata[Key.anomaly] = String(record.anomaly)
        metadata[Key.originalSource] = record.sourceName
        metadata[Key.originalSourceVersion] = record.sourceVersion
        metadata[Key.originalDevice] = record.device
        metadata[Key.originalCreationDate] = record.creationDate
        return HealthSample(
            kind: isCategory ? .category : .quantity, type: record.type, sourceName: "HealthProbe",
            unit: isCategory ? nil : record.unit, value: value, startDate: start, endDate: end, metadata: metadata)
    }
}
