import Foundation

/// Writes binary property lists (`bplist00`) with UIDs, for fixtures that stand for what iOS
/// writes: a backup's file records are `NSKeyedArchiver` archives, whose objects refer to each
/// other by UID, which Foundation cannot write on every platform. Every value is its own object
/// (nothing shared); offsets take 4 bytes and references 2.
public enum BinaryPropertyListWriter {
    public indirect enum Value {
        case dictionary([(String, Value)])
        case array([Value])
        case string(String)
        case data(Data)
        case integer(Int64)
        case uid(Int)
    }

    public static func encode(_ root: Value) -> Data {
        var objects: [[UInt8]] = []
        func add(_ value: Value) -> Int {
            let index = objects.count
            objects.append([])
            var body: [UInt8]
            switch value {
            case .string(let text):
                let utf16 = Array(text.utf16)
                if utf16.allSatisfy({ $0 < 0x80 }) {
                    body = header(0x5, utf16.count) + utf16.map { UInt8($0) }
                } else {
                    body = header(0x6, utf16.count) + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                }
            case .data(let data):
                body = header(0x4, data.count) + Array(data)
            case .integer(let number):
                body = [0x13] + bigEndian(UInt64(bitPattern: number), 8)
            case .uid(let id):
                body = [0x81] + bigEndian(UInt64(id), 2)
            case .array(let items):
                let references = items.map(add)
                body = header(0xA, items.count) + references.flatMap { bigEndian(UInt64($0), 2) }
            case .dictionary(let pairs):
                let keys = pairs.map { add(.string($0.0)) }
                let values = pairs.map { add($0.1) }
                body = header(0xD, pairs.count) + (keys + values).flatMap { bigEndian(UInt64($0), 2) }
            }
            objects[index] = body
            return index
        }
        let top = add(root)
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(output.count)
            output += object
        }
        let table = output.count
        for offset in offsets { output += bigEndian(UInt64(offset), 4) }
        output += [0, 0, 0, 0, 0, 0, 4, 2]
        output += bigEndian(UInt64(objects.count), 8) + bigEndian(UInt64(top), 8) + bigEndian(UInt64(table), 8)
        return Data(output)
    }

    private static func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x13] + bigEndian(UInt64(count), 8)
    }

    private static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
