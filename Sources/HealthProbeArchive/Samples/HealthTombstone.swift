import Foundation

/// A deletion the Health database remembers: the sample's `objects` row kept with `type = 2`,
/// its `creation_date` then the date of the deletion (docs/BACKUP.md).
package struct HealthTombstone: Sendable, Equatable {
    package var uuid: UUID
    /// The deleted sample's type, when its `samples` row was kept and its code is known.
    package var type: String?
    package var startDate: Double?
    package var endDate: Double?
    /// When it was deleted (seconds since 1970, UTC).
    package var deletedAt: Double
    package var sourceName: String?
    /// True when healthd deleted it itself, packing samples into a series sample of the same
    /// type and source that still covers its time: housekeeping, not a loss.
    package var isHousekeeping: Bool

    package init(
        uuid: UUID, type: String? = nil, startDate: Double? = nil, endDate: Double? = nil, deletedAt: Double,
        sourceName: String? = nil, isHousekeeping: Bool
    ) {
        self.uuid = uuid
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.deletedAt = deletedAt
        self.sourceName = sourceName
        self.isHousekeeping = isHousekeeping
    }
}
