#!/usr/bin/env bash
# The mock's folders as link units (README.md, "Folders"): the ground (server/, command_table/, keyspace/, util/,
# acl/, scripting/, rdb/, topology/) includes no family (types/*, commands/*), and the units' include graph has no
# cycle.
# Fails naming the file and line of each include that breaks the rule.
# Usage: link_units_test.sh <the sim/redis folder>
set -euo pipefail
mock_dir=${1:?usage: link_units_test.sh <sim/redis folder>}
cd "$mock_dir"

sources=$(find . \( -name '*.cpp' -o -name '*.hpp' \) -not -path './test/*' -not -path './fuzz/*' -not -path './bench/*' |
          sed 's|^\./||' | sort)
[[ -n $sources ]] || { echo "no sources under $mock_dir" >&2; exit 2; }

# One pass over every include of the mock's own headers: prints "edge FROM TO" per include between two units and
# "violation FILE:LINE ..." per include from the ground into a family. A path's unit: ground; types/<type> and
# commands/<family> (the families); types and commands (the type families' shared headers, the list of all
# families); wire.
report=$(awk -v ground="server command_table keyspace util acl scripting rdb topology" '
  BEGIN { split(ground, folders, " "); for (i in folders) is_ground[folders[i]] = 1 }
  function unit_of(path,    parts, n) {
    n = split(path, parts, "/")
    if (parts[1] in is_ground) return "ground"
    if ((parts[1] == "types" || parts[1] == "commands") && n >= 3) return parts[1] "/" parts[2]
    if (parts[1] == "types" || parts[1] == "commands" || parts[1] == "wire") return parts[1]
    return ""
  }
  /^#include "redis\// {
    from = unit_of(FILENAME)
    header = $2; gsub(/"/, "", header); sub(/^redis\//, "", header)
    to = unit_of(header)
    if (from == "" || to == "" || from == to) next
    print "edge", from, to
    if (from == "ground") {
      print "violation", FILENAME ":" FNR ": the ground includes redis/" header " (" to "): reach a family through the command table"
    }
  }' $sources)

violations=0
while read -r kind rest; do
  [[ $kind == violation ]] || continue
  echo "$rest" >&2
  violations=$((violations + 1))
done <<<"$report"

edges=$(awk '$1 == "edge" { print $2, $3 }' <<<"$report" | sort -u)
if ! loop=$(tsort <<<"$edges" 2>&1 >/dev/null); then
  echo "the link units' includes form a cycle:" >&2
  echo "$loop" >&2
  violations=$((violations + 1))
fi

if ((violations > 0)); then
  echo "FAIL: $violations violation(s) of the link units' direction" >&2
  exit 1
fi
echo "ok: $(wc -w <<<"$sources") files; the ground includes no family; $(wc -l <<<"$edges") unit edges, no cycle"
