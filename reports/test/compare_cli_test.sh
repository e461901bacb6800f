#!/usr/bin/env bash
# `lockcheck compare` end to end: outputs, determinism across --jobs, usage errors, replaying a counterexample.
# Usage: compare_cli_test.sh path/to/lockcheck
set -uo pipefail
lockcheck="$(realpath "$1")"
# shellcheck source=/dev/null
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lockcheck/test/expect.sh"

select=(--variants token,fenced --faults baseline,pause --runs 3)
"$lockcheck" compare "${select[@]}" --out "$work/a" --jobs 2 --junit "$work/junit.xml" > "$work/a.out" 2> "$work/a.err"
code=$?
expect "compare exits 0 (got $code)" test "$code" -eq 0
for file in matrix.md report.html results.json; do expect "it writes $file" test -s "$work/a/$file"; done
expect "without a terminal it prints plain progress lines" grep -q "compare: token under 2 fault families x 3 seed(s)" "$work/a.err"
"$lockcheck" compare "${select[@]}" --out "$work/b" --jobs 1 > /dev/null 2>&1
expect "the same inputs give the same bytes, whatever --jobs" diff -r "$work/a" "$work/b"
expect "the pause breaks token's client level" grep -q '| `token` | ✓ | ✗ [0-9]*/3 \[seed' "$work/a/matrix.md"
expect "JUnit has a failure per broken property" grep -q '<failure message="broken in' "$work/junit.xml"
"$lockcheck" compare --variants token --faults baseline --runs 1 > "$work/stdout.md" 2> /dev/null
expect "without --out it prints the matrix" grep -q "^# Lock variants" "$work/stdout.md"

"$lockcheck" compare --backend nosuch > "$work/nosuch.out" 2>&1
code=$?
expect "an unknown backend is a usage error (got $code)" test "$code" -eq 2
"$lockcheck" compare --variants no-such-lock > "$work/unknown.out" 2>&1
code=$?
expect "an unknown variant exits 2 (got $code)" test "$code" -eq 2
expect "it lists the known ones" grep -q "known: .*token" "$work/unknown.out"
"$lockcheck" compare --variants script > /dev/null 2>&1
code=$?
expect "script without --scripts exits 2 (got $code)" test "$code" -eq 2

scripts="$(dirname "${BASH_SOURCE[0]}")/../../scenarios/scripts"
"$lockcheck" compare --variants script --faults baseline --runs 1 \
  --scripts "$scripts/token_acquire.lua,$scripts/token_release.lua" > "$work/script.md" 2> /dev/null
code=$?
expect "--scripts compares the user's own lock (got $code)" test "$code" -eq 0
expect "it has a row for script" grep -q '^| `script` | ✓ |' "$work/script.md"

seed=$(grep -o '"seed": [0-9]*' "$work/a/results.json" | head -1 | grep -o '[0-9]*$')
replay=$(grep -o "lockcheck compare --variants token --faults pause --seed $seed --history-dir ." "$work/a/report.html" | head -1)
expect "the report shows the replay command of seed $seed" test -n "$replay"
(cd "$work" && "$lockcheck" compare --variants token --faults pause --seed "$seed" --history-dir . > /dev/null 2>&1)
expect "the replay writes that run's history" test -s "$work/token--pause-seed$seed.jsonl"
"$lockcheck" check "$work/token--pause-seed$seed.jsonl" > "$work/check.out"
code=$?
expect "lockcheck check finds the violation again (exit $code)" test "$code" -eq 1

expect_summary
