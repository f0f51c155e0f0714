/// Reads an export's prolog (everything before the root element's start tag) and rewrites it
/// so that a strict parser accepts it and nothing in it can reach outside the document.
///
/// The inline DTD of Apple's exports carries nothing HealthProbe needs, was malformed in iOS 16
/// exports, and is the only place where entities could be declared. So the document type
/// declaration is dropped whole (its newlines are kept, so that line numbers in errors stay
/// true). An entity declaration inside it refuses the document: Apple never writes one, and an
/// entity is how expansion bombs and external-file reads arrive.
struct PrologFilter {
    enum Outcome: Equatable {
        /// The prolog is not complete yet: feed more bytes.
        case needMore
        /// The rewritten prolog, the root element's name, and where the root's start tag begins.
        case done(prolog: [UInt8], rootName: String, rootStart: Int, exportVersion: Int?)
    }

    enum Failure: Error, Equatable {
        case entityDeclaration
        case noRootElement
        case malformedProlog(String)
    }

    /// The largest prolog accepted before a root element must appear.
    static let maximumPrologSize = 1 << 20

    /// Scans `bytes`, which must start at the beginning of the document.
    static func scan(_ bytes: [UInt8], isComplete: Bool) throws(Failure) -> Outcome {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        var exportVersion: Int?
        var index = 0
        let count = bytes.count
        func starts(_ literal: StaticString, at position: Int) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard position + length <= count else { return false }
            let pointer = literal.utf8Start
            for offset in 0..<length where bytes[position + offset] != pointer[offset] { return false }
            return true
        }
        func find(_ literal: StaticString, from position: Int) -> Int? {
            var cursor = position
            while cursor < count {
                if starts(literal, at: cursor) { return cursor }
                cursor += 1
            }
            return nil
        }
        while index < count {
            let byte = bytes[index]
            if starts("<?", at: index) {
                guard let end = find("?>", from: index + 2) else { return try needMore(count, isComplete) }
                output.append(contentsOf: bytes[index..<(end + 2)])
                index = end + 2
            } else if starts("<!--", at: index) {
                guard let end = find("-->", from: index + 4) else { return try needMore(count, isComplete) }
                output.append(contentsOf: bytes[index..<(end + 3)])
                index = end + 3
            } else if starts("<!DOCTYPE", at: index) {
                guard let end = try doctypeEnd(bytes, from: index + 9, version: &exportVersion) else {
                    return try needMore(count, isComplete)
                }
                for position in index..<end where bytes[position] == UInt8(ascii: "\n") {
                    output.append(UInt8(ascii: "\n"))
                }
                index = end
            } else if byte == UInt8(ascii: "<") {
                var nameEnd = index + 1
                while nameEnd < count, !isNameTerminator(bytes[nameEnd]) { nameEnd += 1 }
                guard nameEnd < count else { return try needMore(count, isComplete) }
                guard nameEnd > index + 1 else { throw .malformedProlog("a tag without a name") }
                let name = String(decoding: bytes[(index + 1)..<nameEnd], as: UTF8.self)
                return .done(prolog: output, rootName: name, rootStart: index, exportVersion: exportVersion)
            } else {
                output.append(byte)
                index += 1
            }
        }
        return try needMore(count, isComplete)
    }

    private static func needMore(_ count: Int, _ isComplete: Bool) throws(Failure) -> Outcome {
        if isComplete || count > maximumPrologSize { throw .noRootElement }
        return .needMore
    }

    private static func isNameTerminator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    /// Returns the index just past the declaration's closing `>`, or nil when more bytes are needed.
    private static func doctypeEnd(_ bytes: [UInt8], from start: Int, version: inout Int?) throws(Failure) -> Int? {
        var index = start
        var quote: UInt8?
        // Before the internal subset: the name and an optional external identifier (quoted).
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            } else if byte == UInt8(ascii: "[") {
                return try subsetEnd(bytes, from: index + 1, version: &version)
            }
            index += 1
        }
        return nil
    }

    /// Skips the internal subset. Quotes are not trusted (the iOS 16 subset is malformed); only
    /// comments are honoured, and the subset ends at `]` followed by optional space and `>`.
    private static func subsetEnd(_ bytes: [UInt8], from start: Int, version: inout Int?) throws(Failure) -> Int? {
        var index = start
        let count = bytes.count
        let commentOpen: [UInt8] = Array("<!--".utf8)
        let entityOpen: [UInt8] = Array("<!ENTITY".utf8)
        while index < count {
            if bytes[index] == UInt8(ascii: "<"), matches(bytes, commentOpen, at: index) {
                var end = index + 4
                while end + 2 < count, !(bytes[end] == 45 && bytes[end + 1] == 45 && bytes[end + 2] == 62) { end += 1 }
                guard end + 2 < count else { return nil }
                if version == nil { version = exportVersion(in: bytes[(index + 4)..<end]) }
                index = end + 3
                continue
            }
            if bytes[index] == UInt8(ascii: "<"), matches(bytes, entityOpen, at: index) {
                throw .entityDeclaration
            }
            if bytes[index] == UInt8(ascii: "]") {
                var after = index + 1
                while after < count, isSpace(bytes[after]) { after += 1 }
                guard after < count else { return nil }
                if bytes[after] == UInt8(ascii: ">") { return after + 1 }
            }
            index += 1
        }
        return nil
    }

    private static func matches(_ bytes: [UInt8], _ literal: [UInt8], at index: Int) -> Bool {
        guard index + literal.count <= bytes.count else { return false }
        for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
        return true
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Reads `N` from a comment `HealthKit Export Version: N`.
    private static func exportVersion(in comment: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: comment, as: UTF8.self)
        guard let range = text.range(of: "Export Version:") else { return nil }
        let digits = text[range.upperBound...].drop(while: { $0 == " " }).prefix(while: { $0.isNumber })
        return Int(digits)
    }
}
