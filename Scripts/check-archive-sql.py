#!/usr/bin/env python3
"""Checks that the archive's SQL stays in the archive: no Swift file outside
Sources/HealthProbeArchive names one of the archive's tables in SQL (FROM, JOIN, INTO, UPDATE,
TABLE), so that renaming a column or a table is a change to one target. The tables are read from
the archive's migrations, so a new table is covered without editing this file.

Every other target reaches the archive through the typed methods of `ArchiveStore` and its
companions; its connection (`writer`) is internal to the archive and the compiler refuses it
elsewhere. Tests are not checked: the archive's own tests look inside it (`@testable import
HealthProbeArchive`), and the end-to-end tests read the file a real process wrote through
`ArchiveInspection`, a plain SQLite reader independent of the archive's code — so a fault in the
archive's reads cannot hide one in its writes.

Prints each offending line and exits 1 if there is one; run by .ci/run and by
ArchiveBoundaryTests, which also gives it a file of its own (arguments: more files to check) to
see it refuse one.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHIVE = os.path.join(ROOT, "Sources", "HealthProbeArchive")


def swift_files(folder):
    for directory, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def archive_tables():
    tables = set()
    for path in swift_files(ARCHIVE):
        with open(path, encoding="utf-8") as source:
            tables.update(re.findall(r"\bCREATE TABLE (?:IF NOT EXISTS )?\"?([A-Za-z_]+)", source.read()))
    return tables


def main():
    tables = archive_tables()
    if not tables:
        print("check-archive-sql: no table found in the archive's migrations")
        return 1
    naming = re.compile(
        r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+[\"`]?(" + "|".join(sorted(tables, key=len, reverse=True)) + r")\b")
    problems = []
    paths = [path for top in ("Sources", "App", "Fuzz") for path in swift_files(os.path.join(ROOT, top))]
    for path in paths + sys.argv[1:]:
        if path.startswith(ARCHIVE + os.sep):
            continue
        with open(path, encoding="utf-8") as source:
            text = source.read()
        for number, line in enumerate(text.splitlines(), 1):
            match = naming.search(line)
            if match:
                shown = os.path.relpath(path, ROOT) if os.path.abspath(path).startswith(ROOT + os.sep) else path
                problems.append(f"{shown}:{number}: names the archive's "
                                f"table '{match.group(1)}' outside HealthProbeArchive")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
