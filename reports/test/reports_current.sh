#!/usr/bin/env bash
# Checks that the committed comparison (reports/matrix.md, report.html, results.json) is what the default
# `lockcheck compare` produces today. Usage: reports_current.sh path/to/lockcheck path/to/reports
set -uo pipefail
lockcheck="$1"
committed="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! "$lockcheck" compare --out "$work" --jobs 2 > "$work/compare.out" 2>&1; then
  cat "$work/compare.out"
  echo "FAILED: lockcheck compare did not run"
  exit 1
fi
stale=0
for file in matrix.md report.html results.json; do
  if ! cmp -s "$work/$file" "$committed/$file"; then
    echo "reports/$file is out of date:"
    diff -u "$committed/$file" "$work/$file" | head -40
    stale=1
  fi
done
if ((stale)); then
  echo "FAILED: the committed comparison is stale; run tools/compare (or: build/tools/lockcheck compare --out reports) to refresh it, then commit reports/"
  exit 1
fi
echo "ok: reports/ is current"
