/// `source_overlap`: one sample — type, start, end, value, unit — written by two or more
/// sources (Watch and iPhone both writing steps), newly in C: n sources → n − 1 surplus.
/// Info only: it inflates sums, but nothing is wrong with any one source.
struct SourceOverlapDetector {
    let pair: CapturePair
    private var tallies: [String: RecordTally] = [:]
    private var samples: [String: Int] = [:]
    private var sourcePairs: [String: [String: Int]] = [:]
    private(set) var surplusIDs: Set<Int64> = []

    init(pair: CapturePair) {
        self.pair = pair
    }

    /// `taken`: arrivals another detector already explained.
    mutating func consume(_ rows: [SampleGroupScan.Row], taken: Set<Int64>) {
        for sample in Dictionary(grouping: rows, by: \.sampleIdentity).values where sample.count > 1 {
            let currentSources = Set(sample.filter(\.heldByCurrent).map { $0.sourceName ?? "" })
            let previousSources = Set(sample.filter(\.heldByPrevious).map { $0.sourceName ?? "" })
            let newSurplus = max(0, currentSources.count - 1 - max(0, previousSources.count - 1))
            guard newSurplus > 0 else { continue }
            // One arrival stands for each source that is new to this sample; the earliest source
            // of a sample nobody wrote before is not surplus.
            var representatives: [String: SampleGroupScan.Row] = [:]
            for row in sample where row.isArrival && !taken.contains(row.id) {
                let source = row.sourceName ?? ""
                guard !previousSources.contains(source) else { continue }
                if let known = representatives[source], known.id < row.id { continue }
                representatives[source] = row
            }
            let ordered = representatives.values.sorted { $0.id < $1.id }
            let surplus = ordered.suffix(min(newSurplus, ordered.count))
            guard !surplus.isEmpty else { continue }
            let type = sample[0].type
            for row in surplus {
                tallies[type, default: RecordTally(zone: pair.dayZone)].add(
                    id: row.id, source: row.sourceName, start: row.startDate, end: row.endDate)
                surplusIDs.insert(row.id)
            }
            samples[type, default: 0] += 1
            let names = currentSources.sorted().map { $0.isEmpty ? "(no source)" : $0 }.joined(separator: " + ")
            sourcePairs[type, default: [:]][names, default: 0] += 1
        }
    }

    func findings() -> [Finding] {
        tallies.sorted { $0.key < $1.key }.map { sampleType, tally in
            var evidence = tally.evidence
            let count = samples[sampleType] ?? 0
            evidence["overlappingSamples"] = String(count)
            evidence["sourceCombinations"] = EvidenceText.counts(sourcePairs[sampleType] ?? [:])
            return Finding(
                type: .sourceOverlap, severity: .info, sampleType: sampleType,
                summary: "\(EvidenceText.grouped(count)) \(HealthKitCatalog.displayName(of: sampleType)) "
                    + "sample\(count == 1 ? " was" : "s were") written by more than one source: "
                    + "\(EvidenceText.grouped(tally.count)) extra cop\(tally.count == 1 ? "y" : "ies") (\(tally.evidence["dateRange"] ?? "no dates"))",
                recordCount: tally.count, evidence: evidence, records: [.ids(role: "surplus", tally.ids)])
        }
    }
}
