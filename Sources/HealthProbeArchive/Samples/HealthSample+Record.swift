import AppleHealthExport

extension HealthRecord {
    /// Maps a live sample to the record the export path would make of it — the same kinds, type
    /// identifiers, value text, device form and canonical metadata, so the semantic and fuzzy
    /// fingerprints match the export's — keeping the HealthKit UUID, which also makes the strict
    /// identity of each HealthKit object its own.
    public init(sample: HealthSample) {
        switch sample.kind {
        case .quantity, .category:
            self.init(
                kind: .record, type: sample.type, sourceName: sample.sourceName, sourceVersion: sample.sourceVersion,
                device: sample.device.map(Self.deviceText), unit: sample.kind == .quantity ? sample.unit : nil,
                value: Self.valueText(sample), creationDate: sample.creationDate, startDate: sample.startDate,
                endDate: sample.endDate, metadataJSON: Self.metadataText(sample.metadata),
                healthKitUUID: sample.uuid.archiveText)
        case .workout:
            self.init(
                kind: .workout, type: HealthRecord.workoutType, sourceName: sample.sourceName,
                sourceVersion: sample.sourceVersion, device: sample.device.map(Self.deviceText),
                creationDate: sample.creationDate, startDate: sample.startDate, endDate: sample.endDate,
                metadataJSON: Self.metadataText(sample.metadata),
                detailsJSON: CanonicalJSON.object([("activityType", .string(sample.workoutActivityType ?? ""))]).text,
                healthKitUUID: sample.uuid.archiveText)
        case .electrocardiogram:
            guard let reading = sample.electrocardiogram else {
                // A recording whose voltages HealthKit did not give is still a record, without them.
                self.init(
                    kind: .electrocardiogram, type: sample.type, sourceName: sample.sourceName,
                    sourceVersion: sample.sourceVersion, startDate: sample.startDate, endDate: sample.endDate,
                    healthKitUUID: sample.uuid.archiveText)
                return
            }
            self.init(electrocardiogramSample: sample, reading)
        case .correlation:
            let members = sample.members.map(HealthRecord.init(sample:))
            self.init(
                kind: .correlation, type: sample.type, sourceName: sample.sourceName,
                sourceVersion: sample.sourceVersion, device: sample.device.map(Self.deviceText),
                creationDate: sample.creationDate, startDate: sample.startDate, endDate: sample.endDate,
                metadataJSON: Self.metadataText(sample.metadata),
                detailsJSON: CanonicalJSON.object([
                    ("records", .array(members.map { .string($0.healthKitUUID ?? "") }.sorted { $0.text < $1.text }))
                ]).text, healthKitUUID: sample.uuid.archiveText)
            self.members = members.map(CorrelationMember.init)
        }
    }

    /// A quantity as exports write it ("72", "0.125"); a category value by its name.
    static func valueText(_ sample: HealthSample) -> String? {
        guard let value = sample.value else { return nil }
        if sample.kind == .category {
            return HealthKitCatalog.categoryValueName(type: sample.type, rawValue: Int(value))
        }
        return numberText(value)
    }

    /// A number as exports write it: a whole number without a fraction ("72"), else Swift's
    /// shortest form ("0.125").
    public static func numberText(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `name:Apple Watch, manufacturer:Apple Inc., …`: the export's device form, address-free.
    static func deviceText(_ device: HealthSample.Device) -> String {
        let fields: [(String, String?)] = [
            ("name", device.name), ("manufacturer", device.manufacturer), ("model", device.model),
            ("hardware", device.hardware), ("firmware", device.firmware), ("software", device.software),
        ]
        return fields.compactMap { key, value in value.map { "\(key):\($0)" } }.joined(separator: ", ")
    }

    static func metadataText(_ metadata: [String: String]) -> String? {
        CanonicalJSON.metadataText(metadata.map { MetadataEntry(key: $0.key, value: $0.value) })
    }
}
