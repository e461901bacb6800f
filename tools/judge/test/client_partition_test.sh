#!/usr/bin/env bash
# A network fault on an external client lands whatever address its library learns from the servers
# (cluster-client-partitioned.toml: MOVED and CLUSTER SLOTS; sentinel-client-partitioned.toml: the sentinels'
# answers): the client cut off from the lock's node tries and never acquires, while the other client
# acquires. Usage: client_partition_test.sh LOCKCHECK SCENARIO CLIENT...; runs each client given.
set -euo pipefail
lockcheck=$1; scenario=$2; shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for client in "$@"; do
  rm -f "$dir"/*
  # The verdicts are not the point here (the file expects none): the history is.
  "$lockcheck" judge "$scenario" --client "$client" --history-dir "$dir" > "$dir/out.txt" || true
  if grep -q HUNG "$dir/out.txt"; then cat "$dir/out.txt"; exit 1; fi
  history=$(ls "$dir"/*.jsonl | head -1)
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
sys.exit(0 if tries[0] > 0 and acquired[0] == 0 and acquired[1] > 0 else 1)
PY
done
