#!/usr/bin/env bash
# The README's excerpt of the comparison: the client-level table of matrix.md without its links, kept between
# the markers <!-- compare:client-level --> and <!-- /compare:client-level --> in README.md.
#   readme_excerpt.sh print MATRIX.md            prints the excerpt
#   readme_excerpt.sh update MATRIX.md README.md  replaces the README's excerpt with it (tools/compare does this)
set -euo pipefail
mode="$1"
matrix="$2"

excerpt() {
  awk '/^## Mutual exclusion, client level/ { inside = 1; next } inside && /^## / { exit } inside && /^\|/ { print }' \
    "$matrix" | sed -E 's/ \[seed [0-9]+\]\([^)]*\)//g'
}

case "$mode" in
  print) excerpt ;;
  update)
    readme="$3"
    grep -q '^<!-- compare:client-level -->$' "$readme" || { echo "no <!-- compare:client-level --> marker in $readme" >&2; exit 1; }
    table="$(excerpt)"
    table="$table" awk '
      /^<!-- compare:client-level -->$/ { print; print ENVIRON["table"]; skipping = 1; next }
      /^<!-- \/compare:client-level -->$/ { skipping = 0 }
      !skipping { print }' "$readme" > "$readme.new"
    mv "$readme.new" "$readme"
    ;;
  *) echo "usage: readme_excerpt.sh print MATRIX | update MATRIX README" >&2; exit 2 ;;
esac
