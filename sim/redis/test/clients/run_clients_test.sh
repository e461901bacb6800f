#!/usr/bin/env bash
# Real clients against served mocks (CTest label `clients`): starts four lockcheck-mock-server processes on
# free loopback ports (one with a password), runs the Node.js clients and redis-py, stops the servers by pid.
# Usage: run_clients_test.sh MOCK_SERVER_BINARY NODE_MODULES_DIR
set -euo pipefail
server_binary="$1"
node_modules="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
password="clients-test-secret"

for module in redis ioredis redlock; do
  if [[ ! -d "$node_modules/$module" ]]; then
    echo "missing npm package '$module' in $node_modules: run tools/setup (it installs the client packages)" >&2
    exit 1
  fi
done
# Debian's python3-redis belongs to Debian's interpreter (a python3 earlier on PATH may not see it).
python="${LOCKCHECK_PYTHON:-/usr/bin/python3}"
"$python" -c 'import redis' 2>/dev/null || { echo "missing python3-redis for $python: run tools/setup" >&2; exit 1; }

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Starts a server on port 0 (the kernel picks a free port); sets `port` to the port it announced. Runs in
# this shell (not a command substitution) so its pid reaches `pids` and the trap stops it.
start_server() {
  local log="$work/server$1.log"
  shift
  # Created here, not by the background job's redirect: that happens in the child, which a loaded machine may
  # not have run yet when the loop below first reads the file (sed then failed, and set -e ended the test).
  : >"$log"
  "$server_binary" --bind 127.0.0.1 --port 0 "$@" >"$log" 2>&1 &
  pids+=("$!")
  port=""
  # Readiness is the announced port; the bound (20 s) is for a server that never starts.
  for _ in $(seq 1 400); do
    port="$(sed -n 's/.*serving on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)"
    if [[ -n "$port" ]]; then return 0; fi
    sleep 0.05
  done
  echo "server $log did not start within 20 s" >&2
  cat "$log" >&2
  return 1
}

start_server 1; port1="$port"
start_server 2 --requirepass "$password"; port_password="$port"
start_server 3; port2="$port"
start_server 4; port3="$port"

status=0
NODE_PATH="$node_modules" timeout 60 node "$here/node_clients.cjs" "$port1" "$port_password" "$password" "$port2" "$port3" || status=1
timeout 60 "$python" "$here/redis_py_client.py" "$port1" "$port_password" "$password" || status=1
exit "$status"
