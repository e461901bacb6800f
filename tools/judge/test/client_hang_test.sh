#!/usr/bin/env bash
# A client that stops answering is killed and reported, never a hung run: hang_client.py never answers its
# second acquire; the run must end within its reply bound plus slack, exit 2, and name the process, the
# request, the wait and the client's standard error in the summary and in the JUnit file.
set -uo pipefail
lockcheck=$1 here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
# 120 s: the 3 s run, the 12.3 s bound (wait 0.5 s + 18 × command timeout 0.1 s + 10 s) and wide slack; the old
# code's hung run would be cut here, not by ctest.
timeout 120 "$lockcheck" judge "$here/client-hangs.toml" --client "${LOCKCHECK_PYTHON:-python3} $here/hang_client.py" \
  --junit "$work/junit.xml" > "$work/out" 2>&1
status=$? took=$(( $(date +%s) - started ))
cat "$work/out"
fail() { echo "client_hang: $*"; exit 1; }
[ "$status" -eq 2 ] || fail "exit status $status after ${took} s, expected 2 (a hung client)"
grep -q "HUNG: seed 1: process 0's client did not answer request 4 (acquire)" "$work/out" || fail "no HUNG line naming process 0 and request 4 (acquire)"
grep -q "stuck in acquire (request 4)" "$work/out" || fail "the HUNG line lacks the client's standard error"
grep -q "killed" "$work/out" || fail "the HUNG line does not say the client was killed"
grep -q "1 hung client" "$work/out" || fail "the closing summary does not count the hung client"
grep -q '<testcase classname="client-hangs" name="client_hangs"><error message="a client hung"' "$work/junit.xml" ||
  fail "the JUnit file has no client_hangs error: $(cat "$work/junit.xml")"
echo "client_hang: reported and exit 2 after ${took} s"
