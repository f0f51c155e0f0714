#!/usr/bin/env bash
# Type-checks the Apple-only code — HealthProbeHealthKit, HealthProbeApp with its SwiftUI views,
# and the Xcode target's @main App (App/Main) — in Swift 6 mode on Linux, against stub modules of
# HealthKit, BackgroundTasks, Security and SwiftUI in Scripts/AppleStubs/, written from Apple's
# documentation at the app's minimum, iOS 18 (built with Xcode 26). The Apple-only files are inside
# `#if os(iOS) || HEALTHPROBE_APPLE_STUBS`; only this script sets the second condition, so the
# files checked here are the ones Xcode compiles for iOS, and a Mac's `swift build` skips them.
#
# What it catches: a call whose labels, types, optionality or isolation do not match the
# documented declarations (a main-actor model read from a `Binding`'s `@isolated(any) @Sendable`
# closures; a framework object that is not `Sendable` sent across tasks), an initialiser Apple
# marks unavailable, a switch over a framework enumeration without `@unknown default` (the stubs
# are built with library evolution, as Apple's frameworks are), a warning. Then a lint reads what no
# stub can show: an iOS-only framework guarded by `canImport` (true on macOS), macOS-only
# Foundation in a target the iPhone app links, file protection a locked phone's background work
# cannot open. Scripts/AppleStubs/Misuse/ holds a misuse of each kind; the script fails if any
# type-checks or passes the lint.
#
# The stubs carry Apple's documented availability; Scripts/check-availability.sh (which runs this
# script with APPLE_STUBS_OUT) checks each use of them against App/project.yml's iOS.
#
# What it cannot: that the real SDK agrees with the stubs (they hold only what the app uses), and run-time
# behaviour — a main-actor closure that a framework calls on a background queue type-checks when
# its parameter is not `@Sendable` (BackgroundTasks' launch handler is not) and traps only when run.
#
# Needs `swift build` to have run (the modules of HealthProbeKit and HealthProbeScreens).
set -euo pipefail
cd "$(dirname "$0")/.."

build=$(swift build --show-bin-path)
# APPLE_STUBS_OUT keeps the stub modules and the Apple-only code's index store there, for
# Scripts/check-availability.sh to read; else they go with the script.
if [ -n "${APPLE_STUBS_OUT:-}" ]; then
    stubs=$APPLE_STUBS_OUT
    mkdir -p "$stubs"
else
    stubs=$(mktemp -d)
    trap 'rm -rf "$stubs"' EXIT
fi

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

for module in HealthKit BackgroundTasks Security SwiftUI UIKit; do
    # Library evolution, as Apple builds its frameworks: their enumerations are not frozen.
    swiftc -parse-as-library -swift-version 6 -enable-library-evolution -suppress-warnings -module-name "$module" \
        -emit-module \
        -emit-module-path "$stubs/$module.swiftmodule" "Scripts/AppleStubs/$module.swift"
done

# The adapter, as a module the app can import (the one SwiftPM builds is empty on Linux and on a
# Mac: its files are inside `#if os(iOS) || HEALTHPROBE_APPLE_STUBS`, the second condition set by
# this script alone, so that the files Xcode compiles for iOS are the files checked here).
swiftc -parse-as-library -I "$stubs" "${flags[@]}" -index-store-path "$stubs/index" -module-name HealthProbeHealthKit -emit-module \
    -emit-module-path "$stubs/HealthProbeHealthKit.swiftmodule" Sources/HealthProbeHealthKit/*.swift
echo "HealthProbeHealthKit: type-checks against the stubs"

swiftc -parse-as-library -I "$stubs" "${flags[@]}" -index-store-path "$stubs/index" -module-name HealthProbeApp -emit-module \
    -emit-module-path "$stubs/HealthProbeApp.swiftmodule" Sources/HealthProbeApp/*.swift
echo "HealthProbeApp (its SwiftUI views too): type-checks against the stubs"

# The Xcode target's entry point, which only XcodeGen's project compiles, against the app module.
swiftc -typecheck -parse-as-library -I "$stubs" "${flags[@]}" -index-store-path "$stubs/index" -module-name HealthProbeMain \
    App/Main/*.swift
echo "App/Main (the @main App): type-checks against the stubs"

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

# What no stub can show, read from the sources: each pattern is a defect Xcode would meet on a
# Mac or an iPhone. The targets the iPhone app links must not use macOS-only Foundation; nothing
# may guard an iOS-only framework by importability (true on macOS too); nothing in the app may
# protect files so that a locked phone's background export cannot open them.
platform_lint() {
    grep -HnE 'canImport\((BackgroundTasks|HealthKit|SwiftUI|UIKit)\)' "$@"
    grep -HnE '^[^/]*(homeDirectoryForCurrentUser|homeDirectory\(forUser|NSWorkspace|NSUserName\(|Host\.current)' "$@"
    grep -HnE '^[^/]*(completeUnlessOpen|FileProtectionType\.complete([^U]|$))' "$@"
    true
}
iphone_sources=$(find Sources/HealthProbeArchive Sources/HealthProbeKit Sources/HealthProbeScreens Sources/HealthProbeHealthKit \
    Sources/HealthProbeApp Sources/AppleHealthExport App -name '*.swift')
# shellcheck disable=SC2086
found=$(platform_lint $iphone_sources)
if [ -n "$found" ]; then
    echo "error: code a Mac or an iPhone build refuses:" >&2
    echo "$found" >&2
    exit 1
fi
for misuse in Scripts/AppleStubs/Misuse/Lint/*.swift; do
    if [ -z "$(platform_lint "$misuse")" ]; then
        echo "error: $misuse passes the platform lint, which must refuse it" >&2
        exit 1
    fi
done
echo "Platform lint: the iPhone's targets clean, $(ls Scripts/AppleStubs/Misuse/Lint/*.swift | wc -l) misuses refused"
