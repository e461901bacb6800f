#!/usr/bin/env bash
# compare --clients: lockcheck's own Mutex through the judge protocol is a row beside the in-process token
# variant, on real Redis, and under the same faults its row reads the same: no false alarm, no blind spot.
# A fault the backend cannot make real for an external client is a note, not an empty verdict.
set -euo pipefail
lockcheck=$1 mutex_adapter=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$lockcheck" compare --backend redis --variants token --clients "mutex=$mutex_adapter" --faults baseline,pause,client-clock \
  --runs 1 --out "$out" > /dev/null
matrix="$out/matrix.md"
# Each property table: the token row's cells and the client row's for the families both ran.
# (The verdict tables come before "## Workload per variant"; the progress table's counts differ run to run.)
row() {
  awk -v name="$1" -F'|' '/^## Workload/ { exit } $2 ~ "`" name "`" { print $3 "|" $4 }' "$matrix" |
    sed 's/\[seed [0-9]*\]([^)]*)//g'
}
token=$(row token) client=$(row client:mutex)
if [[ -z "$client" || "$token" != "$client" ]]; then
  echo "compare_clients: the Mutex adapter's row differs from token's:" >&2
  echo "token:  $token" >&2
  echo "client: $client" >&2
  exit 1
fi
grep -q '`client:mutex` under `client-clock` is not run on real Redis' "$matrix" ||
  { echo "compare_clients: no note for the client-clock cell" >&2; exit 1; }
echo "compare_clients: token and client:mutex agree under baseline and pause"
