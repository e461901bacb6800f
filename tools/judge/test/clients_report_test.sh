#!/usr/bin/env bash
# tools/judge/clients_report.sh and clients_explore.sh without their real-time runs: --help, --dry-run (each client's
# compare command), and the page rendered from a fixed results.json (test/clients_report/): a violated cell
# with its witness, its reference verdict and its rerun command; a client that could not run says so.
# Usage: clients_report_test.sh BUILD_DIR PYTHON
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
script="$here/../clients_report.sh"
build_dir="$1"
python="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
expect() {  # file pattern what
  if ! grep -qF -- "$2" "$1"; then
    echo "FAILED: $3: '$2' not in $1:"
    head -40 "$1"
    failed=1
  fi
}

"$script" --help > "$work/help.txt" || { echo "FAILED: --help exited $?"; failed=1; }
expect "$work/help.txt" "--dry-run" "--help"
"$script" --bogus > "$work/bogus.txt" 2>&1
[[ $? -eq 2 ]] || { echo "FAILED: an unknown argument does not exit 2"; failed=1; }

"$script" --dry-run --build "$build_dir" > "$work/dry.txt" 2>&1 || { echo "FAILED: --dry-run exited $?"; cat "$work/dry.txt"; failed=1; }
expect "$work/dry.txt" "would run" "--dry-run prints the command"
expect "$work/dry.txt" "--backend redis --variants token\\,redlock" "--dry-run runs the reference rows"
expect "$work/dry.txt" "--client-keys redis-semaphore-mutex=mutex:lock" "--dry-run passes a prefixed key"
for name in node-redlock-5 node-redlock-4 redis-semaphore-mutex redis-semaphore-redlock redis-lock warlock \
            redlock-universal microfleet-ioredis-lock node-redisson redis-py-lock redis-py-asyncio-lock symfony-lock \
            lockcheck-mutex; do
  expect "$work/dry.txt" "$name " "--dry-run lists every shipped adapter"
done

fixture="$here/clients_report"
"$python" "$here/../clients_report_render.py" --results "$fixture/results.json" --clients "$fixture/clients.tsv" \
  --meta "$fixture/run.json" --md "$work/clients.md" --html "$work/clients.html" > "$work/render.txt" ||
  { echo "FAILED: the renderer exited $?"; failed=1; }
expect "$work/clients.md" "| Good lib 1.0 | ✓ 1/2 (hung) |" "a cell judged in one run of two, where a client hung"
expect "$work/clients.md" "[✗ 1/2](#client-bad--pause--mutual_exclusion_client)" "a violated cell links to its entry"
expect "$work/clients.md" "- Witness: process 1 believed it held 'lock' <until> t=2s" "the witness"
expect "$work/clients.md" "the reference \`token\` holds under this family (✓ here (2 run(s)))" "own bug or limit, against token"
expect "$work/clients.md" "| Good lib 1.0 | nothing | a client hung (pause) |" "at a glance, a hung client"
expect "$work/clients.md" "--clients 'bad=node bad.js' --client-keys bad=mutex:lock --faults pause --seed 2" "the rerun command"
expect "$work/clients.md" "| Missing lib ? | not run: no php |" "a client that did not run"
expect "$work/clients.md" "load average before 1.0 1.0 1.0" "the load"
expect "$work/clients.html" "id=\"client-bad--pause--mutual_exclusion_client\"" "the HTML anchor"
expect "$work/clients.html" "&lt;until&gt;" "the HTML escapes the witness"
expect "$work/render.txt" "client:bad" "the printed summary"
if grep -q "^## What \`explore --client\` found" "$work/clients.md"; then echo "FAILED: an explore section without --explore"; failed=1; fi

# With clients_explore.sh's folder: a section per searched client (own bugs, known limits, blind spots).
"$python" "$here/../clients_report_render.py" --results "$fixture/results.json" --clients "$fixture/clients.tsv" \
  --meta "$fixture/run.json" --explore "$fixture/explore" --md "$work/explored.md" --html "$work/explored.html" > /dev/null ||
  { echo "FAILED: the renderer with --explore exited $?"; failed=1; }
expect "$work/explored.md" "## What \`explore --client\` found in each client, from no hints" "the explore section"
expect "$work/explored.md" "| Bad lib 2.0 | 12 (40) | [owner_only_release](#explore-bad-0) | mutual_exclusion_server (F7, F9) | release_after_expiry |" \
  "a searched client's row: runs, own bug, known limit, blind spot (not the n/a mark)"
expect "$work/explored.md" "| Good lib 1.0 | not searched |" "a client without a search"
expect "$work/explored.md" "- Reproduced: 4 of 5 runs of the written file;" "the find's reproduction rate"
expect "$work/explored.md" "rerun: \`lockcheck judge reports/clients/explore/bad/bad-owner_only_release.toml\`" "the find's rerun"
expect "$work/explored.html" "id=\"explore-bad-0\"" "the HTML anchor of a find"
expect "$work/explored.html" "&lt;key&gt;" "the HTML escapes the explore witness"

explore_script="$here/../clients_explore.sh"
"$explore_script" --help > "$work/explore-help.txt" || { echo "FAILED: clients_explore.sh --help exited $?"; failed=1; }
expect "$work/explore-help.txt" "--budget-s" "clients_explore.sh --help"
"$explore_script" --budget-s x > /dev/null 2>&1
[[ $? -eq 2 ]] || { echo "FAILED: clients_explore.sh --budget-s x does not exit 2"; failed=1; }
"$explore_script" --dry-run --build "$build_dir" --budget-s 7 > "$work/explore-dry.txt" 2>&1 ||
  { echo "FAILED: clients_explore.sh --dry-run exited $?"; cat "$work/explore-dry.txt"; failed=1; }
expect "$work/explore-dry.txt" "explore --client" "clients_explore.sh --dry-run prints each search"
expect "$work/explore-dry.txt" "--all-properties --seed 1 --budget-s 7 --parallel 2" "each search's settings"
expect "$work/explore-dry.txt" "--client-keys mutex:lock" "a client's keys"
((failed)) && exit 1
echo "ok: clients_report.sh and clients_explore.sh --help, --dry-run and the page's rendering"
