#!/usr/bin/env bash
# Writes reports/BENCHMARKS.md from what the benchmark commands print, so that no figure is typed by hand:
# for each figure block the exact command, the commit, the date, `uptime`'s load average before and after, the
# wall time and exit status, and the command's output (or the lines of it that carry the figures). The page is
# replaced entirely on every run. `tools/bench/benchmarks_page.sh --help` says how to use it.
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

usage() {
  cat <<'EOF'
usage: tools/bench/benchmarks_page.sh [BUILD_DIR] [options]

Runs the benchmark commands the project quotes figures from and writes reports/BENCHMARKS.md anew from
their output: per block the command, the commit (git rev-parse --short HEAD), the date, the load average
(uptime) before and after, the wall time, the exit status and what the command printed. Nothing on the
page is typed by hand; a block whose command failed or could not run says so.

BUILD_DIR is a configured and built tree (default: build/). The benchmarks are not built by default
(LOCKCHECK_BUILD_BENCHMARKS=ON, as tools/setup configures); --rebuild builds the ones the selected blocks
need first, so that the binaries match the commit.

options:
  --only NAME[,NAME...]  run only these blocks (the page then holds only them)
  --slow                 also the slow blocks: tools/run and .ci/run from a fresh clone with an empty
                         compiler cache (about 25 min on 2 cores), and the judge's track record (npm)
  --redis-git DIR        also Redis's own Tcl suite against the mock (DIR: a git dir of redis/redis)
  --rebuild              cmake --build BUILD_DIR --target <what the selected blocks run> first
  --out FILE             write FILE instead of reports/BENCHMARKS.md
  --update               keep the blocks of the page as it is (FILE) that this run does not measure, each
                         with its own commit, date and load as written then: one slow block refreshed
                         alone, the rest of the page unchanged
  --timeout S            stop a command after S seconds (default 3600; the slow blocks get 3 times that)
  --list                 print the blocks (name, group, command) and exit
  --dry-run              print the commands that would run, run nothing, write nothing
  -h, --help             this text

Exit status: 0 when every selected block ran and exited 0; 1 when one did not (the page is written anyway,
with the failure on it); 2 on bad usage.

The machine matters: run it on a quiet machine when you can, and read each real-time figure with the load
printed beside it (CPU-time figures and instruction counts hold better under load).
EOF
}

build_arg=""
out="$repo_root/reports/BENCHMARKS.md"
only=""
slow=0
redis_git=""
rebuild=0
update=0
list=0
dry_run=0
timeout_s=3600

while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --only) only="${2:?--only needs NAME[,NAME...]}"; shift 2 ;;
    --slow) slow=1; shift ;;
    --redis-git) redis_git="${2:?--redis-git needs a directory}"; shift 2 ;;
    --rebuild) rebuild=1; shift ;;
    --out) out="${2:?--out needs a file}"; shift 2 ;;
    --update) update=1; shift ;;
    --timeout) timeout_s="${2:?--timeout needs seconds}"; shift 2 ;;
    --list) list=1; shift ;;
    --dry-run) dry_run=1; shift ;;
    -*) echo "benchmarks_page.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *)
      if [[ -n "$build_arg" ]]; then echo "benchmarks_page.sh: one BUILD_DIR only (see --help)" >&2; exit 2; fi
      build_arg="$1"; shift ;;
  esac
done
[[ "$timeout_s" =~ ^[0-9]+$ ]] || { echo "benchmarks_page.sh: --timeout takes whole seconds" >&2; exit 2; }

build_dir="${build_arg:-$repo_root/build}"
if [[ -d "$build_dir" ]]; then build_dir="$(cd "$build_dir" && pwd)"; fi
# The page names the build directory relative to the repository, never as a path of this machine.
if [[ "$build_dir" == "$repo_root/"* ]]; then build_shown="${build_dir#"$repo_root/"}"; else build_shown="BUILD"; fi

# --- the blocks -------------------------------------------------------------------------------------------
# block NAME GROUP REPEAT TARGETS NEEDS TITLE COMMAND FILTER
#   GROUP    default | slow (--slow) | redis-git (--redis-git)
#   REPEAT   how many times the command runs (each run is recorded)
#   TARGETS  CMake targets the command runs (for --rebuild), space-separated
#   NEEDS    files or programs that must exist, space-separated (placeholders allowed)
#   COMMAND  run by bash in the repository's root; placeholders: @B@ the build directory, @WORK@ a scratch
#            directory of this run, @REDIS_GIT@ the --redis-git directory (shown on the page as <redis.git>)
#   FILTER   an awk program choosing the output lines to keep; empty keeps them all
names=() groups=() repeats=() targets=() needs=() titles=() commands=() filters=()
block() {
  names+=("$1") groups+=("$2") repeats+=("$3") targets+=("$4") needs+=("$5") titles+=("$6") commands+=("$7")
  filters+=("$8")
}
valgrind_lines='!/^==[0-9]+==/ || /Collected :/'
time_lines='/Elapsed \(wall clock\)|User time|System time|Exit status|^setup:|^tools\/test:|tests passed|expectations|unexpected/'

block token_mutex_vs_raw default 1 token_bench "@B@/tools/token_bench" \
  "lockcheck::Mutex against raw hiredis (lib_over_raw, lib_over_raw_p50, lib_over_raw_cpu)" \
  "@B@/tools/token_bench --benchmark_filter=MutexVersusRaw --benchmark_min_time=2 --benchmark_repetitions=3" ""
block token_contended default 1 token_bench "@B@/tools/token_bench" \
  "Mutex contended: 8 threads on one key, 200 acquisitions each" \
  "@B@/tools/token_bench --benchmark_filter=Contended" ""
block token_raw default 1 token_bench "@B@/tools/token_bench" \
  "The raw hiredis lock cycle alone" \
  "@B@/tools/token_bench --benchmark_filter=RawHiredisCycle" ""
block redlock_vs_sequential default 1 redlock_bench "@B@/tools/redlock_bench" \
  "Redlock on 5 servers: parallel fan-out against a sequential loop (redlock_over_sequential), direct and at 250 us per link" \
  "@B@/tools/redlock_bench --benchmark_filter=RedlockVersusSequential --benchmark_repetitions=5 --benchmark_min_time=1" ""
block redlock_one_slow_node default 1 redlock_bench "@B@/tools/redlock_bench" \
  "Redlock with one of 5 nodes 20 ms away each way: acquire latency" \
  "@B@/tools/redlock_bench --benchmark_filter=OneSlowNode" ""
block handoff default 3 handoff_bench "@B@/tools/handoff_bench" \
  "Hand-off latency: token polling against redisson-like pub/sub, with the idle and busy round trips" \
  "@B@/tools/handoff_bench" ""
block mock_vs_redis default 1 mock_vs_redis_bench "@B@/sim/redis/bench/mock_vs_redis_bench" \
  "The mock against redis-server (mock_over_redis_real, mock_over_redis_cpu)" \
  "@B@/sim/redis/bench/mock_vs_redis_bench --benchmark_repetitions=3" ""
block sim_bench default 1 sim_bench "@B@/sim/bench/sim_bench" \
  "The simulator: events per second, time compression, cluster and Sentinel over_one_node" \
  "@B@/sim/bench/sim_bench --benchmark_repetitions=3" ""
block sim_bench_cpu default 1 sim_bench "@B@/sim/bench/sim_bench" \
  "The simulator: events per second and per CPU-second, one node and Redlock (medians)" \
  "@B@/sim/bench/sim_bench --benchmark_filter='BM_TenClientsOneNode/|BM_RedlockFiveNodes/' --benchmark_repetitions=3 --benchmark_report_aggregates_only=true" ""
block sim_instructions_one_node default 1 sim_bench "@B@/sim/bench/sim_bench valgrind" \
  "Instructions per simulated event: 10 clients, 1 node, token lock" \
  "tools/bench/sim_instructions @B@/sim/bench/sim_bench TenClientsOneNode" ""
block sim_instructions_redlock default 1 sim_bench "@B@/sim/bench/sim_bench valgrind" \
  "Instructions per simulated event: Redlock on 5 nodes, 10 clients" \
  "tools/bench/sim_instructions @B@/sim/bench/sim_bench RedlockFiveNodes" ""
block node_setup default 1 node_setup_bench "@B@/sim/redis/bench/node_setup_bench" \
  "A mock node's construction, without and with its Lua state" \
  "@B@/sim/redis/bench/node_setup_bench" ""
block judge_bench default 1 judge_bench "@B@/tools/judge/judge_bench" \
  "What the judge protocol costs: Mutex in process against Mutex in its adapter process" \
  "@B@/tools/judge/judge_bench --benchmark_min_time=2" ""
block explore_bench default 1 explore_bench "@B@/tools/explore/explore_bench" \
  "How fast lockcheck explore finds a known bug: 19 bugs, 20 root seeds, three strategies" \
  "@B@/tools/explore/explore_bench --roots 20 --cap-s 60 --jobs 1" ""
block explore_instructions_guided default 1 explore_bench "@B@/tools/explore/explore_bench valgrind" \
  "Instructions of explore's guided search for the token bugs (callgrind)" \
  "valgrind --tool=callgrind --callgrind-out-file=@WORK@/callgrind.out @B@/tools/explore/explore_bench --only token: --roots 4 --jobs 1 --strategies guided" \
  "$valgrind_lines"
block explore_instructions_all_on default 1 explore_bench "@B@/tools/explore/explore_bench valgrind" \
  "Instructions of explore's all-on search for the token bugs (callgrind)" \
  "valgrind --tool=callgrind --callgrind-out-file=@WORK@/callgrind.out @B@/tools/explore/explore_bench --only token: --roots 4 --jobs 1 --strategies all-on" \
  "$valgrind_lines"
for seed in 7 13 21; do
  block "explore_gate_seed_$seed" default 1 explore_unit_test "@B@/tools/explore/explore_unit_test" \
    "The explore gate as a slow yardstick: 1000 runs per correct variant, seed $seed" \
    "LOCKCHECK_GATE_RUNS=1000 LOCKCHECK_GATE_SEED=$seed @B@/tools/explore/explore_unit_test --gtest_filter=Explore.OnCorrectVariantsNoFindIsTheLocksOwnBug" \
    '/^\[ *(OK|FAILED|PASSED|RUN) *\]|tests? ran|Failure|known limit/'
done
block tools_run_from_nothing slow 1 "" "git /usr/bin/time" \
  "tools/run from a fresh clone with an empty compiler cache (the Debian packages already installed)" \
  "git clone --quiet . @WORK@/clone && cd @WORK@/clone && mkdir -p @WORK@/ccache && CCACHE_DIR=@WORK@/ccache /usr/bin/time -v tools/run" \
  "$time_lines"
block ci_from_nothing slow 1 "" "git /usr/bin/time" \
  "CI (.ci/run, which is tools/test) from a fresh clone with an empty compiler cache" \
  "git clone --quiet . @WORK@/clone && cd @WORK@/clone && mkdir -p @WORK@/ccache && CCACHE_DIR=@WORK@/ccache /usr/bin/time -v bash .ci/run" \
  "$time_lines"
block track_record slow 1 "" "npm" \
  "The judge's track record: each documented client bug at its buggy version and at one without it" \
  "tools/judge/track_record.sh" ""
# One block per bug (each about an hour at most): --update refreshes one without the others.
for bug in rs175 rl369 rs24; do
  block "explore_client_bench_$bug" slow 1 "lockcheck_cli lockcheck_judge_mutex lockcheck_judge_redlock" "@B@/tools/lockcheck npm node" \
    "explore --client's time to its first own bug from no hints: the track record's $bug, 5 root seeds (then the version without the bug, 1 seed)" \
    "tools/explore/bench/client_bench.sh --build @B@ --seeds '1 2 3 4 5' --budget-s 600 $bug; buggy=\$?; tools/explore/bench/client_bench.sh --build @B@ --seeds 1 --budget-s 600 --fixed-only $bug | tail -n +3; exit \$((buggy || PIPESTATUS[0]))" ""
done
block redis_tcl_units redis-git 1 lockcheck-mock-server "@B@/sim/redis/lockcheck-mock-server @REDIS_GIT@" \
  "The mock against Redis 7.0.15's own Tcl test suite (units as sim/redis/README.md lists them)" \
  "tools/yardsticks/redis_tcl_units --redis-git @REDIS_GIT@ --mock-cmd @B@/sim/redis/lockcheck-mock-server --units 'unit/scripting unit/functions unit/expire unit/type/string unit/type/hash unit/type/incr unit/type/list unit/type/set unit/type/zset unit/keyspace unit/multi unit/pubsub unit/info-command unit/dump unit/geo unit/maxmemory unit/type/stream unit/type/stream-cgroups'" ""

# --- selection ----------------------------------------------------------------------------------------------
selected=()
if [[ -n "$only" ]]; then
  IFS=',' read -r -a wanted <<<"$only"
  for want in "${wanted[@]}"; do
    found=0
    for i in "${!names[@]}"; do
      if [[ "${names[$i]}" == "$want" ]]; then selected+=("$i"); found=1; fi
    done
    if ((!found)); then echo "benchmarks_page.sh: no block '$want' (see --list)" >&2; exit 2; fi
  done
else
  for i in "${!names[@]}"; do
    case "${groups[$i]}" in
      default) selected+=("$i") ;;
      slow) ((slow)) && selected+=("$i") ;;
      redis-git) [[ -n "$redis_git" ]] && selected+=("$i") ;;
    esac
  done
fi
for i in "${selected[@]}"; do
  if [[ "${groups[$i]}" == redis-git && -z "$redis_git" ]]; then
    echo "benchmarks_page.sh: block '${names[$i]}' needs --redis-git DIR" >&2; exit 2
  fi
done

# render TEMPLATE show|run: the command as the page shows it, or as it runs.
render() {
  local text="$1"
  if [[ "$2" == show ]]; then
    text="${text//@B@/$build_shown}"; text="${text//@WORK@/<scratch>}"; text="${text//@REDIS_GIT@/<redis.git>}"
  else
    text="${text//@B@/$build_dir}"; text="${text//@WORK@/$work}"; text="${text//@REDIS_GIT@/$redis_git}"
  fi
  printf '%s' "$text"
}

work="<scratch>"
if ((list)); then
  for i in "${!names[@]}"; do
    printf '%-28s %-9s %s\n' "${names[$i]}" "${groups[$i]}" "$(render "${commands[$i]}" show)"
  done
  exit 0
fi
if ((dry_run)); then
  for i in "${selected[@]}"; do
    printf '%s (x%s): %s\n' "${names[$i]}" "${repeats[$i]}" "$(render "${commands[$i]}" show)"
  done
  exit 0
fi

# --- running ------------------------------------------------------------------------------------------------
command -v git >/dev/null || { echo "benchmarks_page.sh: needs git" >&2; exit 2; }
compiled_from="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build_dir/CMakeCache.txt" 2>/dev/null)"
compiled_from="${compiled_from:-$repo_root}"
[[ -d "$build_dir" ]] || { echo "benchmarks_page.sh: no build directory '$build_dir' (run tools/setup, or name one)" >&2; exit 2; }
scratch_root="$(mktemp -d)"
trap 'rm -rf "$scratch_root"' EXIT

load_average() { uptime | sed -n 's/.*load average[s]*: *//p'; }
commit="$(git -C "$repo_root" rev-parse --short HEAD)"
if [[ -n "$(git -C "$repo_root" status --porcelain --untracked-files=no)" ]]; then
  commit_note="$commit, with uncommitted changes"
else
  commit_note="$commit"
fi

if ((rebuild)); then
  build_targets=()
  for i in "${selected[@]}"; do
    for t in ${targets[$i]}; do
      [[ " ${build_targets[*]} " == *" $t "* ]] || build_targets+=("$t")
    done
  done
  if ((${#build_targets[@]})); then
    echo "benchmarks_page.sh: building ${build_targets[*]}" >&2
    cmake --build "$build_dir" -j2 --target "${build_targets[@]}" >&2 || { echo "benchmarks_page.sh: the build failed" >&2; exit 1; }
  fi
fi

# Each block's text goes to its own file, so the page lists the blocks in their order whichever ran.
block_file() { printf '%s/block-%s.md' "$scratch_root" "$1"; }
# --update: the blocks of the page as it is, one file each by name (headings inside output fences are output).
kept_dir="$scratch_root/kept"
mkdir -p "$kept_dir"
if ((update)) && [[ -f "$out" ]]; then
  awk -v dir="$kept_dir" '
    function flush() { if (name != "") { printf "%s", text > (dir "/" name ".md"); close(dir "/" name ".md") } name = ""; text = "" }
    /^```/ { fenced = !fenced }
    !fenced && /^## / { flush(); inside = ($0 == "## Figures"); next }
    !fenced && /^### / { flush() }
    inside { text = text $0 "\n"; if (name == "" && match($0, /^Block `[A-Za-z0-9_]+`/)) name = substr($0, 8, RLENGTH - 8) }
    END { flush() }' "$out"
fi
failed=0
max_lines=400

for i in "${selected[@]}"; do
  name="${names[$i]}"
  shown="$(render "${commands[$i]}" show)"
  limit="$timeout_s"
  [[ "${groups[$i]}" == slow ]] && limit=$((timeout_s * 3))
  echo "benchmarks_page.sh: $name: $shown" >&2
  {
    printf '### %s\n\n' "${titles[$i]}"
    # shellcheck disable=SC2016  # the backticks are Markdown
    printf 'Block `%s`. Command (run in the repository'"'"'s root):\n\n```sh\n%s\n```\n\n' "$name" "$shown"
  } >>"$(block_file "$i")"

  missing=""
  for need in ${needs[$i]}; do
    need_path="$(work="$scratch_root" render "$need" run)"
    if [[ "$need_path" == */* ]]; then [[ -e "$need_path" ]] || missing+=" $(render "$need" show)"
    else command -v "$need_path" >/dev/null || missing+=" $need_path"; fi
  done
  if [[ -n "$missing" ]]; then
    printf 'Not run: missing%s (build the target, or install the program).\n\n' "$missing" >>"$(block_file "$i")"
    echo "benchmarks_page.sh: $name not run: missing$missing" >&2
    failed=1
    continue
  fi

  for ((run = 1; run <= repeats[i]; run++)); do
    work="$(mktemp -d "$scratch_root/work.XXXXXX")"
    cmd="$(render "${commands[$i]}" run)"
    date_before="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    load_before="$(load_average)"
    start_s="$(date +%s)"
    (cd "$repo_root" && timeout "$limit" bash -c "$cmd") >"$work/output" 2>&1
    status=$?
    end_s="$(date +%s)"
    load_after="$(load_average)"
    ((status == 0)) || failed=1
    status_text="$status"
    ((status == 124)) && status_text="124 (stopped after $limit s)"
    {
      if ((repeats[i] > 1)); then printf 'Run %d of %d. ' "$run" "${repeats[$i]}"; fi
      printf 'Commit %s; %s; load average %s before, %s after; %d s of wall time; exit status %s.\n\n' \
        "$commit_note" "$date_before" "$load_before" "$load_after" $((end_s - start_s)) "$status_text"
      if [[ -n "${filters[$i]}" ]]; then
        printf 'Output (the lines that carry the figures):\n\n'
        awk "${filters[$i]}" "$work/output" >"$work/shown"
      else
        printf 'Output:\n\n'
        cp "$work/output" "$work/shown"
      fi
      # Scratch paths of this machine never reach the page, nor the source folder the binaries were compiled
      # from (a test's failure names its file by it), when the build directory is another tree's.
      sed -i -e "s|$work|<scratch>|g" -e "s|$scratch_root|<scratch>|g" -e "s|$build_dir|$build_shown|g" \
        -e "s|$repo_root/|./|g" -e "s|$repo_root|.|g" -e "s|$compiled_from/|./|g" "$work/shown"
      printf '```text\n'
      head -n "$max_lines" "$work/shown"
      total="$(wc -l <"$work/shown")"
      ((total > max_lines)) && printf '... (%d more lines)\n' $((total - max_lines))
      printf '```\n\n'
    } >>"$(block_file "$i")"
    rm -rf "$work"
  done
done

# --- the page ----------------------------------------------------------------------------------------------
not_selected="" kept_names=""
body="$scratch_root/body.md"
: >"$body"
for i in "${!names[@]}"; do
  if [[ " ${selected[*]} " == *" $i "* ]]; then
    cat "$(block_file "$i")" >>"$body"
  elif [[ -f "$kept_dir/${names[$i]}.md" ]]; then
    cat "$kept_dir/${names[$i]}.md" >>"$body"
    kept_names+="${kept_names:+, }\`${names[$i]}\`"
  else
    not_selected+="- \`${names[$i]}\` (${groups[$i]}): ${titles[$i]}"$'\n'
  fi
done

page="$scratch_root/page.md"
{
  cat <<EOF
# Benchmarks and other measured figures

Every measured figure of lockcheck lives on this page: timings of the two commands, the benchmarks, the speed of
\`lockcheck explore\`, the cost of the judge protocol, the mock's score on Redis's own test suite. The READMEs say
what is measured and how; the numbers are here, each with the command that printed it, the commit, the date and
the machine's load, because a figure without them cannot be checked or compared.

This page is written by \`tools/bench/benchmarks_page.sh [BUILD_DIR]\` (default \`build/\`): it runs each command,
records the commit (\`git rev-parse --short HEAD\`), the date, \`uptime\`'s load average before and after, and what
the command printed, and replaces this file entirely. \`tools/bench/benchmarks_page.sh --list\` names the
commands; \`--help\` says the rest.

On a shared machine the real-time figures fall with the load while the CPU-time ones (and instruction counts)
hold: read each figure with the load printed beside it.

## This run

- commit $commit_note; started $(date -u '+%Y-%m-%d') (UTC)
- machine: $(nproc) CPUs, $(uname -srm)
- build directory: \`$build_shown\`
- command: \`tools/bench/benchmarks_page.sh${build_arg:+ $build_shown}${only:+ --only $only}$( ((slow)) && printf ' --slow')$( [[ -n "$redis_git" ]] && printf ' --redis-git <redis.git>')$( ((rebuild)) && printf ' --rebuild')$( ((update)) && printf ' --update')\`
EOF
  if [[ -n "$kept_names" ]]; then
    printf -- '- kept from the page before (--update; each says its own commit, date and load): %s\n' "$kept_names"
  fi
  cat <<EOF

## Figures

EOF
  cat "$body"
  if [[ -n "$not_selected" ]]; then
    printf '## Not measured in this run\n\n%s\n' "$not_selected"
    # shellcheck disable=SC2016  # the backticks are Markdown
    printf 'Slow blocks run with `--slow`, the Tcl suite with `--redis-git DIR`, any block alone with `--only NAME`.\n\n'
  fi
  cat <<'EOF'
## Measured by hand only

Two figures need more than this script can assume of a machine, so it never measures them: `tools/run` on a
Debian 12 with nothing installed (a `debootstrap --variant=minbase bookworm` root, the clone copied in, `date +%s`
around `tools/run scenarios/pause-breaks-token.toml` in a `chroot`, as root), and the acquisitions per second of
judged clients in a comparison (`lockcheck compare --backend redis --variants token --faults baseline --runs 1
--clients ...`, its `progress` lines; needs the npm clients of `tools/judge/adapters/install.sh`).
EOF
} >"$page"

mkdir -p "$(dirname "$out")"
mv "$page" "$out"
echo "benchmarks_page.sh: wrote $out" >&2
exit "$failed"
