// lockcheck judge adapter for redis-semaphore's RedlockMutex (npm) over ioredis, speaking PROTOCOL.md:
// one ioredis client per address of LOCKCHECK_REDIS (the N masters; single: N = 1).
// The key it writes on each node is `mutex:<LOCKCHECK_KEY>` (the library's prefix).
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/redis_semaphore_redlock.js (DIR from install.sh)
const { redisClients, requireInstalled, serve } = require("./judge_protocol");
const { mutexOps } = require("./redis_semaphore_ops");
const { RedlockMutex } = requireInstalled("redis-semaphore");
const clients = redisClients();
serve("redis-semaphore RedlockMutex", "redis-semaphore",
  mutexOps((options) => new RedlockMutex(clients, process.env.LOCKCHECK_KEY, options)));
