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
        var strictFingerprint: Span
        var semanticFingerprint: Span
        var fuzzyFingerprint: Span
        var numbers: Numbers
        var identityKey: Int64
        var semanticKey: Int64
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
        if !record.members.isEmpty || !record.files.isEmpty {
            extrasByRow[rows.count] = Extras(members: record.members, files: record.files)
        }
        let text = RecordText(
            kind: append(record.kind.rawValue), type: append(record.type), sourceName: append(record.sourceName),
            sourceVersion: append(record.sourceVersion), device: append(record.device), unit: append(record.unit),
            value: append(record.value), metadata: append(record.metadataJSON), details: append(record.detailsJSON),
            healthKitUUID: append(record.healthKitUUID), metadataAsWritten: append(record.metadataAsWritten),
            sampleUUID: append(record.sampleUUID))
        return appendRow(text: text, numbers: Numbers(record), fingerprintedBy: &maker)
    }

    /// Adds a record from its text, already in ``bytes``, and its numbers.
    mutating func appendRow(
        text: RecordText, numbers: Numbers, fingerprintedBy maker: inout RecordFingerprints.Maker
    ) -> RecordFingerprints {
        let fingerprints = bytes.withUnsafeBytes { maker.fingerprints(of: numbers, text: text, in: $0) }
        rows.append(
            Row(
                text: text, strictFingerprint: append(fingerprints.strict),
                semanticFingerprint: append(fingerprints.semantic), fuzzyFingerprint: append(fingerprints.fuzzy),
                numbers: numbers, identityKey: fingerprints.identityKey, semanticKey: fingerprints.semanticKey))
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

        /// Adds an element read from an export and counts it in `totals`: a `Record` straight
        /// from the element (``PreparedBatch/append(exportRecord:fingerprintedBy:)``), any other
        /// kind through its ``HealthRecord``.
        package mutating func append(
            exportElement element: consuming AppleExportElement, countingIn totals: inout CaptureAggregates
        ) {
            switch consume element {
            case .record(let record):
                let (fingerprints, numbers) = batch.append(exportRecord: record, fingerprintedBy: &maker)
                totals.add(
                    type: record.sample.type, sourceName: record.sample.sourceName, numbers: numbers,
                    strict: fingerprints.strict)
            case let other:
                let record = HealthRecord(exportElement: other)
                totals.add(record, strict: append(record).strict)
            }
            followLastRow(in: &totals)
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
