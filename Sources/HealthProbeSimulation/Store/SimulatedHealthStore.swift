import Foundation
import HealthProbeArchive
import HealthProbeKit

/// An in-memory stand-in for HealthKit with its semantics (docs/HEALTHKIT.md): every saved object has
/// a UUID and takes the next anchor, so anchors only grow; deletions leave tombstones
/// (`HKDeletedObject`) that the store may purge; a sample with a known sync identifier replaces
/// the old one only with a higher sync version; a locked device refuses queries; read access that
/// is off looks like an empty store. Plus the incidents real stores suffer, for tests and the demo
/// (`SimulatedHealthStore+Incidents.swift`).
public actor SimulatedHealthStore: HealthDataSource {
    struct Entry {
        var anchor: UInt64
        var sample: HealthSample
    }

    struct Tombstone {
        var anchor: UInt64
        var type: String
        var deleted: DeletedSample
    }

    var samples: [String: [UUID: Entry]] = [:]
    private var tombstones: [Tombstone] = []
    private var nextAnchor: UInt64 = 1
    /// Whether the device is locked (queries fail), read access is on, Health exists at all.
    public private(set) var isLocked = false
    public private(set) var readAccess = true
    public private(set) var isAvailable = true
    private var authorizationRequested: Bool
    /// The simulated phone's time zone, whose calendar its statistics step days in (HealthKit's
    /// are the device's current calendar's).
    public private(set) var calendarZone = TimeZone.current
    /// HealthProbe's writing (`SimulatedHealthStore+Restore.swift`): the person's answer to a
    /// request (nil: yes to every type), what was asked, and what may be written.
    var writeAnswer: Set<String>?
    var writeAsked: Set<String> = []
    var writeAuthorized: Set<String> = []

    public init(authorizationRequested: Bool = true) {
        self.authorizationRequested = authorizationRequested
    }

    /// The phone travels, or is set to another zone.
    public func setCalendarZone(_ zone: TimeZone) {
        calendarZone = zone
    }

    public enum SaveError: Error, Equatable {
        /// A sample with this sync identifier and an equal or higher version is already stored.
        case olderSyncVersion
    }

    // MARK: Writing, as apps do

    /// Saves a sample (a correlation also saves its members). With a sync identifier already
    /// stored for the source and type, only a higher version is accepted: the old sample is
    /// deleted (a tombstone carrying its sync identifier and version) and the new one added.
    @discardableResult
    public func save(_ sample: HealthSample) throws -> HealthSample {
        if let identifier = sample.syncIdentifier,
            let old = samples[sample.type]?.values.first(where: {
                $0.sample.syncIdentifier == identifier && $0.sample.sourceName == sample.sourceName
            })
        {
            guard (sample.syncVersion ?? 0) > (old.sample.syncVersion ?? 0) else { throw SaveError.olderSyncVersion }
            delete([old.sample.uuid])
        }
        for member in sample.members { try save(member) }
        samples[sample.type, default: [:]][sample.uuid] = Entry(anchor: takeAnchor(), sample: sample)
        return sample
    }

    /// Deletes samples as a user or an app does: each leaves a tombstone.
    public func delete(_ uuids: [UUID]) {
        for uuid in uuids {
            guard let type = type(of: uuid), let entry = samples[type]?.removeValue(forKey: uuid) else { continue }
            tombstones.append(
                Tombstone(
                    anchor: takeAnchor(), type: type,
                    deleted: DeletedSample(
                        uuid: uuid, syncIdentifier: entry.sample.syncIdentifier,
                        syncVersion: entry.sample.syncVersion)))
        }
    }

    /// Drops tombstones, as HealthKit may at any time: a client that has not read them never will.
    public func purgeTombstones() {
        tombstones.removeAll()
    }

    // MARK: Device state

    public func setLocked(_ locked: Bool) { isLocked = locked }
    public func setReadAccess(_ allowed: Bool) { readAccess = allowed }
    public func setAvailable(_ available: Bool) { isAvailable = available }
    public func requestAuthorization() { authorizationRequested = true }

    // MARK: Reading, as HealthKit answers

    public func authorization() async -> HealthAuthorization {
        guard isAvailable else { return .unavailable }
        return authorizationRequested ? .requested : .notDetermined
    }

    public func changes(of type: String, since anchor: HealthAnchor?, limit: Int) async throws -> ChangePage {
        try checkReadable()
        let after = anchor.map(Self.position) ?? 0
        guard readAccess else { return ChangePage(added: [], deleted: [], anchor: anchor, mayHaveMore: false) }
        enum Change {
            case added(HealthSample)
            case deleted(DeletedSample)
        }
        var changes: [(UInt64, Change)] = (samples[type] ?? [:]).values.filter { $0.anchor > after }
            .map { ($0.anchor, .added($0.sample)) }
        changes += tombstones.filter { $0.type == type && $0.anchor > after }.map { ($0.anchor, .deleted($0.deleted)) }
        changes.sort { $0.0 < $1.0 }
        let page = changes.prefix(max(limit, 1))
        var added: [HealthSample] = []
        var deleted: [DeletedSample] = []
        for (_, change) in page {
            switch change {
            case .added(let sample): added.append(sample)
            case .deleted(let tombstone): deleted.append(tombstone)
            }
        }
        let last = page.last?.0 ?? after
        return ChangePage(
            added: added, deleted: deleted, anchor: Self.anchor(last), mayHaveMore: changes.count > page.count)
    }

    /// How many samples of `type` the store holds (for tests and the demo's narration).
    public func count(of type: String) -> Int { samples[type]?.count ?? 0 }

    /// The stored samples of `type` matching `condition`, in anchor order.
    public func samples(of type: String, where condition: (HealthSample) -> Bool = { _ in true }) -> [HealthSample] {
        (samples[type] ?? [:]).values.sorted { $0.anchor < $1.anchor }.map(\.sample).filter(condition)
    }

    // MARK: Internals

    func checkReadable() throws {
        guard isAvailable else { throw HealthDataSourceError.unavailable }
        if isLocked { throw HealthDataSourceError.databaseInaccessible }
    }

    private func takeAnchor() -> UInt64 {
        defer { nextAnchor += 1 }
        return nextAnchor
    }

    private func type(of uuid: UUID) -> String? {
        samples.first { $0.value[uuid] != nil }?.key
    }

    /// Removes samples without tombstones (what a bad sync does); returns how many.
    func removeWithoutTrace(_ uuids: Set<UUID>) -> Int {
        var removed = 0
        for type in Array(samples.keys) {
            for uuid in uuids where samples[type]?.removeValue(forKey: uuid) != nil { removed += 1 }
        }
        return removed
    }

    static func anchor(_ position: UInt64) -> HealthAnchor {
        HealthAnchor(data: Data((0..<8).map { UInt8(truncatingIfNeeded: position >> (56 - 8 * UInt64($0))) }))
    }

    /// Where an anchor stands in the store's history: later changes have larger positions.
    public static func position(_ anchor: HealthAnchor) -> UInt64 {
        anchor.data.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
