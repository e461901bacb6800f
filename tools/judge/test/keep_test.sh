#!/usr/bin/env bash
# `lockcheck judge --keep DIR`: each seed's run directory outlives the run, in DIR/<scenario>-seed<N>/, with
# each client's standard error (client-<process>.stderr), and the run says where. Without it the directory is
# a temporary folder deleted at the end, and a client's standard error is lost. And `--json FILE` writes the
# exact counts the report prints (track/track.py gates on them).
set -uo pipefail
lockcheck=$1 here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
timeout 120 "$lockcheck" judge "$here/client-slow-start.toml" --client "${LOCKCHECK_PYTHON:-python3} $here/stderr_client.py" \
  --keep "$dir/kept" --json "$dir/verdicts.json" > "$dir/out.txt" 2>&1
status=$?
cat "$dir/out.txt"
[ "$status" -eq 0 ] || { echo "keep: exit status $status, expected 0"; exit 1; }
kept="$dir/kept/client-slow-start-seed1"
grep -qF "kept the run directory in $kept" "$dir/out.txt" || { echo "keep: the run did not say it kept $kept"; exit 1; }
for process in 0 1; do
  grep -qx "stderr of client $process" "$kept/client-$process.stderr" ||
    { echo "keep: $kept/client-$process.stderr lacks the client's standard error"; ls -R "$dir/kept"; exit 1; }
done
echo "keep: both clients' standard error kept in $kept"
"${LOCKCHECK_PYTHON:-python3}" - "$dir/verdicts.json" "$dir/out.txt" <<'PY'
import json, re, sys
scenario = json.load(open(sys.argv[1]))["scenarios"][0]
tally = scenario["properties"]["mutual_exclusion_client"]
printed = re.search(r"mutual_exclusion_client +\S+ +(.+?)\s*$", open(sys.argv[2]).read(), re.M).group(1)
print(f"json: mutual_exclusion_client {tally}; printed: {printed}; seeds {scenario['seeds']}")
ok = tally["runs"] == 1 and tally["holds"] + tally["violated"] + tally["unknown"] == 1 and scenario["seeds"] == [1]
ok = ok and printed.startswith("violated" if tally["violated"] else "holds" if tally["holds"] else "unknown")
sys.exit(0 if ok else 1)
PY
