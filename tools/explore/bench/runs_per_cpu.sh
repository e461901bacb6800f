#!/usr/bin/env bash
# runs_per_cpu.sh OLD_EXPLORE_BENCH NEW_EXPLORE_BENCH N [ROOTS] [CAP_S] [ROUNDS] [MODE]: how many explore runs a
# CPU-second buys, an older build's explore_bench beside this one's on the same N bugs, in the same run. N is the
# older corpus's size (19: the corpus before the newer mutants); this bench takes its first N bugs (--first N), which
# are the older corpus's, in its order.
# Each bench prints, per strategy, its runs and CPU-seconds over all its searches ("runs all-on : R runs in C
# CPU-s, X runs per CPU-second"). An older bench without that line needs it added first (Search's
# spent_cpu_seconds and the "runs" summary of explore_bench.cpp), which changes nothing it searches. Issue 34's
# older build, ebbc48c, with that line (from this repository's root):
#   git worktree add --detach ../lockcheck-ebbc48c ebbc48c && cd ../lockcheck-ebbc48c &&
#   git apply "$OLDPWD/tools/explore/bench/ebbc48c_runs_line.patch" && LOCKCHECK_BUILD_DIR="$PWD/build" tools/setup explore_bench
# then OLD_EXPLORE_BENCH is ../lockcheck-ebbc48c/build/tools/explore/explore_bench.
# Prints both benches' lines and, per strategy, the ratio new / old; with ROUNDS > 1 (default 1) the pair runs
# that many times and the median ratio per strategy follows, and the ratio of each side's best round.
# MODE paired (the default): bug by bug, the two benches one after the other on that bug alone (--only), which
# goes first alternating from bug to bug and round to round; each strategy's runs and CPU-seconds are summed
# over the bugs (a bug's CPU-seconds are its runs over its printed rate, which has more digits than its printed
# seconds). The machine's speed, which swings by half within minutes on a shared host, then falls on both
# sides of each bug within seconds: whole benches one after the other (MODE alone) put minutes between them,
# and two rounds of 20 roots printed guided 2.25x and 1.85x. MODE alone: whole benches one after the other, the
# older first in odd rounds and the newer first in even ones. MODE together: both whole benches at once, one
# core each (what this script did before 2026-12-01): the two share the memory bus and caches, and the older
# bench, which moves more bytes per run, may slow more, which would flatter the ratio.
set -euo pipefail
if (($# < 3)); then
  echo "usage: $0 OLD_EXPLORE_BENCH NEW_EXPLORE_BENCH N [ROOTS=5] [CAP_S=20] [ROUNDS=1] [MODE=paired|alone|together]" >&2
  exit 2
fi
old_bench="$1" new_bench="$2" first="$3" roots="${4:-5}" cap_s="${5:-20}" rounds="${6:-1}" mode="${7:-paired}"
if [[ "$mode" != paired && "$mode" != alone && "$mode" != together ]]; then
  echo "runs_per_cpu: MODE must be paired, alone or together, not '$mode'" >&2
  exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  echo "runs_per_cpu: ROUNDS must be a positive whole number, not '$rounds'" >&2
  exit 2
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
common=(--roots "$roots" --cap-s "$cap_s" --jobs 1 --strategies all-on,swarm,guided)
if [[ "$mode" == paired ]]; then
  # The older corpus's bug names, in its order: its rows of a one-root search with almost no CPU.
  mapfile -t bugs < <("$old_bench" --roots 1 --cap-s 0.01 --jobs 1 --strategies all-on 2>/dev/null |
    awk '$2 == "all-on" && $1 != "runs" && $1 != "summary" { print $1 }' | head -n "$first")
  if ((${#bugs[@]} == 0)); then
    echo "runs_per_cpu: the old bench listed no bugs" >&2
    exit 2
  fi
  new_extra=()
  # A bench with --no-defaults skips its defaults section, which --only would otherwise run per script bug.
  if "$new_bench" --unknown-flag 2>&1 | grep -q -- --no-defaults; then new_extra=(--no-defaults); fi
fi
# Sums a paired round's per-bug `runs` lines into one line per strategy, in the benches' own format.
sum_runs() {
  awk '/^runs / { runs[$2] += $4; cpu[$2] += ($(NF-3) > 0 ? $4 / $(NF-3) : 0) }
       END { for (s in runs) if (cpu[s] > 0) printf "runs %-7s: %d runs in %.1f CPU-s, %.1f runs per CPU-second\n", s, runs[s], cpu[s], runs[s] / cpu[s] }' "$1" | sort
}
for ((round = 1; round <= rounds; ++round)); do
  ((rounds == 1)) || echo "== round $round of $rounds"
  # Exit 1 is a missed target, not a failed measurement: `|| true`.
  if [[ "$mode" == paired ]]; then
    : > "$out/old.parts"
    : > "$out/new.parts"
    for ((index = 0; index < ${#bugs[@]}; ++index)); do
      if (((round + index) % 2 == 1)); then sides=(old new); else sides=(new old); fi
      for side in "${sides[@]}"; do
        if [[ "$side" == old ]]; then
          "$old_bench" "${common[@]}" --only "${bugs[index]}" >> "$out/old.parts" || true
        else
          "$new_bench" "${common[@]}" --first "$first" --only "${bugs[index]}" "${new_extra[@]}" >> "$out/new.parts" || true
        fi
      done
    done
    sum_runs "$out/old.parts" > "$out/old.txt"
    sum_runs "$out/new.parts" > "$out/new.txt"
  elif [[ "$mode" == together ]]; then
    "$old_bench" "${common[@]}" > "$out/old.txt" &
    old_pid=$!
    "$new_bench" "${common[@]}" --first "$first" > "$out/new.txt" &
    new_pid=$!
    wait "$old_pid" || true
    wait "$new_pid" || true
  elif ((round % 2 == 1)); then
    "$old_bench" "${common[@]}" > "$out/old.txt" || true
    "$new_bench" "${common[@]}" --first "$first" > "$out/new.txt" || true
  else
    "$new_bench" "${common[@]}" --first "$first" > "$out/new.txt" || true
    "$old_bench" "${common[@]}" > "$out/old.txt" || true
  fi
  for side in old new; do
    if ! grep -q '^runs ' "$out/$side.txt"; then
      echo "runs_per_cpu: the $side bench printed no 'runs' line (see the comment at the top)" >&2
      cat "$out/$side.txt" >&2
      exit 2
    fi
    [[ "$mode" == paired ]] && echo "== $side: ${#bugs[@]} bugs, one at a time" ||
      echo "== $side: $(grep -c '/' "$out/$side.txt" | tr -d ' ') rows"
    grep -E "^(runs|events|summary|ratio)" "$out/$side.txt"
  done
  awk '/^runs / { rate[FILENAME, $2] = $(NF-3); names[$2] = 1 }
       END { for (s in names) printf "runs per CPU-second, new / old, %s: %.2fx\n", s, rate[ARGV[2], s] / rate[ARGV[1], s] }' \
    "$out/old.txt" "$out/new.txt" | sort | tee -a "$out/ratios.txt"
  for side in old new; do awk -v side="$side" '/^runs / { print side, $2, $(NF-3) }' "$out/$side.txt" >> "$out/rates.txt"; done
done
if ((rounds > 1)); then
  # The median of each strategy's ratios over the rounds (the lower middle one for an even count).
  awk '{ sub(/x$/, "", $NF); name = $(NF-1); ratios[name] = ratios[name] " " $NF }
       END {
         for (name in ratios) {
           n = split(substr(ratios[name], 2), values, " ")
           for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (values[j] + 0 < values[i] + 0) { t = values[i]; values[i] = values[j]; values[j] = t }
           printf "median over %d rounds, runs per CPU-second, new / old, %s %.2fx (lowest %.2fx, highest %.2fx)\n", n, name, values[int((n + 1) / 2)], values[1], values[n]
         }
       }' "$out/ratios.txt" | sort
  # Each side's best round: a shared machine only ever slows a run down (other tenants, a busy memory bus), so
  # the fastest of several rounds is the closest to what the build costs; the work itself is the same every
  # round (the searches end at their finds, the same runs for a root seed).
  awk '{ if ($3 + 0 > best[$1, $2] + 0) best[$1, $2] = $3; names[$2] = 1 }
       END { for (s in names) printf "best of each side over the rounds, runs per CPU-second, %s: new %.1f, old %.1f, new / old %.2fx\n", s, best["new", s], best["old", s], best["new", s] / best["old", s] }' \
    "$out/rates.txt" | sort
fi
exit 0
