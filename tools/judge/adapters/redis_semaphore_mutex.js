// lockcheck judge adapter for redis-semaphore's Mutex (npm) over ioredis, speaking PROTOCOL.md.
// The key it writes is `mutex:<LOCKCHECK_KEY>` (the library's prefix). Single Redis, or Sentinel's master.
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/redis_semaphore_mutex.js (DIR from install.sh)
const { redisClients, requireInstalled, serve } = require("./judge_protocol");
const { mutexOps } = require("./redis_semaphore_ops");
const { Mutex } = requireInstalled("redis-semaphore");
const env = process.env, key = env.LOCKCHECK_KEY;
if (!["single", "sentinel"].includes(env.LOCKCHECK_TOPOLOGY || "single")) {
  console.error("redis_semaphore_mutex: Mutex is for LOCKCHECK_TOPOLOGY=single or sentinel (RedlockMutex: redis_semaphore_redlock.js)");
  process.exit(2);
}
const [client] = redisClients();
serve("redis-semaphore Mutex", "redis-semaphore", mutexOps((options) => new Mutex(client, key, options)));
