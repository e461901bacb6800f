#!/usr/bin/env bash
# The ecosystem's Redis lock clients judged side by side: runs `lockcheck compare --backend redis --clients ...`
# over every shipped adapter (tools/judge/adapters/README.md) with the catalogue's `token` and `redlock` as
# reference rows, and writes reports/clients.md and reports/clients.html (compare's own files in
# reports/clients/). Real time: not a CI stage (about 20-25 minutes on a loaded 2-core machine with --runs 1).
set -uo pipefail

usage() {
  cat <<'EOF'
Usage: tools/judge/clients_report.sh [--runs N] [--faults F,G,...] [--only NAME,...] [--jobs J]
                                     [--out DIR] [--build DIR] [--dry-run]

Runs every shipped lock-client adapter through `lockcheck compare --backend redis --clients`, beside the
catalogue's `token` and `redlock`, and writes DIR/clients.md, DIR/clients.html and compare's own files
(matrix.md, report.html, results.json, compare.log) in DIR/clients/. Run from anywhere after a build
(tools/setup: the npm clients in BUILD/judge-clients, lockcheck and lockcheck_judge_mutex in BUILD/tools).

  --runs N       seeds per cell (default 1: real time; each run lasts ~10 s)
  --faults LIST  fault families (default baseline,pause,crash,partition,client-clock,clock-jump,failover)
  --only LIST    only these clients (names as in the table below); the reference rows always run
  --jobs J       runs in parallel (default 2)
  --out DIR      where clients.md, clients.html and clients/ go (default: the repository's reports/)
  --build DIR    the build directory (default: the repository's build/)
  --dry-run      check each client can start (interpreter, library installed), print the compare command
                 and the clients' table, run nothing
  -h, --help     this text

A client whose interpreter or library is missing is listed on the page as not run, with why; a client that
fails during the run leaves its cells empty and compare's notes say why. Exit 0 when the page was written
(violations are findings, not errors), 2 for bad usage or a missing lockcheck build.
EOF
}

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs=1
faults="baseline,pause,crash,partition,client-clock,clock-jump,failover"
only=""
jobs=2
out_dir="$repo_root/reports"
build_dir="$repo_root/build"
dry_run=0
while (($# > 0)); do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --faults) faults="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out_dir="$2"; shift 2 ;;
    --build) build_dir="$2"; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "clients_report.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "clients_report.sh: --runs wants a positive number" >&2; exit 2; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "clients_report.sh: --jobs wants a positive number" >&2; exit 2; }

cd "$repo_root" || exit 2
build_dir="$(cd "$build_dir" 2>/dev/null && pwd)" || { echo "clients_report.sh: no build directory (run tools/setup)" >&2; exit 2; }
lockcheck="$build_dir/tools/lockcheck"
[[ -x "$lockcheck" ]] || { echo "clients_report.sh: $lockcheck not built (run tools/setup)" >&2; exit 2; }
node_modules="$build_dir/judge-clients/node_modules"
export NODE_PATH="$node_modules"

# The interpreters and the clients' table, shared with clients_explore.sh.
# shellcheck source=clients_common.sh
source "$repo_root/tools/judge/clients_common.sh"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
client_args=()
families_why="baseline (does the client work at all), pause and crash (the client process stopped past the TTL, \
killed without releasing), partition (its network to Redis cut), client-clock and clock-jump (the client's \
clock skewed and drifting, the server's clock jumping past the TTL) and failover (an asynchronous replica \
promoted): the single-master faults the real backend applies to an external client. Left out to keep the run \
near 17 minutes (each family adds about 2.5 minutes over 15 rows with --runs 1): lossy, restart, eviction, \
and the cluster and Sentinel families (most adapters run single-master only: adapters/README.md)."
: > "$work/clients.tsv"
while IFS='|' read -r name kind adapter keys library version; do
  if [[ -n "$only" && ",$only," != *",$name,"* ]]; then continue; fi
  status="ran"
  case "$kind" in
    node) interpreter="$node"
          [[ -n "$node" ]] || status="not run: no node loads the pinned clients from BUILD/judge-clients (tools/judge/adapters/install.sh)"
          if [[ -n "$node" && -z "$version" ]]; then status="not run: its npm package is not installed in BUILD/judge-clients"; fi ;;
    python) interpreter="$python"
            [[ -n "$python" ]] || status="not run: no python3 imports redis (apt-get install python3-redis)" ;;
    php) interpreter="$php"
         [[ -n "$php" ]] || status="not run: no php with symfony/lock (apt-get install php-cli php-symfony-lock php-redis)" ;;
    binary) interpreter=""
            [[ -x "$build_dir/tools/$adapter" ]] || status="not run: build/tools/$adapter is not built" ;;
  esac
  # As run: the interpreter found (by its path) and the build directory's real place.
  if [[ "$kind" == binary ]]; then run_command="$build_dir/tools/$adapter"
  else run_command="${interpreter:-$kind} tools/judge/adapters/$adapter"; fi
  command="${run_command/#$build_dir\//build/}"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$library" "${version:-?}" "$command" "$keys" "$status" >> "$work/clients.tsv"
  [[ "$status" == ran ]] || continue
  client_args+=(--clients "$name=$run_command")
  [[ "$keys" == - ]] || client_args+=(--client-keys "$name=$keys")
done < <(clients_table)

compare=("$lockcheck" compare --backend redis --variants token,redlock "${client_args[@]}" --faults "$faults"
         --runs "$runs" --jobs "$jobs" --out "$out_dir/clients")
shown_command="tools/judge/clients_report.sh --runs $runs --faults $faults --jobs $jobs${only:+ --only $only}"

column -t -s $'\t' "$work/clients.tsv" 2>/dev/null || cat "$work/clients.tsv"
if ((dry_run)); then
  printf 'would run (NODE_PATH=%s):\n' "$NODE_PATH"
  printf ' %q' "${compare[@]}"
  echo
  exit 0
fi

mkdir -p "$out_dir/clients"
# The commit judged: uncommitted changes outside the generated reports would make the page's commit a lie.
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!reports' 2>/dev/null || echo ' (with uncommitted changes)')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
start_s="$(date +%s)"
echo "running: $shown_command (compare with ${#client_args[@]} client arguments; log in $out_dir/clients/compare.log)"
"${compare[@]}" > "$out_dir/clients/compare.log" 2>&1
compare_rc=$?
wall_s=$(($(date +%s) - start_s))
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "compare exited $compare_rc after ${wall_s} s (0: ran; 2: a client hung; 3: some cell could not run; the page's notes say which)"
if [[ ! -f "$out_dir/clients/results.json" ]]; then
  tail -20 "$out_dir/clients/compare.log"
  echo "clients_report.sh: compare wrote no results.json" >&2
  exit 1
fi
# The log and compare's files name this machine's paths; the page names the repository's.
sed -i "s#$build_dir/#build/#g; s#$repo_root/##g" "$out_dir/clients/"{matrix.md,report.html,results.json,compare.log}
cat > "$work/meta.json" <<EOF
{"command": $(printf '%s' "$shown_command" | "${python:-python3}" -c 'import json,sys; print(json.dumps(sys.stdin.read()))'),
 "commit": "$commit", "date_utc": "$(date -u '+%Y-%m-%d %H:%M UTC')", "wall_s": $wall_s,
 "load_before": "$load_before", "load_after": "$load_after", "cpus": $(nproc),
 "families_why": $(printf '%s' "$families_why" | "${python:-python3}" -c 'import json,sys; print(json.dumps(sys.stdin.read()))')}
EOF
# Kept beside compare's files, so that the page can be rendered again without a rerun.
cp "$work/clients.tsv" "$out_dir/clients/clients.tsv"
cp "$work/meta.json" "$out_dir/clients/run.json"
"${python:-python3}" "$repo_root/tools/judge/clients_report_render.py" --results "$out_dir/clients/results.json" \
  --clients "$out_dir/clients/clients.tsv" --meta "$out_dir/clients/run.json" --reference "$repo_root/reports/results.json" \
  --explore "$out_dir/clients/explore" --md "$out_dir/clients.md" --html "$out_dir/clients.html"
