#!/usr/bin/env bash
# Times `healthprobe export` in every format, plain and encrypted, interleaved, with peak
# resident memory measured from outside (/usr/bin/time -f %M).
#
#   Scripts/benchmark-export.sh [RECORDS] [ROUNDS]      (defaults: 1000000 records, 3 rounds)
#
# The export and archive are generated once into .build/export-benchmark/ (a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-1000000}
rounds=${2:-3}
folder=.build/export-benchmark
mkdir -p "$folder"
swift build -c release --product healthprobe >/dev/null
binary=.build/release/healthprobe
archive="$folder/archive-$records.sqlite"
if [ ! -f "$archive" ]; then
  "$binary" generate "$folder/export-$records.zip" --records "$records" --seed 3 >/dev/null
  "$binary" check "$folder/export-$records.zip" --archive "$archive" >/dev/null
fi
printf 'Test Password' > "$folder/password"
chmod 600 "$folder/password"
for round in $(seq "$rounds"); do
  for format in json jsonl csv sqlite; do
    for mode in plain encrypted; do
      extra=()
      [ "$mode" = encrypted ] && extra=(--encrypt --password-file "$folder/password")
      output="$folder/out.$format"
      /usr/bin/time -f "round $round  $format  $mode  %e s  %M KB" \
        "$binary" export --format "$format" --output "$output" --archive "$archive" --force "${extra[@]}" 2>&1 >/dev/null \
        | grep '^round'
      rm -f "$output" "$output.manifest.json"
    done
  done
done
