#!/usr/bin/env bash
# Times `healthprobe export --format apple-health` against `--format jsonl` of the same archive,
# interleaved, peak resident memory from outside (/usr/bin/time -f %M); then checks the rebuild
# into the archive it came from (it must find nothing new and nothing gone).
#
#   Scripts/benchmark-rebuild.sh [RECORDS] [ROUNDS]      (defaults: 1000000 records, 3 rounds)
#
# The export — routes of a point every 5 s on every fifth workout, 200 ECG recordings, as in
# BENCHMARKS.md's "An export's files" — and its archive are made once in .build/rebuild-benchmark/.
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-1000000}
rounds=${2:-3}
folder=.build/rebuild-benchmark
mkdir -p "$folder"
swift build -c release --product healthprobe >/dev/null
binary=.build/release/healthprobe
archive="$folder/archive-$records.sqlite"
if [ ! -f "$archive" ]; then
  "$binary" generate "$folder/with-$records.zip" --records "$records" --route-point-seconds 5 --routes-every 5 \
    --electrocardiograms 200 >/dev/null
  "$binary" check "$folder/with-$records.zip" --archive "$archive" >/dev/null
fi
for round in $(seq "$rounds"); do
  for format in jsonl apple-health; do
    output="$folder/out.$format"
    /usr/bin/time -f "round $round  $format  %e s  %M KB" \
      "$binary" export --format "$format" --output "$output" --archive "$archive" --force 2>&1 >/dev/null \
      | grep '^round'
    [ "$round" = 1 ] && ls -l "$output" | awk -v f="$format" '{print "size " f " " $5 " bytes"}'
    [ "$format" = apple-health ] || rm -f "$output" "$output.manifest.json"
  done
done
copy="$folder/archive-copy.sqlite"
cp "$archive" "$copy"
"$binary" check "$folder/out.apple-health" --archive "$copy" 2>&1 | grep -E "records|Verdict"
rm -f "$copy" "$folder/out.apple-health" "$folder/out.apple-health.manifest.json"
