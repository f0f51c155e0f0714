#!/usr/bin/env python3
"""Checks that Package.swift declares exactly what each target imports: every module a target's
sources import is a target or product it declares (or a module of the platform), and every
target or product it declares is imported by one of its files. Prints each mismatch and exits 1
if there is one; run by .ci/run. A re-export (`@_exported import`) is refused: a target that
uses a module declares it and imports it, so the package says who depends on whom. The archive
imports GRDB `internal`: the compiler then refuses a GRDB type in its public face.

SwiftPM's --explicit-target-dependency-import-check does not report these on Linux (it found
nothing where the command line imported AppleHealthExport without declaring it), so this reads
the sources' `import` lines against `swift package dump-package`.
"""
import json
import os
import re
import subprocess
import sys

# Modules every target may import: the toolchain's and the platforms' own.
PLATFORM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Darwin",
    "Dispatch", "Testing", "XCTest", "Synchronization", "Observation", "os", "Combine",
    "SwiftUI", "UIKit", "AppKit", "HealthKit", "BackgroundTasks", "UniformTypeIdentifiers", "UserNotifications",
    "CoreFoundation", "Security", "CryptoKit", "libxml2",
}
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+|(?:public|package|internal|fileprivate|private)\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    package = json.loads(subprocess.check_output(["swift", "package", "dump-package"], cwd=root))
    problems = []
    for target in package["targets"]:
        if target["type"] == "system":
            continue
        declared = {target["name"]}
        for dependency in target.get("dependencies", []):
            (kind, value), = dependency.items()
            declared.add(value[0])
        default = "Tests" if target["type"] == "test" else "Sources"
        folder = os.path.join(root, target.get("path") or os.path.join(default, target["name"]))
        imported = set()
        for directory, _, files in os.walk(folder):
            for name in files:
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as source:
                    text = source.read()
                    if target["name"] == "HealthProbeArchive" and re.search(
                            r"^\s*(?:public\s+)?import\s+GRDB(?:SQLite)?\s*$", text, re.M):
                        problems.append(f"{os.path.relpath(path, root)}: imports GRDB publicly; the archive "
                                        "imports it `internal` so that no GRDB type is part of its face")
                    if re.search(r"^\s*@_exported\s+import", text, re.M):
                        problems.append(f"{os.path.relpath(path, root)}: re-exports a module; "
                                        "each target that uses it declares and imports it")
                    for module in IMPORT.findall(text):
                        imported.add(module)
                        if module not in declared and module not in PLATFORM:
                            problems.append(f"{os.path.relpath(path, root)}: imports {module}, "
                                            f"which {target['name']} does not declare in Package.swift")
        for module in sorted(declared - imported - {target["name"]}):
            problems.append(f"Package.swift: {target['name']} declares {module}, which none of its files imports")
    for problem in sorted(set(problems)):
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
