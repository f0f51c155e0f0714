import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// An iPhone's Health database read as the live path's samples: canonical units converted to the
/// export's, dates from 2001 to 1970, sources and devices named from `healthdb.sqlite`, metadata
/// and sync identifiers as text, deletions with their dates, healthd's own housekeeping told
/// apart; both published layouts; anything else refused in one line.
@Suite("Health database: reading")
struct HealthDatabaseReaderTests {
    static let day = 946_684_800.0 + 86_400  // 2000-01-02
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let watch = HealthSample.Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch")

    static func folder() throws -> URL { try FixtureFiles.temporaryFolder() }

    static func samples() -> [HealthDatabaseFixture.Sample] {
        var heart = HealthDatabaseFixture.Sample(type: heartRate, start: day + 60, created: day + 65, value: 1.2)
        heart.device = 1
        heart.metadata = [
            ("HKMetadataKeyHeartRateMotionContext", 1, nil, 0),
            ("HKMetadataKeyTimeZone", 0, "Etc/UTC", nil),
            ("HKMetadataKeyDateOfReading", 2, nil, day + 30),
        ]
        var walk = HealthDatabaseFixture.Sample(
            type: "HKQuantityTypeIdentifierDistanceWalkingRunning", start: day + 600, end: day + 900, value: 1250)
        walk.syncIdentifier = "walk-1"
        walk.syncVersion = 2
        let sleep = HealthDatabaseFixture.Sample(
            type: "HKCategoryTypeIdentifierSleepAnalysis", start: day - 28_800, end: day, value: 1)
        var run = HealthDatabaseFixture.Sample(type: HealthRecord.workoutType, start: day + 3_600, end: day + 5_400)
        run.activityType = 37
        return [heart, walk, sleep, run]
    }

    @Test(arguments: [HealthDatabaseFixture.Layout.iOS13, .iOS17])
    func samplesReadAsTheLivePathReadsThem(layout: HealthDatabaseFixture.Layout) throws {
        let folder = try Self.folder()
        let written = Self.samples()
        try HealthDatabaseFixture.write(to: folder, layout: layout, devices: [Self.watch], samples: written)
        let reader = try HealthDatabaseReader(path: folder.path)
        #expect(reader.layout.hasSourceDatabase)
        #expect(reader.layout.hasLogicalSources == (layout == .iOS17))
        #expect(reader.layout.hasAssociations == (layout == .iOS17))
        var read: [HealthSample] = []
        let unread = try reader.forEachSample { read.append($0) }
        #expect(unread.isEmpty)
        #expect(read.map(\.uuid) == written.map(\.uuid))
        let heart = read[0]
        #expect(heart.type == Self.heartRate)
        #expect(heart.unit == "count/min")
        #expect(heart.value == 1.2 * 60, "stored per second, written per minute")
        #expect(heart.startDate == Self.day + 60)
        #expect(heart.creationDate == Self.day + 65)
        #expect(heart.sourceName == "Test User\u{2019}s Apple Watch")
        #expect(heart.sourceVersion == "10.1")
        #expect(heart.device == Self.watch, "__NONE__ fields are left out")
        #expect(heart.metadata["HKMetadataKeyHeartRateMotionContext"] == "0")
        #expect(heart.metadata["HKMetadataKeyTimeZone"] == "Etc/UTC")
        #expect(heart.metadata["HKMetadataKeyDateOfReading"] == UTCText.iso8601(seconds: Self.day + 30))
        let walk = read[1]
        #expect(walk.unit == "km")
        #expect(walk.value == 1.25, "stored in metres")
        #expect(walk.syncIdentifier == "walk-1")
        #expect(walk.syncVersion == 2)
        #expect(read[2].kind == .category)
        #expect(read[2].value == 1)
        #expect(read[3].kind == .workout)
        #expect(read[3].workoutActivityType == "HKWorkoutActivityTypeRunning")
    }

    @Test func deletionsAreReadWithTheirDatesAndHealthdsOwnAreToldApart() throws {
        let folder = try Self.folder()
        var series = HealthDatabaseFixture.Sample(
            type: Self.heartRate, start: Self.day, end: Self.day + 3_600, value: 1.1)
        series.isSeries = true
        let packed = HealthDatabaseFixture.Tombstone(
            type: Self.heartRate, start: Self.day + 120, deletedAt: Self.day + 4_000)
        let byUser = HealthDatabaseFixture.Tombstone(
            type: Self.steps, start: Self.day + 200, end: Self.day + 260, deletedAt: Self.day + 86_400 * 2)
        let outside = HealthDatabaseFixture.Tombstone(
            type: Self.heartRate, start: Self.day + 7_200, deletedAt: Self.day + 8_000)
        try HealthDatabaseFixture.write(
            to: folder, samples: [series], tombstones: [packed, byUser, outside])
        let reader = try HealthDatabaseReader(path: folder.path)
        var read: [HealthSample] = []
        try reader.forEachSample { read.append($0) }
        #expect(read.count == 1, "a deletion is not a sample")
        let tombstones = try reader.tombstones()
        #expect(tombstones.map(\.uuid) == [packed.uuid, byUser.uuid, outside.uuid])
        #expect(tombstones.map(\.isHousekeeping) == [true, false, false])
        #expect(tombstones[1].type == Self.steps)
        #expect(tombstones[1].deletedAt == Self.day + 86_400 * 2)
        #expect(tombstones[1].startDate == Self.day + 200)
        #expect(tombstones[1].sourceName == "Test User\u{2019}s Apple Watch")
    }

    @Test func theBackupIsNeverChangedAndNothingIsLeftBehind() throws {
        let folder = try Self.folder()
        try HealthDatabaseFixture.write(to: folder, samples: Self.samples())
        let secure = folder.appendingPathComponent(HealthDatabaseReader.secureName)
        let before = try Data(contentsOf: secure)
        var copies: URL?
        do {
            let reader = try HealthDatabaseReader(path: secure.path)
            try reader.forEachSample { _ in }
            copies = reader.folder
            #expect(FileManager.default.fileExists(atPath: reader.folder.path))
        }
        #expect(try Data(contentsOf: secure) == before)
        #expect(!FileManager.default.fileExists(atPath: try #require(copies).path), "the private copies are removed")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                HealthDatabaseReader.sourcesName, HealthDatabaseReader.secureName,
            ])
    }

    @Test func anythingElseIsRefusedInOneLine() throws {
        let folder = try Self.folder()
        let other = folder.appendingPathComponent("notes.sqlite")
        try DatabaseQueue(path: other.path).write { db in
            try db.execute(
                sql: "CREATE TABLE samples (data_id INTEGER, start_date REAL, end_date REAL, data_type INTEGER)")
        }
        #expect(throws: HealthDatabaseError.notAHealthDatabase(name: "notes.sqlite", missing: "objects")) {
            try HealthDatabaseReader(path: other.path)
        }
        let text = folder.appendingPathComponent("healthdb_secure.sqlite")
        try Data("not a database".utf8).write(to: text)
        #expect(throws: HealthDatabaseError.unreadable(name: "healthdb_secure.sqlite")) {
            try HealthDatabaseReader(path: text.path)
        }
        let empty = try Self.folder()
        #expect(throws: HealthDatabaseError.noHealthDatabase(folder: empty.lastPathComponent)) {
            try HealthDatabaseReader(path: empty.path)
        }
        #expect(
            HealthDatabaseError.notAHealthDatabase(name: "notes.sqlite", missing: "objects").message
                == "notes.sqlite is not an iPhone Health database: it has no objects table; give healthdb_secure.sqlite"
        )
    }
}
