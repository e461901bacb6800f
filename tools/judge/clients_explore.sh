#!/usr/bin/env bash
# What `lockcheck explore --client` finds in each shipped client, from no hints: for every adapter of the clients
# page (clients_common.sh's table), a search of every property (--all-properties) for a stated budget of real
# time, its output (explore.json, the scenario file of each find, the printed report) kept in
# DIR/clients/explore/<client>/, then the clients page rendered again with a section per client (own bugs,
# known limits met, blind spots). Real time: not a CI stage (the budget times the clients, plus confirmations).
set -uo pipefail

usage() {
  cat <<'EOF'
Usage: tools/judge/clients_explore.sh [--budget-s S] [--seed N] [--parallel P] [--only NAME,...]
                                      [--out DIR] [--build DIR] [--dry-run]

Runs `lockcheck explore --client ADAPTER --all-properties --budget-s S` for every shipped lock-client adapter
(the clients of reports/clients.md), keeps each search's output in DIR/clients/explore/<client>/ and writes
DIR/clients/explore/run.json, then renders DIR/clients.md and DIR/clients.html again with what each search
found. Run from anywhere after a build (tools/setup) and after tools/judge/clients_report.sh (the page's
compare part is read from DIR/clients/, not rerun).

  --budget-s S   seconds of search per client (default 300; a find's confirmation and shrinking may run past it)
  --seed N       the searches' root seed (default 1)
  --parallel P   judged runs at once (default 2)
  --only LIST    only these clients (names as in clients_report.sh --dry-run)
  --out DIR      where the page and clients/ are (default: the repository's reports/)
  --build DIR    the build directory (default: the repository's build/)
  --dry-run      print the searches it would run, run nothing
  -h, --help     this text

Exit 0 when every search ran and the page was written (an own bug is a finding, not an error); 1 when a
search failed (exit 2 of explore: its log says why); 2 for bad usage or a missing build.
EOF
}

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
budget_s=300 seed=1 parallel=2 only="" out_dir="$repo_root/reports" build_dir="$repo_root/build" dry_run=0
while (($# > 0)); do
  case "$1" in
    --budget-s) budget_s="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --out) out_dir="$2"; shift 2 ;;
    --build) build_dir="$2"; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "clients_explore.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
done
for number in "$budget_s" "$seed" "$parallel"; do
  [[ "$number" =~ ^[0-9]+$ && "$number" -gt 0 ]] || { echo "clients_explore.sh: '$number' is not a positive number" >&2; exit 2; }
done
cd "$repo_root" || exit 2
build_dir="$(cd "$build_dir" 2>/dev/null && pwd)" || { echo "clients_explore.sh: no build directory (run tools/setup)" >&2; exit 2; }
lockcheck="$build_dir/tools/lockcheck"
[[ -x "$lockcheck" ]] || { echo "clients_explore.sh: $lockcheck not built (run tools/setup)" >&2; exit 2; }
node_modules="$build_dir/judge-clients/node_modules"
export NODE_PATH="$node_modules"
# shellcheck source=clients_common.sh
source "$repo_root/tools/judge/clients_common.sh"
[[ -f "$out_dir/clients/results.json" ]] || { echo "clients_explore.sh: no $out_dir/clients/results.json (run clients_report.sh first)" >&2; exit 2; }

explore_dir="$out_dir/clients/explore"
status=0
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!reports' 2>/dev/null || echo ' (with uncommitted changes)')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
start_s="$(date +%s)"
while IFS='|' read -r name kind adapter keys _library version; do
  if [[ -n "$only" && ",$only," != *",$name,"* ]]; then continue; fi
  case "$kind" in
    node) interpreter="$node"; [[ -n "$version" ]] || interpreter="" ;;
    python) interpreter="$python" ;;
    php) interpreter="$php" ;;
    binary) interpreter="" ;;
  esac
  if [[ "$kind" == binary ]]; then command="$build_dir/tools/$adapter"
  elif [[ -n "$interpreter" ]]; then command="$interpreter $repo_root/tools/judge/adapters/$adapter"
  else echo "$name: not run (its interpreter or library is missing: clients_report.sh --dry-run says which)"; continue; fi
  args=(explore --client "$command" --all-properties --seed "$seed" --budget-s "$budget_s" --parallel "$parallel"
        --out "$explore_dir/$name")
  [[ "$keys" == - ]] || args+=(--client-keys "$keys")
  if ((dry_run)); then printf '%s:' "$name"; printf ' %q' "$lockcheck" "${args[@]}"; echo; continue; fi
  rm -rf "${explore_dir:?}/$name"
  mkdir -p "$explore_dir/$name"
  client_start_s="$(date +%s)"
  "$lockcheck" "${args[@]}" > "$explore_dir/$name/explore.log" 2>&1
  rc=$?
  echo "$name: explore exited $rc after $(($(date +%s) - client_start_s)) s ($(grep -c '^  FOUND' "$explore_dir/$name/explore.log") own bug(s))"
  ((rc > 1)) && status=1
  # The log and the files name this machine's paths; the page names the repository's.
  find "$explore_dir/$name" -type f \( -name '*.log' -o -name '*.toml' -o -name '*.json' \) -exec \
    sed -i "s#$build_dir/#build/#g; s#$repo_root/##g" {} +
done < <(clients_table)
((dry_run)) && exit 0

json_string() { printf '%s' "$1" | "${python:-python3}" -c 'import json,sys; print(json.dumps(sys.stdin.read()))'; }
cat > "$explore_dir/run.json" <<EOF
{"command": $(json_string "tools/judge/clients_explore.sh --budget-s $budget_s --seed $seed --parallel $parallel${only:+ --only $only}"),
 "commit": "$commit", "date_utc": "$(date -u '+%Y-%m-%d %H:%M UTC')", "wall_s": $(($(date +%s) - start_s)),
 "budget_s": $budget_s, "seed": $seed, "parallel": $parallel,
 "load_before": "$load_before", "load_after": "$(cut -d' ' -f1-3 /proc/loadavg)", "cpus": $(nproc)}
EOF
"${python:-python3}" "$repo_root/tools/judge/clients_report_render.py" --results "$out_dir/clients/results.json" \
  --clients "$out_dir/clients/clients.tsv" --meta "$out_dir/clients/run.json" --reference "$repo_root/reports/results.json" \
  --explore "$explore_dir" --md "$out_dir/clients.md" --html "$out_dir/clients.html" || status=1
exit "$status"
