#!/usr/bin/env python3
"""Compares two databases healthkit-to-sqlite (PyPI, by Simon Willison) wrote, one from an Apple
Health export and one from HealthProbe's rebuild of it: every table, every row, as multisets.

What the rebuild cannot give back is set aside, and only that: the per-record memory address in
`device` (`<<HKDevice: 0x…>`, which HealthProbe never keeps: it changes record by record for one
device), and row ids (healthkit-to-sqlite hashes each workout's whole row into its id, address
included). Workout points are compared by their workout's row. JSON held in a column is compared
as data, not text, so attribute order inside it does not count.

Usage: compare-healthkit-databases.py ORIGINAL.db REBUILT.db. Exit 0 when equal, 1 with the
differences on standard error.
"""
import json
import re
import sqlite3
import sys
from collections import Counter

ADDRESS = re.compile(r"<<HKDevice: 0x[0-9a-fA-F]+>")


def normalised(value):
    if isinstance(value, str):
        value = ADDRESS.sub("<<HKDevice>", value)
        if value[:1] in "[{":
            try:
                return json.dumps(json.loads(value), sort_keys=True)
            except ValueError:
                return value
    return value


def rows(db, table, skip=("id",)):
    cursor = db.execute(f'SELECT * FROM "{table}"')
    names = [column[0] for column in cursor.description]
    for row in cursor:
        yield {n: normalised(v) for n, v in zip(names, row) if n not in skip and v is not None}


def key(row):
    return json.dumps(row, sort_keys=True)


def tables(db):
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def contents(path):
    db = sqlite3.connect(path)
    found = {}
    names = tables(db)
    workouts = {}
    if "workouts" in names:
        cursor = db.execute("SELECT * FROM workouts")
        columns = [column[0] for column in cursor.description]
        for values in cursor:
            row = dict(zip(columns, values))
            workouts[row["id"]] = key({n: normalised(v) for n, v in row.items() if n != "id" and v is not None})
    for table in names:
        if table == "workout_points":
            found[table] = Counter(
                key({**{n: v for n, v in row.items() if n != "workout_id"}, "workout": workouts.get(row.get("workout_id"))})
                for row in rows(db, table, skip=()))
        else:
            found[table] = Counter(key(row) for row in rows(db, table))
    return found


def main():
    original, rebuilt = contents(sys.argv[1]), contents(sys.argv[2])
    problems = []
    for table in sorted(set(original) | set(rebuilt)):
        a, b = original.get(table, Counter()), rebuilt.get(table, Counter())
        if a != b:
            missing, extra = a - b, b - a
            problems.append(f"{table}: {sum(a.values())} rows in the original, {sum(b.values())} in the rebuild; "
                            f"{sum(missing.values())} only in the original, {sum(extra.values())} only in the rebuild")
            for row in list(missing)[:2]:
                problems.append(f"  only in the original: {row[:600]}")
            for row in list(extra)[:2]:
                problems.append(f"  only in the rebuild:  {row[:600]}")
    summary = ", ".join(f"{t} {sum(c.values())}" for t, c in sorted(original.items()))
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    print(f"equal: {summary}")


if __name__ == "__main__":
    main()
