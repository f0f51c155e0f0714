extension Array where Element == UInt8 {
    /// Appends a string's UTF-8 bytes straight from its storage. Appending `text.utf8` as a
    /// sequence retains and releases the string each time, and the strings of an import are shared
    /// between threads, which makes that costly.
    mutating func appendUTF8(_ text: String) {
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if appended == nil { append(contentsOf: text.utf8) }
    }
}
