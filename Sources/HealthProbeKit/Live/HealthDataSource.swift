import Foundation
import HealthProbeArchive

/// What a Health store says of access. HealthKit never reveals whether *reading* was allowed:
/// after the request, "no data" and "read denied" look the same.
public enum HealthAuthorization: String, Sendable {
    /// There is no Health store on this device.
    case unavailable
    /// HealthProbe has not asked yet.
    case notDetermined
    /// Asked; whether reading is allowed cannot be known.
    case requested
}

public enum HealthDataSourceError: Error, Sendable, Equatable {
    /// The device is locked: protected Health data cannot be read now (`errorDatabaseInaccessible`).
    case databaseInaccessible
    /// Health data is not available on this device.
    case unavailable
}

/// Where the live path reads Health data: HealthKit on iPhone, ``SimulatedHealthStore`` here.
public protocol HealthDataSource: Sendable {
    func authorization() async -> HealthAuthorization
    /// Samples added and deleted since `anchor` (nil: from the beginning), at most `limit` a page,
    /// in anchor order. From the beginning, the pages hold every sample the store holds now
    /// (HealthKit's anchored query answers so): a verification scan reads a type that way, a
    /// page at a time, so its memory is bounded by the page, not by the type.
    func changes(of type: String, since anchor: HealthAnchor?, limit: Int) async throws -> ChangePage
}
