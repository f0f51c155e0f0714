/// Names of sample types for people: the identifier without HealthKit's prefix, and words.
extension HealthKitCatalog {
    private static let prefixes = [
        "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
        "HKDataTypeIdentifier", "HKClinicalTypeIdentifier",
    ]

    /// The identifier without HealthKit's prefix: "StepCount", "SleepAnalysis", "Workout",
    /// "ActivitySummary" — what people type for a type.
    public static func shortName(of sampleType: String) -> String {
        switch sampleType {
        case "HKWorkoutTypeIdentifier": return "Workout"
        case "HKActivitySummaryTypeIdentifier": return "ActivitySummary"
        default: break
        }
        guard let prefix = prefixes.first(where: { sampleType.hasPrefix($0) }) else { return sampleType }
        return String(sampleType.dropFirst(prefix.count))
    }

    /// "HKQuantityTypeIdentifierHeartRate" → "heart rate"; acronyms stay ("heart rate variability SDNN").
    public static func displayName(of sampleType: String) -> String {
        switch sampleType {
        case "HKWorkoutTypeIdentifier": return "workout"
        case "HKActivitySummaryTypeIdentifier": return "activity summary"
        case "HKDataTypeIdentifierElectrocardiogram": return "ECG"
        case UnrelatedCaptureFinding.everyType: return "every type"
        // Files in the export's clinical folder that no record refers to.
        case "HKClinicalDocument": return "clinical document"
        // Not "dietary fat total": a day's figure of it is already a total ("daily … total").
        case "HKQuantityTypeIdentifierDietaryFatTotal": return "dietary fat"
        default: break
        }
        guard let prefix = prefixes.first(where: { sampleType.hasPrefix($0) }) else { return sampleType }
        let name = Array(sampleType.dropFirst(prefix.count))
        var words: [String] = []
        var current = ""
        for (index, character) in name.enumerated() {
            let startsWord =
                character.isUppercase && index > 0
                && (!name[index - 1].isUppercase || (index + 1 < name.count && name[index + 1].isLowercase))
            if startsWord && !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { word in
            word.count > 1 && word.dropFirst().contains(where: \.isUppercase) ? word : word.lowercased()
        }.joined(separator: " ")
    }
}
