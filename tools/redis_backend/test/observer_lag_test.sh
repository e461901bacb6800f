#!/usr/bin/env bash
# The node observer falls behind (its process is stopped for 2.5 s while the workers, separate processes, go on
# locking): every MONITOR line of those seconds is read at once afterwards. Each change must still be placed
# where the node ran it, or the checkers see it inside a later op of its process. Placed where the backlog was
# read, the reentrant hash lock's earlier release fell inside its next inner release: a false reentrancy
# violation (2 of 3 runs on the old code, and once in CI on a loaded box, where the observer's thread starved).
# A breaking scenario's violation must still be found with the backlog (script-client-timestamp-skew-breaks:
# takeovers inside the holder's validity, judged from each grant's TTL on the node's clock).
# Usage: observer_lag_test.sh lockcheck SCENARIO... (each one's expected verdicts must come out as expected)
set -uo pipefail
lockcheck="$1"
shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
for scenario in "$@"; do
  "$lockcheck" run "$scenario" --backend redis --seed 1 > "$work/out" 2>&1 &
  run=$!
  # Bounded: the run starts its workers within seconds.
  for _ in $(seq 200); do
    pgrep -P "$run" -f lockcheck_redis_worker > /dev/null && break
    sleep 0.05
  done
  pgrep -P "$run" -f lockcheck_redis_worker > /dev/null || { echo "FAILED: the run never started its workers"; cat "$work/out"; exit 1; }
  sleep 0.3
  kill -STOP "$run"
  sleep 2.5
  kill -CONT "$run"
  wait "$run"
  code=$?
  cat "$work/out"
  if [ "$code" -ne 0 ] || ! grep -q ", 0 unexpected" "$work/out"; then
    echo "FAILED: with the observer 2.5 s behind, $(basename "$scenario")'s verdicts changed (exit $code)"
    failures=$((failures + 1))
  else
    echo "ok: $(basename "$scenario"): an observer 2.5 s behind changes no verdict"
  fi
done
exit "$failures"
