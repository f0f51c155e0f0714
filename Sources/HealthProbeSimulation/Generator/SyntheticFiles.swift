import Foundation
import HealthProbeArchive
import HealthProbeKit

/// A workout's route in a synthetic export: its file and its time span (UTC).
public struct SyntheticRoute: Sendable {
    public var path: String
    public var start: Int64
    public var end: Int64
}

/// The files a synthetic export holds beside its main XML, as Apple writes them: GPX routes (the
/// export's own time in `<metadata>`, a local time in the name, so their bytes change from
/// export to export while their points do not) and ECG recordings (a person's lines first: "Test
/// User", 2000-01-01). Every point and voltage comes from the workout's or recording's time alone.
struct SyntheticFiles {
    let options: SyntheticExportOptions
    let exportInstant: Int64

    func gpx(_ route: SyntheticRoute) -> String {
        var text = AppleHealthFiles.gpxOpening(
            name: "Route \(route.path.dropFirst("/workout-routes/route_".count).dropLast(4))",
            exportedAt: Double(exportInstant))
        let step = max(options.routePointSeconds, 1)
        var index: Int64 = 0
        var time = route.start
        while time <= route.end {
            let angle = Double(index) / 240 * 2 * .pi + Double(route.start % 360)
            let lat = 0.01 + 0.002 * sin(angle)
            let lon = 0.02 + 0.002 * cos(angle)
            text +=
                "      <trkpt lon=\"\(fixed(lon, 6))\" lat=\"\(fixed(lat, 6))\"><ele>\(fixed(4 + sin(angle * 3), 6))</ele>"
            text += "<time>\(UTCText.iso8601(seconds: Double(time)))</time><extensions><speed>"
            text += "\(fixed(2.5 + 0.3 * cos(angle * 5), 6))</speed><course>\(fixed(Double(index % 360), 6))</course>"
            text +=
                "<hAcc>\(fixed(3 + Double(index % 5) * 0.5, 6))</hAcc><vAcc>\(fixed(2 + Double(index % 3), 6))</vAcc>"
            text += "</extensions></trkpt>\n"
            index += 1
            time += step
        }
        return text + "    </trkseg>\n  </trk>\n</gpx>\n"
    }

    /// Recording `index`'s path and text: one a day at 09:00 UTC from the export's first day,
    /// named by its local date as the Health app names them.
    func electrocardiogram(_ index: Int) -> (path: String, text: String) {
        let recorded = (options.firstDay + Int64(index)) * 86_400 + 9 * 3600
        let stamp = SyntheticElementWriter.timestamp(recorded, offset: options.utcOffsetSeconds)
        let suffix = index == 0 ? "" : "_\(index)"
        var text = "Name,Test User\nDate of Birth,\"Jan 1, 2000\"\nRecorded Date,\(stamp)\n"
        text += "Classification,Sinus Rhythm\nSymptoms,\nSoftware Version,1.90\nDevice,\"Watch5,4\"\n"
        text += "Sample Rate,512 hertz\n\n\nLead,Lead I\nUnit,µV\n\n\n"
        for sample in 0..<(512 * 30) {
            let value = SyntheticHeartbeat.microvolts(at: sample, phase: index * 97)
            text += fixed(value, 3) + "\n"
        }
        return ("/electrocardiograms/ecg_\(stamp.prefix(10))\(suffix).csv", text)
    }

    private func fixed(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
    }
}
