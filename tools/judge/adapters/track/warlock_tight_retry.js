// Track-record adapter: warlock (npm `node-redis-warlock@0.0.7` and `@0.1.2`) over node_redis 3, speaking
// PROTOCOL.md, for warlock issue #3 in ../../TRACK_RECORD.md. The ops are ../node_redis_warlock.js's; only the
// retry delay differs: 1 ms instead of 50, so that a waiter takes a lock within about a millisecond of its
// expiry (optimistic()'s `wait` is the application's to choose; 0.0.x has no optimistic()).
// Run: NODE_PATH=DIR/node_modules node .../track/warlock_tight_retry.js
//   (DIR: install.sh --only DIR node-redis-warlock@0.0.7 redis@3.1.2)
require("../node_redis_warlock").serveWarlock(1);
