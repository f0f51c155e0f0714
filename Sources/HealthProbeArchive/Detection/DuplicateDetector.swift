/// `duplicate`: new surplus copies of one sample from one source — the same semantic
/// fingerprint more often in C than P had it (3 identical = 2 surplus). Surplus P already had
/// is not reported again; correlation children seen at top level never count.
struct DuplicateDetector {
    let pair: CapturePair
    let thresholds: Thresholds
    private var tallies: [String: RecordTally] = [:]
    private var groups: [String: Int] = [:]
    private var largestGroup: [String: Int] = [:]
    private var alreadySurplus: [String: Int] = [:]
    /// Arrivals counted as surplus: explained here.
    private(set) var surplusIDs: Set<Int64> = []

    init(pair: CapturePair, thresholds: Thresholds) {
        self.pair = pair
        self.thresholds = thresholds
    }

    mutating func consume(_ rows: [SampleGroupScan.Row]) {
        for copies in Dictionary(grouping: rows, by: \.semanticFingerprint).values where copies.count > 1 {
            let current = copies.filter(\.heldByCurrent).count
            let previous = copies.filter(\.heldByPrevious).count
            let previousSurplus = max(0, previous - 1)
            let newSurplus = max(0, current - 1 - previousSurplus)
            let type = copies[0].type
            if previousSurplus > 0 && current > 1 {
                alreadySurplus[type, default: 0] += min(previousSurplus, current - 1)
            }
            guard newSurplus > 0 else { continue }
            // The latest arrivals are the surplus: the first copy of a sample is never surplus.
            let surplus = copies.filter(\.isArrival).sorted { $0.id > $1.id }.prefix(newSurplus)
            for row in surplus {
                tallies[type, default: RecordTally(zone: pair.dayZone)].add(
                    id: row.id, source: row.sourceName, start: row.startDate, end: row.endDate)
                surplusIDs.insert(row.id)
            }
            groups[type, default: 0] += 1
            largestGroup[type] = max(largestGroup[type] ?? 0, current)
        }
    }

    func findings(currentCounts: [String: Int]) -> [Finding] {
        tallies.sorted { $0.key < $1.key }.map { sampleType, tally in
            let limits = thresholds.applying(to: sampleType)
            let total = max(currentCounts[sampleType] ?? tally.count, 1)
            let share = Double(tally.count) / Double(total)
            let severity: Severity =
                (largestGroup[sampleType] ?? 0) >= limits.duplicateStormCopies ? .warning : .info
            var evidence = tally.evidence
            evidence["duplicatedSamples"] = String(groups[sampleType] ?? 0)
            evidence["mostCopies"] = String(largestGroup[sampleType] ?? 0)
            evidence["surplusPercent"] = EvidenceText.percent(share)
            evidence["currentCount"] = String(currentCounts[sampleType] ?? 0)
            evidence["surplusAlreadyPresent"] = String(alreadySurplus[sampleType] ?? 0)
            let samples = groups[sampleType] ?? 0
            return Finding(
                type: .duplicate, severity: severity, sampleType: sampleType,
                summary: "\(EvidenceText.records(tally.count, of: sampleType)) "
                    + (tally.count == 1 ? "is an extra copy" : "are extra copies")
                    + " of \(EvidenceText.grouped(samples)) sample\(samples == 1 ? "" : "s") (\(tally.evidence["dateRange"] ?? "no dates"))",
                recordCount: tally.count, evidence: evidence, records: [.ids(role: "surplus", tally.ids)])
        }
    }
}
