import AppleHealthExport

/// An ECG's voltages as bytes, before compression: a version byte, the decimals, then each value
/// as the zigzag varint of its difference from the one before. Successive samples at 512 Hz
/// differ by little, so most take one or two bytes (a CSV line takes eight or nine).
package enum VoltageCoding {
    static let version: UInt8 = 1

    package static func encode(_ voltages: ElectrocardiogramVoltages) -> [UInt8] {
        var bytes: [UInt8] = [version, UInt8(clamping: voltages.decimals)]
        bytes.reserveCapacity(voltages.values.count * 2 + 2)
        var previous: Int64 = 0
        for value in voltages.values {
            VarintBytes.append(value &- previous, to: &bytes)
            previous = value
        }
        return bytes
    }

    /// The voltages back; nil when the bytes are not this encoding.
    package static func decode(_ bytes: [UInt8]) -> ElectrocardiogramVoltages? {
        guard bytes.count >= 2, bytes[0] == version, Int(bytes[1]) <= DecimalText.maximumDecimals else { return nil }
        var reader = VarintBytes.Reader(bytes: bytes, index: 2)
        var values: [Int64] = []
        var previous: Int64 = 0
        while !reader.atEnd {
            guard let delta = reader.signed() else { return nil }
            previous = previous &+ delta
            values.append(previous)
        }
        return ElectrocardiogramVoltages(decimals: Int(bytes[1]), values: values)
    }
}
