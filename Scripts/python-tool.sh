#!/usr/bin/env bash
# A Python tool from PyPI in a virtual environment of its own under .build, made once, where it
# stays (a virtual environment cannot be moved: its scripts name their interpreter by absolute
# path), with a marker written last that says it is whole (one without it is made again), one
# install at a time (tests ask in parallel). Prints the environment's bin folder. `.ci/run` and the tests that use a tool both
# call it, so a fresh clone's `swift test` provisions what it needs.
#
#   Scripts/python-tool.sh NAME PACKAGE==VERSION      (.build/NAME/venv)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: Scripts/python-tool.sh NAME PACKAGE==VERSION}
package=${2:?usage: Scripts/python-tool.sh NAME PACKAGE==VERSION}
folder=.build/$name
venv=$folder/venv
mkdir -p "$folder"
exec 9>"$folder/install.lock"
flock 9
if [ ! -f "$venv/.installed" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet "$package" >&2
  touch "$venv/.installed"
fi
echo "$(pwd)/$venv/bin"
