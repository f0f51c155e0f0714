import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The incidents that happen to real Health stores, scripted.
extension SimulatedHealthStore {
    /// A bad iCloud sync or device migration: samples vanish and leave no tombstone.
    @discardableResult
    public func loseSilently(of type: String, where condition: (HealthSample) -> Bool) -> Int {
        removeWithoutTrace(Set(samples(of: type, where: condition).map(\.uuid)))
    }

    /// An app writes old samples now (they take new anchors, with their old dates).
    public func backfill(_ samples: [HealthSample]) throws {
        for sample in samples { try save(sample) }
    }

    /// A writer bug: one sample saved `copies` times, each a new object with its own UUID.
    @discardableResult
    public func saveRepeatedly(_ sample: HealthSample, copies: Int) throws -> [HealthSample] {
        try (0..<copies).map { _ in
            var copy = sample
            copy.uuid = UUID()
            return try save(copy)
        }
    }

    /// Watch and iPhone both write a sample: the same content from another source.
    @discardableResult
    public func saveFromSecondSource(_ sample: HealthSample, source: String, device: HealthSample.Device?) throws
        -> HealthSample
    {
        var copy = sample
        copy.uuid = UUID()
        copy.sourceName = source
        copy.device = device
        return try save(copy)
    }

    /// The user deletes samples (a day of data, say): tombstones tell clients.
    @discardableResult
    public func deleteAsUser(of type: String, where condition: (HealthSample) -> Bool) -> Int {
        let uuids = samples(of: type, where: condition).map(\.uuid)
        delete(uuids)
        return uuids.count
    }
}
