#!/bin/sh
# Installs the npm packages the Node adapters need into DIR (never globally):
#   sh tools/judge/adapters/install.sh DIR [pkg@version ...]
#   sh tools/judge/adapters/install.sh --only DIR pkg@version ...
# then run an adapter with NODE_PATH=DIR/node_modules. Without --only: every pinned version below, extra
# arguments replacing the pin of the same package (e.g. `install.sh DIR redis-semaphore@5.3.0`). With --only:
# just the given packages (the track record's rows, tools/judge/track/rows.toml, install each side so). The
# Python adapters need no install: Debian's python3-redis (apt-get install python3-redis).
set -eu
only=0
if [ "${1:-}" = "--only" ]; then only=1; shift; fi
if [ $# -lt 1 ]; then echo "usage: $0 [--only] DIR [pkg@version ...]" >&2; exit 2; fi
dir=$1; shift
# The versions the shipped adapters are written against (adapters/README.md), by package name. redlock 4.2.0
# sits beside 5.x under the alias redlock-v4 (node_redlock_v4.js loads either name). redis-lock is the last
# 0.x, whose API takes node_redis 3 (as warlock does: under the alias redis-v3, for redlock-universal's optional
# peer is node-redis >= 4); redis-lock 1.0.0 takes node-redis 4 (install it with --only).
pins="ioredis@5.9.3 redlock@5.0.0-beta.2 redlock-v4@npm:redlock@4.2.0 redis-semaphore@5.8.0 redis-v3@npm:redis@3.1.2
redis-lock@0.1.4 node-redis-warlock@1.0.2 redlock-universal@0.8.5 @microfleet/ioredis-lock@6.0.1 node-redisson@1.0.4"
name_of() { case $1 in @*) echo "@$(echo "${1#@}" | cut -d@ -f1)" ;; *) echo "$1" | cut -d@ -f1 ;; esac; }
if [ $only = 1 ]; then
  [ $# -gt 0 ] || { echo "install.sh --only: name the packages" >&2; exit 2; }
  specs="$*"
else
  specs=""
  for pin in $pins; do
    chosen=$pin
    for spec in "$@"; do [ "$(name_of "$spec")" = "$(name_of "$pin")" ] && chosen=$spec; done
    specs="$specs $chosen"
  done
  for spec in "$@"; do
    case " $pins " in *" $(name_of "$spec")@"*) ;; *) echo "install.sh: $spec is not a pinned package (use --only)" >&2; exit 2 ;; esac
  done
fi
mkdir -p "$dir"
# --prefix keeps everything under DIR/node_modules; an empty package.json there stops npm from walking up to a
# parent project.
[ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
# shellcheck disable=SC2086 # one word per package spec
npm install --no-audit --no-fund --save-exact --prefix "$dir" $specs
echo "installed into $dir/node_modules:$specs"
