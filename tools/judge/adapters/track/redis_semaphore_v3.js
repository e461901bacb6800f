// Track-record adapter: redis-semaphore's Mutex before 5.x (npm `redis-semaphore@3.2.1` and `@4.1.0`, over
// ioredis 4, their peer), speaking PROTOCOL.md, for issue #24 in ../../TRACK_RECORD.md. Single Redis only.
// Run: NODE_PATH=DIR/node_modules node .../track/redis_semaphore_v3.js
//   (DIR: install.sh DIR redis-semaphore@3.2.1 ioredis@4.30.1)
const { redisClients, requireInstalled, serve } = require("../judge_protocol");
const { Mutex } = requireInstalled("redis-semaphore");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const [client] = redisClients();
// Up to 4.0.x a refresh that finds the key gone throws LostLockError from the refresh timer, an unhandled
// rejection (4.1.0's default onLockLost still does). Node 12, the reporter's, only warned and went on; Node
// 15+ would kill the process. Log it and go on, as Node 12 did.
process.on("unhandledRejection", (e) => console.error("unhandledRejection:", e && e.message));
let mutex = null;

const ops = {
  async acquire(r) {
    // No tryAcquire (5.1.0) nor acquireAttemptsLimit (5.2.0) here: acquire() loops while now < start +
    // acquireTimeout and throws TimeoutError; wait 0 is acquireTimeout 1 (one attempt, in practice).
    const m = new Mutex(client, key, {
      lockTimeout: ttl, acquireTimeout: r.wait_ms || 1,
      onLockLost: (err) => console.error("onLockLost:", err.message), // 4.1.0 and later; 3.2.1 ignores it
    });
    try { await m.acquire(); } catch (e) {
      if (/^Acquire mutex .* timeout$/.test(e.message)) throw Object.assign(e, { definite: true }); // TimeoutError
      throw e;
    }
    mutex = m;
  },
  // 4.1.0's contract: check isAcquired (false once a refresh failed) before acting. 3.2.1 has no isAcquired
  // (undefined): nothing tells the holder, so it acts.
  async use() { if (!mutex || mutex.isAcquired === false) throw Object.assign(new Error("lock lost"), { definite: true }); },
  async release() {
    if (!mutex) throw Object.assign(new Error("not held"), { definite: true });
    const m = mutex; mutex = null;
    await m.release();
  },
  async held() { return { held: mutex !== null && mutex.isAcquired !== false }; },
};
serve("redis-semaphore Mutex", "redis-semaphore", ops);
