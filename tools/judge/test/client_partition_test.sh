#!/usr/bin/env bash
# A network fault on an external client lands whatever address its library learns from the servers
# (cluster-client-partitioned.toml: MOVED and CLUSTER SLOTS; sentinel-client-partitioned.toml: the sentinels'
# answers): the client cut off from the lock's node tries and never acquires, while the other client
# acquires. Usage: client_partition_test.sh LOCKCHECK SCENARIO CLIENT...; runs each client given.
set -euo pipefail
lockcheck=$1; scenario=$2; shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Exit 0: the cut-off client tried and never acquired while the other did. Exit 1: the cut-off client acquired
# (the fault missed it: the bug this test is for). Exit 3: the run exercised nothing to judge (the cut-off client
# never tried, or the other never acquired), as a stalled machine leaves a 4 s real-time run: run once more.
judge_once() {
  local client=$1
  rm -f "$dir"/*
  # The verdicts are not the point here (the file expects none): the history is.
  "$lockcheck" judge "$scenario" --client "$client" --history-dir "$dir" > "$dir/out.txt" || true
  if grep -q HUNG "$dir/out.txt"; then cat "$dir/out.txt"; return 1; fi
  local history
  history=$(ls "$dir"/*.jsonl 2>/dev/null | head -1)
  if [[ -z "$history" ]]; then echo "$client: judge wrote no history"; cat "$dir/out.txt"; return 1; fi
  "${LOCKCHECK_PYTHON:-python3}" - "$history" "$client" <<'PY'
import json, sys
tries, acquired = [0, 0], [0, 0]
for line in open(sys.argv[1]):
    event = json.loads(line)
    if event.get("kind") == "op" and event.get("f") == "acquire" and event.get("process") in (0, 1):
        if event["type"] == "invoke": tries[event["process"]] += 1
        if event["type"] == "ok": acquired[event["process"]] += 1
print(f"{sys.argv[2]}: process 0 (cut off from the lock's node) acquired {acquired[0]} of {tries[0]} tries; "
      f"process 1 {acquired[1]} of {tries[1]}")
if acquired[0] > 0: sys.exit(1)
sys.exit(0 if tries[0] > 0 and acquired[1] > 0 else 3)
PY
}
for client in "$@"; do
  status=0
  for attempt in 1 2; do
    status=0
    judge_once "$client" || status=$?
    [[ $status -eq 3 ]] || break
    echo "$client: attempt $attempt exercised nothing (above); judge's output:"; cat "$dir/out.txt"
  done
  if [[ $status -ne 0 ]]; then cat "$dir/out.txt"; exit 1; fi
done
