#!/usr/bin/env python3
"""Writes a synthetic Apple Health export shaped the way the Health app writes one, independently
of `healthprobe generate`: the DTD, records grouped by type and sorted by date inside each type,
MetadataEntry children (time zone, motion context, sync identifiers), HKDevice descriptions,
creation dates, workouts with events and statistics, activity summaries. Synthetic data only.

    Scripts/other-export.py OUT.zip --records 1000000 [--seed 1] [--omit-every N]

The same seed gives the same records; --omit-every N leaves out every Nth one, as a loss would.
Used by the import-memory benchmark (BENCHMARKS.md) beside `healthprobe generate`.
"""
import argparse
import random
import zipfile
from datetime import datetime, timedelta, timezone

DTD = """<!DOCTYPE HealthData [
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
<!ATTLIST HealthData locale CDATA #REQUIRED>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate value CDATA #REQUIRED>
<!ELEMENT Me EMPTY>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry key CDATA #REQUIRED value CDATA #REQUIRED>
]>
"""

WATCH = ("Apple Watch-TESTDEVICE", "10.1",
         "&lt;&lt;HKDevice: 0x000000000&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
         "hardware:Watch6,2, software:10.1&gt;")
PHONE = ("iPhone-TESTDEVICE", "17.1",
         "&lt;&lt;HKDevice: 0x000000001&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, "
         "hardware:iPhone14,2, software:17.1&gt;")

# type, unit, share of the records, value range, source, metadata kind
TYPES = [
    ("HKQuantityTypeIdentifierHeartRate", "count/min", 0.45, (48, 160), WATCH, "motion"),
    ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", 0.20, (0.05, 4.0), WATCH, None),
    ("HKQuantityTypeIdentifierStepCount", "count", 0.15, (5, 900), PHONE, None),
    ("HKQuantityTypeIdentifierDistanceWalkingRunning", "km", 0.10, (0.01, 0.8), PHONE, None),
    ("HKQuantityTypeIdentifierBasalEnergyBurned", "kcal", 0.06, (0.5, 2.0), WATCH, None),
    ("HKCategoryTypeIdentifierSleepAnalysis", None, 0.02, None, WATCH, "timezone"),
    ("HKQuantityTypeIdentifierOxygenSaturation", "%", 0.02, (0.92, 1.0), WATCH, "sync"),
]

EPOCH = datetime(2000, 1, 1, tzinfo=timezone(timedelta(hours=1)))
SLEEP = ["HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
         "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAwake"]


def stamp(moment):
    return moment.strftime("%Y-%m-%d %H:%M:%S %z")


def record(kind, index, rng):
    name, unit, _, span, (source, version, device), metadata = kind
    start = EPOCH + timedelta(seconds=index * 97 + rng.randint(0, 40))
    end = start + timedelta(seconds=rng.randint(0, 300))
    created = end + timedelta(seconds=rng.randint(1, 900))
    attributes = f'type="{name}" sourceName="{source}" sourceVersion="{version}" device="{device}"'
    if unit:
        low, high = span
        value = round(rng.uniform(low, high), 3) if high < 10 else rng.randint(int(low), int(high))
        attributes += f' unit="{unit}"'
    else:
        value = rng.choice(SLEEP)
    attributes += (f' creationDate="{stamp(created)}" startDate="{stamp(start)}" endDate="{stamp(end)}"'
                   f' value="{value}"')
    if metadata == "motion":
        return f' <Record {attributes}>\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="{index % 3}"/>\n </Record>\n'
    if metadata == "timezone":
        return f' <Record {attributes}>\n  <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>\n </Record>\n'
    if metadata == "sync":
        return (f' <Record {attributes}>\n  <MetadataEntry key="HKMetadataKeySyncIdentifier" value="spo2-{index}"/>\n'
                f'  <MetadataEntry key="HKMetadataKeySyncVersion" value="1"/>\n </Record>\n')
    return f' <Record {attributes}/>\n'


def workout(index, rng):
    start = EPOCH + timedelta(days=index, hours=7)
    minutes = rng.randint(20, 90)
    end = start + timedelta(minutes=minutes)
    source, version, device = WATCH
    return (f' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="{minutes}" durationUnit="min"'
            f' sourceName="{source}" sourceVersion="{version}" device="{device}" creationDate="{stamp(end)}"'
            f' startDate="{stamp(start)}" endDate="{stamp(end)}">\n'
            f'  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
            f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{stamp(start)}" duration="{minutes}" durationUnit="min"/>\n'
            f'  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="{stamp(start)}"'
            f' endDate="{stamp(end)}" sum="{minutes * 11}" unit="kcal"/>\n'
            f' </Workout>\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--omit-every", type=int, default=0)
    options = parser.parse_args()
    workouts = max(1, options.records // 2000)
    with zipfile.ZipFile(options.output, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        with archive.open("apple_health_export/export.xml", "w", force_zip64=True) as out:
            def write(text):
                out.write(text.encode("utf-8"))
            write('<?xml version="1.0" encoding="UTF-8"?>\n' + DTD + '<HealthData locale="en_US">\n')
            write(f' <ExportDate value="{stamp(EPOCH + timedelta(days=3650))}"/>\n')
            write(' <Me HKCharacteristicTypeIdentifierDateOfBirth="2000-01-01" '
                  'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>\n')
            written = 0
            for kind in TYPES:
                count = int(options.records * kind[2])
                rng = random.Random(f"{options.seed}-{kind[0]}")
                chunk = []
                for index in range(count):
                    text = record(kind, index, rng)
                    written += 1
                    if options.omit_every and written % options.omit_every == 0:
                        continue
                    chunk.append(text)
                    if len(chunk) == 4096:
                        write("".join(chunk))
                        chunk = []
                write("".join(chunk))
            rng = random.Random(f"{options.seed}-workouts")
            for index in range(workouts):
                write(workout(index, rng))
            for day in range(min(3650, options.records // 300 + 1)):
                date = (EPOCH + timedelta(days=day)).strftime("%Y-%m-%d")
                write(f' <ActivitySummary dateComponents="{date}" activeEnergyBurned="{400 + day % 200}"'
                      f' activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleExerciseTime="{day % 60}"'
                      f' appleExerciseTimeGoal="30" appleStandHours="{day % 14}" appleStandHoursGoal="12"/>\n')
            write("</HealthData>\n")
    print(f"wrote {written} records, {workouts} workouts to {options.output}")


if __name__ == "__main__":
    main()
