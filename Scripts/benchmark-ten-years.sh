#!/usr/bin/env bash
# Ten years in one export (issue 56): every figure of the scale aims, with one build or several
# interleaved round by round, wall time and peak resident memory from outside
# (/usr/bin/time -f "%e %M"), one line per run.
#
#   Scripts/benchmark-ten-years.sh [--records N] [--rounds N] [--folder DIR] BUILD...
#
# Each BUILD is a folder holding a release `healthprobe`, `healthprobe-benchmark` and, from
# `9200b14` on, `healthprobe-connect` (the assistant and graph sync run in it)
# (`swift build -c release`, then copy the three out). The exports are generated once, seeded, with
# the last build's `generate` into DIR (default .build/ten-years): N items (default 7,216,000:
# 7,506,260 elements, 3.1 GiB of XML, as a real ten-year export holds) and the same with one item
# in a hundred left out, every date at -0700 and fresh HKDevice addresses. Then, for each round
# and each build (the builds' order alternating):
#
#   parse        libxml2's bare parse of the zip (`healthprobe-benchmark phase parse`)
#   first        the first check, into a fresh archive
#   first-backed the same check into an archive holding nothing yet but free pages SQLite has just
#                written, as large as the first check's archive: its writes land in pages the
#                file cache already holds. On a virtual machine whose host backs a guest's memory
#                lazily (this project's, a Firecracker guest that reports free pages to its host),
#                every page the file cache takes anew costs tens of microseconds in the kernel;
#                this line shows the check without that cost (BENCHMARKS.md, 2026-12-03)
#   recheck      the check of the second export (1 % gone)
#   day-5y       `day --json` of five years, every type, to /dev/null
#   export-*     `export` in every format (json, jsonl, csv, sqlite with its day figures, apple-health)
#   assistant    the assistant's longest answers through the Python MCP SDK (Scripts/benchmark-mcp.py:
#                a year of one type, five years of coverage, …); the line's seconds and KB are the
#                client's whole run, the server's timings and peak memory are in its log
#   graph        a first graph sync to a local FalkorDB (when Scripts/falkordb.sh can start one)
#
# Results: DIR/results.tsv (what, build, round, seconds, KB, exit) and each run's output in DIR/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."
records=7216000
rounds=1
folder=.build/ten-years
builds=()
while (($#)); do
  case $1 in
    --records) records=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --folder) folder=$2; shift 2 ;;
    -*) echo "usage: Scripts/benchmark-ten-years.sh [--records N] [--rounds N] [--folder DIR] BUILD..." >&2; exit 64 ;;
    *) builds+=("$(cd "$1" && pwd)"); shift ;;
  esac
done
if ((${#builds[@]} == 0)); then
  echo "usage: Scripts/benchmark-ten-years.sh [--records N] [--rounds N] [--folder DIR] BUILD..." >&2
  exit 64
fi
mkdir -p "$folder/logs"
folder=$(cd "$folder" && pwd)
results=$folder/results.tsv
: >"$results"
generator=${builds[-1]}/healthprobe
first_zip=$folder/first-$records.zip
second_zip=$folder/second-$records.zip

# measure WHAT BUILD ROUND COMMAND...: one timed run, its output in logs/.
measure() {
  local what=$1 build=$2 round=$3
  shift 3
  local log="$folder/logs/$what-$(basename "$build")-$round.log"
  local status=0
  /usr/bin/time -o "$folder/logs/time" -f "%e %M" "$@" >"$log" 2>&1 || status=$?
  read -r seconds kilobytes < <(tail -1 "$folder/logs/time")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$what" "$(basename "$build")" "$round" "$seconds" "$kilobytes" "$status" \
    | tee -a "$results"
}

echo "== inputs ($records items, seed 3)" >&2
[ -f "$first_zip" ] || "$generator" generate "$first_zip" --records "$records" --seed 3 >/dev/null
[ -f "$second_zip" ] || "$generator" generate "$second_zip" --records "$records" --seed 3 \
  --omit-every 100 --offset=-0700 --device-seed 2 >/dev/null

python=.build/mcp-client/venv/bin/python
questions=$folder/questions.json
# The generated export begins on 2000-01-01: the assistant's longest answers within its years.
cat >"$questions" <<'JSON'
[{"name": "daily_summary of heart rate, a year", "tool": "daily_summary", "arguments": {"sample_type": "HeartRate", "from": "2008-01-01", "to": "2008-12-31"}},
 {"name": "daily_summary's figures, three months", "tool": "daily_summary", "arguments": {"from": "2008-04-01", "to": "2008-07-01"}},
 {"name": "coverage of heart rate, five years", "tool": "coverage", "arguments": {"sample_type": "HeartRate", "from": "2004-01-01", "to": "2008-12-31"}},
 {"name": "archive_status", "tool": "archive_status", "arguments": {}},
 {"name": "get_records, a page of 100", "tool": "get_records", "arguments": {"sample_type": "HeartRate", "from": "2008-06-01", "to": "2008-06-30", "limit": 100}}]
JSON

for round in $(seq "$rounds"); do
  order=("${builds[@]}")
  if ((round % 2 == 0)); then
    order=()
    for ((index = ${#builds[@]} - 1; index >= 0; index--)); do order+=("${builds[index]}"); done
  fi
  for build in "${order[@]}"; do
    echo "== round $round, $(basename "$build")" >&2
    scratch=$folder/scratch
    rm -rf "$scratch"
    mkdir -p "$scratch"
    archive=$scratch/archive.sqlite
    measure parse "$build" "$round" "$build/healthprobe-benchmark" phase parse "$first_zip"
    measure first "$build" "$round" "$build/healthprobe" check "$first_zip" --archive "$archive"
    backed=$scratch/backed.sqlite
    "$build/healthprobe" settings --check-every 24h --archive "$backed" >/dev/null
    megabytes=$(($(stat -c %s "$archive") / 1048576 + 16))
    python3 - "$backed" "$megabytes" <<'PYTHON'
import sqlite3, sys
# A scratch table of zeroed blobs, dropped: its pages stay in the file, free, and in the file cache.
database = sqlite3.connect(sys.argv[1], isolation_level=None)
database.execute("PRAGMA journal_mode = DELETE")
database.execute("""
    CREATE TABLE benchmarkPadding AS
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
    SELECT zeroblob(1048576) AS b FROM n""", (int(sys.argv[2]),))
database.execute("DROP TABLE benchmarkPadding")
database.execute("PRAGMA journal_mode = WAL")
database.close()
PYTHON
    sleep 3
    measure first-backed "$build" "$round" "$build/healthprobe" check "$first_zip" --archive "$backed"
    rm -f "$backed" "$backed-wal" "$backed-shm"
    measure recheck "$build" "$round" "$build/healthprobe" check "$second_zip" --archive "$archive"
    measure day-5y "$build" "$round" "$build/healthprobe" day 2004-01-01 --to 2008-12-30 --json \
      --time-zone UTC --archive "$archive"
    for format in json jsonl csv sqlite apple-health; do
      extension=$format
      [ "$format" = apple-health ] && extension=zip
      measure "export-$format" "$build" "$round" "$build/healthprobe" export --format "$format" \
        --output "$scratch/export.$extension" --archive "$archive" --force
      rm -f "$scratch/export.$extension"
    done
    if [ -x "$python" ]; then
      measure assistant "$build" "$round" "$python" Scripts/benchmark-mcp.py "$build/healthprobe" "$archive" 3 \
        "$questions"
    fi
    if socket=$(bash Scripts/falkordb.sh start "$scratch/falkordb" 2>/dev/null); then
      measure graph "$build" "$round" "$build/healthprobe" graph sync --to "falkordb://$socket" --time-zone UTC \
        --archive "$archive"
      bash Scripts/falkordb.sh stop "$scratch/falkordb"
    fi
    rm -rf "$scratch"
  done
done
echo "results: $results" >&2
