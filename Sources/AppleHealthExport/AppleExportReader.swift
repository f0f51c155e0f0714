import Foundation

/// Streams an Apple Health export — `export.zip`, its main XML, or an unzipped export folder —
/// as typed elements, in constant memory whatever the file size.
///
/// The bytes flow from the zip entry or file through ``DocumentFilter`` into libxml2's SAX2 push
/// parser; each top-level element is handed to the caller when it closes. A document that is not
/// well-formed throws ``AppleExportError`` with the file and line; a well-formed element that cannot be
/// read arrives as ``AppleExportElement/unreadable(_:)``.
public struct AppleExportReader: Sendable {
    public let source: AppleExportSource

    /// Locates the main XML of the export at `url`; throws if there is none.
    public init(url: URL, limits: ReadLimits = .standard) throws(AppleExportError) {
        source = try AppleExportSource.locate(url, limits: limits)
    }

    /// Reads from a source already located (or held in memory).
    public init(source: AppleExportSource) {
        self.source = source
    }

    /// Reads the whole export, calling `handle` for every top-level element in document order,
    /// then for every ECG recording beside the main XML (``readElectrocardiograms(_:)``).
    /// `progress` receives the number of uncompressed bytes of the main XML read so far.
    @discardableResult
    public func read(
        progress: ((Int64) -> Void)? = nil, _ handle: (consuming AppleExportElement) throws -> Void
    ) throws -> AppleExportSummary {
        try read(progress: progress, inPlace: nil, handle)
    }

    /// Reads the whole export as ``read(progress:_:)`` does, except that a `Record` of the common
    /// shape goes to `record` read in place (``RecordElementSpans``), not built as an element: an
    /// import writes its bytes straight into the archive's rows. Every other element, and every
    /// record of another shape, goes to `handle`, all in document order.
    @discardableResult
    public func read(
        progress: ((Int64) -> Void)? = nil, recordsInPlace record: (borrowing RecordElementSpans) throws -> Void,
        _ handle: (consuming AppleExportElement) throws -> Void
    ) throws -> AppleExportSummary {
        // An optional closure escapes; this one never outlives the read.
        try withoutActuallyEscaping(record) { record in try read(progress: progress, inPlace: record, handle) }
    }

    private func read(
        progress: ((Int64) -> Void)?, inPlace record: ((borrowing RecordElementSpans) throws -> Void)?,
        _ handle: (consuming AppleExportElement) throws -> Void
    ) throws -> AppleExportSummary {
        var summary = AppleExportSummary()
        let mapper = ElementMapper()
        try run(progress: progress) { scratch in
            if let record {
                let lent = try mapper.lendInPlace(scratch) { spans in
                    summary.count(spans)
                    try record(spans)
                }
                if lent { return }
            }
            let element = mapper.map(scratch)
            summary.count(element)
            try handle(element)
        } finished: { parser, filter, bytes in
            summary.finish(parser: parser, filter: filter, bytes: bytes)
        }
        try readElectrocardiograms { element in
            summary.count(element)
            try handle(element)
        }
        return summary
    }

    /// Parses the export without building elements: the libxml2 floor that benchmarks compare with.
    public func parseOnly() throws -> AppleExportSummary {
        var summary = AppleExportSummary()
        var elements = 0
        try run(progress: nil) { _ in
            elements += 1
        } finished: { parser, filter, bytes in
            summary.finish(parser: parser, filter: filter, bytes: bytes)
        }
        summary.elementCounts["*"] = elements
        return summary
    }

    private func run(
        progress: ((Int64) -> Void)?,
        element: (borrowing ElementScratch) throws -> Void,
        finished: (SAXDocumentParser, DocumentFilter, Int64) -> Void
    ) throws {
        try withoutActuallyEscaping(element) { element in
            try run(
                progress: progress, parser: SAXDocumentParser(fileName: source.displayName, onElement: element),
                finished: finished)
        }
    }

    private func run(
        progress: ((Int64) -> Void)?, parser: SAXDocumentParser,
        finished: (SAXDocumentParser, DocumentFilter, Int64) -> Void
    ) throws {
        let file = source.displayName
        let filter: DocumentFilter
        do {
            filter = try ReadAhead.stream(source) { root in
                guard root == "HealthData" else { throw AppleExportError.notHealthData(file: file, rootName: root) }
            } _: { chunk, bytesRead in
                try parser.feed(chunk)
                progress?(bytesRead)
            }
            try parser.finish()
        } catch let failure as SAXDocumentParser.Failure {
            if failure.beyondLimits {
                throw AppleExportError.refused(file: file, problem: "line \(failure.line): \(failure.message)")
            }
            throw AppleExportError.malformed(file: file, line: failure.line, problem: failure.message)
        } catch let failure as PrologFilter.Failure {
            throw PrologFilter.exportError(failure, file: file)
        }
        guard parser.rootClosed else {
            throw AppleExportError.malformed(file: file, line: 0, problem: "the document ends before </HealthData>")
        }
        finished(parser, filter, filter.bytesIn)
    }
}

/// What a read found besides the elements themselves.
public struct AppleExportSummary: Sendable {
    /// The export's `ExportDate`, when present and readable.
    public var exportDate: AppleExportTimestamp?
    public var locale: String?
    /// `N` of the DTD comment `HealthKit Export Version: N`.
    public var exportVersion: Int?
    /// Top-level elements by name (`Record`, `Workout`, …), unreadable ones included.
    public var elementCounts: [String: Int] = [:]
    /// Top-level elements kept raw because their content could not be read.
    public var unreadableCount = 0
    /// Characters XML forbids (stray control bytes, malformed UTF-8) replaced by U+FFFD.
    public var replacedCharacters = 0
    /// Uncompressed bytes read.
    public var bytesRead: Int64 = 0
    /// The offset the first sample's dates were written at, for an export without a readable
    /// `ExportDate`.
    public var firstSampleUTCOffset: Int32?
    /// Every offset the samples' dates were written at, by the instants they cover: Apple
    /// writes each date at the offset its time zone has then (daylight saving time included).
    public var offsetSpans = OffsetSpans()

    /// Records read in place (``RecordElementSpans``), counted among `Record`s at the end.
    private var recordsReadInPlace = 0

    /// The offset the export wrote its own date at: its `ExportDate`'s, else its first sample's.
    public var datesUTCOffset: Int32? { exportDate?.utcOffsetSeconds ?? firstSampleUTCOffset }

    /// Top-level elements other than `ExportDate` and `Me`.
    public var elementCount: Int { elementCounts.values.reduce(0, +) }

    mutating func count(_ element: AppleExportElement) {
        elementCounts[element.elementName, default: 0] += 1
        if case .unreadable = element { unreadableCount += 1 }
        switch element {
        case .record(let record): note(record.sample)
        case .workout(let workout): note(workout.sample)
        case .correlation(let correlation): note(correlation.sample)
        default: break
        }
    }

    mutating func count(_ record: borrowing RecordElementSpans) {
        recordsReadInPlace += 1
        note(start: record.startDate, end: record.endDate, creation: record.creationDate)
    }

    private mutating func note(_ sample: borrowing SampleFields) {
        note(start: sample.startDate, end: sample.endDate, creation: sample.creationDate)
    }

    private mutating func note(
        start: AppleExportTimestamp, end: AppleExportTimestamp, creation: AppleExportTimestamp?
    ) {
        if firstSampleUTCOffset == nil { firstSampleUTCOffset = start.utcOffsetSeconds }
        offsetSpans.note(start)
        offsetSpans.note(end)
        if let creation { offsetSpans.note(creation) }
    }

    mutating func finish(parser: SAXDocumentParser, filter: DocumentFilter, bytes: Int64) {
        exportDate = parser.exportDateText.flatMap(AppleExportTimestamp.init(exportText:))
        locale = parser.locale
        exportVersion = filter.exportVersion
        replacedCharacters = filter.replacedCharacters
        bytesRead = bytes
        if recordsReadInPlace > 0 { elementCounts["Record", default: 0] += recordsReadInPlace }
        recordsReadInPlace = 0
    }
}
