#!/usr/bin/env bash
# CI's explore smoke (issue 24, item 13): every broken variant of the catalogue is found by `lockcheck explore`
# within a small run budget, with no fault named, and the same seed gives the same report with any --jobs.
# Usage: explore_smoke.sh path/to/lockcheck
set -uo pipefail
lockcheck="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=/dev/null
source "$here/../../lockcheck/test/expect.sh"

broken=(exists-then-set setnx-then-expire set-nx-ex-del get-then-del thread-id appid-thread watchdog-unchecked
        rw-two-keys rw-hash-timestamps client-reentrant)
for variant in "${broken[@]}"; do
  "$lockcheck" explore --variant "$variant" --budget-runs 200 --seed 1 --jobs 2 --out "$work/finds" \
    > "$work/$variant.out" 2> /dev/null
  code=$?
  expect "explore finds a bug in $variant within 200 runs (exit $code)" test "$code" -eq 1
  file=$(sed -n 's/^    replay: lockcheck run //p' "$work/$variant.out" | head -1)
  expect "$variant's find is written and reproduces ($file)" "$lockcheck" run "$file"
done

# Deterministic: the same seed and budget, one job or two, the same finds, schedules and marks.
"$lockcheck" explore --variant token --budget-runs 64 --seed 5 --all-properties --jobs 1 --out "$work/a" > "$work/a.out" 2> /dev/null
"$lockcheck" explore --variant token --budget-runs 64 --seed 5 --all-properties --jobs 2 --out "$work/b" > "$work/b.out" 2> /dev/null
expect "explore's report does not depend on --jobs" \
  cmp -s <(grep -v "runs in\|wrote\|replay:" "$work/a.out") <(grep -v "runs in\|wrote\|replay:" "$work/b.out")
for file in "$work"/a/*.toml; do
  expect "the find $(basename "$file") is the same file with any --jobs" cmp -s "$file" "$work/b/$(basename "$file")"
done

expect_summary
