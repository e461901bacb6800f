#!/usr/bin/env bash
# compare --clients: lockcheck's own Mutex through the judge protocol is a row beside the in-process token
# variant, on real Redis, and under the same families its row reads the same. Only families whose one-run
# verdicts do not depend on real-time luck: `pause` picks a random client to stop, which holds the lock in
# about four runs of five (token read ✓ beside the client's ✗ once here). The violations are compared on fixed
# schedules by judge_mutex/*.
set -euo pipefail
lockcheck=$1 mutex_adapter=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$lockcheck" compare --backend redis --variants token --clients "mutex=$mutex_adapter" --faults baseline,client-clock \
  --runs 1 --out "$out" > /dev/null
matrix="$out/matrix.md"
# Each property table: the token row's cells and the client row's for the families both ran.
# The three mutual exclusion tables (before "## Other properties": which of the other properties a one-seed
# real-time run could judge varies from run to run, and so would the test).
row() {
  awk -v name="$1" -F'|' '/^## Other properties/ { exit } $2 ~ "`" name "`" { print $3 "|" $4 }' "$matrix" |
    sed 's/\[seed [0-9]*\]([^)]*)//g'
}
token=$(row token) client=$(row client:mutex)
if [[ -z "$client" || "$token" != "$client" ]]; then
  echo "compare_clients: the Mutex adapter's row differs from token's:" >&2
  paste <(echo "$token") <(echo "$client") >&2
  exit 1
fi
echo "compare_clients: token and client:mutex agree without faults and under client clock skew"
