#!/usr/bin/env bash
# Time 0 is the clients' readiness, not their fork: slow_start_client.py takes 3 s to write its hello, longer
# than the 2 s run. Each client must have acquired soon after t=0 and before the pause at 300 ms, and the meta
# line must say how long the start took; before time 0 waited, the run ended before the clients had begun.
set -uo pipefail
lockcheck=$1 here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
timeout 120 "$lockcheck" judge "$here/client-slow-start.toml" --client "${LOCKCHECK_PYTHON:-python3} $here/slow_start_client.py 3" \
  --history-dir "$dir" > "$dir/out.txt" 2>&1
status=$?
cat "$dir/out.txt"
[ "$status" -eq 0 ] || { echo "client_start: exit status $status, expected 0"; exit 1; }
"${LOCKCHECK_PYTHON:-python3}" - "$(ls "$dir"/*.jsonl | head -1)" <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
meta = events[0]
first_ok = {}
for e in events:
    if e.get("kind") == "op" and e.get("f") == "acquire" and e.get("type") == "ok":
        first_ok.setdefault(e["process"], e["t"])
pause = next(e["t"] for e in events if e.get("kind") == "fault" and e.get("fault") == "pause")
ready = meta.get("clients_ready_ms", -1)
print(f"client_start: ready after {ready} ms; first grants at {sorted(first_ok.items())} us; the pause at {pause} us")
ok = ready >= 3000 and len(first_ok) == 2 and max(first_ok.values()) < pause
sys.exit(0 if ok else 1)
PY
