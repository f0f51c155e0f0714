import AppleHealthExport
import HealthProbeArchive
import HealthProbeKit

extension SyntheticElementWriter {
    func record(
        _ type: String, _ source: String, _ version: String, _ device: String?, _ unit: String?, _ value: String,
        created: Int64, start: Int64, end: Int64, children: String = ""
    ) -> String {
        var text = " <Record type=\"\(type)\" sourceName=\"\(source)\" sourceVersion=\"\(version)\""
        if let device { text += " device=\"\(device)\"" }
        if let unit { text += " unit=\"\(unit)\"" }
        text +=
            " creationDate=\"\(time(created))\" startDate=\"\(time(start))\" endDate=\"\(time(end))\" value=\"\(value)\""
        if children.isEmpty { return text + "/>\n" }
        return text + ">\n" + children + " </Record>\n"
    }

    func watch(_ addresses: inout SplitMix64) -> String {
        "&lt;&lt;HKDevice: 0x\(address(&addresses))&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"
    }

    func phone(_ addresses: inout SplitMix64) -> String {
        "&lt;&lt;HKDevice: 0x\(address(&addresses))&gt;, name:iPhone-TESTDEVICE, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.1&gt;"
    }

    private func address(_ addresses: inout SplitMix64) -> String {
        String(0x2_0000_0000 + addresses.next() % 0xF_FFFF_FFFF, radix: 16)
    }

    func syncIdentifier(_ random: inout SplitMix64) -> String {
        let value = random.next()
        let hex = String(value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: 16 - hex.count) + hex
        return "00000000-0000-4000-8000-\(padded.suffix(12))"
    }

    func time(_ instant: Int64) -> String {
        Self.timestamp(instant, offset: options.utcOffsetSeconds)
    }

    /// `yyyy-MM-dd HH:mm:ss ±hhmm`, the instant written at `offset`.
    static func timestamp(_ instant: Int64, offset: Int) -> String {
        let local = instant + Int64(offset)
        let (days, second) = CivilCalendar.day(ofSeconds: local)
        let absolute = abs(offset)
        return UTCText.day(days) + " " + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60)
            + (offset < 0 ? " -" : " +") + two(absolute / 3600) + two(absolute / 60 % 60)
    }

    /// A beat's time of day as the Health app writes it: `h:mm:ss.SS AM`, in local time.
    func clockTime(_ instant: Int64, hundredths: Int) -> String {
        let local = instant + Int64(options.utcOffsetSeconds)
        let second = Int(((local % 86_400) + 86_400) % 86_400)
        let hour = second / 3600
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        return
            "\(hour12):\(Self.two(second / 60 % 60)):\(Self.two(second % 60)).\(Self.two(hundredths % 100)) \(hour < 12 ? "AM" : "PM")"
    }

    /// The GPX file name: the route's end in local time, as the Health app names it.
    func routeName(_ instant: Int64) -> String {
        let local = instant + Int64(options.utcOffsetSeconds)
        let (days, second) = CivilCalendar.day(ofSeconds: local)
        let hour = second / 3600
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        return "\(UTCText.day(days))_\(hour12).\(Self.two(second / 60 % 60))\(hour < 12 ? "am" : "pm")"
    }

    static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    static func decimal(_ thousandths: Int, places: Int) -> String {
        let whole = thousandths / 1000
        let fraction = String(thousandths % 1000)
        return "\(whole).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// The instant the export says it was made: a day after its last sample.
    var exportInstant: Int64 { options.exportDate ?? start(of: max(options.elementCount - 1, 0)) + 86_400 }

    func header() -> String {
        let lastStart = start(of: max(options.elementCount - 1, 0))
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 14 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            <!ELEMENT ExportDate EMPTY>
            <!ATTLIST ExportDate
              value CDATA #REQUIRED
            >
            <!ELEMENT Me EMPTY>
            <!ATTLIST Me
              HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
              HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
            >
            <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
            <!ATTLIST Record
              type          CDATA #REQUIRED
              unit          CDATA #IMPLIED
              value         CDATA #IMPLIED
              sourceName    CDATA #REQUIRED
              sourceVersion CDATA #IMPLIED
              device        CDATA #IMPLIED
              creationDate  CDATA #IMPLIED
              startDate     CDATA #REQUIRED
              endDate       CDATA #REQUIRED
            >
            \(options.malformedDTD ? Self.malformedDeclarations : "")<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
            <!ELEMENT Correlation ((MetadataEntry|Record)*)>
            <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
            <!ATTLIST Workout
              workoutActivityType   CDATA #REQUIRED
              duration              CDATA #IMPLIED
              durationUnit          CDATA #IMPLIED
              sourceName            CDATA #REQUIRED
              startDate             CDATA #REQUIRED
              endDate               CDATA #REQUIRED
            >
            ]>
            <HealthData locale="en_US">
             <ExportDate value="\(time(options.exportDate ?? lastStart + 86_400))"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="2000-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>

            """
    }

    /// Declarations as broken as those of iOS 16 exports: an attribute list whose declarations
    /// lack their types, and an element declared with a dangling content model.
    static let malformedDeclarations = """
        <!ATTLIST WorkoutActivity
          uuid                  CDATA #REQUIRED
          startDate
          endDate               CDATA #IMPLIED
        >
        <!ELEMENT WorkoutRoute ((FileReference|MetadataEntry)*>
        <!ATTLIST InstantaneousBeatsPerMinute bpm CDATA #REQUIRED time "unterminated >

        """
}
