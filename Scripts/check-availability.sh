#!/usr/bin/env bash
# Availability, checked from the toolchain's own declarations. Every declaration the project's
# code names — as the compiler recorded it in the index store, not a text search — that Apple
# introduced after the minimum must sit under `#available` or `@available`: the standard library,
# Foundation, Dispatch and Synchronization at Package.swift's macOS and iOS (swift-api-digester
# on Linux knows Apple's introductions: `String.init(validating:as:)` is macOS 15, iOS 18); the
# Apple-only code, type-checked by Scripts/typecheck-apple.sh (run from here), against the stubs'
# documented availability at App/project.yml's iOS. Each use's context (`@available`,
# `if #available`, an earlier `guard #available`, the platforms its `#if` clauses compile it for,
# evaluated from their syntax: `#if !os(Linux)` is Apple's code) is read by SwiftSyntax
# (Scripts/AvailabilityCheck). A newer declaration is excused only by an older twin of the same
# types; an index that has not seen the code (empty, older than a file, missing a file of the
# folders given) fails. Each part is tested first: Scripts/AvailabilityCheck/Misuse holds uses
# guarded every way and a few that are not, and exactly those must be refused. What no index
# shows (compiler-written uses, conformances, modules not dumped, branches only Apple's platforms
# compile) is said in the output each run.
#
# Needs `swift build --build-tests` to have run (its index store and modules).
set -euo pipefail
cd "$(dirname "$0")/.."

usr=$(dirname "$(dirname "$(readlink -f "$(command -v swift-frontend || command -v swiftc)")")")
include=$usr/local/include
[ -f "$include/indexstore/indexstore.h" ] || include=$usr/include
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build --package-path Scripts/AvailabilityCheck -Xcc "-I$include" -Xlinker "-L$usr/lib" \
    -Xlinker -rpath -Xlinker "$usr/lib" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }
check=$(swift build --package-path Scripts/AvailabilityCheck --show-bin-path)/check-availability
misuses=Scripts/AvailabilityCheck/Misuse

dump() { # dump NAME MODULE [FLAGS]: the module's declarations, as --dump arguments in NAME
    local -n into=$1
    swift-api-digester -dump-sdk -module "$2" "${@:3}" -o "$work/$2.json"
    into+=(--dump "$work/$2.json")
}

# refuses EXPECTED INDEX FLAGS...: the check names exactly the lines of EXPECTED.
refuses() {
    "$check" --index-store "$2" --root "$misuses" "${@:3}" | grep -v -e ' unguarded$' -e '^not seen: ' \
        >"$work/found.txt" || true
    if ! diff -u "$misuses/$1" "$work/found.txt" >&2; then
        echo "error: the availability check does not refuse exactly the misuses of $misuses/$1" >&2
        exit 1
    fi
    echo "Availability misuses refused: $(wc -l <"$misuses/$1") ($1), the guarded uses passed"
}

toolchain=()
for module in Swift _Concurrency _StringProcessing RegexBuilder Synchronization Dispatch \
    FoundationEssentials FoundationInternationalization Foundation Observation Testing; do
    dump toolchain "$module"
done

# The misuses, with a module of their own (two overloads of one name) dumped beside the toolchain's.
swiftc -parse-as-library -swift-version 6 -emit-module -module-name AvailabilityFixture \
    -emit-module-path "$work/fixture/AvailabilityFixture.swiftmodule" "$misuses/AvailabilityFixture.swift"
fixture=("${toolchain[@]}")
dump fixture AvailabilityFixture -I "$work/fixture"
swiftc -parse-as-library -swift-version 6 -D AVAILABILITY_FIXTURE -I "$work/fixture" -module-name Misuse \
    -c "$misuses/Misuse.swift" -o "$work/misuse.o" -index-store-path "$work/misuse-index"
refuses expected.txt "$work/misuse-index" "${fixture[@]}" --macOS 14 --iOS 17

# An index that has not seen the code is refused, never read as clean: an empty one, and one older
# than a file it describes.
mkdir -p "$work/empty-index"
if "$check" --index-store "$work/empty-index" --root "$misuses" "${fixture[@]}" --macOS 14 >"$work/empty.txt"; then
    echo "error: the availability check passed an empty index store" >&2
    exit 1
fi
grep -q "holds no file" "$work/empty.txt"
cp "$misuses/Misuse.swift" "$work/stale.swift"
swiftc -parse-as-library -swift-version 6 -D AVAILABILITY_FIXTURE -I "$work/fixture" -module-name Stale \
    -c "$work/stale.swift" -o "$work/stale.o" -index-store-path "$work/stale-index"
touch -d "+1 hour" "$work/stale.swift"
if "$check" --index-store "$work/stale-index" --root "$work" --expect "$work" "${fixture[@]}" --macOS 14 \
    >"$work/stale.txt"; then
    echo "error: the availability check passed an index older than its file" >&2
    exit 1
fi
grep -q "changed since the index was written" "$work/stale.txt"
echo "An empty index store and a stale one refused"

read -r macos ios < <(swift package dump-package | python3 -c '
import json, sys
platforms = {p["platformName"]: p["version"] for p in json.load(sys.stdin)["platforms"]}
print(platforms["macos"], platforms["ios"])')
echo "The package at macOS $macos, iOS $ios:"
"$check" --index-store "$(swift build --show-bin-path)/index/store" --root . --expect Sources --expect Tests \
    "${toolchain[@]}" --macOS "$macos" --iOS "$ios"

# The Apple-only code, against the stubs: type-checked, its index store and the stub modules kept.
APPLE_STUBS_OUT=$work/apple bash Scripts/typecheck-apple.sh
apple=("${toolchain[@]}")
for module in HealthKit BackgroundTasks Security SwiftUI UIKit; do dump apple "$module" -I "$work/apple"; done
swiftc -typecheck -parse-as-library -swift-version 6 -I "$work/apple" -module-name AppleMisuse \
    "$misuses/AppleMisuse.swift" -index-store-path "$work/apple-misuse-index"
refuses expected-apple.txt "$work/apple-misuse-index" "${apple[@]}" --iOS 16
app_ios=$(sed -n 's/^ *iOS: *"\([0-9.]*\)".*/\1/p' App/project.yml | head -1)
echo "The iPhone app at iOS $app_ios:"
"$check" --index-store "$work/apple/index" --root . --expect Sources/HealthProbeHealthKit \
    --expect Sources/HealthProbeApp --expect App/Main "${apple[@]}" --iOS "$app_ios"
