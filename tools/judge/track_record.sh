#!/usr/bin/env bash
# The judge's track record (TRACK_RECORD.md), re-run by hand: every row of tools/judge/track/rows.toml, each
# documented client bug with its buggy and its fixed version installed from npm into a temporary folder
# (deleted after), judged by `lockcheck judge` on its scenario in tools/judge/track/, checked on exact counts
# by the same checker CTest's label `track` runs (track/track.py). Prints the table; exits non-zero when a row
# stops reproducing.
#   tools/judge/track_record.sh [BUILD_DIR] [track.py options and row names, e.g. --runs 1 node-redlock-369]
#   (default BUILD_DIR: build; needs lockcheck and redis-server, node, npm, and a python3 with tomllib)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="$repo_root/build"
if (($# > 0)) && [[ "$1" != -* ]] && [[ -d "$1" ]]; then build_dir="$1"; shift; fi
build_dir="$(cd "$build_dir" && pwd)"
# Debian's interpreter first: a version manager's python3 on PATH may predate tomllib (3.11).
python=python3
[[ -x /usr/bin/python3 ]] && python=/usr/bin/python3
SECONDS=0
status=0
"$python" "$repo_root/tools/judge/track/track.py" --lockcheck "$build_dir/tools/lockcheck" "$@" || status=$?
echo "track_record: ${SECONDS}s" >&2
exit "$status"
