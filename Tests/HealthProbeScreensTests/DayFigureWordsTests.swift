import HealthProbeArchive
import HealthProbeScreens
import Testing

/// A day's figure in the words Health uses: counts whole, a quantity with its unit.
@Suite("Day figures in words")
struct DayFigureWordsTests {
    @Test func countsAreWholeAsHealthShowsThem() {
        #expect(DayFigureWords.amount(133.47, "count") == "133")
        #expect(DayFigureWords.amount(10_026.4, "count") == "10,026")
        #expect(DayFigureWords.amount(74.71, "count/min") == "74.71 count/min")
        #expect(DayFigureWords.amount(8_605, "m") == "8,605 m")
    }

    @Test func hoursAreToTheMinute() {
        #expect(DayFigureWords.hours(7.5) == "7 h 30 min")
        #expect(DayFigureWords.hours(6 + 5.0 / 60) == "6 h 05 min")
    }
}
