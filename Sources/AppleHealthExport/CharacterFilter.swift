/// Replaces what XML 1.0 forbids, so that one stray byte cannot fail a multi-gigabyte import.
///
/// Control characters other than tab, newline and carriage return (exports carry stray 0x0B),
/// malformed UTF-8, and the non-characters U+FFFE and U+FFFF each become U+FFFD. The filter
/// streams: a multi-byte sequence split across two chunks is held back until the next one.
/// Clean chunks, the common case, are passed through without copying.
struct CharacterFilter {
    private(set) var replacedCount = 0
    private var carry: [UInt8] = []
    private var output: [UInt8] = []

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Filters one chunk and hands the result to `emit`; `isLast` flushes a held-back sequence.
    mutating func filter(
        _ input: UnsafeRawBufferPointer, isLast: Bool,
        emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if carry.isEmpty, let cleanEnd = Self.cleanPrefixEnd(input), cleanEnd == input.count {
            try emit(input)
            return
        }
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(input.count + carry.count + 16)
        var bytes = carry
        carry.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: input)
        let count = bytes.count
        var index = 0
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                    output.append(contentsOf: Self.replacement)
                    replacedCount += 1
                } else {
                    output.append(byte)
                }
                index += 1
                continue
            }
            let length = Self.sequenceLength(byte)
            if length == 0 {
                output.append(contentsOf: Self.replacement)
                replacedCount += 1
                index += 1
                continue
            }
            if index + length > count {
                // Possibly split across chunks: hold back unless this is the end.
                if !isLast && Self.continuationPrefixIsValid(bytes, from: index, upTo: count, lead: byte) {
                    carry.append(contentsOf: bytes[index..<count])
                    break
                }
                output.append(contentsOf: Self.replacement)
                replacedCount += 1
                index += 1
                continue
            }
            if Self.isValidSequence(bytes, at: index, length: length) {
                if Self.isNonCharacter(bytes, at: index) {
                    // A well-formed U+FFFE or U+FFFF: one replacement for the whole character.
                    output.append(contentsOf: Self.replacement)
                    replacedCount += 1
                } else {
                    output.append(contentsOf: bytes[index..<(index + length)])
                }
                index += length
            } else {
                output.append(contentsOf: Self.replacement)
                replacedCount += 1
                index += 1
            }
        }
        try output.withUnsafeBytes { try emit($0) }
    }

    /// The end of the leading run that needs no change, or nil when the chunk ends inside a
    /// multi-byte sequence.
    private static func cleanPrefixEnd(_ input: UnsafeRawBufferPointer) -> Int? {
        let count = input.count
        var index = 0
        while index < count {
            let byte = input[index]
            if byte >= 0x20 && byte < 0x80 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                index += 1
                continue
            }
            if byte < 0x80 { return index }
            let length = sequenceLength(byte)
            guard length > 0 else { return index }
            guard index + length <= count else { return nil }
            var valid = true
            input.withMemoryRebound(to: UInt8.self) { bytes in
                valid = isValidSequence(bytes, at: index, length: length) && !isNonCharacter(bytes, at: index)
            }
            guard valid else { return index }
            index += length
        }
        return index
    }

    @inline(__always)
    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }

    @inline(__always)
    private static func isValidSequence<C: RandomAccessCollection>(_ bytes: C, at index: C.Index, length: Int) -> Bool
    where C.Element == UInt8, C.Index == Int {
        let lead = bytes[index]
        let second = bytes[index + 1]
        // The second byte's allowed range depends on the lead (no overlongs, no surrogates).
        switch lead {
        case 0xE0: guard (0xA0...0xBF).contains(second) else { return false }
        case 0xED: guard (0x80...0x9F).contains(second) else { return false }
        case 0xF0: guard (0x90...0xBF).contains(second) else { return false }
        case 0xF4: guard (0x80...0x8F).contains(second) else { return false }
        default: guard second & 0xC0 == 0x80 else { return false }
        }
        for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 { return false }
        return true
    }

    /// U+FFFE and U+FFFF are well-formed UTF-8 but not XML characters.
    @inline(__always)
    private static func isNonCharacter<C: RandomAccessCollection>(_ bytes: C, at index: C.Index) -> Bool
    where C.Element == UInt8, C.Index == Int {
        bytes[index] == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE
    }

    private static func continuationPrefixIsValid(_ bytes: [UInt8], from index: Int, upTo end: Int, lead: UInt8) -> Bool
    {
        var position = index + 1
        while position < end {
            if bytes[position] & 0xC0 != 0x80 { return false }
            position += 1
        }
        return true
    }
}
