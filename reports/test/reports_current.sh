#!/usr/bin/env bash
# Checks that the committed comparison (reports/matrix.md, report.html, results.json) and the README's excerpt
# of it are what the default `lockcheck compare` produces today. Usage: reports_current.sh path/to/lockcheck
# path/to/reports
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
"$committed/readme_excerpt.sh" print "$work/matrix.md" > "$work/excerpt.md"
if ! awk '/^<!-- compare:client-level -->$/ { inside = 1; next } /^<!-- \/compare:client-level -->$/ { inside = 0 } inside' \
    "$committed/../README.md" | cmp -s - "$work/excerpt.md"; then
  echo "README.md's client-level excerpt is out of date"
  stale=1
fi
if ((stale)); then
  echo "FAILED: the committed comparison is stale; run tools/compare to refresh it (reports/ and the README excerpt), then commit them"
  exit 1
fi
echo "ok: reports/ is current"
