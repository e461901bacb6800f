#!/usr/bin/env bash
# `lockcheck run --backend redis` end to end, beyond verdicts: it leaves nothing behind (interrupted with SIGINT
# mid-run it exits 3 and no process or file of the run survives; a finished run leaves none either), and a
# scenario it cannot make real is refused with exit 2 and the reason.
# Usage: cli_test.sh lockcheck SCENARIO UNSUPPORTED_SCENARIO
set -uo pipefail
lockcheck="$1"
scenario="$2"
unsupported="$3"
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

"$lockcheck" run "$unsupported" --backend redis > "$work/unsupported.out" 2>&1
code=$?
expect "a scenario with eviction is refused with exit 2 (got $code)" test "$code" -eq 2
expect "the refusal names what is missing" grep -q "cannot make this real yet: maxmemory eviction" "$work/unsupported.out"

exit $((failures > 0))
