import Foundation
import HealthProbeKit
import HealthProbeSimulation
import TestSupport

/// Synthetic ECG recordings as an export writes them (`electrocardiograms/ecg_….csv`): the
/// person's lines first ("Test User", 2000-01-01), then the recording's header and its voltages.
struct ECGFixture {
    var recorded = "2000-01-01 09:14:40 +0000"
    var classification = "Sinus Rhythm"
    var device = "Watch5,4"
    var samples = 1_024
    /// A phase, so that two recordings have different voltages.
    var seed = 0
    /// `-265,868` rather than `-265.868`, as exports in some locales write them.
    var decimalComma = false

    var voltages: [String] {
        (0..<samples).map { index in
            let value = SyntheticHeartbeat.microvolts(at: index, phase: seed * 37)
            let text = String(format: "%.3f", value)
            return decimalComma ? text.replacingOccurrences(of: ".", with: ",") : text
        }
    }

    /// The `Name` line's value: synthetic, and distinct from every source name, so that a test
    /// can search the archive for it.
    static let person = "Test User of the ECG header"

    var csv: String {
        var lines = [
            "Name,\(Self.person)", "Date of Birth,\"Jan 1, 2000\"", "Recorded Date,\(recorded)",
            "Classification,\(classification)", "Symptoms,", "Software Version,1.90", "Device,\"\(device)\"",
            "Sample Rate,512 hertz", "", "", "Lead,Lead I", "Unit,µV", "", "",
        ]
        lines += voltages
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same recording as an export at `offset` ("-0700") writes its date.
    func recordedAt(offset: String, hours: Int) -> ECGFixture {
        var copy = self
        let time = recorded.dropFirst(11).prefix(8)
        let hour = (Int(time.prefix(2))! + hours + 24) % 24
        copy.recorded = "\(recorded.prefix(11))\(String(format: "%02d", hour))\(time.dropFirst(2)) \(offset)"
        return copy
    }
}

extension MiniExport {
    /// Writes the export as a folder (`export.xml` and `electrocardiograms/`) named `name`.
    func writeFolder(to parent: URL, name: String, electrocardiograms: [String: String]) throws -> URL {
        let folder = parent.appendingPathComponent(name)
        let recordings = folder.appendingPathComponent("electrocardiograms")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        _ = try write(to: folder, name: "export.xml")
        for (file, text) in electrocardiograms {
            try Data(text.utf8).write(to: recordings.appendingPathComponent(file))
        }
        return folder
    }
}
