#!/usr/bin/env bash
# runs_per_cpu.sh OLD_EXPLORE_BENCH NEW_EXPLORE_BENCH N [ROOTS] [CAP_S]: how many explore runs a CPU-second
# buys, an older build's explore_bench beside this one's on the same N bugs, in the same run: the two at once,
# one core each, so the machine's load falls on both. N is the older corpus's size (19 before the eight newer
# mutants); this bench takes its first N bugs (--first N), which are the older corpus's, in its order.
# Each bench prints, per strategy, its runs and CPU-seconds over all its searches ("runs all-on : R runs in C
# CPU-s, X runs per CPU-second"). An older bench without that line needs it added first (Search's
# spent_cpu_seconds and the "runs" summary of explore_bench.cpp), which changes nothing it searches.
# Prints both benches' lines and, per strategy, the ratio new / old.
set -euo pipefail
if (($# < 3)); then
  echo "usage: $0 OLD_EXPLORE_BENCH NEW_EXPLORE_BENCH N [ROOTS=5] [CAP_S=20]" >&2
  exit 2
fi
old_bench="$1" new_bench="$2" first="$3" roots="${4:-5}" cap_s="${5:-20}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
common=(--roots "$roots" --cap-s "$cap_s" --jobs 1 --strategies all-on,swarm,guided)
"$old_bench" "${common[@]}" > "$out/old.txt" &
old_pid=$!
"$new_bench" "${common[@]}" --first "$first" > "$out/new.txt" &
new_pid=$!
status=0
wait "$old_pid" || status=$?  # exit 1 is a missed target, not a failed measurement
wait "$new_pid" || status=$?
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
  "$out/old.txt" "$out/new.txt" | sort
exit 0
