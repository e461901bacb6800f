#!/usr/bin/env bash
# explore --client end to end on real redis-servers (CTest explore_client, label judge):
#  1. from client-unchecked-release.toml, explore finds unchecked_release_client.py's release of another's key as
#     its own bug (owner_only_release; lockcheck's reference Mutex keeps it under the same schedule), confirms it,
#     and writes a judge scenario with [client] command, seed_list and the expectation;
#  2. `lockcheck judge` on that file reproduces it (the expectation is met: exit 0, violated);
#  3. the correct client, lockcheck's own Mutex adapter, yields no own bug in a small search from --client alone.
# Real time: every run waits for its clients' readiness (time 0); budgets are in runs, not seconds, so a loaded
# machine makes the test slower, never different.
#   explore_client_test.sh LOCKCHECK PYTHON
set -uo pipefail
lockcheck=$1 python=$2 here=$(cd "$(dirname "$0")" && pwd)
mutex_adapter="$(dirname "$lockcheck")/lockcheck_judge_mutex"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "explore_client: $*"; exit 1; }

timeout 300 "$lockcheck" explore "$here/client-unchecked-release.toml" --client "$python $here/unchecked_release_client.py" \
  --client-renews no --property owner_only_release --budget-runs 6 --parallel 3 --confirm 5 --shrink-runs 2 --out "$dir/buggy" > "$dir/buggy.txt" 2>&1
status=$?
cat "$dir/buggy.txt"
[ "$status" -eq 1 ] || fail "explore on the buggy client exited $status, expected 1 (an own bug)"
grep -q "FOUND owner_only_release violated: the lock's own bug" "$dir/buggy.txt" || fail "owner_only_release was not found as the client's own bug"
found="$dir/buggy/unchecked_release_client-owner_only_release.toml"
[ -f "$found" ] || fail "no scenario file $found"
grep -q '^\[client\]' "$found" && grep -q '^seed_list = \[' "$found" && grep -q '^owner_only_release = "violated"' "$found" ||
  fail "$found lacks [client], seed_list or the expectation"

timeout 120 "$lockcheck" judge "$found" > "$dir/judged.txt" 2>&1
status=$?
cat "$dir/judged.txt"
[ "$status" -eq 0 ] || fail "lockcheck judge on the written find exited $status, expected 0 (its expectation met)"
grep -Eq "owner_only_release +violated +violated \([1-9][0-9]*/5\)" "$dir/judged.txt" || fail "the judged file did not show the violation"

timeout 300 "$lockcheck" explore --client "$mutex_adapter" --client-renews no --budget-runs 6 --parallel 2 --confirm 3 \
  --shrink-runs 4 --out "$dir/correct" > "$dir/correct.txt" 2>&1
status=$?
cat "$dir/correct.txt"
[ "$status" -eq 0 ] || fail "explore on lockcheck's Mutex adapter exited $status, expected 0 (no own bug)"
grep -q "no bug of the lock's own found within the budget" "$dir/correct.txt" || fail "the report does not say no own bug"
echo "explore_client: ok"
