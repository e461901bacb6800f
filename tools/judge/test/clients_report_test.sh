#!/usr/bin/env bash
# tools/judge/clients_report.sh without its real-time run: --help, --dry-run (each client's preflight and the
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
((failed)) && exit 1
echo "ok: clients_report.sh --help, --dry-run and the page's rendering"
