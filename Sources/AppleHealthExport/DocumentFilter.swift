/// The streaming byte filter between the input and libxml2: the prolog is rewritten by
/// ``PrologFilter`` (internal DTD subset dropped, entity declarations refused), and everything
/// then passes through ``CharacterFilter``.
struct DocumentFilter {
    private var prolog: [UInt8] = []
    private var prologDone = false
    private var characters = CharacterFilter()
    private(set) var rootName: String?
    private(set) var exportVersion: Int?
    /// Bytes taken in, before filtering.
    private(set) var bytesIn: Int64 = 0

    var replacedCharacters: Int { characters.replacedCount }

    mutating func process(_ chunk: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        bytesIn += Int64(chunk.count)
        if prologDone {
            try characters.filter(chunk, isLast: false, emit: emit)
            return
        }
        prolog.append(contentsOf: chunk)
        try scanProlog(isComplete: false, emit: emit)
    }

    mutating func finish(emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        if !prologDone { try scanProlog(isComplete: true, emit: emit) }
        try characters.filter(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true, emit: emit)
    }

    private mutating func scanProlog(isComplete: Bool, emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard
            case .done(let rewritten, let root, let rootStart, let version) = try PrologFilter.scan(
                prolog, isComplete: isComplete)
        else { return }
        rootName = root
        exportVersion = version
        prologDone = true
        let rest = prolog[rootStart...]
        prolog = []
        try rewritten.withUnsafeBytes { try characters.filter($0, isLast: false, emit: emit) }
        try rest.withUnsafeBytes { try characters.filter($0, isLast: false, emit: emit) }
    }
}
