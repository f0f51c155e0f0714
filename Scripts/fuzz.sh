#!/usr/bin/env bash
# Fuzzes the readers of input HealthProbe did not write — a backup's property lists, its keybag,
# a Health database's rows, clinical documents, routes, the assistant's requests, and the archive's
# canonical JSON — with libFuzzer, each for SECONDS (default 120), from and into its
# corpus in Fuzz/corpus/TARGET. A crash, a timeout (5 s an input) or more than 1 GiB stops it,
# with the input saved in Fuzz/findings/TARGET/. The tests replay every corpus (FuzzCorpusTests).
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]      (targets: plist keybag database json clinical route request)
#
# Built only on request, in its own scratch path (.build-fuzz), as README.md says of the export
# reader's fuzzer: SwiftPM's --sanitize=fuzzer links libFuzzer, -sanitize-coverage instruments.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(plist keybag database json clinical route request)
HEALTHPROBE_FUZZ=1 swift build --product backup-fuzzer --sanitize=fuzzer \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp --scratch-path .build-fuzz >/dev/null
for target in "${targets[@]}"; do
  mkdir -p "Fuzz/corpus/$target" "Fuzz/findings/$target"
  echo "fuzzing $target for $seconds s"
  HEALTHPROBE_FUZZ_TARGET=$target .build-fuzz/debug/backup-fuzzer "Fuzz/corpus/$target" \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="Fuzz/findings/$target/" 2>&1 | grep -E "(DONE|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|crash|timeout)" || true
done
