#!/usr/bin/env bash
# CI's explore smoke: every broken variant of the catalogue is found by `lockcheck explore` within a small run
# budget, with no fault named, as the lock's own bug (exit 1); a correct one is not (exit 0, its known limits
# listed); and the same seed gives the same report with any --jobs.
# Usage: explore_smoke.sh path/to/lockcheck
set -uo pipefail
lockcheck="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=/dev/null
source "$here/../../lockcheck/test/expect.sh"

broken=(exists-then-set setnx-then-expire set-nx-ex-del get-then-del thread-id appid-thread watchdog-unchecked
        rw-two-keys rw-hash-timestamps client-reentrant redisson-semaphore
        redisson-permit-expirable redisson-latch redisson-multilock redisson-fair redisson-like-retries
        redisson-fenced)
for variant in "${broken[@]}"; do
  "$lockcheck" explore --variant "$variant" --budget-runs 200 --seed 1 --jobs 2 --out "$work/finds" \
    > "$work/$variant.out" 2> /dev/null
  code=$?
  expect "explore finds a bug in $variant within 200 runs (exit $code)" test "$code" -eq 1
  file=$(sed -n 's/^    replay: lockcheck run //p' "$work/$variant.out" | head -1)
  expect "$variant's find is written and reproduces ($file)" "$lockcheck" run "$file"
  expect "$variant's find is named its own bug" grep -q "violated\( ([a-z_]*)\)\?: the lock's own bug" "$work/$variant.out"
done
# A clause of a property (properties/clauses.hpp) is looked for on its own, and named in the find and its file.
"$lockcheck" explore --variant redisson-latch --property latch/never_opened --budget-runs 200 --seed 1 --jobs 2 \
  --out "$work/clause" > "$work/clause.out" 2> /dev/null
code=$?
expect "explore --property latch/never_opened finds redisson-latch's latch that never opens (exit $code)" test "$code" -eq 1
expect "the find names its clause" grep -q "FOUND latch violated (never_opened): the lock's own bug" "$work/clause.out"
expect "its file reproduces" "$lockcheck" run "$work/clause/redisson-latch-latch-never_opened.toml"
for variant in token watchdog fenced fair; do
  "$lockcheck" explore --variant "$variant" --budget-runs 200 --seed 1 --jobs 2 --out "$work/finds" \
    > "$work/$variant.out" 2> /dev/null
  code=$?
  expect "explore finds no bug of correct $variant's own within 200 runs (exit $code)" test "$code" -eq 0
  expect "and lists the known limits it met" grep -q "known limits met" "$work/$variant.out"
done

# Deterministic: the same seed and budget, one job or two, the same finds, schedules and marks.
"$lockcheck" explore --variant token --budget-runs 64 --seed 5 --all-properties --jobs 1 --out "$work/a" > "$work/a.out" 2> /dev/null
"$lockcheck" explore --variant token --budget-runs 64 --seed 5 --all-properties --jobs 2 --out "$work/b" > "$work/b.out" 2> /dev/null
expect "explore's report does not depend on --jobs" \
  cmp -s <(grep -v "runs in\|wrote\|replay:\|e\.g\. " "$work/a.out") <(grep -v "runs in\|wrote\|replay:\|e\.g\. " "$work/b.out")
for file in "$work"/a/*.toml; do
  expect "the find $(basename "$file") is the same file with any --jobs" cmp -s "$file" "$work/b/$(basename "$file")"
done

expect_summary
