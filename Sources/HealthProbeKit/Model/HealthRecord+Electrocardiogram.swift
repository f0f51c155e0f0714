import AppleHealthExport

extension HealthRecord {
    /// An ECG recording as a record: recorded at `startDate`, ending when its last sample was
    /// taken; its classification as the value, the voltages' unit as the unit, the watch's
    /// hardware as the device; the rest of the header and a digest of the voltages in the details,
    /// so that the same recording under another file name or offset is the same record.
    init(electrocardiogram recording: ElectrocardiogramElement) {
        self.init(
            kind: .electrocardiogram, type: ElectrocardiogramElement.sampleType,
            sourceVersion: recording.softwareVersion, device: recording.device.map { "hardware:\($0)" },
            unit: recording.unit, value: recording.classification)
        let start = Double(recording.recordedDate.secondsSince1970)
        startDate = start
        let count = recording.voltages.values.count
        endDate = recording.sampleRateHertz.map { start + Double(count) / $0 } ?? start
        let encoded = VoltageCoding.encode(recording.voltages)
        var pairs: [(String, CanonicalJSON)] = []
        let optional: [(String, String?)] = [
            ("symptoms", recording.symptoms), ("sampleRate", recording.sampleRate), ("lead", recording.lead),
            ("averageHeartRate", recording.averageHeartRate),
        ]
        for (key, value) in optional { if let value { pairs.append((key, .string(value))) } }
        if !recording.otherHeader.isEmpty {
            pairs.append(("otherHeader", CanonicalJSON.attributes(recording.otherHeader)))
        }
        pairs.append(("voltageCount", .integer(Int64(count))))
        let content = FileContent(encoded, items: count)
        pairs.append(("voltageDigest", .string(content.digest)))
        detailsJSON = CanonicalJSON.object(pairs).text
        files = [AttachedFile(kind: .electrocardiogram, path: recording.path, content: content)]
    }
}
