import AppleHealthExport
import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// What real exports do that strict parsers choke on, and HealthProbe must take in its stride.
@Suite("Accepting what real exports do")
struct AcceptedInputTests {
    @Test func malformedDTDOfIOS16IsSkipped() throws {
        let support = try ArchiveTestSupport()
        let url = try support.generate("export.xml", .init(elementCount: 500, malformedDTD: true))
        let capture = try support.check(url, in: try support.openArchive()).capture
        #expect(capture.records > 500)
        #expect(capture.unreadable == 0)
    }

    @Test func strayControlBytesAreReplacedNotFatal() throws {
        let support = try ArchiveTestSupport()
        let url = try support.generate("export.xml", .init(elementCount: 2_000, strayControlBytes: true))
        #expect(try Data(contentsOf: url).contains(0x0B))
        let store = try support.openArchive()
        let capture = try support.check(url, in: store).capture
        #expect(capture.replacedCharacters > 0)
        let replaced = try store.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM record WHERE metadata LIKE '%Test' || char(65533) || 'Scale%'")
        }
        #expect(replaced == capture.replacedCharacters)
    }

    @Test(arguments: ["Export.xml", "导出.xml", "exportar.xml"])
    func localisedMainFileIsFoundByContent(_ name: String) throws {
        let support = try ArchiveTestSupport()
        let url = try support.generate("export.zip", .init(elementCount: 300, mainFileName: name))
        let reader = try AppleExportReader(url: url)
        #expect(reader.source.container == .zip(archive: url, entryPath: "apple_health_export/\(name)"))
        let capture = try support.check(url, in: try support.openArchive()).capture
        #expect(capture.records > 300)
    }

    @Test func unzippedFolderIsFoundByContent() throws {
        let support = try ArchiveTestSupport()
        let folder = try support.generate("unzipped", .init(elementCount: 2_000))
        let store = try support.openArchive()
        let capture = try support.check(folder, in: store).capture
        let hashedRoutes = try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM referencedFile WHERE kind = 'route' AND digest IS NOT NULL")
        }
        let workouts = try #require(capture.elementCounts["Workout"])
        #expect(workouts > 0)
        #expect(hashedRoutes == workouts)
    }

    @Test func unknownElementsAndAttributesAreKeptAndCounted() throws {
        let support = try ArchiveTestSupport()
        let body = """
            <FutureThing kind="new" startDate="2000-01-01 00:00:00 +0000"><Part weight="3"/></FutureThing>
            <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone-TESTDEVICE" unit="count" \
            startDate="2000-01-01 10:00:00 +0000" endDate="2000-01-01 10:05:00 +0000" value="42" futureAttribute="yes"/>
            """
        let url = try FixtureFiles.write(FixtureFiles.export(body), named: "export.xml", in: support.folder)
        let store = try support.openArchive()
        let capture = try support.check(url, in: store).capture
        #expect(capture.records == 2)
        #expect(capture.elementCounts["FutureThing"] == 1)
        let details = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT details FROM record ORDER BY id")
        }
        #expect(details.first?.contains("\"weight\":\"3\"") == true)
        #expect(details.last?.contains("futureAttribute") == true)
    }

    @Test func wellFormedElementWithImpossibleDateIsKeptRawAndCounted() throws {
        let support = try ArchiveTestSupport()
        let body =
            FixtureFiles.stepRecord + "\n"
            + FixtureFiles.stepRecord.replacingOccurrences(
                of: "startDate=\"2000-01-01 10:00:00", with: "startDate=\"2000-13-45 10:00:00")
        let url = try FixtureFiles.write(FixtureFiles.export(body), named: "export.xml", in: support.folder)
        let result = try support.check(url, in: try support.openArchive())
        #expect(result.capture.records == 2)
        #expect(result.capture.unreadable == 1)
        #expect(result.unreadable == [.init(element: "Record", reason: "unreadable startDate", count: 1)])
    }
}
