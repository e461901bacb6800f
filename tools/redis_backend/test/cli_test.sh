#!/usr/bin/env bash
# `lockcheck run --backend redis` end to end, beyond verdicts: it leaves nothing behind (interrupted with SIGINT
# mid-run it exits 3 and no process or file of the run survives; a finished run leaves none either), and a
# scenario it cannot make real is refused with exit 2 and the reason. On a real Redis Cluster, a lock whose keys
# span slots is refused by the server, and the run says so (CROSSSLOT) and leaves no cluster node behind. A
# history recorded on real Redis claims no replication lag bound (the simulator's meta line has one).
# Usage: cli_test.sh lockcheck SCENARIO UNSUPPORTED_SCENARIO CROSSSLOT_SCENARIO REPLICA_SCENARIO
set -uo pipefail
lockcheck="$1"
scenario="$2"
unsupported="$3"
crossslot="$4"
replica="$5"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
expect() {  # expect DESCRIPTION CONDITION...
  local description="$1"; shift
  if "$@"; then echo "ok: $description"; else echo "FAILED: $description"; failures=$((failures + 1)); fi
}
leftovers() {  # processes whose command line names this test's private temporary directory
  pgrep -f "$work/tmp" > /dev/null
}
no_leftovers() { ! leftovers; }
mkdir -p "$work/tmp"

TMPDIR="$work/tmp" "$lockcheck" run "$scenario" --backend redis > "$work/interrupted.out" 2>&1 &
run=$!
sleep 2
expect "the run has started its servers" leftovers
kill -INT "$run"
wait "$run"
code=$?
expect "an interrupted run exits 3 (got $code)" test "$code" -eq 3
expect "it says it was interrupted" grep -q "interrupted" "$work/interrupted.out"
sleep 0.5
expect "no server or worker survives the interruption" no_leftovers
expect "no temporary file survives the interruption" test -z "$(ls -A "$work/tmp")"

TMPDIR="$work/tmp" "$lockcheck" run "$scenario" --backend redis > "$work/finished.out" 2>&1
expect "a finished run leaves no process" no_leftovers
expect "a finished run leaves no file" test -z "$(ls -A "$work/tmp")"

refused() {  # refused WHAT SCENARIO REASON: exit 2, and the refusal names the reason
  "$lockcheck" run "$2" --backend redis > "$work/refused.out" 2>&1
  local code=$?
  expect "$1 is refused with exit 2 (got $code)" test "$code" -eq 2
  expect "the refusal names $3" grep -q "cannot make this real yet: $3" "$work/refused.out"
}
refused "a scenario with eviction" "$unsupported" "maxmemory eviction"

TMPDIR="$work/tmp" "$lockcheck" run "$crossslot" --backend redis > "$work/crossslot.out" 2>&1
code=$?
expect "its expectation progress = starved because CROSSSLOT is met (exit $code)" test "$code" -eq 0
expect "the report shows the starved row" grep -q "progress .* starved .* starved (1) .* ok" "$work/crossslot.out"
expect "a lock spanning slots on a cluster: the run names the server's refusal" \
  grep -q "server errors (seed 1): .*CROSSSLOT Keys in request don't hash to the same slot" "$work/crossslot.out"
expect "a cluster run leaves no process" no_leftovers
expect "a cluster run leaves no file" test -z "$(ls -A "$work/tmp")"

lacks() { ! grep -q "$1" "$2"; }  # lacks TEXT FILE
"$lockcheck" run "$replica" --seed 1 --backend mock --history-dir "$work/simulated" > /dev/null 2>&1
head -n 1 "$work/simulated"/*.jsonl > "$work/simulated.meta"
expect "a simulated run with a replica states its replication lag bound" grep -q '"replication_lag_max_us"' "$work/simulated.meta"
TMPDIR="$work/tmp" "$lockcheck" run "$replica" --seed 1 --backend redis --history-dir "$work/real" > /dev/null 2>&1
head -n 1 "$work/real"/*.jsonl > "$work/real.meta"
expect "a real run's history is the redis backend's" grep -q '"backend":"redis"' "$work/real.meta"
expect "a real run states no replication lag bound" lacks '"replication_lag_max_us"' "$work/real.meta"
expect "a replica run leaves no process" no_leftovers

exit $((failures > 0))
