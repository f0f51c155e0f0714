import Testing

@testable import HealthProbeArchive

/// Durations in evidence: to the minute under a day, so that half an hour is not left out.
@Suite("Durations in evidence")
struct EvidenceDurationTests {
    static let cases: [(Double, String)] = [
        (27_000, "7 hours 30 minutes"), (10_800, "3 hours"), (720, "12 minutes"), (3_660, "1 hour 1 minute"),
        (3_031_800, "35 days 2 hours"), (86_400, "1 day"),
    ]

    @Test(arguments: cases)
    func aDurationIsSaidToTheMinuteUnderADay(seconds: Double, words: String) {
        #expect(EvidenceText.duration(seconds) == words)
    }
}
