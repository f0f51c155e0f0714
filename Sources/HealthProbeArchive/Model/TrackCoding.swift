import AppleHealthExport

/// A route's track as bytes, before compression, column by column: a version byte, the point
/// and field counts, each field's decimals, where segments begin, how many unmodelled elements
/// the points held, then each field down the points as the zigzag varint of its difference from
/// the value before, shifted by one so that 0 says the point has no such field. Neighbouring
/// points differ by little, so a point takes a dozen bytes where GPX takes about 250.
package enum TrackCoding {
    /// Raised when the coding changes, or when the reader reads a GPX file's points differently:
    /// ``RouteSourceDigest`` names a route's bytes with it, so that a re-check reads them again.
    static let version: UInt8 = 1

    package static func encode(_ track: RouteTrack) -> [UInt8] {
        let fields = RouteTrack.fields.count
        var bytes: [UInt8] = [version]
        VarintBytes.appendUnsigned(UInt64(track.count), to: &bytes)
        VarintBytes.appendUnsigned(UInt64(fields), to: &bytes)
        for field in 0..<fields { bytes.append(UInt8(clamping: track.decimals[field])) }
        VarintBytes.appendUnsigned(UInt64(track.segmentStarts.count), to: &bytes)
        for start in track.segmentStarts { VarintBytes.appendUnsigned(UInt64(start), to: &bytes) }
        VarintBytes.appendUnsigned(UInt64(track.otherElements), to: &bytes)
        bytes.reserveCapacity(bytes.count + track.count * fields * 2)
        for field in 0..<fields {
            let divisor = DecimalText.power(DecimalText.maximumDecimals - track.decimals[field])
            let column = track.columns[field]
            var previous: Int64 = 0
            for point in 0..<track.count {
                guard track.present[point] & (1 << field) != 0 else {
                    bytes.append(0)
                    continue
                }
                let value = column[point] / divisor
                let delta = value &- previous
                previous = value
                VarintBytes.appendUnsigned(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)) &+ 1, to: &bytes)
            }
        }
        return bytes
    }

    /// The track back; nil when the bytes are not this encoding.
    package static func decode(_ bytes: [UInt8]) -> RouteTrack? {
        guard bytes.first == version else { return nil }
        var reader = VarintBytes.Reader(bytes: bytes, index: 1)
        guard let count = reader.count(), let fields = reader.unsigned(), fields == RouteTrack.fields.count,
            reader.index + Int(fields) <= bytes.count
        else { return nil }
        let decimals = (0..<Int(fields)).map { Int(bytes[reader.index + $0]) }
        guard decimals.allSatisfy({ $0 <= DecimalText.maximumDecimals }) else { return nil }
        reader.index += Int(fields)
        guard let segments = reader.count() else { return nil }
        var segmentStarts: [Int] = []
        for _ in 0..<segments {
            guard let start = reader.unsigned(), start <= UInt64(count) else { return nil }
            segmentStarts.append(Int(start))
        }
        guard let other = reader.unsigned(), other <= UInt64(Int.max) else { return nil }
        var columns = [[Int64]](repeating: [Int64](repeating: 0, count: count), count: Int(fields))
        var present = [UInt8](repeating: 0, count: count)
        for field in 0..<Int(fields) {
            let scale = DecimalText.power(DecimalText.maximumDecimals - decimals[field])
            var previous: Int64 = 0
            for point in 0..<count {
                guard let shifted = reader.unsigned() else { return nil }
                guard shifted > 0 else { continue }
                let zigzag = shifted - 1
                previous = previous &+ (Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
                columns[field][point] = previous &* scale
                present[point] |= 1 << field
            }
        }
        guard reader.atEnd else { return nil }
        return RouteTrack(
            decimals: decimals, columns: columns, present: present, segmentStarts: segmentStarts,
            otherElements: Int(other))
    }
}
