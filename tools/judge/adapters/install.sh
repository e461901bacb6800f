#!/bin/sh
# Installs the npm packages the Node adapters need into DIR (never globally):
#   sh tools/judge/adapters/install.sh DIR [pkg@version ...]
# then run an adapter with NODE_PATH=DIR/node_modules. Extra arguments replace the
# pinned versions, e.g. `install.sh DIR redis-semaphore@5.3.0` for a
# track-record run (see TRACK_RECORD.md). The Python adapter needs no install:
# Debian's python3-redis (apt-get install python3-redis).
set -eu
if [ $# -lt 1 ]; then echo "usage: $0 DIR [pkg@version ...]" >&2; exit 2; fi
dir=$1; shift
# The versions the shipped adapters are written against.
ioredis=ioredis@5.9.3
redlock=redlock@5.0.0-beta.2
semaphore=redis-semaphore@5.8.0
for spec in "$@"; do
  case $spec in
    ioredis@*) ioredis=$spec ;;
    redlock@*) redlock=$spec ;;
    redis-semaphore@*) semaphore=$spec ;;
    *) echo "install.sh: unknown package $spec" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir"
# --prefix keeps everything under DIR/node_modules; an empty package.json there
# stops npm from walking up to a parent project.
[ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
npm install --no-audit --no-fund --save-exact --prefix "$dir" "$ioredis" "$redlock" "$semaphore"
echo "installed into $dir/node_modules: $ioredis $redlock $semaphore"
