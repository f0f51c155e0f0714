import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthSample {
    /// A recording as a Watch makes one, for the simulated store: 30 s at 512 Hz of synthetic
    /// beats (a spike a second, a slow wave between), its shape shifted by `seed` so that two
    /// recordings differ. Classified sinus rhythm, from a Watch with hardware `Watch6,2`.
    public static func simulatedElectrocardiogram(
        at start: Double, seed: Int = 0, sourceName: String = "Test User\u{2019}s Apple Watch"
    ) -> HealthSample {
        let rate = 512.0
        let voltages = (0..<15_360).map { index -> Double in
            let value = SyntheticHeartbeat.microvolts(at: index, phase: seed * 37)
            return (value * 1000).rounded() / 1000
        }
        var sample = HealthSample(
            kind: .electrocardiogram, type: HealthKitCatalog.electrocardiogramType, sourceName: sourceName,
            sourceVersion: "1.90",
            device: Device(name: "Apple Watch", manufacturer: "Apple Inc.", hardware: "Watch6,2"),
            startDate: start, endDate: start + Double(voltages.count) / rate)
        sample.electrocardiogram = Electrocardiogram(
            classification: "Sinus Rhythm", averageHeartRate: 60, samplingFrequency: rate, microvolts: voltages)
        return sample
    }
}
