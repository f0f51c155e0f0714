#!/usr/bin/env bash
# Runs every benchmark of BENCHMARKS.md with two builds, interleaved round by round, for a change
# that must not make any figure worse (a refactoring): wall time and peak resident memory from
# outside (/usr/bin/time -f "%e %M"), one line per run, and each benchmark executable's own
# report kept beside them.
#
#   Scripts/benchmark-before-after.sh BEFORE AFTER [ROUNDS] [FOLDER]
#
# BEFORE and AFTER are folders holding a release `healthprobe`, `healthprobe-benchmark` and, from
# `9200b14` on, `healthprobe-connect` (`mcp` runs in it) (`swift build -c release`). ROUNDS (default 2) applies to the quick benchmarks; the 5M import,
# graph sync and the phone-scale benchmark run once per build. The inputs are generated once,
# with AFTER's `generate`, into FOLDER (default .build/before-after); the results go to
# FOLDER/results.tsv (section, what, build, round, seconds, KB, exit) and FOLDER/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
rounds=${3:-2}
folder=${4:-.build/before-after}
mkdir -p "$folder/logs"
folder=$(cd "$folder" && pwd)
results=$folder/results.tsv
: >"$results"
generator=$after/healthprobe

# measure SECTION WHAT BUILD ROUND COMMAND...: one timed run, its output in logs/.
measure() {
  local section=$1 what=$2 build=$3 round=$4
  shift 4
  local log="$folder/logs/$section-$what-$build-$round.log"
  local timing="$folder/logs/time"
  local status=0
  /usr/bin/time -o "$timing" -f "%e %M" "$@" >"$log" 2>&1 || status=$?
  read -r seconds kilobytes < <(tail -1 "$timing")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$section" "$what" "$build" "$round" "$seconds" "$kilobytes" "$status" \
    | tee -a "$results"
}

# builds: the two labels and their folders, alternating which goes first from round to round.
builds() {
  if (($1 % 2)); then echo "before $before after $after"; else echo "after $after before $before"; fi
}

echo "== inputs" >&2
data=$folder/data
mkdir -p "$data"
[ -f "$data/gen-1m.zip" ] || "$generator" generate "$data/gen-1m.zip" --records 1000000 --seed 3 >/dev/null
[ -f "$data/gen-1m-b.zip" ] || "$generator" generate "$data/gen-1m-b.zip" --records 1000000 --seed 3 \
  --omit-every 100 --offset=-0700 --device-seed 2 >/dev/null
[ -f "$data/gen-5m.zip" ] || "$generator" generate "$data/gen-5m.zip" --records 5000000 --seed 3 >/dev/null
[ -f "$data/other-1m.zip" ] || python3 Scripts/other-export.py "$data/other-1m.zip" --records 1000000 >/dev/null
[ -f "$data/with.zip" ] || "$generator" generate "$data/with.zip" --records 1000000 --route-point-seconds 5 \
  --routes-every 5 --electrocardiograms 200 >/dev/null
[ -f "$data/without.zip" ] || "$generator" generate "$data/without.zip" --records 1000000 --route-point-seconds 5 \
  --routes-every 5 --electrocardiograms 200 --no-files >/dev/null
# Refusals: a zip cut short, an entity bomb, a compression bomb, the XML cut at 200 MB.
[ -f "$data/cut.zip" ] || head -c 17000000 "$data/gen-1m.zip" >"$data/cut.zip"
# (unzip is stopped by head's early close, as it should be: not a failure)
[ -f "$data/cut.xml" ] || { unzip -p "$data/gen-1m.zip" '*/export.xml' || true; } | head -c 200000000 >"$data/cut.xml"
python3 - "$data" <<'PYTHON'
import datetime, os, sys, zipfile
start = datetime.datetime(2000, 1, 1)
data = sys.argv[1]
bomb = os.path.join(data, "entities.xml")
if not os.path.exists(bomb):
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE HealthData [', '<!ENTITY e0 "ha">']
    lines += [f'<!ENTITY e{i} "{("&e%d;" % (i - 1)) * 10}">' for i in range(1, 10)]
    lines += [']>', '<HealthData locale="en_US">&e9;</HealthData>']
    open(bomb, "w").write("\n".join(lines))
spaces = os.path.join(data, "spaces.zip")
if not os.path.exists(spaces):
    with zipfile.ZipFile(spaces, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("apple_health_export/export.xml", '<?xml version="1.0"?>\n<HealthData locale="en_US">'
                   + " " * (64 << 20) + "</HealthData>")
# N step samples in one second (identical) and N distinct ones.
for n in (100000,):
    for kind in ("identical", "distinct"):
        path = os.path.join(data, f"{kind}-{n}.xml")
        if os.path.exists(path):
            continue
        with open(path, "w") as out:
            out.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
                      ' <ExportDate value="2000-03-01 00:00:00 +0000"/>\n')
            for i in range(n):
                moment = start + datetime.timedelta(seconds=0 if kind == "identical" else i)
                stamp = moment.strftime("%Y-%m-%d %H:%M:%S +0000")
                out.write(f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Test Source" '
                          f'unit="count" creationDate="{stamp}" startDate="{stamp}" endDate="{stamp}" value="1"/>\n')
            out.write("</HealthData>\n")
PYTHON
printf 'Test Password' >"$data/password"
chmod 600 "$data/password"

echo "== archives both builds read" >&2
# The 1M archive the exports, the rebuild and the assistant read (one check of gen-1m), the
# dashboard's (gen-1m then gen-1m-b), and the one with files beside its export.
[ -f "$data/one.sqlite" ] || "$generator" check "$data/gen-1m.zip" --archive "$data/one.sqlite" >/dev/null
if [ ! -f "$data/two.sqlite" ]; then
  "$generator" check "$data/gen-1m.zip" --archive "$data/two.sqlite" >/dev/null
  "$generator" check "$data/gen-1m-b.zip" --archive "$data/two.sqlite" >/dev/null || true
fi
[ -f "$data/files.sqlite" ] || "$generator" check "$data/with.zip" --archive "$data/files.sqlite" >/dev/null
[ -d "$data/pair/Health" ] || "$after/healthprobe-benchmark" pair "$data/pair" --samples 1000000 >/dev/null

serve_pages() { # BINARY ARCHIVE PORT: serve, fetch each page five times, stop
  local binary=$1 archive=$2 port=$3
  local printed=$archive.serve
  "$binary" serve --archive "$archive" --port "$port" >"$printed" 2>&1 &
  local server=$!
  for _ in $(seq 100); do grep -q token= "$printed" && break; sleep 0.1; done
  # The address printed carries a one-time token, which the first visit turns into a cookie.
  local jar=$archive.cookies
  curl -s -c "$jar" -o /dev/null "$(grep -o 'http://[^ ]*token=[0-9a-f]*' "$printed")"
  local type=HKQuantityTypeIdentifierHeartRate
  for page in / "/?type=HKQuantityTypeIdentifierStepCount" "/?type=$type&from=2000-01-01&to=2002-11-07" \
    /anomalies /anomalies/1 /anomalies/1/report.md /audit /audit.json /archive /settings /check /captures \
    "/captures/compare?from=1&to=2" "/captures/compare?from=1&to=2&type=$type"; do
    for _ in 1 2 3 4 5; do
      curl -s -b "$jar" -o /dev/null -w "$page %{http_code} %{time_total}\n" "http://127.0.0.1:$port$page"
    done
  done
  kill -INT "$server"
  wait "$server" || true
}

for round in $(seq "$rounds"); do
  read -r first firstDir second secondDir <<<"$(builds "$round")"
  for pair in "$first $firstDir" "$second $secondDir"; do
    read -r build dir <<<"$pair"
    echo "== round $round, $build" >&2
    bin=$dir/healthprobe
    scratch=$folder/scratch
    rm -rf "$scratch"
    mkdir -p "$scratch"
    # 1M records: parse only, first import, check of the second export, detection (its own report).
    measure import-1m benchmark "$build" "$round" "$dir/healthprobe-benchmark" --records 1000000 --rounds 1 \
      --folder "$folder/benchmark-data" --keep
    measure demo demo "$build" "$round" "$bin" demo
    # Import memory as a user would: a new archive each time, two kinds of export, a second check.
    measure check-1m generated "$build" "$round" "$bin" check "$data/gen-1m.zip" --archive "$scratch/a.sqlite"
    measure check-1m second "$build" "$round" "$bin" check "$data/gen-1m-b.zip" --archive "$scratch/a.sqlite"
    measure check-1m other "$build" "$round" "$bin" check "$data/other-1m.zip" --archive "$scratch/o.sqlite"
    # Refusals.
    for input in cut.zip entities.xml spaces.zip cut.xml; do
      measure refusal "$input" "$build" "$round" "$bin" check "$data/$input" --archive "$scratch/r.sqlite"
    done
    # An export's files, and the rebuild against JSONL.
    measure files without "$build" "$round" "$bin" check "$data/without.zip" --archive "$scratch/without.sqlite"
    measure files with "$build" "$round" "$bin" check "$data/with.zip" --archive "$scratch/with.sqlite"
    measure rebuild jsonl "$build" "$round" "$bin" export --format jsonl --output "$scratch/out.jsonl" \
      --archive "$data/files.sqlite"
    measure rebuild apple-health "$build" "$round" "$bin" export --format apple-health --output "$scratch/out.zip" \
      --archive "$data/files.sqlite"
    # Exports, every format plain and encrypted.
    for format in json jsonl csv sqlite; do
      measure export "$format" "$build" "$round" "$bin" export --format "$format" --output "$scratch/export.$format" \
        --archive "$data/one.sqlite" --force
      measure export "$format-encrypted" "$build" "$round" "$bin" export --format "$format" \
        --output "$scratch/export.$format.enc" --archive "$data/one.sqlite" --force --encrypt \
        --password-file "$data/password"
    done
    # Identical records.
    for kind in distinct identical; do
      measure identical "$kind-100000" "$build" "$round" "$bin" check "$data/$kind-100000.xml" \
        --archive "$scratch/$kind.sqlite"
    done
    # A Health database: read alone, then the checks of Scripts/benchmark-backup.sh.
    measure healthdb read "$build" "$round" "$dir/healthprobe-benchmark" healthdb \
      "$data/pair/Health/healthdb_secure.sqlite"
    measure healthdb export-first "$build" "$round" "$bin" check "$data/pair/export.xml" --archive "$scratch/health-e.sqlite"
    measure healthdb database-first "$build" "$round" "$bin" check "$data/pair/Health" --archive "$scratch/health-d.sqlite"
    measure healthdb export-again "$build" "$round" "$bin" check "$data/pair/export.xml" --archive "$scratch/health-e.sqlite"
    measure healthdb database-after-export "$build" "$round" "$bin" check "$data/pair/Health" \
      --archive "$scratch/health-e.sqlite"
    measure healthdb database-after-database "$build" "$round" "$bin" check "$data/pair/Health" \
      --archive "$scratch/health-e.sqlite"
    measure healthdb export-after-database "$build" "$round" "$bin" check "$data/pair/export.xml" \
      --archive "$scratch/health-d.sqlite"
    # The assistant's questions (the official Python SDK as the client).
    measure mcp questions "$build" "$round" .build/mcp-client/venv/bin/python Scripts/benchmark-mcp.py "$bin" \
      "$data/one.sqlite" 5 Scripts/benchmark-mcp-questions.json
    # The dashboard: its pages on an archive of two checks, and its memory while serving them.
    cp "$data/two.sqlite" "$scratch/pages.sqlite"
    measure dashboard pages "$build" "$round" bash -c "$(declare -f serve_pages); serve_pages $bin $scratch/pages.sqlite 18$round$((RANDOM % 90 + 10))"
    rm -rf "$scratch"
  done
done

# Once per build: the 5M import and check, graph sync, the phone-scale live path with a loss.
for pair in "before $before" "after $after"; do
  read -r build dir <<<"$pair"
  echo "== once, $build" >&2
  scratch=$folder/scratch
  rm -rf "$scratch"
  mkdir -p "$scratch"
  measure import-5m first "$build" 1 "$dir/healthprobe" check "$data/gen-5m.zip" --archive "$scratch/five.sqlite"
  rm -rf "$scratch"
done
for pair in "after $after" "before $before"; do
  read -r build dir <<<"$pair"
  measure graph sync "$build" 1 "$dir/healthprobe-benchmark" graph --records 1000000 --folder "$folder/graph-data"
done
for pair in "before $before" "after $after"; do
  read -r build dir <<<"$pair"
  measure phone loss "$build" 1 "$dir/healthprobe-benchmark" phone --no-reference --loss \
    --folder "$folder/phone-data-$build"
done
echo "results: $results" >&2
