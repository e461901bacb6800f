#!/usr/bin/env bash
# compare --backend redis --server serve: every node is a `lockcheck serve` process. The fault-free cell runs
# for the in-process token variant and for lockcheck's own Mutex through the judge protocol, and both hold;
# the failover cell needs a replica, which serve has not, so it is not run and its note says why; without
# --backend redis the option is refused (exit 2).
set -euo pipefail
lockcheck=$1 mutex_adapter=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "compare_on_serve: $*" >&2; exit 1; }

"$lockcheck" compare --backend redis --server serve --variants token --clients "mutex=$mutex_adapter" \
  --faults baseline,failover --runs 1 --out "$out" > /dev/null
matrix="$out/matrix.md"
# The client-level mutual exclusion table: each row's cell under "no faults", then under failover.
row() { awk -v name="$1" -F'|' '/^## Mutual exclusion, client level/ { on = 1 } on && $2 ~ "`" name "`" { print $3 "|" $4; exit }' "$matrix"; }
[[ "$(row token)" == " ✓ |  " ]] || fail "token's row is '$(row token)', expected a held baseline and no failover cell"
[[ "$(row client:mutex)" == " ✓ |  " ]] || fail "client:mutex's row is '$(row client:mutex)', expected the same as token's"
grep -q 'Run on `lockcheck serve` processes' "$matrix" || fail "matrix.md does not say the nodes were lockcheck serve"
for variant in token client:mutex; do
  grep -q "\`$variant\` under \`failover\` is not run on \`lockcheck serve\`: .*cannot run a replica" "$matrix" ||
    fail "matrix.md has no note that $variant under failover was not run"
done

status=0
"$lockcheck" compare --server serve --variants token --faults baseline --runs 1 > /dev/null 2> "$out/refused" || status=$?
[[ $status == 2 ]] || fail "--server serve without --backend redis exited $status, expected 2"
grep -q "add --backend redis" "$out/refused" || fail "the refusal does not say what to add: $(cat "$out/refused")"
echo "compare_on_serve: token and client:mutex hold without faults on lockcheck serve; failover not run, and said"
