#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import HealthKit
    import HealthProbeKit
    import HealthProbeArchive

    extension HealthSample {
        /// Maps a HealthKit sample: quantities in `unit` (nil when the type is not one HealthProbe
        /// knows the unit of), categories by raw value, workouts by activity type, correlations
        /// with their samples. Nil for kinds HealthProbe does not read.
        init?(healthKit sample: HKSample, unit: String?) {
            let source = sample.sourceRevision
            let common = (
                uuid: sample.uuid, sourceName: source.source.name, sourceVersion: source.version,
                device: sample.device.map(Self.device), start: sample.startDate.timeIntervalSince1970,
                end: sample.endDate.timeIntervalSince1970, metadata: Self.metadata(sample.metadata)
            )
            switch sample {
            case let quantity as HKQuantitySample:
                guard let unit else { return nil }
                let hkUnit = HKUnit(from: unit)
                guard quantity.quantity.is(compatibleWith: hkUnit) else { return nil }
                self.init(
                    uuid: common.uuid, kind: .quantity, type: quantity.quantityType.identifier,
                    sourceName: common.sourceName,
                    sourceVersion: common.sourceVersion, device: common.device, unit: unit,
                    value: quantity.quantity.doubleValue(for: hkUnit), startDate: common.start, endDate: common.end,
                    metadata: common.metadata)
            case let category as HKCategorySample:
                self.init(
                    uuid: common.uuid, kind: .category, type: category.categoryType.identifier,
                    sourceName: common.sourceName,
                    sourceVersion: common.sourceVersion, device: common.device, value: Double(category.value),
                    startDate: common.start, endDate: common.end, metadata: common.metadata)
            case let workout as HKWorkout:
                self.init(
                    uuid: common.uuid, kind: .workout, type: HealthRecord.workoutType, sourceName: common.sourceName,
                    sourceVersion: common.sourceVersion, device: common.device, startDate: common.start,
                    endDate: common.end,
                    metadata: common.metadata,
                    workoutActivityType: HealthKitCatalog.workoutActivityTypeName(
                        rawValue: workout.workoutActivityType.rawValue))
            case let correlation as HKCorrelation:
                let members = correlation.objects.compactMap { member -> HealthSample? in
                    let unit = HealthKitCatalog.type(member.sampleType.identifier)?.unit
                    return HealthSample(healthKit: member, unit: unit)
                }
                self.init(
                    uuid: common.uuid, kind: .correlation, type: correlation.correlationType.identifier,
                    sourceName: common.sourceName, sourceVersion: common.sourceVersion, device: common.device,
                    startDate: common.start, endDate: common.end, metadata: common.metadata,
                    members: members.sorted { $0.uuid.uuidString < $1.uuid.uuidString })
            default:
                return nil
            }
        }

        /// Maps an ECG recording and the voltages its query gave, in µV.
        init(electrocardiogram recording: HKElectrocardiogram, microvolts: [Double]) {
            let source = recording.sourceRevision
            self.init(
                uuid: recording.uuid, kind: .electrocardiogram, type: HealthKitCatalog.electrocardiogramType,
                sourceName: source.source.name, sourceVersion: source.version,
                device: recording.device.map(Self.device),
                startDate: recording.startDate.timeIntervalSince1970, endDate: recording.endDate.timeIntervalSince1970,
                metadata: Self.metadata(recording.metadata))
            electrocardiogram = Electrocardiogram(
                classification: HealthKitCatalog.electrocardiogramClassificationName(
                    rawValue: recording.classification.rawValue),
                averageHeartRate: recording.averageHeartRate?.doubleValue(
                    for: HKUnit.count().unitDivided(by: HKUnit.minute())),
                samplingFrequency: recording.samplingFrequency?.doubleValue(for: HKUnit.hertz()) ?? 0,
                microvolts: microvolts)
        }

        static func device(_ device: HKDevice) -> Device {
            Device(
                name: device.name, manufacturer: device.manufacturer, model: device.model,
                hardware: device.hardwareVersion,
                firmware: device.firmwareVersion, software: device.softwareVersion)
        }

        /// Metadata values as text, the way exports write them.
        static func metadata(_ metadata: [String: Any]?) -> [String: String] {
            var text: [String: String] = [:]
            for (key, value) in metadata ?? [:] {
                switch value {
                case let string as String: text[key] = string
                case let number as NSNumber: text[key] = number.stringValue
                case let date as Date: text[key] = UTCText.iso8601(seconds: date.timeIntervalSince1970)
                case let quantity as HKQuantity: text[key] = quantity.description
                default: text[key] = String(describing: value)
                }
            }
            return text
        }
    }
#endif
