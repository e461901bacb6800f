#!/usr/bin/env bash
# explore --client on a quorum client's deployment (three independent masters) is decided by lockcheck's
# RedlockMutex (lockcheck_judge_redlock), not by the single-master Mutex nor by the theory (CTest
# explore_client_quorum, label judge):
#  1. any_node_quorum_client.py (acquired when any master granted: a bug on purpose) under clock jumps on one
#     master of three breaks mutual_exclusion_client: the client's own bug, for the RedlockMutex keeps it there
#     (the Mutex on the first master, or the theory's "a node's clock ran ahead", would call it a known limit);
#  2. node-redlock under clock jumps on two masters of three breaks it too: a known limit, decided by the
#     RedlockMutex breaking under the same schedule.
# Real time: every run waits for its clients' readiness (time 0) and budgets are in runs, not seconds; but where
# a jump lands in a hold still moves with the machine's load: node-redlock's break is a chance per run (3 runs
# broke nothing once in tools/test's real-time pass, four tests at once on two cores), so its search has 6.
#   explore_client_quorum_test.sh LOCKCHECK PYTHON NODE ADAPTERS_DIR   (NODE_PATH: the pinned npm clients)
set -uo pipefail
lockcheck=$1 python=$2 node=$3 adapters=$4 here=$(cd "$(dirname "$0")" && pwd)
[ -x "$(dirname "$lockcheck")/lockcheck_judge_redlock" ] || { echo "explore_client_quorum: build lockcheck_judge_redlock"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "explore_client_quorum: $*"; exit 1; }

# explore NAME CLIENT ARGS...: explore from client-quorum-NAME.toml, its report in $dir/NAME.txt, its status in $status.
explore() {
  local name=$1 client=$2
  shift 2
  timeout 600 "$lockcheck" explore "$here/client-quorum-$name.toml" --client "$client" --client-renews no \
    --property mutual_exclusion_client --parallel 3 --out "$dir/$name" "$@" > "$dir/$name.txt" 2>&1
  status=$?
  cat "$dir/$name.txt"
}

explore minority-clock-jump "$python $here/any_node_quorum_client.py" --budget-runs 6 --confirm 5 --shrink-runs 2
[ "$status" -eq 1 ] || fail "explore on the any-node client exited $status, expected 1 (an own bug)"
grep -q "FOUND mutual_exclusion_client violated: the lock's own bug" "$dir/minority-clock-jump.txt" ||
  fail "mutual_exclusion_client was not found as the client's own bug"
grep -q "own bug: lockcheck's reference RedlockMutex (lockcheck_judge_redlock) keeps it" "$dir/minority-clock-jump.txt" ||
  fail "the own bug was not decided by lockcheck's RedlockMutex"

explore majority-clock-jump "$node $adapters/node_redlock.js" --budget-runs 6 --confirm 3 --shrink-runs 0
[ "$status" -eq 0 ] || fail "explore on node-redlock exited $status, expected 0 (a known limit, no own bug)"
grep -q "lockcheck's reference RedlockMutex (lockcheck_judge_redlock) breaks it too" "$dir/majority-clock-jump.txt" ||
  fail "the known limit was not decided by lockcheck's RedlockMutex breaking too"
echo "explore_client_quorum: ok"
