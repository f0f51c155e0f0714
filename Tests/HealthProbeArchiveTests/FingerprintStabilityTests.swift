import AppleHealthExport
import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive

/// Archives store fingerprints and index keys and match new records against them: any change to
/// how they are computed would make every stored record look gone and every new one look new.
/// These values must never change but deliberately, with a migration: the semantic and fuzzy
/// fingerprints moved from SHA-256 to MurmurHash3 in "v4 content hashes"; the strict
/// fingerprints and the keys are as first computed.
@Suite("Fingerprints stay the same from version to version")
struct FingerprintStabilityTests {
    static let xml = FixtureFiles.export(
        """
        <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Test User\u{2019}s Apple  Watch" \
        sourceVersion="10.1" device="&lt;&lt;HKDevice: 0x600001234567&gt;, name:Apple Watch, manufacturer:Apple Inc., \
        model:Watch, hardware:Watch6,1, software:10.1&gt;" unit="count/min" \
        creationDate="2000-01-01 08:00:05 +0100" startDate="2000-01-01 08:00:00 +0100" \
        endDate="2000-01-01 08:00:00 +0100" value="61.25">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
          <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
        </Record>
        <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
        sourceName="Test Runner" creationDate="2000-01-02 07:40:00 +0100" startDate="2000-01-02 07:00:00 +0100" \
        endDate="2000-01-02 07:30:00 +0100">
          <WorkoutEvent type="HKWorkoutEventTypePause" date="2000-01-02 07:10:00 +0100" duration="1" durationUnit="min"/>
        </Workout>
        """)

    static func fingerprints() throws -> [RecordFingerprints] {
        var all: [RecordFingerprints] = []
        _ = try AppleExportReader(source: .inMemory(Array(xml.utf8), name: "export.xml")).read {
            all.append(RecordFingerprints(HealthRecord(exportElement: $0)))
        }
        return all
    }

    @Test func aRecordAndAWorkoutKeepTheirFingerprints() throws {
        let all = try Self.fingerprints()
        try #require(all.count == 2)
        let described = all.map { "\($0.strict) \($0.semantic) \($0.fuzzy) \($0.identityKey) \($0.semanticKey)" }
        #expect(
            described == [
                "471b782ce6878f2df785db557df8303f a9c92a17b8e4e0f75ecedab9ee8b4d83 "
                    + "765f1bcc032d92ca1c40ec5576b65fa1 289144375717932262 289144596120341417",
                "f4a8444d806b524cadd72e56ea37c115 b10a96b83380bded9c01207e6bc9c3f3 "
                    + "7c9b4b929cf0a44b4f8d0ac34bc46e91 289170409876901248 289170129032430629",
            ])
    }
}
