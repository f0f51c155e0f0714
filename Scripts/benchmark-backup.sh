#!/usr/bin/env bash
# Times `healthprobe check` of a Health database against the export holding the same samples,
# interleaved, with peak resident memory measured from outside (/usr/bin/time -f %M):
#   first checks  — the export, then the database, each into an empty archive;
#   second checks — into an archive holding the export: the export again, then the database
#                   (every sample met by the cross-source key), then a second database (by UUID);
#                   and the export into the archive holding the database (the export meeting
#                   what the database described first).
#
#   Scripts/benchmark-backup.sh [SAMPLES] [ROUNDS]      (defaults: 1000000 samples, 2 rounds)
#
# The pair is generated once into .build/backup-benchmark/ (a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-1000000}
rounds=${2:-2}
folder=.build/backup-benchmark/$samples
swift build -c release --product healthprobe >/dev/null
swift build -c release --product healthprobe-benchmark >/dev/null
binary=.build/release/healthprobe
if [ ! -f "$folder/Health/healthdb_secure.sqlite" ]; then
  .build/release/healthprobe-benchmark pair "$folder" --samples "$samples"
fi
timed() {
  local label=$1
  shift
  /usr/bin/time -f "$label  %e s  %M KB" "$binary" "$@" 2>&1 >/dev/null | grep -E "^(round|  )" || true
}
for round in $(seq "$rounds"); do
  rm -f "$folder"/archive-*.sqlite*
  timed "round $round  first   export  " check "$folder/export.xml" --archive "$folder/archive-e.sqlite"
  timed "round $round  first   database" check "$folder/Health" --archive "$folder/archive-d.sqlite"
  timed "round $round  second  export  " check "$folder/export.xml" --archive "$folder/archive-e.sqlite"
  timed "round $round  second  database (after the export)" check "$folder/Health" --archive "$folder/archive-e.sqlite"
  timed "round $round  third   database (after a database)" check "$folder/Health" --archive "$folder/archive-e.sqlite"
  timed "round $round  second  export (after a database)" check "$folder/export.xml" --archive "$folder/archive-d.sqlite"
done
