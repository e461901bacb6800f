#!/usr/bin/env bash
# Opens report.html in headless Chromium and checks what the browser built from it: the matrix tables are
# there, every counterexample has its timeline, and each timeline SVG has as many lanes as it declares.
# No screenshot is kept. Usage: report_renders.sh path/to/report.html
set -uo pipefail
report="$(realpath "$1")"
chromium="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$chromium" ]]; then
  echo "FAILED: chromium is not installed (tools/setup installs it)"
  exit 1
fi
# shellcheck source=/dev/null
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lockcheck/test/expect.sh"
# A fresh profile in a temporary directory; --no-sandbox because CI runs as root.
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
  --user-data-dir="$work/profile" --dump-dom "file://$report" > "$work/dom.html" 2> "$work/chromium.err"
code=$?
if ((code != 0)) || [[ ! -s "$work/dom.html" ]]; then
  cat "$work/chromium.err"
  echo "FAILED: chromium exited $code or produced no DOM"
  exit 1
fi

count() { grep -o "$1" "$work/dom.html" | wc -l; }

matrices=$(count '<table class="matrix"')
expect "the matrix tables are present ($matrices)" test "$matrices" -ge 4
expect "the exclusion levels have their tables" grep -q 'data-property="mutual_exclusion_client"' "$work/dom.html"
sections=$(count '<section class="counterexample"')
timelines=$(count '<svg class="timeline"')
expect "each of the $sections counterexamples has a timeline ($timelines)" test "$sections" -eq "$timelines"
broken_links=$(grep -o 'href="#cx-[^"]*"' "$work/dom.html" | sort -u | sed 's/href="#\(.*\)"/\1/')
missing=0
for anchor in $broken_links; do
  grep -q "id=\"$anchor\"" "$work/dom.html" || { echo "no timeline for link #$anchor"; missing=$((missing + 1)); }
done
expect "every broken cell links to a timeline on the page" test "$missing" -eq 0
# Per SVG: declared lanes == <g class="lane"> elements, and at least one client and one node lane.
bad_svgs=$(awk 'BEGIN { RS = "</svg>"; bad = 0 }
  /<svg class="timeline"/ {
    match($0, /data-lanes="[0-9]+"/); declared = substr($0, RSTART + 12, RLENGTH - 13) + 0
    lanes = gsub(/<g class="lane"/, "&"); clients = gsub(/data-lane="client-/, "&"); nodes = gsub(/data-lane="node-/, "&")
    if (declared == 0 || lanes != declared || clients == 0 || nodes == 0) bad++
  }
  END { print bad }' "$work/dom.html")
expect "every timeline SVG has its client and node lanes" test "$bad_svgs" -eq 0

expect_summary
