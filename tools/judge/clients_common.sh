# Sourced by clients_report.sh and clients_explore.sh: the interpreters that load the judged clients' libraries,
# and the table of shipped adapters. Needs $node_modules (BUILD/judge-clients/node_modules) and $build_dir set.
# The interpreters, found as cmake/client_interpreters.cmake does: Debian's first, then each on PATH, the
# first that loads the libraries. The page shows the command as run, with the build directory as build/.
find_interpreter() {  # name probe-args...
  local name="$1" candidate dir
  shift
  for candidate in "/usr/bin/$name" $(IFS=:; for dir in $PATH; do echo "$dir/$name"; done); do
    [[ -x "$candidate" ]] && "$candidate" "$@" >/dev/null 2>&1 && { echo "$candidate"; return 0; }
  done
  return 1
}
python="$(find_interpreter python3 -c 'import redis')" || python=""
node="$(find_interpreter node -e "require('redlock');require('ioredis')")" || node=""
php=""
[[ -f /usr/share/php/Symfony/Component/Lock/autoload.php ]] && php="$(find_interpreter php -r 'exit(0);')"

npm_version() {  # package (as installed under node_modules, an alias allowed)
  sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$node_modules/$1/package.json" 2>/dev/null | head -1
}
deb_version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null; }

# name | kind | adapter | keys ("-": the lock's key) | library | version
clients_table() {
  local redis_py symfony
  redis_py="$(deb_version python3-redis)"
  symfony="$(deb_version php-symfony-lock)"
  cat <<EOF
node-redlock-5|node|node_redlock.js|-|node-redlock (redlock)|$(npm_version redlock)
node-redlock-4|node|node_redlock_v4.js|-|node-redlock (redlock)|$(npm_version redlock-v4)
redis-semaphore-mutex|node|redis_semaphore_mutex.js|mutex:lock|redis-semaphore Mutex|$(npm_version redis-semaphore)
redis-semaphore-redlock|node|redis_semaphore_redlock.js|mutex:lock|redis-semaphore RedlockMutex|$(npm_version redis-semaphore)
redis-lock|node|redis_lock.js|lock.lock|redis-lock (errorception)|$(npm_version redis-lock)
warlock|node|node_redis_warlock.js|-|node-redis-warlock|$(npm_version node-redis-warlock)
redlock-universal|node|redlock_universal.js|-|redlock-universal createLock|$(npm_version redlock-universal)
microfleet-ioredis-lock|node|microfleet_ioredis_lock.js|-|@microfleet/ioredis-lock|$(npm_version @microfleet/ioredis-lock)
node-redisson|node|node_redisson.js|-|node-redisson RLock|$(npm_version node-redisson)
redis-py-lock|python|redis_py_lock.py|-|redis-py Lock (Debian python3-redis)|${redis_py:-?}
redis-py-asyncio-lock|python|redis_py_asyncio_lock.py|-|redis-py asyncio Lock (Debian python3-redis)|${redis_py:-?}
symfony-lock|php|symfony_lock.php|-|symfony/lock RedisStore (Debian php-symfony-lock)|${symfony:-?}
lockcheck-mutex|binary|lockcheck_judge_mutex|-|lockcheck Mutex (this repository)|$(git rev-parse --short HEAD 2>/dev/null)
EOF
}

