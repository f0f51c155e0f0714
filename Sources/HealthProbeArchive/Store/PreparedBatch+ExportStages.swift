import AppleHealthExport
import Foundation

/// The first of an import's two stages of preparing rows, on the parser's thread: each element's
/// text and numbers written into a batch in the export's order — a record read in place straight
/// from the reader's bytes — its fingerprints left to ``ExportRowFingerprinter``.
package struct ExportRowEncoder {
    private var batch: PreparedBatch
    private let rowsPerBatch: Int
    /// An ECG recording holds its voltages (120 KB for 30 seconds): a batch with one is handed on
    /// at once, so that the batches in flight never hold hundreds of them.
    private var holdsRecording = false

    package init(rowsPerBatch: Int) {
        self.rowsPerBatch = rowsPerBatch
        batch = PreparedBatch(reservingRows: rowsPerBatch)
    }

    package var isEmpty: Bool { batch.count == 0 }
    package var isFull: Bool { batch.count >= rowsPerBatch || holdsRecording }

    package mutating func append(inPlace record: borrowing RecordElementSpans) {
        batch.append(recordInPlace: record)
    }

    /// Adds an element: a `Record` straight from the element, any other kind through its
    /// ``HealthRecord``.
    package mutating func append(_ element: consuming AppleExportElement) {
        switch consume element {
        case .record(let record):
            batch.append(exportRecord: record)
        case let other:
            if case .electrocardiogram = other { holdsRecording = true }
            batch.appendUnfingerprinted(HealthRecord(exportElement: other))
        }
    }

    /// The batch once it is full, to hand on; nil before. Mutating, so that asking copies nothing:
    /// reading ``isFull`` from a closure's captured encoder copies the whole encoder (a retain and a
    /// release of each of its buffers) for every element of the export.
    package mutating func takeIfFull() -> PreparedBatch? {
        isFull ? take() : nil
    }

    /// The batch so far; the encoder starts the next one.
    package mutating func take() -> PreparedBatch {
        defer {
            batch = PreparedBatch(reservingRows: rowsPerBatch)
            holdsRecording = false
        }
        return batch
    }
}

/// The second stage, on a thread of its own: each row's fingerprints, made from the text the first
/// stage wrote, and the row counted in the capture's totals and shown to the timeline they follow.
package struct ExportRowFingerprinter: ~Copyable {
    private var maker = RecordFingerprints.Maker()
    private var types = RecentByteKeys<String>()
    private var sources = RecentByteKeys<String>()

    package init() {}

    /// Fingerprints and counts every row of `batch` not yet fingerprinted, then hands it the day
    /// bins of `totals` if they are many, for the writer to store with it: memory holds a few
    /// thousand bins, not ten years of every type's.
    package mutating func finish(_ batch: inout PreparedBatch, countingIn totals: inout CaptureAggregates) {
        while batch.fingerprintedRows < batch.count {
            let fingerprints = batch.fingerprintNextRow(with: &maker)
            let row = batch.rows[batch.fingerprintedRows - 1]
            batch.bytes.withUnsafeBytes { bytes in
                totals.add(
                    type: types.name(row.text.type, in: bytes) ?? "",
                    sourceName: sources.name(row.text.sourceName, in: bytes),
                    numbers: row.numbers, strict: fingerprints.strict)
                totals.timeline?.follow(row, in: bytes)
            }
        }
        batch.dayBins = totals.takeDayBins()
    }
}
