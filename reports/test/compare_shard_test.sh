#!/usr/bin/env bash
# `lockcheck compare --shard i/n` + `lockcheck merge`: a small comparison (2 variants x 2 families x 2 runs) run
# whole and as 3 shards, merged; matrix.md, report.html, results.json and the JUnit XML must be the same bytes.
# Then what merge refuses: a missing shard, a shard given twice, shards of different comparisons.
# Usage: compare_shard_test.sh path/to/lockcheck
set -uo pipefail
lockcheck="$(realpath "$1")"
# shellcheck source=/dev/null
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lockcheck/test/expect.sh"

select=(--variants token,fenced --faults baseline,pause --runs 2)
"$lockcheck" compare "${select[@]}" --out "$work/whole" --junit "$work/whole.xml" > /dev/null 2>&1
code=$?
expect "the unsharded comparison exits 0 (got $code)" test "$code" -eq 0

# Shards 0 and 1 into their own directories (as CI matrix jobs would upload them), shard 2 beside shard 1.
"$lockcheck" compare "${select[@]}" --shard 0/3 --out "$work/s0" > "$work/s0.out" 2>&1
code0=$?
"$lockcheck" compare "${select[@]}" --shard 1/3 --out "$work/s12" --jobs 2 > /dev/null 2>&1
code1=$?
"$lockcheck" compare "${select[@]}" --shard 2/3 --out "$work/s12" > /dev/null 2>&1
code2=$?
expect "every shard exits 0 (got $code0 $code1 $code2)" test "$code0$code1$code2" = "000"
expect "a shard writes its own file" test -s "$work/s0/compare-shard-0-of-3.json"
expect "and nothing rendered" test ! -e "$work/s0/matrix.md"
expect "it says what it ran (2 of 4 cells)" grep -q "shard 0/3, 2 of 4 cells" "$work/s0.out"
expect "two shards can share a directory" test -s "$work/s12/compare-shard-1-of-3.json" -a -s "$work/s12/compare-shard-2-of-3.json"

"$lockcheck" merge "$work/s12" "$work/s0/compare-shard-0-of-3.json" --out "$work/merged" --junit "$work/merged.xml" \
  > "$work/merge.out" 2>&1
code=$?
expect "merge exits 0 (got $code)" test "$code" -eq 0
for file in matrix.md report.html results.json; do
  expect "merged $file is byte for byte the unsharded one" cmp "$work/whole/$file" "$work/merged/$file"
done
expect "merged JUnit is byte for byte the unsharded one" cmp "$work/whole.xml" "$work/merged.xml"
expect "the comparison has counterexamples to carry over" grep -q '<svg class="timeline"' "$work/merged/report.html"

"$lockcheck" merge "$work/s12" --out "$work/partial" > "$work/missing.out" 2>&1
code=$?
expect "a missing shard is a usage error (got $code)" test "$code" -eq 2
expect "it names the missing shard" grep -q "shard 0/3 of this comparison is missing" "$work/missing.out"
expect "and writes nothing" test ! -e "$work/partial/matrix.md"

"$lockcheck" merge "$work/s0" "$work/s12" "$work/s0" > "$work/twice.out" 2>&1
code=$?
expect "a shard given twice is a usage error (got $code)" test "$code" -eq 2
expect "it names both files" grep -q "shard 0/3 is given twice" "$work/twice.out"

"$lockcheck" compare --variants token,fenced --faults baseline,pause --runs 3 --shard 0/3 --out "$work/other" > /dev/null 2>&1
"$lockcheck" merge "$work/other" "$work/s12" > "$work/other.out" 2>&1
code=$?
expect "shards of different comparisons are a usage error (got $code)" test "$code" -eq 2
expect "it says which field differs" grep -q "shards of different comparisons: they differ in command" "$work/other.out"

"$lockcheck" compare "${select[@]}" --shard 1/2 > "$work/noout.out" 2>&1
code=$?
expect "--shard without --out is a usage error (got $code)" test "$code" -eq 2
"$lockcheck" compare "${select[@]}" --shard 3/3 --out "$work/bad" > /dev/null 2>&1
code=$?
expect "--shard 3/3 is a usage error (got $code)" test "$code" -eq 2
"$lockcheck" merge "$work/whole" > "$work/noshards.out" 2>&1
code=$?
expect "a directory without shard files is a usage error (got $code)" test "$code" -eq 2

expect_summary
