import Foundation
import GRDB
import HealthProbeArchive

/// A row of a database HealthProbe did not write, read without trusting its types: GRDB's typed
/// subscripts stop the process when a value cannot be converted (a text where a number should be,
/// a real too large for an integer), and a backup's database may hold anything. Each accessor
/// gives nil for what is not the kind asked for, so the row is counted unreadable instead.
extension Row {
    /// An integer: stored as one, or a real that is exactly one within range.
    func foreignInteger(_ index: Int) -> Int64? {
        Self.integer(self[index] as DatabaseValue)
    }

    func foreignInteger(_ column: String) -> Int64? {
        guard let value = self[column] as DatabaseValue? else { return nil }
        return Self.integer(value)
    }

    /// Whether the value at `index` is NULL, asked of SQLite without decoding the value.
    func isForeignNull(_ index: Int) -> Bool {
        hasNull(atIndex: index)
    }

    /// A finite number, stored as an integer or a real.
    func foreignDouble(_ index: Int) -> Double? {
        Self.double(self[index] as DatabaseValue)
    }

    func foreignDouble(_ column: String) -> Double? {
        guard let value = self[column] as DatabaseValue? else { return nil }
        return Self.double(value)
    }

    /// Text as stored; nil for anything else.
    func foreignText(_ index: Int) -> String? {
        Self.text(self[index] as DatabaseValue)
    }

    func foreignText(_ column: String) -> String? {
        guard let value = self[column] as DatabaseValue? else { return nil }
        return Self.text(value)
    }

    /// Bytes as stored; nil for anything else.
    func foreignData(_ column: String) -> Data? {
        guard let value = self[column] as DatabaseValue?, case .blob(let data) = value.storage else { return nil }
        return data
    }

    /// A date stored as seconds since 2001-01-01 (Apple's reference date), as seconds since
    /// 1970; nil unless it falls between 1900 and 2200 — no sample was taken outside them, and
    /// anything else (±1e300, infinity) would overflow what is computed from it.
    func foreignDate(_ index: Int) -> Double? {
        Self.date(foreignDouble(index))
    }

    func foreignDate(_ column: String) -> Double? {
        Self.date(foreignDouble(column))
    }

    static func date(_ raw: Double?) -> Double? {
        guard let raw else { return nil }
        let seconds = raw + HealthDatabaseTypes.referenceDate
        return (-2_208_988_800...7_258_118_400).contains(seconds) ? seconds : nil
    }

    private static func integer(_ value: DatabaseValue) -> Int64? {
        switch value.storage {
        case .int64(let integer): integer
        case .double(let real): Int64(exactly: real)
        default: nil
        }
    }

    private static func double(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .int64(let integer): Double(integer)
        case .double(let real): real.isFinite ? real : nil
        default: nil
        }
    }

    private static func text(_ value: DatabaseValue) -> String? {
        if case .string(let text) = value.storage { text } else { nil }
    }
}
