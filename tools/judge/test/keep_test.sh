#!/usr/bin/env bash
# `lockcheck judge --keep DIR`: each seed's run directory outlives the run, in DIR/<scenario>-seed<N>/, with
# each client's standard error (client-<process>.stderr), and the run says where. Without it the directory is
# a temporary folder deleted at the end, and a client's standard error is lost.
set -uo pipefail
lockcheck=$1 here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
timeout 120 "$lockcheck" judge "$here/client-slow-start.toml" --client "${LOCKCHECK_PYTHON:-python3} $here/stderr_client.py" \
  --keep "$dir/kept" > "$dir/out.txt" 2>&1
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
