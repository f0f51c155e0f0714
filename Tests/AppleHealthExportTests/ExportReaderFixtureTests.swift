import Foundation
import TestSupport
import Testing

@testable import AppleHealthExport

@Suite("Reading the shared real-export fixtures")
struct ExportReaderFixtureTests {
    @Test(arguments: FixtureFiles.topLevelCounts.keys.sorted())
    func everyTopLevelElementIsReadOnce(_ fixture: String) throws {
        let reader = try AppleExportReader(url: FixtureFiles.url(fixture))
        var elements = 0
        let summary = try reader.read { _ in elements += 1 }
        #expect(elements == FixtureFiles.topLevelCounts[fixture])
        #expect(summary.elementCount == elements)
        #expect(summary.unreadableCount == 0 || fixture.hasSuffix("sampleexport-2.xml"))
    }

    @Test func finderZipIsFoundByContentDespiteMacOSLitter() throws {
        let reader = try AppleExportReader(url: FixtureFiles.url("alxdrcirilo/export.zip"))
        #expect(
            reader.source.container
                == .zip(
                    archive: FixtureFiles.url("alxdrcirilo/export.zip"), entryPath: "apple_health_export/export.xml"))
    }

    /// An export linked from elsewhere is read as its target: a link's own size is not the zip's.
    @Test func aLinkedZipIsReadAsTheZipItNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("export.zip")
        try FileManager.default.createSymbolicLink(
            at: link, withDestinationURL: FixtureFiles.url("alxdrcirilo/export.zip"))
        var elements = 0
        _ = try AppleExportReader(url: link).read { _ in elements += 1 }
        #expect(elements == FixtureFiles.topLevelCounts["alxdrcirilo/export.zip"])
    }

    @Test func deviceAddressIsDroppedAndFieldsWithCommasSurvive() throws {
        var devices: [DeviceDescription] = []
        try AppleExportReader(url: FixtureFiles.url("dogsheep/export.xml")).read { element in
            if case .record(let record) = element, let device = record.sample.device { devices.append(device) }
        }
        let device = try #require(devices.first)
        #expect(device["hardware"] == "Watch2,4")
        #expect(device["software"] == "4.3.1")
        #expect(device["name"] == "Apple Watch")
        #expect(!device.fields.contains { $0.value.contains("0x") })
    }

    @Test func ampersandInsideAttributeIsDecoded() throws {
        var links: [String] = []
        try AppleExportReader(url: FixtureFiles.url("dogsheep/export.xml")).read { element in
            if case .record(let record) = element {
                links += record.sample.metadata.filter { $0.key == "Withings Link" }.map(\.value)
            }
        }
        #expect(links.count == 1)
        #expect(links.first?.contains("&date=") == true)
        #expect(links.first?.contains("&#38;") == false)
    }

    @Test func workoutChildrenAreTyped() throws {
        var workouts: [WorkoutElement] = []
        try AppleExportReader(url: FixtureFiles.url("opendroid/sampleexport.xml")).read { element in
            if case .workout(let workout) = element { workouts.append(workout) }
        }
        let workout = try #require(workouts.first)
        #expect(workout.sample.type == "HKWorkoutTypeIdentifier")
        #expect(workout.activityType == "HKWorkoutActivityTypeWalking")
        #expect(workout.events.count == 8)
        #expect(workout.routes.first?.fileReference == "/workout-routes/route_2020-12-06_3.02pm.gpx")
        #expect(workout.routes.first?.metadata.contains { $0.key == "HKMetadataKeySyncIdentifier" } == true)
    }

    @Test func inlineRouteLocationsAreKept() throws {
        var locations = 0
        try AppleExportReader(url: FixtureFiles.url("dogsheep/export.xml")).read { element in
            if case .workout(let workout) = element { locations += workout.routes.map(\.locations.count).reduce(0, +) }
        }
        #expect(locations == 2)
    }

    @Test func heartbeatTimesResolveAgainstTheRecordStart() throws {
        var beats: [(InstantaneousBeat, AppleExportTimestamp)] = []
        try AppleExportReader(url: FixtureFiles.url("opendroid/sampleexport.xml")).read { element in
            if case .record(let record) = element { beats += record.beats.map { ($0, record.sample.startDate) } }
        }
        #expect(beats.count == 10)
        for (beat, start) in beats {
            let instant = try #require(beat.secondsSince1970)
            #expect(instant >= Double(start.secondsSince1970) - 1)
            #expect(instant < Double(start.secondsSince1970) + 3600)
        }
    }

    @Test func audiogramAndClinicalRecordsAreTyped() throws {
        var audiograms: [AudiogramElement] = []
        var clinical = 0
        try AppleExportReader(url: FixtureFiles.url("opendroid/sampleexport-2.xml")).read { element in
            if case .audiogram(let audiogram) = element { audiograms.append(audiogram) }
        }
        try AppleExportReader(url: FixtureFiles.url("opendroid/sampleexport.xml")).read { element in
            if case .clinicalRecord = element { clinical += 1 }
        }
        #expect(audiograms.first?.sensitivityPoints.count == 2)
        #expect(clinical == 6)
    }

    @Test func exportDateAndVersionAreRead() throws {
        let summary = try AppleExportReader(url: FixtureFiles.url("opendroid/sampleexport.xml")).read { _ in }
        #expect(summary.exportVersion == 11)
        #expect(summary.exportDate.map { Int($0.utcOffsetSeconds) } == -28_800)
        #expect(summary.locale == "en_US")
    }
}
