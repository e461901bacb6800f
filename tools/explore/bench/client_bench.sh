#!/usr/bin/env bash
# explore --client's time to the first counterexample, from no hints (no scenario, no fault named, no property
# chosen): for each bug of the judge's track record (tools/judge/TRACK_RECORD.md) the buggy version is installed from
# npm into a temporary folder, and `lockcheck explore --client "node ADAPTER"` searches it from a root seed with a
# budget in seconds; with --fixed the version without the bug is searched the same way (target: no own bug).
# Prints, per search: what it found first (an own bug, its property), when (the first violation seen; the first own
# bug confirmed, shrunk, decided and written), the search's runs, every judged run (confirmations, shrinking and the
# reference's runs included), judged runs per second and CPU per judged run. A slow yardstick (real time): not CI.
#   tools/explore/bench/client_bench.sh [--build DIR] [--seeds "1 2 3"] [--budget-s 600] [--parallel P]
#                                       [--fixed | --fixed-only] [BUG...]      BUG: rs175, rl369, rs24 (default all)
# KEEP=DIR keeps each search's log and output folder (its find files) there.
# Exit status 1 when a target is missed (issue 36's: the buggy version's own bug confirmed within the budget from
# at least 4 of 5 root seeds; the fixed version with no own bug), each named on a "MISSED" line; 2 on bad usage.
set -uo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
build_dir="$repo_root/build" seeds="1" budget_s=600 parallel=3 fixed=0 bugs=()
while (($#)); do
  case $1 in
    --build) build_dir=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --budget-s) budget_s=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    --fixed) fixed=1; shift ;;
    --fixed-only) fixed=2; shift ;;
    *) bugs+=("$1"); shift ;;
  esac
done
((${#bugs[@]})) || bugs=(rs175 rl369 rs24)
lockcheck="$(cd "$build_dir" && pwd)/tools/lockcheck"
adapters="$repo_root/tools/judge/adapters"
node=$(command -v node) || { echo "client_bench: node not found" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# bug -> "buggy packages|fixed packages|adapter|--client-keys"
# Each side installs only its packages (install.sh --only, as track.py does): the pinned set beside them would
# refuse ioredis 4 (redlock-universal's peer wants >= 5).
declare -A spec=(
  [rs175]="redis-semaphore@5.3.0 ioredis@5.9.3|redis-semaphore@5.3.1 ioredis@5.9.3|redis_semaphore_mutex.js|mutex:lock"
  [rl369]="redlock@5.0.0-beta.2 ioredis@5.9.3|redlock@4.2.0 ioredis@5.9.3|node_redlock.js node_redlock_v4.js|"
  [rs24]="redis-semaphore@3.2.1 ioredis@4.30.1|redis-semaphore@4.1.0 ioredis@4.30.1|track/redis_semaphore_v3.js|mutex:lock"
)

missed=()
echo "| bug | version | root seed | first own bug | first violation (s) | own bug confirmed (s) | search runs | judged runs | wall (s) | judged runs/s | CPU per judged run (s) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for bug in "${bugs[@]}"; do
  [[ -n "${spec[$bug]:-}" ]] || { echo "client_bench: unknown bug $bug (rs175, rl369, rs24)" >&2; exit 2; }
  IFS='|' read -r buggy fixed_pkgs adapter_pair keys <<< "${spec[$bug]}"
  read -r buggy_adapter fixed_adapter <<< "$adapter_pair"
  fixed_adapter=${fixed_adapter:-$buggy_adapter}
  versions=()
  ((fixed < 2)) && versions+=("buggy|$buggy|$buggy_adapter")
  ((fixed)) && versions+=("fixed|$fixed_pkgs|$fixed_adapter")
  for version in "${versions[@]}"; do
    IFS='|' read -r which pkgs adapter <<< "$version"
    dir="$work/$bug-$which"
    # shellcheck disable=SC2086
    sh "$adapters/install.sh" --only "$dir" $pkgs > /dev/null 2>&1 || { echo "client_bench: npm install of $pkgs failed" >&2; exit 2; }
    searched=0 within=0
    for seed in $seeds; do
      out="$dir/out-$seed"
      start=$(date +%s.%N)
      NODE_PATH="$dir/node_modules" "$lockcheck" explore --client "$node $adapters/$adapter" ${keys:+--client-keys "$keys"} \
        --seed "$seed" --budget-s "$budget_s" --parallel "$parallel" --out "$out" > "$out.log" 2>&1
      status=$?
      wall=$(echo "$(date +%s.%N) - $start" | bc)
      summary=$(grep -m1 "judged runs in all" "$out.log")
      found=$(grep -m1 -o "FOUND [a-z_]* violated: the lock's own bug" "$out.log" | awk '{print $2}')
      ((status > 1)) && found="ERROR (exit $status; $out.log)"
      search_runs=$(sed -n 's/^ *\([0-9]*\) runs of the search.*/\1/p' <<< "$summary")
      judged=$(sed -n 's/.*, \([0-9]*\) judged runs in all.*/\1/p' <<< "$summary")
      rate=$(sed -n 's/.* \([0-9.]*\) judged runs\/s.*/\1/p' <<< "$summary")
      cpu=$(sed -n 's/.*CPU \([0-9.]*\) s per judged run.*/\1/p' <<< "$summary")
      first_violation=$(sed -n 's/.*first violation at \([0-9.]*\) s.*/\1/p' <<< "$summary")
      own=$(sed -n 's/.*first own bug confirmed at \([0-9.]*\) s.*/\1/p' <<< "$summary")
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s |\n' "$bug" "$pkgs" "$seed" "${found:-none}" \
        "${first_violation:--}" "${own:--}" "${search_runs:--}" "${judged:--}" "$wall" "${rate:--}" "${cpu:--}"
      ((searched += 1))
      if [[ -n "$found" && "$found" != ERROR* && -n "$own" ]] && (($(echo "$own <= $budget_s" | bc))); then ((within += 1)); fi
      [[ "$which" == fixed && -n "$found" ]] && missed+=("$bug: the fixed version ($pkgs) had an own bug ($found) from root seed $seed")
      if [[ -n "${KEEP:-}" ]]; then
        mkdir -p "$KEEP" && cp "$out.log" "$KEEP/$bug-$which-seed$seed.log" && cp -r "$out" "$KEEP/$bug-$which-seed$seed"
      fi
    done
    if [[ "$which" == buggy ]] && ((within * 5 < searched * 4)); then
      missed+=("$bug: own bug within ${budget_s} s from $within of $searched root seeds (target: 4 of 5)")
    fi
  done
done
for line in "${missed[@]}"; do echo "MISSED: $line"; done
((${#missed[@]} == 0))
