// Track-record adapter: redis-lock (errorception; npm `redis-lock@0.0.8` and `@0.0.9`) over node_redis 0.10.1
// with `detect_buffers: true`, speaking PROTOCOL.md, for redis-lock PR #13 in ../../TRACK_RECORD.md. The ops
// are ../redis_lock.js's; only the client differs. With detect_buffers node_redis 0.10 has its parser return
// Buffers and turns them into strings for commands sent with string arguments, integer replies included: SETNX
// answers "0" or "1", not 0 or 1 (its default, numbers, is what ../redis_lock.js gets).
// Run: NODE_PATH=DIR/node_modules node .../track/redis_lock_detect_buffers.js
//   (DIR: install.sh --only DIR redis-lock@0.0.8 redis@0.10.1)
require("../redis_lock").serveRedisLock({ detect_buffers: true });
