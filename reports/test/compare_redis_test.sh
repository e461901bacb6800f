#!/usr/bin/env bash
# `lockcheck compare --backend redis`: one cell on real redis-servers, marked as such in every output.
# Usage: compare_redis_test.sh path/to/lockcheck
set -uo pipefail
lockcheck="$(realpath "$1")"
# shellcheck source=/dev/null
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lockcheck/test/expect.sh"

# One cell on real redis-servers (8 s of real time): the matrix and results say which backend made them.
"$lockcheck" compare --backend redis --variants token --faults baseline --runs 1 --out "$work/redis" > "$work/redis.out" 2>&1
code=$?
expect "compare --backend redis runs a cell (got $code)" test "$code" -eq 0
expect "the matrix names the redis backend" grep -q 'on the `redis` backend' "$work/redis/matrix.md"
expect "results.json marks the cell's backend" grep -q '"backend": *"redis"' "$work/redis/results.json"
expect "the baseline holds on real Redis" grep -q '| `token` | ✓ |' "$work/redis/matrix.md"

expect_summary
