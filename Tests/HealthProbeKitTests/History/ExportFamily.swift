import Foundation
import TestSupport

/// One person's exports over eight days, each a little different, as the archive meets them: a
/// loss and its return, an edit, duplicates, a backfill, another loss, and someone else's export.
/// Every export of the person holds the base (twenty days of heart rate, steps, sleep and body
/// mass) and what was recorded since; each is dated a day after the one before, so checking one
/// after a later one is checking an older export. Synthetic data only.
///
/// Each export is a list of record lines; a record's identity is its line (every time is written
/// in UTC, so no two lines mean one record), which is what the independent model counts with.
struct ExportFamily {
    /// What set each export apart, in the order they are dated.
    enum Variant: Int, CaseIterable {
        case full, loss, returned, edited, duplicated, backfilled, secondLoss, unrelated
    }

    let exports: [[String]]

    init() {
        exports = Variant.allCases.map(Self.records)
    }

    func export(_ variant: Int) -> MiniExport {
        MiniExport(
            exportDate: MiniExport.instant(2, 21 + variant, 12), elements: exports[variant])
    }

    private static func heart(_ day: Int, _ hour: Int, month: Int = 2, value: Int? = nil) -> String {
        let at = MiniExport.instant(month, day, hour)
        return MiniExport.record(value: String(value ?? (55 + (day * 7 + hour) % 30)), start: at, end: at)
    }

    private static func steps(_ day: Int, source: String = MiniExport.watch) -> String {
        MiniExport.record(
            "HKQuantityTypeIdentifierStepCount", source: source, value: String(1_000 + day * 37), unit: "count",
            start: MiniExport.instant(2, day, 9), end: MiniExport.instant(2, day, 10))
    }

    private static func sleep(_ day: Int, startMinute: Int = 0) -> String {
        let start = MiniExport.instant(2, day, 23).replacingOccurrences(
            of: "23:00:00", with: String(format: "23:%02d:00", startMinute))
        return MiniExport.record(
            "HKCategoryTypeIdentifierSleepAnalysis", source: MiniExport.phone,
            value: "HKCategoryValueSleepAnalysisAsleepCore", unit: nil, start: start,
            end: MiniExport.instant(2, day + 1, 6))
    }

    private static func bodyMass(_ day: Int) -> String {
        MiniExport.record(
            "HKQuantityTypeIdentifierBodyMass", source: MiniExport.phone, value: "70", unit: "kg",
            start: MiniExport.instant(2, day, 7))
    }

    /// The base every export of the person holds, less what `variant` lost or changed, plus what
    /// was recorded on the days since the first export.
    private static func records(_ variant: Variant) -> [String] {
        if variant == .unrelated { return unrelatedPerson() }
        var lines: [String] = []
        for day in 1...20 {
            for hour in [8, 12, 18] {
                if variant == .loss, (3...6).contains(day) { continue }
                let edited = variant == .edited && day == 2 && hour == 8
                lines.append(heart(day, hour, value: edited ? 120 : nil))
            }
            if !(variant == .secondLoss && day >= 15) { lines.append(steps(day)) }
            if (5...8).contains(day) { lines.append(steps(day, source: MiniExport.phone)) }
            if !(variant == .loss && day == 10) {
                lines.append(sleep(day, startMinute: variant == .edited && day == 11 ? 1 : 0))
            }
            if day % 5 == 0 { lines.append(bodyMass(day)) }
        }
        if variant == .duplicated { lines += Array(repeating: steps(7), count: 3) }
        if variant == .backfilled { lines += (1...6).map { heart($0, 10, month: 1) } }
        // What was recorded since the first export: the newer the export, the more.
        for day in 0..<variant.rawValue { lines.append(heart(21 + day, 8)) }
        return lines
    }

    private static func unrelatedPerson() -> [String] {
        (1...20).flatMap { day in
            [
                MiniExport.record(
                    source: "Other Person\u{2019}s Apple Watch", value: String(70 + day % 9),
                    start: MiniExport.instant(2, day, 10)),
                MiniExport.record(
                    "HKQuantityTypeIdentifierStepCount", source: "Other Person\u{2019}s iPhone",
                    value: String(500 + day), unit: "count", start: MiniExport.instant(2, day, 11),
                    end: MiniExport.instant(2, day, 12)),
            ]
        }
    }
}

/// What a capture's counts must be, worked out from the exports alone, never from the archive:
/// each included capture compared, as a multiset of records, with the included capture before it.
struct HistoryModel {
    struct Counts: Equatable, CustomStringConvertible {
        var records = 0, new = 0, gone = 0, unchanged = 0
        var description: String { "\(records) records, \(new) new, \(gone) gone, \(unchanged) unchanged" }
    }

    /// Each included capture's counts, in order, for the exports `included` names.
    static func counts(of included: [Int], in family: ExportFamily) -> [Counts] {
        var previous: [String: Int] = [:]
        return included.map { variant in
            let current = Dictionary(family.exports[variant].map { ($0, 1) }, uniquingKeysWith: +)
            let kept = current.reduce(0) { $0 + min($1.value, previous[$1.key] ?? 0) }
            let total = family.exports[variant].count
            let before = previous.values.reduce(0, +)
            previous = current
            return Counts(records: total, new: total - kept, gone: before - kept, unchanged: kept)
        }
    }

    /// How many records are present after the included captures: the last one's.
    static func present(after included: [Int], in family: ExportFamily) -> Int {
        included.last.map { family.exports[$0].count } ?? 0
    }
}
