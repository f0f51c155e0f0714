import AppleHealthExport

extension HealthRecord {
    /// An ECG recording as a record: recorded at `startDate`, ending when its last sample was
    /// taken; its classification as the value, the voltages' unit as the unit, the watch's
    /// hardware as the device; the rest of the header and a digest of the voltages in the details,
    /// so that the same recording under another file name or offset is the same record.
    init(electrocardiogram recording: ElectrocardiogramElement) {
        self.init(
            electrocardiogramAt: recording.recordedDate.secondsSince1970, path: recording.path,
            softwareVersion: recording.softwareVersion, hardware: recording.device, unit: recording.unit,
            classification: recording.classification,
            header: [
                ("symptoms", recording.symptoms), ("sampleRate", recording.sampleRate), ("lead", recording.lead),
                ("averageHeartRate", recording.averageHeartRate),
            ], otherHeader: recording.otherHeader, voltages: recording.voltages,
            sampleRateHertz: recording.sampleRateHertz)
    }

    /// An ECG recording read live (`HKElectrocardiogram` and its voltage measurements), in the
    /// form an export's recording takes: its header as the Health app's CSV writes it, its
    /// voltages in µV to the thousandth, as that CSV holds them.
    init(electrocardiogramSample sample: HealthSample, _ reading: HealthSample.Electrocardiogram) {
        let rate = reading.samplingFrequency.isFinite && reading.samplingFrequency > 0 ? reading.samplingFrequency : nil
        let voltages = ElectrocardiogramVoltages(
            decimals: 3, values: reading.microvolts.map { Int64(exactly: ($0 * 1000).rounded()) ?? 0 })
        self.init(
            electrocardiogramAt: Int64(sample.startDate.rounded(.down)),
            path: "/electrocardiograms/healthkit-\(sample.uuid.uuidString.lowercased()).csv",
            softwareVersion: sample.sourceVersion, hardware: sample.device?.hardware, unit: "µV",
            classification: reading.classification,
            header: [
                ("sampleRate", rate.map { "\(Self.numberText($0)) hertz" }), ("lead", reading.lead),
                ("averageHeartRate", reading.averageHeartRate.map { "\(Self.numberText($0)) BPM" }),
            ], otherHeader: [], voltages: voltages, sampleRateHertz: rate)
        sourceName = sample.sourceName
        healthKitUUID = sample.uuid.archiveText
    }

    private init(
        electrocardiogramAt start: Int64, path: String, softwareVersion: String?, hardware: String?, unit: String?,
        classification: String?, header: [(String, String?)], otherHeader: [AppleExportAttribute],
        voltages: ElectrocardiogramVoltages, sampleRateHertz: Double?
    ) {
        self.init(
            kind: .electrocardiogram, type: ElectrocardiogramElement.sampleType, sourceVersion: softwareVersion,
            device: hardware.map { "hardware:\($0)" }, unit: unit, value: classification)
        let startSeconds = Double(start)
        startDate = startSeconds
        let count = voltages.values.count
        endDate = sampleRateHertz.map { startSeconds + Double(count) / $0 } ?? startSeconds
        let encoded = VoltageCoding.encode(voltages)
        var pairs: [(String, CanonicalJSON)] = []
        for (key, value) in header { if let value { pairs.append((key, .string(value))) } }
        if !otherHeader.isEmpty { pairs.append(("otherHeader", CanonicalJSON.attributes(otherHeader))) }
        pairs.append(("voltageCount", .integer(Int64(count))))
        let content = FileContent(encoded, items: count)
        pairs.append(("voltageDigest", .string(content.digest)))
        detailsJSON = CanonicalJSON.object(pairs).text
        files = [AttachedFile(kind: .electrocardiogram, path: path, content: content)]
    }
}
