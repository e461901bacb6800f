#!/usr/bin/env bash
# A pause is the run's, not a hang: slow_client.py is paused for 15 s inside a 2 s acquire, longer than that
# acquire's reply bound (14.3 s); the run must report no hang, and the pause must have met the outstanding
# acquire (the summary's "during a lock operation"), or the test proves nothing.
set -uo pipefail
lockcheck=$1 here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout 150 "$lockcheck" judge "$here/client-paused-past-bound.toml" --client "${LOCKCHECK_PYTHON:-python3} $here/slow_client.py" > "$out" 2>&1
status=$?
cat "$out"
fail() { echo "client_pause: $*"; exit 1; }
grep -q "HUNG" "$out" && fail "a paused client was reported as hung"
[ "$status" -eq 0 ] || fail "exit status $status, expected 0"
grep -Eq "[0-9]+ while the lock was held, [1-9][0-9]* more during a lock operation" "$out" ||
  fail "the pause did not land inside a lock operation (a loaded machine started the client late?)"
echo "client_pause: a 15 s pause inside an acquire is not a hang"
