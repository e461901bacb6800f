#!/usr/bin/env bash
# README figures that a script can keep current, written between markers so that no one types them:
#   <!-- figure:NAME -->VALUE<!-- /figure -->        (invisible when the Markdown is rendered)
# NAME is one of:
#   scenario_files        files in scenarios/*.toml: what `tools/run scenarios/*.toml` runs, the CTest gate
#   expectations          the expected verdicts in their [expect] tables
#   redis_scenario_files  files in scenarios/redis/*.toml (sized for real servers)
#   tools/readme_figures.sh check    exit 1, naming each figure that differs (CTest: readme_figures_current)
#   tools/readme_figures.sh update   rewrite every marked figure in every tracked README.md
#   tools/readme_figures.sh print    the figures
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-check}"

figure() {
  case "$1" in
    scenario_files) find "$repo_root/scenarios" -maxdepth 1 -name '*.toml' | wc -l ;;
    redis_scenario_files) find "$repo_root/scenarios/redis" -maxdepth 1 -name '*.toml' | wc -l ;;
    expectations)
      # Lines `property = "holds"` / `= "violated"` inside [expect] (the scenario loader rejects anything else there).
      awk '/^[[:space:]]*\[/ { inside = ($0 ~ /^[[:space:]]*\[expect\][[:space:]]*(#.*)?$/) }
           inside && /^[[:space:]]*[a-z_]+[[:space:]]*=[[:space:]]*"(holds|violated)"/ { n++ }
           END { print n + 0 }' "$repo_root"/scenarios/*.toml ;;
    *) echo "readme_figures.sh: unknown figure '$1'" >&2; return 2 ;;
  esac
}
names=(scenario_files expectations redis_scenario_files)

readmes() { git -C "$repo_root" ls-files --full-name '*README.md' 2>/dev/null || find "$repo_root" -name README.md -not -path '*/build*' -printf '%P\n'; }

case "$mode" in
  print) for name in "${names[@]}"; do echo "$name $(figure "$name")"; done ;;
  check|update)
    declare -A value=()
    for name in "${names[@]}"; do value[$name]="$(figure "$name" | tr -d ' ')"; done
    drifted=0
    while read -r readme; do
      file="$repo_root/$readme"
      [[ -f "$file" ]] || continue
      while IFS=$'\t' read -r line name shown; do
        [[ -n "$name" ]] || continue
        if [[ -z "${value[$name]+set}" ]]; then
          echo "$readme:$line: unknown figure '$name' (known: ${names[*]})"; drifted=1
        elif [[ "$shown" != "${value[$name]}" ]]; then
          echo "$readme:$line: figure $name says $shown, the tree has ${value[$name]}"; drifted=1
        fi
      done < <(perl -ne 'while (/<!-- figure:([a-z_]+) -->(.*?)<!-- \/figure -->/g) { print "$.\t$1\t$2\n" }' "$file")
      if [[ "$mode" == update ]]; then
        for name in "${names[@]}"; do
          NAME="$name" VALUE="${value[$name]}" perl -pi -e \
            's/(<!-- figure:\Q$ENV{NAME}\E -->).*?(<!-- \/figure -->)/$1$ENV{VALUE}$2/g' "$file"
        done
      fi
    done < <(readmes)
    if [[ "$mode" == check && $drifted -ne 0 ]]; then
      echo "README figures drifted: run tools/readme_figures.sh update" >&2
      exit 1
    fi
    ;;
  *) echo "usage: readme_figures.sh check | update | print" >&2; exit 2 ;;
esac
