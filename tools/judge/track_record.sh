#!/usr/bin/env bash
# The judge's track record (TRACK_RECORD.md), re-run: each documented client bug with its buggy and its fixed
# (or bug-free) version installed from npm into a temporary folder (deleted after), judged by `lockcheck judge`
# on its scenario in tools/judge/track/. A slow yardstick (real time, npm installs): run and report, not CI.
#   tools/judge/track_record.sh [BUILD_DIR]      (default: build; needs lockcheck and redis-server, node, npm)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="$(cd "${1:-$repo_root/build}" && pwd)"
lockcheck="$build_dir/tools/lockcheck"
adapters="$repo_root/tools/judge/adapters"
track="$repo_root/tools/judge/track"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# install NAME PKG@VERSION...: the adapters' pinned clients, with these versions instead.
install() {
  local name=$1; shift
  sh "$adapters/install.sh" "$work/$name" "$@" >/dev/null
}

failures=0
# judge SCENARIO ADAPTER NPM_DIR PROPERTY EXPECTED [--keys K]: one row of the table.
judge() {
  local scenario=$1 adapter=$2 npm_dir=$3 property=$4 expected=$5; shift 5
  local verdict
  verdict=$(NODE_PATH="$work/$npm_dir/node_modules" "$lockcheck" judge "$track/$scenario.toml" --client "node $adapters/$adapter" "$@" 2>&1 |
            awk -v p="$property" '$1 == p { print $3, $4 }')
  local outcome=ok
  [[ "$verdict" == "$expected"* ]] || { outcome=MISMATCH; failures=$((failures + 1)); }
  printf '| %s | %s | %s | %s | expected %s | %s |\n' "$scenario" "$npm_dir" "$property" "$verdict" "$expected" "$outcome"
}

echo "track_record: installing the versions (npm) into a temporary folder" >&2
install redis-semaphore@5.3.0 redis-semaphore@5.3.0
install redis-semaphore@5.3.1 redis-semaphore@5.3.1
install redlock@5.0.0-beta.2 redlock@5.0.0-beta.2
install redlock@4.2.0 redlock@4.2.0
install redis-semaphore@3.2.1 redis-semaphore@3.2.1 ioredis@4.30.1   # 3.x and 4.x: ioredis 4 (their peer)
install redis-semaphore@4.1.0 redis-semaphore@4.1.0 ioredis@4.30.1

echo "| scenario | version | property | observed | | |"
echo "|---|---|---|---|---|---|"
judge redis-semaphore-175 redis_semaphore_mutex.js redis-semaphore@5.3.0 mutual_exclusion_client violated --keys mutex:lock
judge redis-semaphore-175 redis_semaphore_mutex.js redis-semaphore@5.3.1 mutual_exclusion_client holds --keys mutex:lock
judge node-redlock-369 node_redlock.js redlock@5.0.0-beta.2 mutual_exclusion_client violated
judge node-redlock-369 track/node_redlock_v4.js redlock@4.2.0 mutual_exclusion_client holds
judge redis-semaphore-24 track/redis_semaphore_v3.js redis-semaphore@3.2.1 mutual_exclusion_client violated --keys mutex:lock
judge redis-semaphore-24 track/redis_semaphore_v3.js redis-semaphore@4.1.0 mutual_exclusion_client holds --keys mutex:lock
exit $((failures > 0))
