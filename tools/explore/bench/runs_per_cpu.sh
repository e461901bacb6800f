#!/usr/bin/env bash
# runs_per_cpu.sh OLD_EXPLORE_BENCH NEW_EXPLORE_BENCH N [ROOTS] [CAP_S] [ROUNDS]: how many explore runs a CPU-second
# buys, an older build's explore_bench beside this one's on the same N bugs, in the same run: the two at once,
# one core each, so the machine's load falls on both. N is the older corpus's size (19 before the eight newer
# mutants); this bench takes its first N bugs (--first N), which are the older corpus's, in its order.
# Each bench prints, per strategy, its runs and CPU-seconds over all its searches ("runs all-on : R runs in C
# CPU-s, X runs per CPU-second"). An older bench without that line needs it added first (Search's
# spent_cpu_seconds and the "runs" summary of explore_bench.cpp), which changes nothing it searches.
# Prints both benches' lines and, per strategy, the ratio new / old; with ROUNDS > 1 (default 1) the pair runs
# that many times and the median ratio per strategy follows: on a shared machine one round's ratio moves by a
# third between rounds (2026-12-01: all-on 1.53x to 2.56x over five), as the two benches slow each other unevenly.
set -euo pipefail
if (($# < 3)); then
  echo "usage: $0 OLD_EXPLORE_BENCH NEW_EXPLORE_BENCH N [ROOTS=5] [CAP_S=20] [ROUNDS=1]" >&2
  exit 2
fi
old_bench="$1" new_bench="$2" first="$3" roots="${4:-5}" cap_s="${5:-20}" rounds="${6:-1}"
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  echo "runs_per_cpu: ROUNDS must be a positive whole number, not '$rounds'" >&2
  exit 2
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
common=(--roots "$roots" --cap-s "$cap_s" --jobs 1 --strategies all-on,swarm,guided)
for ((round = 1; round <= rounds; ++round)); do
  ((rounds == 1)) || echo "== round $round of $rounds"
  "$old_bench" "${common[@]}" > "$out/old.txt" &
  old_pid=$!
  "$new_bench" "${common[@]}" --first "$first" > "$out/new.txt" &
  new_pid=$!
  wait "$old_pid" || true  # exit 1 is a missed target, not a failed measurement
  wait "$new_pid" || true
  for side in old new; do
    if ! grep -q '^runs ' "$out/$side.txt"; then
      echo "runs_per_cpu: the $side bench printed no 'runs' line (see the comment at the top)" >&2
      cat "$out/$side.txt" >&2
      exit 2
    fi
    echo "== $side: $(grep -c '/' "$out/$side.txt" | tr -d ' ') rows"
    grep -E "^(runs|events|summary|ratio)" "$out/$side.txt"
  done
  awk '/^runs / { rate[FILENAME, $2] = $(NF-3); names[$2] = 1 }
       END { for (s in names) printf "runs per CPU-second, new / old, %s: %.2fx\n", s, rate[ARGV[2], s] / rate[ARGV[1], s] }' \
    "$out/old.txt" "$out/new.txt" | sort | tee -a "$out/ratios.txt"
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
fi
exit 0
