#!/usr/bin/env python3
"""An independent reference for `healthprobe restore`: the records one export holds and the next
does not, read straight from the two exports' XML, written apart from the Swift archive.

A record is what a person means by the same sample: its type, source, unit, value, start and
end (instants, whatever offset the export wrote them at), counted as a multiset, so three copies
in the first export and two in the second leave one lost. Only top-level <Record> elements that
are not also a reading of a <Correlation> (a blood pressure's systolic and diastolic) count: a
restore writes those back with their correlation.

Prints JSON: [{"type", "sourceName", "unit", "value", "categoryValue", "startDate", "endDate"}],
times in ISO 8601 UTC, sorted.

    lost-records-reference.py FIRST.xml SECOND.xml
"""
import collections
import datetime
import json
import sys
import xml.etree.ElementTree as ElementTree


def instant(text):
    moment = datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S %z")
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def key(element):
    value = element.get("value")
    try:
        number, category = float(value), None
    except (TypeError, ValueError):
        number, category = None, value
    return (
        element.get("type"), element.get("sourceName"), element.get("unit"), number, category,
        instant(element.get("startDate")), instant(element.get("endDate")),
    )


def records(path):
    root = ElementTree.parse(path).getroot()
    readings = {key(child) for correlation in root.iter("Correlation") for child in correlation.iter("Record")}
    return collections.Counter(key(element) for element in root.findall("Record") if key(element) not in readings)


def main():
    first, second = records(sys.argv[1]), records(sys.argv[2])
    lost = first - second
    fields = ("type", "sourceName", "unit", "value", "categoryValue", "startDate", "endDate")
    listed = [dict(zip(fields, entry)) for entry, count in sorted(lost.items(), key=str) for _ in range(count)]
    json.dump(listed, sys.stdout)


if __name__ == "__main__":
    main()
