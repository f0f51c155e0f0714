import AppleHealthExport
import Crypto

/// An ECG's voltages as bytes, before compression: a version byte, the decimals, then each value
/// as the zigzag varint of its difference from the one before. Successive samples at 512 Hz
/// differ by little, so most take one or two bytes (a CSV line takes eight or nine).
public enum VoltageCoding {
    static let version: UInt8 = 1

    public static func encode(_ voltages: ElectrocardiogramVoltages) -> [UInt8] {
        var bytes: [UInt8] = [version, UInt8(clamping: voltages.decimals)]
        bytes.reserveCapacity(voltages.values.count * 2 + 2)
        var previous: Int64 = 0
        for value in voltages.values {
            let delta = value &- previous
            previous = value
            var zigzag = UInt64(bitPattern: (delta << 1) ^ (delta >> 63))
            while zigzag >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
                zigzag >>= 7
            }
            bytes.append(UInt8(zigzag))
        }
        return bytes
    }

    /// The voltages back; nil when the bytes are not this encoding.
    public static func decode(_ bytes: [UInt8]) -> ElectrocardiogramVoltages? {
        guard bytes.count >= 2, bytes[0] == version, Int(bytes[1]) <= ElectrocardiogramVoltages.maximumDecimals
        else { return nil }
        var values: [Int64] = []
        var previous: Int64 = 0
        var index = 2
        while index < bytes.count {
            var zigzag: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < bytes.count, shift < 64 else { return nil }
                let byte = bytes[index]
                index += 1
                zigzag |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            let delta = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
            previous = previous &+ delta
            values.append(previous)
        }
        return ElectrocardiogramVoltages(decimals: Int(bytes[1]), values: values)
    }

    /// The first 16 bytes of the SHA-256 of the encoding, as hex: what identifies a recording's
    /// voltages in its fingerprints.
    public static func digest(_ encoded: [UInt8]) -> String {
        HexText.encode(SHA256.hash(data: encoded).prefix(16))
    }
}
