import HealthProbeArchive

/// The opening of a rebuilt `export.xml`: the declaration, a document type that declares the
/// elements and attributes Apple's exports hold (every attribute optional but the few every
/// element has), the root, the export date and `Me`.
enum AppleHealthDocument {
    /// `Me` with every characteristic not set: the archive never reads the person's date of
    /// birth, sex, blood type or skin type, so it has none to give back.
    static let unsetCharacteristics = """
         <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet" \
        HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" \
        HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" \
        HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>

        """

    static func head(version: Int, locale: String, exportDate: [UInt8]) -> [UInt8] {
        var text = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: \(version) -->
            <!-- Rebuilt by HealthProbe from its archive. -->
            \(declarations)]>
            <HealthData locale="
            """.utf8)
        XMLText.appendEscaped(locale, to: &text)
        text += "\">\n <ExportDate value=\"".utf8
        text += exportDate
        text += "\"/>\n".utf8
        text += unsetCharacteristics.utf8
        return text
    }

    static let tail = Array("</HealthData>\n".utf8)

    private static let sample =
        "sourceName CDATA #REQUIRED sourceVersion CDATA #IMPLIED device CDATA #IMPLIED "
        + "creationDate CDATA #IMPLIED startDate CDATA #REQUIRED endDate CDATA #REQUIRED"

    private static let declarations = """
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData locale CDATA #REQUIRED>
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate value CDATA #REQUIRED>
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me HKCharacteristicTypeIdentifierDateOfBirth CDATA #IMPLIED HKCharacteristicTypeIdentifierBiologicalSex CDATA #IMPLIED HKCharacteristicTypeIdentifierBloodType CDATA #IMPLIED HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #IMPLIED HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #IMPLIED>
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record type CDATA #REQUIRED unit CDATA #IMPLIED value CDATA #IMPLIED \(sample)>
        <!ELEMENT Correlation ((MetadataEntry|Record)*)>
        <!ATTLIST Correlation type CDATA #REQUIRED \(sample)>
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutActivity|WorkoutStatistics|WorkoutRoute)*)>
        <!ATTLIST Workout workoutActivityType CDATA #REQUIRED duration CDATA #IMPLIED durationUnit CDATA #IMPLIED totalDistance CDATA #IMPLIED totalDistanceUnit CDATA #IMPLIED totalEnergyBurned CDATA #IMPLIED totalEnergyBurnedUnit CDATA #IMPLIED \(sample)>
        <!ELEMENT WorkoutActivity ((MetadataEntry|WorkoutEvent|WorkoutStatistics)*)>
        <!ATTLIST WorkoutActivity uuid CDATA #IMPLIED startDate CDATA #IMPLIED endDate CDATA #IMPLIED duration CDATA #IMPLIED durationUnit CDATA #IMPLIED>
        <!ELEMENT WorkoutEvent (MetadataEntry*)>
        <!ATTLIST WorkoutEvent type CDATA #REQUIRED date CDATA #IMPLIED duration CDATA #IMPLIED durationUnit CDATA #IMPLIED>
        <!ELEMENT WorkoutStatistics EMPTY>
        <!ATTLIST WorkoutStatistics type CDATA #REQUIRED startDate CDATA #IMPLIED endDate CDATA #IMPLIED average CDATA #IMPLIED minimum CDATA #IMPLIED maximum CDATA #IMPLIED sum CDATA #IMPLIED unit CDATA #IMPLIED>
        <!ELEMENT WorkoutRoute ((MetadataEntry|FileReference|Location)*)>
        <!ATTLIST WorkoutRoute sourceName CDATA #IMPLIED sourceVersion CDATA #IMPLIED device CDATA #IMPLIED creationDate CDATA #IMPLIED startDate CDATA #IMPLIED endDate CDATA #IMPLIED>
        <!ELEMENT FileReference EMPTY>
        <!ATTLIST FileReference path CDATA #REQUIRED>
        <!ELEMENT Location EMPTY>
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry key CDATA #REQUIRED value CDATA #REQUIRED>
        <!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
        <!ELEMENT InstantaneousBeatsPerMinute EMPTY>
        <!ATTLIST InstantaneousBeatsPerMinute bpm CDATA #REQUIRED time CDATA #REQUIRED>
        <!ELEMENT ActivitySummary EMPTY>
        <!ATTLIST ActivitySummary dateComponents CDATA #IMPLIED activeEnergyBurned CDATA #IMPLIED activeEnergyBurnedGoal CDATA #IMPLIED activeEnergyBurnedUnit CDATA #IMPLIED appleMoveTime CDATA #IMPLIED appleMoveTimeGoal CDATA #IMPLIED appleExerciseTime CDATA #IMPLIED appleExerciseTimeGoal CDATA #IMPLIED appleStandHours CDATA #IMPLIED appleStandHoursGoal CDATA #IMPLIED>
        <!ELEMENT ClinicalRecord EMPTY>
        <!ATTLIST ClinicalRecord type CDATA #REQUIRED identifier CDATA #IMPLIED sourceName CDATA #IMPLIED sourceURL CDATA #IMPLIED fhirVersion CDATA #IMPLIED receivedDate CDATA #IMPLIED resourceFilePath CDATA #IMPLIED>
        <!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
        <!ATTLIST Audiogram type CDATA #REQUIRED \(sample)>
        <!ELEMENT SensitivityPoint EMPTY>
        <!ELEMENT VisionPrescription ANY>
        <!ATTLIST VisionPrescription type CDATA #REQUIRED dateIssued CDATA #IMPLIED expirationDate CDATA #IMPLIED brand CDATA #IMPLIED>

        """
}
