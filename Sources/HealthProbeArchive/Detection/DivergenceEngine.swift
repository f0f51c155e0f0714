import Foundation

/// The statistics of the divergence test, on plain numbers: a recent window of daily values
/// against the baseline window before it.
///
/// - σ-ratio test: how many baseline standard deviations the recent mean lies from the
///   baseline mean (σ floored at a share of the baseline mean, so a flat series does not turn
///   every wobble into a divergence).
/// - level-shift test: the recent median differs from the baseline median by at least a share
///   of it, and every recent day lies on that side of the baseline median — a step, not a spike.
package struct DivergenceEngine: Sendable {
    package struct Result: Sendable, Equatable {
        package var sigmaRatio: Double
        /// (recent median − baseline median) / baseline median; negative is a drop.
        package var shift: Double
        package var sigmaRatioFired: Bool
        package var levelShiftFired: Bool
        package var fired: Bool { sigmaRatioFired || levelShiftFired }
    }

    package var sigmaRatioLimit: Double
    package var minimumRelativeSigma: Double
    package var levelShiftLimit: Double

    package init(sigmaRatioLimit: Double, minimumRelativeSigma: Double, levelShiftLimit: Double) {
        self.sigmaRatioLimit = sigmaRatioLimit
        self.minimumRelativeSigma = minimumRelativeSigma
        self.levelShiftLimit = levelShiftLimit
    }

    package func evaluate(baseline: [Double], recent: [Double]) -> Result? {
        guard baseline.count >= 2, !recent.isEmpty else { return nil }
        let baselineMean = Self.mean(baseline)
        let variance =
            baseline.reduce(0) { $0 + ($1 - baselineMean) * ($1 - baselineMean) } / Double(baseline.count - 1)
        let sigma = max(variance.squareRoot(), abs(baselineMean) * minimumRelativeSigma, .ulpOfOne)
        let sigmaRatio = abs(Self.mean(recent) - baselineMean) / sigma
        let baselineMedian = Self.median(baseline)
        let recentMedian = Self.median(recent)
        let shift =
            baselineMedian == 0 ? (recentMedian == 0 ? 0 : 1) : (recentMedian - baselineMedian) / abs(baselineMedian)
        let allOnOneSide =
            shift < 0 ? recent.allSatisfy { $0 < baselineMedian } : recent.allSatisfy { $0 > baselineMedian }
        return Result(
            sigmaRatio: sigmaRatio, shift: shift, sigmaRatioFired: sigmaRatio >= sigmaRatioLimit,
            levelShiftFired: abs(shift) >= levelShiftLimit && allOnOneSide)
    }

    static func mean(_ values: [Double]) -> Double {
        values.reduce(0, +) / Double(values.count)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
