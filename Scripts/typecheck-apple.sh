#!/usr/bin/env bash
# Type-checks the Apple-only code — HealthProbeHealthKit, and HealthProbeApp's non-SwiftUI files —
# in Swift 6 mode on Linux, against stub modules of HealthKit, BackgroundTasks and Security in
# Scripts/AppleStubs/, written from Apple's documentation for the iOS 18.4 SDK (Xcode 16.3).
#
# What it catches: a call whose labels, types, optionality or isolation do not match the
# documented declarations, a non-Sendable framework object sent across tasks, a main-actor
# closure handed where the framework calls it from a background queue, a warning. What it
# cannot: that the real SDK agrees with the stubs, and anything in the SwiftUI views (no SwiftUI
# stub: they are compiled by Xcode only). Scripts/AppleStubs/Misuse/ holds code the documented
# declarations refuse; the script fails if any of it type-checks. (Swift 6.3 accepts a BGTask
# sent into a detached task from its launch handler, which the review reproduced with an earlier
# compiler: the app no longer does it, and no misuse case claims it.)
#
# Needs `swift build` to have run (the modules of HealthProbeKit and HealthProbeScreens).
set -euo pipefail
cd "$(dirname "$0")/.."

build=$(swift build --show-bin-path)
stubs=$(mktemp -d)
trap 'rm -rf "$stubs"' EXIT

# The C modules the Swift modules import, as SwiftPM passes them.
flags=(-swift-version 6 -warnings-as-errors -D HEALTHPROBE_APPLE_STUBS -I "$build/Modules")
while IFS= read -r map; do
    flags+=(-Xcc "-fmodule-map-file=$map" -Xcc "-I$(dirname "$map")")
done < <({
    find Sources .build/checkouts -name module.modulemap -not -path '*/Tests/*'
    find "$build" -maxdepth 2 -path '*.build/module.modulemap'
} 2>/dev/null | sort)
if pkg-config --exists libxml-2.0; then
    for include in $(pkg-config --cflags-only-I libxml-2.0); do flags+=(-Xcc "$include"); done
fi

for module in HealthKit BackgroundTasks Security; do
    swiftc -parse-as-library -swift-version 6 -module-name "$module" -emit-module \
        -emit-module-path "$stubs/$module.swiftmodule" "Scripts/AppleStubs/$module.swift"
done

# The adapter, as a module the app can import (the one SwiftPM builds is empty on Linux and on a
# Mac: its files are inside `#if os(iOS) || HEALTHPROBE_APPLE_STUBS`, the second condition set by
# this script alone, so that the files Xcode compiles for iOS are the files checked here).
swiftc -parse-as-library -I "$stubs" "${flags[@]}" -module-name HealthProbeHealthKit -emit-module \
    -emit-module-path "$stubs/HealthProbeHealthKit.swiftmodule" Sources/HealthProbeHealthKit/*.swift
echo "HealthProbeHealthKit: type-checks against the stubs"

swiftc -typecheck -parse-as-library -I "$stubs" "${flags[@]}" -module-name HealthProbeApp \
    Sources/HealthProbeApp/*.swift
echo "HealthProbeApp (all but the SwiftUI views): type-checks against the stubs"

# Each misuse must be refused: otherwise the stubs are looser than the documentation.
for misuse in Scripts/AppleStubs/Misuse/*.swift; do
    if swiftc -typecheck -parse-as-library -I "$stubs" "${flags[@]}" -module-name Misuse "$misuse" \
        >"$stubs/misuse.log" 2>&1; then
        echo "error: $misuse type-checks, but the documented declarations refuse it" >&2
        cat "$stubs/misuse.log" >&2
        exit 1
    fi
    [ -n "${SHOW_MISUSE:-}" ] && { echo "== $misuse"; grep -E "error:" "$stubs/misuse.log" | head -3; }
done
echo "Misuses refused: $(ls Scripts/AppleStubs/Misuse/*.swift | wc -l)"
