import Foundation

extension SampleMatchKey.Content {
    /// An archived record's content: type, sourceName, unit, value, numericValue, startDate and
    /// endDate in that order from column `first` of the cursor's row.
    init(_ rows: SQLiteRowCursor, from first: Int32) {
        self.init(
            type: rows.string(first) ?? "", sourceName: rows.string(first + 1), unit: rows.string(first + 2),
            value: rows.string(first + 3), numericValue: rows.double(first + 4), startDate: rows.double(first + 5),
            endDate: rows.double(first + 6))
    }

    /// A sample's content, as its record would hold it.
    init(_ sample: HealthSample) {
        self.init(
            type: sample.type, sourceName: sample.sourceName, unit: sample.kind == .quantity ? sample.unit : nil,
            value: sample.kind == .category ? HealthRecord.valueText(sample) : nil,
            numericValue: sample.kind == .quantity ? sample.value : nil, startDate: sample.startDate,
            endDate: sample.endDate)
    }
}
