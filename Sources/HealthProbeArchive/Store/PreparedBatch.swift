import AppleHealthExport
import Foundation

/// Records ready to store, prepared off the writer's thread: fingerprinted, and their text and
/// fingerprints encoded into one byte arena that the writer binds in place.
///
/// Besides the arena a batch holds plain values only, so handing it from thread to thread and
/// freeing it costs no reference counting per record — in an import that was a large share of
/// both the fingerprinting and the writing threads' time.
package struct PreparedBatch: Sendable {
    /// Where one value lies in ``bytes``; a negative length stands for NULL.
    struct Span: Sendable {
        var offset: Int32
        var length: Int32

        static let null = Span(offset: 0, length: -1)
        var isNull: Bool { length < 0 }
        var range: Range<Int> { Int(offset)..<Int(offset + length) }
    }

    /// A record's text, as UTF-8 in ``bytes``.
    struct RecordText: Sendable {
        var kind: Span
        var type: Span
        var sourceName: Span
        var sourceVersion: Span
        var device: Span
        var unit: Span
        var value: Span
        var metadata: Span
        var details: Span
        var healthKitUUID: Span
        /// Null unless a metadata date was written with an offset (``HealthRecord/metadataAsWritten``).
        var metadataAsWritten: Span = .null
        /// 16 bytes, RFC 4122 order; null unless a backup gave the sample (``HealthRecord/sampleUUID``).
        var sampleUUID: Span = .null
    }

    /// A record's numbers: its value as a number, and its dates in seconds since 1970, UTC.
    struct Numbers: Sendable {
        var numericValue: Double?
        var creationDate: Double?
        var startDate: Double?
        var endDate: Double?
        /// Entered by hand in the Health app (`HKWasUserEntered` 1): a source's place in Health's
        /// order (docs/DESIGN.md §8a) depends on it.
        var enteredByHand = false
    }

    /// One record: its text and fingerprints in ``bytes``, and its numbers.
    struct Row: Sendable {
        var text: RecordText
        var strictFingerprint = Span.null
        var semanticFingerprint = Span.null
        var fuzzyFingerprint = Span.null
        var numbers: Numbers
        var identityKey: Int64 = 0
        var semanticKey: Int64 = 0
    }

    /// What only correlations and records with files carry, stored beside the record's row.
    struct Extras: Sendable {
        var members: [CorrelationMember]
        var files: [AttachedFile]
    }

    private(set) var bytes: [UInt8] = []
    private(set) var rows: [Row] = []
    /// By row index; empty for most batches.
    private var extrasByRow: [Int: Extras] = [:]
    /// The capture's day bins handed over with this batch, if it was time
    /// (``CaptureAggregates/takeDayBins()``).
    var dayBins: [CaptureAggregates.SpilledBin] = []

    package var count: Int { rows.count }
    /// Rows whose fingerprints are made: every row, but between an import's two stages
    /// (``ExportRowEncoder``, ``ExportRowFingerprinter``), where the first writes the text and the
    /// second the fingerprints.
    private(set) var fingerprintedRows = 0

    /// What row `index` carries besides its columns, if anything.
    func extras(at index: Int) -> Extras? {
        extrasByRow.isEmpty ? nil : extrasByRow[index]
    }

    init(reservingRows rows: Int) {
        self.rows.reserveCapacity(rows)
        bytes.reserveCapacity(rows * 192)
    }

    /// Adds a record: its text first, then its fingerprints, made from that text.
    mutating func append(_ record: HealthRecord, fingerprintedBy maker: inout RecordFingerprints.Maker)
        -> RecordFingerprints
    {
        appendUnfingerprinted(record)
        return fingerprintNextRow(with: &maker)
    }

    /// Adds a record's text and numbers; its fingerprints wait for ``fingerprintNextRow(with:)``.
    mutating func appendUnfingerprinted(_ record: HealthRecord) {
        if !record.members.isEmpty || !record.files.isEmpty {
            extrasByRow[rows.count] = Extras(members: record.members, files: record.files)
        }
        let text = RecordText(
            kind: append(record.kind.rawValue), type: append(record.type), sourceName: append(record.sourceName),
            sourceVersion: append(record.sourceVersion), device: append(record.device), unit: append(record.unit),
            value: append(record.value), metadata: append(record.metadataJSON), details: append(record.detailsJSON),
            healthKitUUID: append(record.healthKitUUID), metadataAsWritten: append(record.metadataAsWritten),
            sampleUUID: append(record.sampleUUID))
        appendRow(text: text, numbers: Numbers(record))
    }

    /// Adds a record from its text, already in ``bytes``, and its numbers.
    mutating func appendRow(text: RecordText, numbers: Numbers) {
        rows.append(Row(text: text, numbers: numbers))
    }

    /// Makes the fingerprints of the first row without them, from its text, and writes them.
    mutating func fingerprintNextRow(with maker: inout RecordFingerprints.Maker) -> RecordFingerprints {
        let index = fingerprintedRows
        let (text, numbers) = (rows[index].text, rows[index].numbers)
        let fingerprints = bytes.withUnsafeBytes { maker.fingerprints(of: numbers, text: text, in: $0) }
        rows[index].strictFingerprint = append(fingerprints.strict)
        rows[index].semanticFingerprint = append(fingerprints.semantic)
        rows[index].fuzzyFingerprint = append(fingerprints.fuzzy)
        rows[index].identityKey = fingerprints.identityKey
        rows[index].semanticKey = fingerprints.semanticKey
        fingerprintedRows += 1
        return fingerprints
    }

    /// Bytes written by `write` straight into ``bytes``, as a span; NULL when it wrote none.
    mutating func appendWritten(_ write: (inout [UInt8]) -> Void) -> Span {
        let offset = bytes.count
        write(&bytes)
        return bytes.count == offset ? .null : Span(offset: Int32(offset), length: Int32(bytes.count - offset))
    }

    mutating func append(_ text: String?) -> Span {
        guard let text else { return .null }
        let offset = bytes.count
        bytes.appendUTF8(text)
        return Span(offset: Int32(offset), length: Int32(bytes.count - offset))
    }

    /// Copies `span` into ``bytes``; NULL when there is none.
    mutating func append(copying span: UnsafeRawBufferPointer?) -> Span {
        guard let span else { return .null }
        let offset = bytes.count
        bytes.append(contentsOf: span)
        return Span(offset: Int32(offset), length: Int32(span.count))
    }

    private mutating func append(_ uuid: UUID?) -> Span {
        guard let uuid else { return .null }
        let offset = bytes.count
        withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
        return Span(offset: Int32(offset), length: 16)
    }

    /// Big-endian, as fingerprints are stored.
    private mutating func append(_ fingerprint: Fingerprint) -> Span {
        let offset = bytes.count
        withUnsafeBytes(of: (fingerprint.high.bigEndian, fingerprint.low.bigEndian)) { bytes.append(contentsOf: $0) }
        return Span(offset: Int32(offset), length: 16)
    }
}

extension PreparedBatch {
    /// Fills batches record by record, keeping what helps from one record to the next.
    package struct Builder: ~Copyable {
        private var maker = RecordFingerprints.Maker()
        private var batch: PreparedBatch
        private let rowsPerBatch: Int

        package init(rowsPerBatch: Int) {
            self.rowsPerBatch = rowsPerBatch
            batch = PreparedBatch(reservingRows: rowsPerBatch)
        }

        /// Adds a record; returns its fingerprints.
        @discardableResult
        package mutating func append(_ record: HealthRecord) -> RecordFingerprints {
            batch.append(record, fingerprintedBy: &maker)
        }

        /// Adds a record and counts it in `totals`.
        package mutating func append(_ record: HealthRecord, countingIn totals: inout CaptureAggregates) {
            totals.add(record, strict: append(record).strict)
            followLastRow(in: &totals)
        }

        /// Shows the row just added to the timeline `totals` follow, if they follow one.
        private func followLastRow(in totals: inout CaptureAggregates) {
            guard totals.timeline != nil, let row = batch.rows.last else { return }
            batch.bytes.withUnsafeBytes { totals.timeline?.follow(row, in: $0) }
        }

        /// The batch so far; the builder starts the next one.
        package mutating func take() -> PreparedBatch {
            defer { batch = PreparedBatch(reservingRows: rowsPerBatch) }
            return batch
        }

        /// The batch so far with the day bins of `totals`, if they are many, for the writer to
        /// store with it: memory holds a few thousand bins, not ten years of every type's.
        package mutating func take(handingOverDayBinsOf totals: inout CaptureAggregates) -> PreparedBatch {
            batch.dayBins = totals.takeDayBins()
            return take()
        }
    }
}

extension PreparedBatch.Numbers {
    init(_ record: HealthRecord) {
        self.init(
            numericValue: record.numericValue, creationDate: record.creationDate, startDate: record.startDate,
            endDate: record.endDate,
            enteredByHand: record.metadataJSON.map { metadata in
                var text = metadata
                return text.withUTF8 { SourceArrival.marksHandEntry($0) }
            } ?? false)
    }
}
