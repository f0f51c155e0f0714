/// An ECG recording: one `electrocardiograms/*.csv` file of an export, its header and its voltages.
///
/// The file's `Name` and `Date of Birth` lines are never read into it: they are the person, not
/// the recording.
public struct ElectrocardiogramElement: Sendable, Hashable {
    /// The HealthKit identifier ECG recordings are filed under.
    public static let sampleType = "HKDataTypeIdentifierElectrocardiogram"

    /// The file's path as the export holds it (`/electrocardiograms/ecg_2000-01-01.csv`). Names
    /// carry local dates and change from export to export: never part of a recording's identity.
    public var path: String
    public var recordedDate: AppleExportTimestamp
    public var classification: String?
    public var symptoms: String?
    public var softwareVersion: String?
    /// The `Device` line as written (`Watch5,4`): the watch's hardware identifier.
    public var device: String?
    /// The `Sample Rate` line as written (`512.844 hertz`).
    public var sampleRate: String?
    public var lead: String?
    /// The voltages' unit as written (`µV`).
    public var unit: String?
    /// The `Average Heart Rate` line as written, where the export has one.
    public var averageHeartRate: String?
    /// Header lines the reader does not model, in the order written (never the person's).
    public var otherHeader: [AppleExportAttribute]
    public var voltages: ElectrocardiogramVoltages

    /// The sample rate in hertz, read from ``sampleRate``'s leading number.
    public var sampleRateHertz: Double? {
        guard let sampleRate else { return nil }
        let number = sampleRate.prefix { $0.isNumber || $0 == "." || $0 == "," }
        return Double(number.replacingOccurrences(of: ",", with: ".")).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }
}

/// An ECG's voltages as fixed-point integers: `value / 10^decimals` in the file's unit. Exact:
/// the same file read twice, or written back with ``text(at:)`` and read again, gives equal values.
public struct ElectrocardiogramVoltages: Sendable, Hashable {
    /// Digits after the decimal point (0 to ``DecimalText/maximumDecimals``).
    public var decimals: Int
    public var values: [Int64]

    public init(decimals: Int, values: [Int64]) {
        self.decimals = decimals
        self.values = values
    }

    /// Value `index` as the file writes it (`-48.673`).
    public func text(at index: Int) -> String {
        DecimalText.text(values[index] * DecimalText.power(DecimalText.maximumDecimals - decimals), decimals: decimals)
    }
}
