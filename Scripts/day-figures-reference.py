#!/usr/bin/env python3
"""An independent reference for HealthProbe's day figures, read straight from an export's XML.

Written apart from the Swift component (HealthProbeArchive/Days), by brute force, from the rule
in docs/DESIGN.md section 8a (Apple's "Manage Health data from multiple sources", HT204351):

- a source's place: entered by hand (HKWasUserEntered 1), then an Apple Watch, then an iPhone
  (the device's model or name, else the source's name), then other apps and devices, the one
  that began writing the type last first (earliest creationDate, else startDate), then by name;
- cumulative types: every stretch of the day between two sample edges is taken from the
  best-placed source covering it, its samples' amounts spread evenly over their time; a sample
  without duration counts unless a better-placed source covers its instant;
- sleep: a day's night runs from 18:00 the evening before to 18:00 (the night that ends on the
  day); at each stretch of it the best-placed source with an asleep or awake stage decides;
  asleep counts when it says asleep and not awake; in bed is any source's in-bed time;
- discrete types: mean, minimum and maximum of the samples starting that day, a reading two
  sources hold alike (same start, end and amount) once;
- exact copies (one source, same start, end, value) once; local days of one zone.

Amounts are given in one unit per dimension (m, kg, kcal, count, min) so that exports mixing
units compare. Prints JSON: [{"date", "type", "kind", "value", "minimum", "maximum", "inBed"}].

    day-figures-reference.py EXPORT.xml --zone Europe/Berlin --from 2000-03-20 --to 2000-04-02
"""
import argparse
import datetime
import json
import sys
import xml.etree.ElementTree as ElementTree
from zoneinfo import ZoneInfo

CUMULATIVE = {
    "StepCount", "DistanceWalkingRunning", "DistanceCycling", "DistanceWheelchair", "DistanceSwimming",
    "DistanceDownhillSnowSports", "DistanceCrossCountrySkiing", "DistancePaddleSports", "DistanceRowing",
    "DistanceSkatingSports", "BasalEnergyBurned", "ActiveEnergyBurned", "FlightsClimbed", "NikeFuel",
    "AppleExerciseTime", "AppleMoveTime", "AppleStandTime", "PushCount", "SwimmingStrokeCount",
    "NumberOfTimesFallen", "UVExposure", "TimeInDaylight", "NumberOfAlcoholicBeverages", "InhalerUsage",
    "InsulinDelivery",
}
SLEEP = "HKCategoryTypeIdentifierSleepAnalysis"
FACTORS = {
    "m": 1, "km": 1000, "cm": 0.01, "mm": 0.001, "mi": 1609.344, "ft": 0.3048, "yd": 0.9144, "in": 0.0254,
    "m/s": 1, "km/hr": 1 / 3.6, "mi/hr": 0.44704,
    "kg": 1, "g": 0.001, "lb": 0.45359237, "oz": 0.028349523125, "st": 6.35029318,
    "kcal": 1, "Cal": 1, "kJ": 1 / 4.184, "cal": 0.001,
    "min": 1, "s": 1 / 60, "hr": 60,
}


def kind(type_name):
    if type_name == SLEEP:
        return "sleep"
    short = type_name.replace("HKQuantityTypeIdentifier", "")
    if type_name.startswith("HKQuantityTypeIdentifier") and (short in CUMULATIVE or short.startswith("Dietary")):
        return "cumulative"
    return "discrete"


def instant(text):
    return datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S %z").timestamp()


def read(path):
    samples = []
    for _, element in ElementTree.iterparse(path, events=("end",)):
        if element.tag != "Record":
            continue
        attributes = element.attrib
        metadata = {entry.get("key"): entry.get("value") for entry in element.findall("MetadataEntry")}
        by_hand = metadata.get("HKWasUserEntered") == "1"
        source = attributes.get("sourceName", "")
        value = attributes.get("value")
        unit = attributes.get("unit")
        amount = None
        if value is not None and kind(attributes["type"]) != "sleep":
            try:
                amount = float(value) * FACTORS.get(unit, 1)
            except ValueError:
                amount = None
        start = instant(attributes["startDate"])
        samples.append({
            "type": attributes["type"], "source": source + " (entered by hand)" if by_hand else source,
            "sourceName": source, "device": attributes.get("device", ""), "byHand": by_hand,
            "start": start, "end": max(start, instant(attributes["endDate"])), "value": value, "amount": amount,
            "written": instant(attributes["creationDate"]) if "creationDate" in attributes else start,
        })
        element.clear()
    return samples


def tier(sample):
    if sample["byHand"]:
        return 0
    device = sample["device"]
    fields = dict(part.split(":", 1) for part in device.split(", ") if ":" in part and not part.startswith("<"))
    for text in (fields.get("model"), fields.get("name"), sample["sourceName"]):
        if text and "Watch" in text:
            return 1
        if text and "iPhone" in text:
            return 2
    return 3


def ranks(samples):
    """Each (type, source)'s rank, 0 best."""
    arrivals, tiers = {}, {}
    for sample in samples:
        key = (sample["type"], sample["sourceName"])
        arrivals[key] = min(arrivals.get(key, float("inf")), sample["written"])
        tiers.setdefault((sample["type"], sample["source"]), tier(sample))
    ordered = {}
    for (type_name, source), source_tier in tiers.items():
        arrival = arrivals[(type_name, source.replace(" (entered by hand)", ""))]
        ordered.setdefault(type_name, []).append((source_tier, -arrival if source_tier == 3 else 0, source))
    result = {}
    for type_name, entries in ordered.items():
        for place, (_, _, source) in enumerate(sorted(entries)):
            result[(type_name, source)] = place
    return result


def without_copies(samples, across_sources=False):
    seen, kept, copies = set(), [], 0
    for sample in samples:
        if across_sources:
            key = (sample["start"], sample["end"], sample["amount"])
        else:
            key = (sample["source"], sample["start"], sample["end"], sample["value"])
        if key in seen:
            copies += 1
            continue
        seen.add(key)
        kept.append(sample)
    return kept


def cumulative(samples, lo, hi, rank):
    edges = sorted({lo, hi} | {t for s in samples for t in (s["start"], s["end"]) if lo < t < hi})
    total = 0.0
    spans = [s for s in samples if s["end"] > s["start"] and s["amount"] is not None]
    for a, b in zip(edges, edges[1:]):
        covering = [s for s in spans if s["start"] <= a and s["end"] >= b]
        if not covering:
            continue
        best = min(rank[s["source"]] for s in covering)
        total += sum(s["amount"] * (b - a) / (s["end"] - s["start"]) for s in covering if rank[s["source"]] == best)
    for point in samples:
        if point["end"] != point["start"] or point["amount"] is None or not lo <= point["start"] < hi:
            continue
        covered = any(s["start"] <= point["start"] < s["end"] and rank[s["source"]] < rank[point["source"]] for s in spans)
        if not covered:
            total += point["amount"]
    return total


def sleep(samples, lo, hi, rank):
    edges = sorted({lo, hi} | {t for s in samples for t in (s["start"], s["end"]) if lo < t < hi})
    asleep = in_bed = 0.0
    for a, b in zip(edges, edges[1:]):
        covering = [s for s in samples if s["start"] <= a and s["end"] >= b and s["end"] > s["start"]]
        if any(s["value"] == "HKCategoryValueSleepAnalysisInBed" for s in covering):
            in_bed += b - a
        staged = [s for s in covering if s["value"] != "HKCategoryValueSleepAnalysisInBed"]
        if not staged:
            continue
        best = min(rank[s["source"]] for s in staged)
        values = {s["value"] for s in staged if rank[s["source"]] == best}
        if "HKCategoryValueSleepAnalysisAwake" not in values and any(v.startswith("HKCategoryValueSleepAnalysisAsleep") for v in values):
            asleep += b - a
    return asleep / 3600, in_bed / 3600


def touches(sample, lo, hi):
    if sample["end"] > sample["start"]:
        return sample["end"] > lo and sample["start"] < hi
    return lo <= sample["start"] < hi


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("export")
    parser.add_argument("--zone", required=True)
    parser.add_argument("--from", dest="first", required=True)
    parser.add_argument("--to", dest="last", required=True)
    arguments = parser.parse_args()
    zone = ZoneInfo(arguments.zone)
    samples = read(arguments.export)
    rank = ranks(samples)
    by_type = {}
    for sample in samples:
        if sample["type"] == SLEEP and not (sample["value"] or "").startswith("HKCategoryValueSleepAnalysis"):
            continue
        by_type.setdefault(sample["type"], []).append(sample)
    figures = []
    day = datetime.date.fromisoformat(arguments.first)
    last = datetime.date.fromisoformat(arguments.last)
    while day <= last:
        lo = datetime.datetime.combine(day, datetime.time(), zone).timestamp()
        hi = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time(), zone).timestamp()
        # A sample counts on a day it started at most two days (and the evening's six hours) before.
        earliest = lo - 2 * 86400 - 6 * 3600
        for type_name, every_sample in sorted(by_type.items()):
            all_samples = [s for s in every_sample if s["start"] >= earliest]
            type_rank = {source: place for (t, source), place in rank.items() if t == type_name}
            figure_kind = kind(type_name)
            if figure_kind == "discrete":
                starting = without_copies(
                    [s for s in all_samples if lo <= s["start"] < hi and s["amount"] is not None], across_sources=True)
                if starting:
                    amounts = [s["amount"] for s in starting]
                    figures.append({
                        "date": day.isoformat(), "type": type_name, "kind": figure_kind,
                        "value": sum(amounts) / len(amounts), "minimum": min(amounts), "maximum": max(amounts)})
                continue
            if figure_kind == "sleep":
                night_lo, night_hi = lo - 6 * 3600, hi - 6 * 3600
                touching = without_copies([s for s in all_samples if touches(s, night_lo, night_hi)])
                if not touching:
                    continue
                asleep, in_bed = sleep(touching, night_lo, night_hi, type_rank)
                figures.append({"date": day.isoformat(), "type": type_name, "kind": "sleep", "value": asleep, "inBed": in_bed})
            else:
                touching = without_copies([s for s in all_samples if touches(s, lo, hi)])
                if not touching:
                    continue
                figures.append({
                    "date": day.isoformat(), "type": type_name, "kind": "cumulative",
                    "value": cumulative(touching, lo, hi, type_rank)})
        day += datetime.timedelta(days=1)
    json.dump(figures, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
