import Foundation

extension UnsafeRawBufferPointer {
    /// Whether these bytes end with the UTF-8 of `suffix` (byte for byte: case counts).
    func ends(with suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        guard count >= length, let base = baseAddress else { return false }
        return memcmp(base + (count - length), suffix.utf8Start, length) == 0
    }

    /// Whether the UTF-8 of `text` occurs in these bytes (byte for byte, as SQLite's `instr`).
    func contains(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard count >= length, let base = baseAddress else { return false }
        let first = Int32(text.utf8Start.pointee)
        var offset = 0
        while offset + length <= count {
            guard let found = memchr(base + offset, first, count - length - offset + 1) else { return false }
            let position = base.distance(to: UnsafeRawPointer(found))
            if memcmp(base + position, text.utf8Start, length) == 0 { return true }
            offset = position + 1
        }
        return false
    }
}
