import Foundation
import HealthProbeArchive

/// A reader of Apple's binary property lists (`bplist00`) that keeps what Foundation's reader
/// cannot give on every platform: the archiver's UIDs (`NSKeyedArchiver` links its objects with
/// them). Only what an archive of a backup's file record holds is read — dictionaries, arrays,
/// strings, data, integers, reals, booleans, dates and UIDs — and every offset is checked, so a
/// damaged or hostile file is refused, never followed out of bounds.
enum BinaryPropertyList: Equatable {
    case dictionary([String: BinaryPropertyList])
    case array([BinaryPropertyList])
    case string(String)
    case data(Data)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case date(Double)
    case uid(Int)
    case null

    struct Malformed: Error {}

    static func parse(_ data: Data) throws -> BinaryPropertyList {
        let bytes = [UInt8](data)
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { throw Malformed() }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = try number(bytes, at: trailer + 8, size: 8)
        let top = try number(bytes, at: trailer + 16, size: 8)
        let table = try number(bytes, at: trailer + 24, size: 8)
        // Each bound is checked before it is used in a sum: a table said to start at 2^63 would
        // otherwise overflow the arithmetic that checks it.
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < 1 << 24, top < count,
            table >= 8, table <= trailer, count * offsetSize <= trailer - table
        else { throw Malformed() }
        var reader = Reader(
            bytes: bytes, offsetSize: offsetSize, referenceSize: referenceSize, count: count, table: table)
        return try reader.object(top, depth: 0)
    }

    /// A big-endian count or offset.
    static func number(_ bytes: [UInt8], at offset: Int, size: Int) throws -> Int {
        let value = try bits(bytes, at: offset, size: size)
        guard value < UInt64(Int.max) else { throw Malformed() }
        return Int(value)
    }

    /// Big-endian bits, for numbers of any sign and reals.
    static func bits(_ bytes: [UInt8], at offset: Int, size: Int) throws -> UInt64 {
        guard offset >= 0, size <= 8, offset + size <= bytes.count else { throw Malformed() }
        var value: UInt64 = 0
        for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let count: Int
        let table: Int

        /// Objects and bytes decoded so far: objects that share references are decoded each time
        /// they are reached, so a list of a few hundred bytes could otherwise ask for gigabytes.
        var decodedObjects = 0
        var decodedBytes = 0
        static let objectBudget = 1 << 20
        static let byteBudget = 64 << 20

        mutating func object(_ index: Int, depth: Int) throws -> BinaryPropertyList {
            decodedObjects += 1
            guard index < count, depth < 64, decodedObjects <= Self.objectBudget else { throw Malformed() }
            let offset = try number(bytes, at: table + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < table else { throw Malformed() }
            let marker = bytes[offset]
            let kind = marker >> 4
            let low = Int(marker & 0x0F)
            switch kind {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw Malformed()
                }
            case 0x1:
                let size = 1 << low
                guard size <= 8 else { throw Malformed() }
                let raw = try BinaryPropertyList.bits(bytes, at: offset + 1, size: size)
                return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
            case 0x2:
                let size = 1 << low
                guard size == 4 || size == 8 else { throw Malformed() }
                let raw = try BinaryPropertyList.bits(bytes, at: offset + 1, size: size)
                return .real(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
            case 0x3:
                guard marker == 0x33 else { throw Malformed() }
                return .date(Double(bitPattern: try BinaryPropertyList.bits(bytes, at: offset + 1, size: 8)))
            case 0x4, 0x5, 0x6:
                let (length, start) = try self.length(low, offset)
                let byteCount = kind == 0x6 ? length * 2 : length
                decodedBytes += byteCount
                guard byteCount <= table - start, decodedBytes <= Self.byteBudget else { throw Malformed() }
                let slice = Array(bytes[start..<start + byteCount])
                switch kind {
                case 0x4: return .data(Data(slice))
                case 0x5: return .string(String(decoding: slice, as: UTF8.self))
                default:
                    let units = stride(from: 0, to: slice.count, by: 2).map {
                        UInt16(slice[$0]) << 8 | UInt16(slice[$0 + 1])
                    }
                    return .string(String(decoding: units, as: UTF16.self))
                }
            case 0x8:
                return .uid(try BinaryPropertyList.number(bytes, at: offset + 1, size: low + 1))
            case 0xA:
                let (length, start) = try self.length(low, offset)
                return .array(try references(start, length).map { try object($0, depth: depth + 1) })
            case 0xD:
                let (length, start) = try self.length(low, offset)
                let keys = try references(start, length)
                let values = try references(start + length * referenceSize, length)
                var dictionary: [String: BinaryPropertyList] = [:]
                for (key, value) in zip(keys, values) {
                    guard case .string(let name) = try object(key, depth: depth + 1) else { throw Malformed() }
                    dictionary[name] = try object(value, depth: depth + 1)
                }
                return .dictionary(dictionary)
            default:
                throw Malformed()
            }
        }

        /// A container's or string's length: in the marker, or an integer object after it.
        private func length(_ low: Int, _ offset: Int) throws -> (length: Int, start: Int) {
            guard low == 0x0F else { return (low, offset + 1) }
            guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else { throw Malformed() }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            let length = try BinaryPropertyList.number(bytes, at: offset + 2, size: size)
            guard length < 1 << 28 else { throw Malformed() }
            return (length, offset + 2 + size)
        }

        private func references(_ start: Int, _ count: Int) throws -> [Int] {
            guard start <= table, count * referenceSize <= table - start else { throw Malformed() }
            return try (0..<count).map {
                try BinaryPropertyList.number(bytes, at: start + $0 * referenceSize, size: referenceSize)
            }
        }
    }
}
