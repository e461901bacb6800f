#!/usr/bin/env bash
# explore at scale, as separate processes: four shards of two locks' searches, merged; the merge's finds are the
# union of the shards' (deduplicated by lock, property and tier) and each kept one reproduces; a shard rerun with
# another --jobs writes the same files; a corpus written by one search is loaded by the next; and what merge and
# the corpus refuse or say (usage errors, a missing shard, a find that no longer reproduces, a damaged corpus file).
# Usage: explore_shard_test.sh path/to/lockcheck
set -uo pipefail
lockcheck="$(realpath "$1")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=/dev/null
source "$here/../../lockcheck/test/expect.sh"

# "lock property tier" for every find a report (explore's or merge's) lists: own bugs and known limits met.
finds_in() {
  awk '/^explore /      { lock = $2 }
       /^  FOUND /      { print lock, $2, "own-bug" }
       /^  known limits met/ { limits = 1; next }
       /^  held /       { limits = 0 }
       limits && /^    [a-z_]+ in [0-9]+ run\(s\)/ { print lock, $1, "known-limit" }' "$@" | sort -u
}

search=(--budget-runs 48 --seed 11 --all-properties)
for variant in set-nx-ex-del token; do
  for i in 0 1 2 3; do
    "$lockcheck" explore --variant "$variant" "${search[@]}" --shard "$i/4" --jobs 2 --out "$work/shards" \
      > "$work/$variant-$i.out" 2> /dev/null
    code=$?
    expect "$variant shard $i/4 runs (exit $code)" test "$code" -le 1
    expect "$variant shard $i/4 says which shard it is" grep -q "(guided, seed 11, shard $i/4, 12 runs" "$work/$variant-$i.out"
  done
done
# Both locks' shards write into one --out, each shard's folder its own (no clobbering, as on a shared volume).
expect "each shard writes its explore.json in its own folder" \
  test "$(find "$work/shards" -name explore.json | wc -l)" -eq 8

"$lockcheck" merge "$work/shards" --out "$work/merged" > "$work/merge.out" 2> "$work/merge.err"
code=$?
expect "the merge exits 1: set-nx-ex-del's own bug survives (got $code)" test "$code" -eq 1
expect "it merged 8 searches" grep -q "8 explore output(s), 8 search(es)" "$work/merge.err"
finds_in "$work"/set-nx-ex-del-?.out "$work"/token-?.out > "$work/union"
finds_in "$work/merge.out" > "$work/merged-finds"
expect "the shards found own bugs and met known limits" grep -q "own-bug" "$work/union"
expect "and known limits" grep -q "known-limit" "$work/union"
expect "the merge's finds are the shards' united, deduplicated" cmp "$work/union" "$work/merged-finds"
expect "runs are summed: 4 x 12 per lock" test "$(grep -c "(merged: 8 search(es), 48 runs" "$work/merge.out")" -eq 2
expect "no kept find fails to reproduce" test "$(grep -c "NOT REPRODUCED\|does NOT reproduce" "$work/merge.out")" -eq 0
expect "one file per kept find" test "$(find "$work/merged" -name '*.toml' | wc -l)" -eq "$(wc -l < "$work/union")"
reproduces() { "$lockcheck" run "$1" > /dev/null 2>&1; }
for file in "$work"/merged/*.toml; do
  expect "the kept $(basename "$file") reproduces under lockcheck run" reproduces "$file"
done
expect "the merge writes one explore.json" test -s "$work/merged/explore.json"
"$lockcheck" merge "$work/merged" > "$work/remerge.out" 2> /dev/null
expect "a merged result reads back as an explore output (exit $?)" grep -q "(merged: 8 search(es), 48 runs" "$work/remerge.out"
"$lockcheck" merge "$work/shards" --out "$work/shards/merged" > /dev/null 2>&1
"$lockcheck" merge "$work/shards" --out "$work/shards/merged" > "$work/again.out" 2>&1
code=$?
expect "merging again into a folder under the inputs does not read the last merge as a search (exit $code)" \
  grep -q "(merged: 8 search(es), 48 runs" "$work/again.out"
rm -rf "$work/shards/merged"

# Deterministic: shard 2/4 again with one job writes the same explore.json and the same find files.
"$lockcheck" explore --variant set-nx-ex-del "${search[@]}" --shard 2/4 --jobs 1 --out "$work/rerun" > /dev/null 2>&1
for file in "$work"/shards/explore-set-nx-ex-del-seed-11-shard-2-of-4/*; do
  name="$(basename "$file")"
  [ -e "$work/rerun/explore-set-nx-ex-del-seed-11-shard-2-of-4/$name" ] || continue
  expect "shard 2/4's $name is the same with --jobs 1 as with --jobs 2" cmp -s "$file" "$work/rerun/explore-set-nx-ex-del-seed-11-shard-2-of-4/$name"
done
expect "and no file more or less" \
  test "$(ls "$work/rerun/explore-set-nx-ex-del-seed-11-shard-2-of-4" | wc -l)" \
    -eq "$(ls "$work/shards/explore-set-nx-ex-del-seed-11-shard-2-of-4" | wc -l)"

# A missing shard is said (less search), not refused.
mkdir -p "$work/three"
cp -r "$work"/shards/explore-token-seed-11-shard-{0,1,3}-of-4 "$work/three/"
"$lockcheck" merge "$work/three" > /dev/null 2> "$work/three.err"
expect "a missing shard is named" grep -q "shard(s) 2/4 of the search" "$work/three.err"

# A find that no longer reproduces is said so, not kept silently: every own bug's file of set-nx-ex-del now
# names the reference lock, which keeps the property under the same schedule (that made it an own bug).
cp -r "$work/shards" "$work/stale"
for file in "$work"/stale/explore-set-nx-ex-del-*/set-nx-ex-del-*.toml; do
  case "$file" in *known-limit.toml) continue ;; esac
  sed -i 's/^variant = "set-nx-ex-del"/variant = "token"/' "$file"
done
"$lockcheck" merge "$work/stale" --out "$work/stale-merged" > "$work/stale.out" 2> /dev/null
code=$?
expect "a find that no longer reproduces makes the merge exit 3 (got $code)" test "$code" -eq 3
expect "and it is named" grep -q "NOT REPRODUCED: set-nx-ex-del [a-z_]* (own bug): .*does not reproduce" "$work/stale.out"
expect "the kept find says it does not reproduce" grep -q "but it does NOT reproduce" "$work/stale.out"

# Usage errors, as compare's --shard.
"$lockcheck" explore --variant token --shard 4/4 --out "$work/bad" > "$work/bad.out" 2>&1
code=$?
expect "--shard 4/4 is a usage error (got $code)" test "$code" -eq 2
expect "it says what --shard wants" grep -q "shard wants i/n with 0 <= i < n, got '4/4'" "$work/bad.out"
"$lockcheck" explore --variant token --shard 1of4 > /dev/null 2>&1
code=$?
expect "--shard 1of4 is a usage error (got $code)" test "$code" -eq 2
"$lockcheck" explore --variant token --shard 3/4 --budget-runs 3 > "$work/few.out" 2>&1
code=$?
expect "fewer runs than shards is a usage error (got $code)" test "$code" -eq 2
expect "it says so" grep -q "shard 3/4 would get no run" "$work/few.out"

# The corpus: one search keeps runs, the next loads every one of them first and resumes from them.
"$lockcheck" explore --variant token --budget-runs 48 --seed 11 --corpus "$work/corpus" --out "$work/c1" > "$work/c1.out" 2> /dev/null
kept=$(find "$work/corpus" -name 'token-*.toml' | wc -l)
expect "the first search keeps runs in the corpus ($kept)" test "$kept" -gt 0
expect "and says so" grep -q "wrote $kept new kept run(s)" "$work/c1.out"
expect "a corpus file is a scenario lockcheck run takes (it expects nothing)" \
  reproduces "$(find "$work/corpus" -name 'token-*.toml' | sort | head -1)"
"$lockcheck" explore --variant token --budget-runs 16 --seed 12 --corpus "$work/corpus" --out "$work/c2" > "$work/c2.out" 2> /dev/null
expect "the second search says it loaded the $kept corpus runs" grep -q "loaded $kept corpus run(s) of token" "$work/c2.out"
expect "and ran them besides its own 16" grep -q "$((kept + 16)) runs ($kept of them resumed from the corpus)" "$work/c2.out"
printf 'variant = "token"\nduration_ms = [\n' > "$work/corpus/token-00000000000000ff.toml"
"$lockcheck" explore --variant token --budget-runs 16 --corpus "$work/corpus" --out "$work/c3" > "$work/c3.out" 2>&1
code=$?
expect "a damaged corpus file is a usage error (got $code)" test "$code" -eq 2
expect "that names the file" grep -q "token-00000000000000ff.toml:2" "$work/c3.out"

expect_summary
