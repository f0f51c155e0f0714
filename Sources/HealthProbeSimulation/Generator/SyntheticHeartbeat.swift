import Foundation
import HealthProbeKit

/// The synthetic ECG every generated recording is drawn from — an export's CSV, the simulated
/// store's live recordings, the tests' fixtures: at 512 Hz a spike of 1,200 µV a second and a slow
/// wave of 60 µV between, shifted by `phase` samples so that two recordings differ.
public enum SyntheticHeartbeat {
    public static func microvolts(at sample: Int, phase: Int) -> Double {
        let beat = Double((sample + phase) % 512) / 512
        return beat > 0.2 && beat < 0.24 ? 1200 * sin((beat - 0.2) / 0.04 * .pi) : 60 * sin(beat * 2 * .pi)
    }
}
