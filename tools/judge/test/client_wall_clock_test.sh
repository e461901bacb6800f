#!/usr/bin/env bash
# A client_clock_jump reaches an external client's wall clock: the probe's readings before the fault follow
# the real clock, and after it they are an hour ahead.
set -euo pipefail
lockcheck=$1 here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
JUDGE_CLOCK_LOG=$log "$lockcheck" judge "$here/client-clock-jump.toml" --client "${LOCKCHECK_PYTHON:-python3} $here/wall_clock_client.py" > /dev/null
now=$(date +%s)
awk -v now="$now" '
  $1 < now + 60 { before++ } $1 > now + 3500 && $1 < now + 3700 { after++ }
  END {
    printf "client_wall_clock: %d readings on the real clock, %d an hour ahead\n", before, after
    exit !(before > 0 && after > 0)
  }' "$log"
