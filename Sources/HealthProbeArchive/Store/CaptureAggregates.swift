import Foundation

/// Per-type totals of one capture, gathered while records stream in: counts, an
/// order-independent checksum of the strict fingerprints (a multiset hash), counts per source,
/// and the same per UTC day, with the day's sum of numeric values (the daily series the
/// divergence test reads). Memory grows with types, never with records: an import hands its
/// day bins to the writer whenever more than ``daysHeld`` are held (``takeDayBins()``).
package struct CaptureAggregates: Sendable {
    /// Day bins held at most before an import hands them over: ten years of a hundred types
    /// would be a third of a million.
    static let daysHeld = 8_192

    /// One type's day, handed over before the end.
    struct SpilledBin: Sendable {
        var type: String
        var day: Int64
        var bin: DayBin
    }

    struct DayBin {
        var count = 0
        var hash: UInt64 = 0
        var valueSum = 0.0
        var valueCount = 0

        mutating func add(_ contribution: UInt64, value: Double?) {
            count += 1
            hash &+= contribution
            if let value {
                valueSum += value
                valueCount += 1
            }
        }
    }

    struct TypeTotals {
        var count = 0
        var checksum: UInt64 = 0
        var sources: [String: Int] = [:]
        var days: [Int64: DayBin] = [:]
        /// Each source's earliest written record (creation date, else start): when it arrived.
        var firstWritten: [String: Double] = [:]
        /// The sources that wrote a record of the type entered by hand.
        var enteredByHand: Set<String> = []
        /// Runs of one source and one day are common: counted here, folded in on change.
        var pendingSource = ""
        var pendingSourceCount = 0
        var pendingFirstWritten = Double.infinity
    }

    private(set) var totals: [TypeTotals] = []
    /// The timeline detectors' view of the records, when followed as they came
    /// (``init(followingTimelineUnder:)``).
    package internal(set) var timeline: StreamedTimeline?
    private var slots: [String: Int] = [:]
    private var lastType = ""
    private var lastSlot = -1
    /// Day bins held now, of every type.
    private var heldDays = 0
    /// Whether day bins were handed over before the end: the writer then adds the rest to theirs.
    private(set) var spilledDays = false

    /// Per-type totals by sample type.
    var types: [String: TypeTotals] {
        slots.mapValues { totals[$0] }
    }

    package init() {}

    /// Totals that also follow the records' timeline for the detectors (``StreamedTimeline``)
    /// when given thresholds: the reading of a first capture, which then needs no second reading
    /// in time order (``ArchiveStore/holdsRecords()``).
    package init(followingTimelineUnder thresholds: Thresholds?) {
        timeline = thresholds.map(StreamedTimeline.init)
    }

    /// Totals already gathered, by sample type.
    init(types: [String: TypeTotals]) {
        for (type, typeTotals) in types {
            slots[type] = totals.count
            totals.append(typeTotals)
        }
    }

    /// Takes a record out, as ``add(_:strict:)`` put it in (the live path's incremental totals).
    mutating func remove(_ record: HealthRecord, strict: Fingerprint) {
        remove(type: record.type, sourceName: record.sourceName, numbers: PreparedBatch.Numbers(record), strict: strict)
    }

    mutating func remove(type: String, sourceName: String?, numbers: PreparedBatch.Numbers, strict: Fingerprint) {
        let contribution = strict.high ^ (strict.low &* 0x9E37_79B9_7F4A_7C15)
        guard let slot = slots[type] else { return }
        totals[slot].remove(sourceName: sourceName, numbers: numbers, contribution: contribution)
    }

    package mutating func add(_ record: HealthRecord, strict: Fingerprint) {
        add(type: record.type, sourceName: record.sourceName, numbers: PreparedBatch.Numbers(record), strict: strict)
    }

    mutating func add(type: String, sourceName: String?, numbers: PreparedBatch.Numbers, strict: Fingerprint) {
        let contribution = strict.high ^ (strict.low &* 0x9E37_79B9_7F4A_7C15)
        // Exports group records by type: remembering the last type saves a hash per record.
        if lastSlot < 0 || type != lastType {
            lastType = type
            if let slot = slots[type] {
                lastSlot = slot
            } else {
                lastSlot = totals.count
                slots[type] = lastSlot
                totals.append(TypeTotals())
            }
        }
        let days = totals[lastSlot].days.count
        totals[lastSlot].add(sourceName: sourceName, numbers: numbers, contribution: contribution)
        heldDays += totals[lastSlot].days.count - days
    }

    /// Every day bin held, once more than ``daysHeld`` are, for the writer to store now
    /// (``CaptureWrite/writeDayBins(_:addingToStored:)``); none otherwise.
    mutating func takeDayBins() -> [SpilledBin] {
        guard heldDays > Self.daysHeld else { return [] }
        var bins: [SpilledBin] = []
        bins.reserveCapacity(heldDays)
        for (type, slot) in slots {
            for (day, bin) in totals[slot].days { bins.append(SpilledBin(type: type, day: day, bin: bin)) }
            totals[slot].days = [:]
        }
        heldDays = 0
        spilledDays = true
        return bins
    }
}

extension CaptureAggregates.TypeTotals {
    mutating func add(sourceName: String?, numbers: PreparedBatch.Numbers, contribution: UInt64) {
        count += 1
        checksum &+= contribution
        let source = sourceName ?? ""
        if pendingSourceCount > 0 && source != pendingSource { flushPendingSource() }
        // Assigned only when a run begins: assigning the same name again retains and releases it.
        if pendingSourceCount == 0 { pendingSource = source }
        pendingSourceCount += 1
        if numbers.enteredByHand { enteredByHand.insert(source) }
        if let written = numbers.creationDate ?? numbers.startDate, written < pendingFirstWritten {
            pendingFirstWritten = written
        }
        if let start = numbers.startDate {
            let day = UTCDay.of(start)
            days[day, default: CaptureAggregates.DayBin()].add(contribution, value: numbers.numericValue)
        }
    }

    mutating func flushPendingSource() {
        guard pendingSourceCount > 0 else { return }
        sources[pendingSource, default: 0] += pendingSourceCount
        pendingSourceCount = 0
        if pendingFirstWritten < firstWritten[pendingSource] ?? .infinity {
            firstWritten[pendingSource] = pendingFirstWritten
        }
        pendingFirstWritten = .infinity
    }

    /// Per-source counts as canonical JSON (`{"source": n}` sorted by source).
    var sourceCountsJSON: String {
        var all = self
        all.flushPendingSource()
        return CanonicalJSON.object(all.sources.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })
            .text
    }
}
