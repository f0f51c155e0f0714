import AppleHealthExport
import Foundation

/// The three identities of a record (docs/DESIGN.md §6).
package struct RecordFingerprints: Sendable, Hashable {
    /// All content: what makes two copies byte-for-byte the same record. SHA-256, truncated.
    package var strict: Fingerprint
    /// What a person means by "the same sample": kind, type, source, unit, start, end, value.
    /// MurmurHash3 (128 bits): no cryptographic strength is needed to tell samples apart.
    package var semantic: Fingerprint
    /// For matching across HealthKit, exports and backups: type, normalised source, times to the
    /// second, value to four significant digits. MurmurHash3 (128 bits).
    package var fuzzy: Fingerprint
    /// The archive's index key for the strict fingerprint.
    package var identityKey: Int64
    /// The archive's index key for "the same sample, whoever wrote it": the start hour, then a
    /// hash of the semantic content without the source. Exact duplicates share it (and their
    /// semantic fingerprint), and so do samples two sources wrote alike (source overlap).
    package var semanticKey: Int64

    /// One record's fingerprints. (Imports fingerprint batches of records: ``PreparedBatch``.)
    package init(_ record: HealthRecord) {
        var batch = PreparedBatch(reservingRows: 1)
        var maker = Maker()
        self = batch.append(record, fingerprintedBy: &maker)
    }

    init(strict: Fingerprint, semantic: Fingerprint, fuzzy: Fingerprint, identityKey: Int64, semanticKey: Int64) {
        self.strict = strict
        self.semantic = semantic
        self.fuzzy = fuzzy
        self.identityKey = identityKey
        self.semanticKey = semanticKey
    }

    /// Fingerprints record after record with one encoding buffer, from the UTF-8 text a batch
    /// already holds for them, remembering the source names it normalised last.
    struct Maker: ~Copyable {
        private var hasher = FingerprintHasher()
        /// The sources normalised, by their names' bytes: a type's records alternate between a
        /// phone and a watch.
        private var normalizedSources = RecentByteKeys<String>()

        mutating func fingerprints(
            of numbers: PreparedBatch.Numbers, text: PreparedBatch.RecordText, in bytes: UnsafeRawBufferPointer
        ) -> RecordFingerprints {
            let fields = EncodedFields(numbers: numbers, text: text, bytes: bytes)
            hasher.reset()
            RecordFingerprints.addStrictContent(fields, to: &hasher)
            let strict = hasher.finalize()
            hasher.reset()
            RecordFingerprints.addSampleContent(fields, source: true, to: &hasher)
            let semantic = hasher.contentHash()
            hasher.reset()
            RecordFingerprints.addSampleContent(fields, source: false, to: &hasher)
            let semanticKey = Fingerprint.key(startingAt: numbers.startDate, bits: hasher.stableHash())
            hasher.reset()
            RecordFingerprints.addFuzzyContent(
                fields, normalizedSource: normalizedSource(text.sourceName, in: bytes), to: &hasher)
            return RecordFingerprints(
                strict: strict, semantic: semantic, fuzzy: hasher.contentHash(),
                identityKey: strict.key(startingAt: numbers.startDate), semanticKey: semanticKey)
        }

        /// The normalised source name of the record whose name is `span` of `bytes`.
        private mutating func normalizedSource(_ span: PreparedBatch.Span, in bytes: UnsafeRawBufferPointer)
            -> String?
        {
            normalizedSources.name(span, in: bytes) {
                RecordFingerprints.normalizedSourceName(String(decoding: $0, as: UTF8.self))
            }
        }
    }

    /// A record's numbers, and its text as spans of a batch's bytes. (Plain values: holding the
    /// record itself would copy it, a retain and a release for each of its strings.)
    private struct EncodedFields {
        let numbers: PreparedBatch.Numbers
        let text: PreparedBatch.RecordText
        let bytes: UnsafeRawBufferPointer
    }

    /// All content: kind, type, source and version, device, unit, value, the three dates,
    /// metadata, details, and the HealthKit UUID when there is one.
    private static func addStrictContent(_ fields: EncodedFields, to hasher: inout FingerprintHasher) {
        let (text, bytes, numbers) = (fields.text, fields.bytes, fields.numbers)
        hasher.add(1, text.kind, in: bytes)
        hasher.add(2, text.type, in: bytes)
        hasher.add(3, text.sourceName, in: bytes)
        hasher.add(4, text.sourceVersion, in: bytes)
        hasher.add(5, text.device, in: bytes)
        hasher.add(6, text.unit, in: bytes)
        hasher.add(7, text.value, in: bytes)
        hasher.add(8, numbers.creationDate.map(microseconds))
        hasher.add(9, numbers.startDate.map(microseconds))
        hasher.add(10, numbers.endDate.map(microseconds))
        hasher.add(11, text.metadata, in: bytes)
        hasher.add(12, text.details, in: bytes)
        // Each HealthKit object is its own record, however alike two of them are; export records
        // have no UUID, and their fingerprints do not change.
        if !text.healthKitUUID.isNull { hasher.add(14, text.healthKitUUID, in: bytes) }
    }

    package static func semantic(_ record: HealthRecord) -> Fingerprint {
        RecordFingerprints(record).semantic
    }

    /// The semantic index key (see ``semanticKey``): the same sample, from any source.
    package static func sameSampleKey(_ record: HealthRecord) -> Int64 {
        RecordFingerprints(record).semanticKey
    }

    /// Kind, type, source (when asked), unit, start, end and value.
    private static func addSampleContent(_ fields: EncodedFields, source: Bool, to hasher: inout FingerprintHasher) {
        let (text, bytes, numbers) = (fields.text, fields.bytes, fields.numbers)
        hasher.add(1, text.kind, in: bytes)
        hasher.add(2, text.type, in: bytes)
        if source { hasher.add(3, text.sourceName, in: bytes) }
        hasher.add(6, text.unit, in: bytes)
        hasher.add(9, numbers.startDate.map(microseconds))
        hasher.add(10, numbers.endDate.map(microseconds))
        if let number = numbers.numericValue {
            hasher.add(13, Int64(bitPattern: number.bitPattern))
        } else {
            hasher.add(7, text.value, in: bytes)
        }
        // Elements with no value of their own (workouts, summaries) are told apart by content.
        if text.value.isNull { hasher.add(12, text.details, in: bytes) }
    }

    /// Type, normalised source, times to the second, and the value to four significant digits.
    private static func addFuzzyContent(
        _ fields: EncodedFields, normalizedSource: String?, to hasher: inout FingerprintHasher
    ) {
        let (text, bytes, numbers) = (fields.text, fields.bytes, fields.numbers)
        hasher.add(2, text.type, in: bytes)
        hasher.add(3, normalizedSource)
        hasher.add(9, numbers.startDate.map { Int64($0.rounded()) })
        hasher.add(10, numbers.endDate.map { Int64($0.rounded()) })
        if let number = numbers.numericValue {
            hasher.add(13, Int64(bitPattern: roundedToSignificantDigits(number, 4).bitPattern))
        } else {
            hasher.add(7, text.value, in: bytes)
        }
    }

    @inline(__always)
    static func microseconds(_ seconds: Double) -> Int64 {
        Int64((seconds * 1_000_000).rounded())
    }

    /// Lowercased, whitespace collapsed, typographic apostrophes made plain. Works on UTF-8
    /// bytes; only names with non-ASCII letters take the slower Unicode path.
    static func normalizedSourceName(_ name: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(name.utf8.count)
        var pendingSpace = false
        var needsUnicodeLowercasing = false
        var bytes = Array(name.utf8)
        var index = 0
        func emit(_ byte: UInt8) {
            if pendingSpace && !output.isEmpty { output.append(UInt8(ascii: " ")) }
            pendingSpace = false
            output.append(byte)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                pendingSpace = true
                index += 1
            } else if byte == UInt8(ascii: "`") {
                emit(UInt8(ascii: "'"))
                index += 1
            } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0x98 || bytes[index + 2] == 0x99
            {
                emit(UInt8(ascii: "'"))  // ‘ ’
                index += 3
            } else if byte == 0xCA, index + 1 < bytes.count, bytes[index + 1] == 0xBC {
                emit(UInt8(ascii: "'"))  // ʼ
                index += 2
            } else {
                if byte >= 0x80 { needsUnicodeLowercasing = true }
                emit(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte)
                index += 1
            }
        }
        bytes = output
        let normalized = String(decoding: bytes, as: UTF8.self)
        return needsUnicodeLowercasing ? normalized.lowercased() : normalized
    }

    static func roundedToSignificantDigits(_ value: Double, _ digits: Int) -> Double {
        guard value != 0, value.isFinite else { return value }
        let magnitude = Int(floor(log10(abs(value)))) + 1
        let scale = pow(10, Double(digits - magnitude))
        let rounded = (value * scale).rounded() / scale
        return rounded == 0 ? 0 : rounded
    }
}
