// lockcheck judge adapter for redis-semaphore's Mutex (npm) over ioredis, speaking PROTOCOL.md.
// The key it writes is `mutex:<LOCKCHECK_KEY>` (the library's prefix). Single Redis only.
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/redis_semaphore_mutex.js (DIR from install.sh)
const { redisClients, serve } = require("./judge_protocol");
const { Mutex } = require("redis-semaphore");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
if ((env.LOCKCHECK_TOPOLOGY || "single") !== "single") {
  console.error("redis_semaphore_mutex: Mutex is for LOCKCHECK_TOPOLOGY=single (RedlockMutex: redis_semaphore_redlock.js)");
  process.exit(2);
}
const [client] = redisClients();
let mutex = null; // the one lease this client may hold (a Mutex object holds one identifier)

const ops = {
  async acquire(r) {
    const wait = r.wait_ms || 0;
    // The library loops while now < start + acquireTimeout, so acquireTimeout 0 would make no attempt:
    // wait 0 is one attempt (acquireAttemptsLimit 1). lockTimeout = TTL; the library refreshes the
    // key in the background every refreshInterval (default 0.8 * lockTimeout) until release.
    const m = new Mutex(client, key, {
      lockTimeout: ttl,
      ...(wait > 0 ? { acquireTimeout: wait } : { acquireTimeout: ttl, acquireAttemptsLimit: 1 }),
      // Default onLockLost throws from a timer (an unhandled rejection that kills node);
      // a service logs it and sees isAcquired turn false, as we do.
      onLockLost: (err) => console.error("onLockLost:", err.message),
    });
    if (!(await m.tryAcquire())) throw Object.assign(new Error("not acquired"), { definite: true });
    mutex = m;
  },
  // The library's contract: a holder checks isAcquired (turned false by a failed refresh) before it acts.
  async use() { if (!mutex || !mutex.isAcquired) throw Object.assign(new Error("lock lost"), { definite: true }); },
  // No renew: refresh is protected (_refresh), run only by the library's own timer.
  async release() {
    if (!mutex) throw Object.assign(new Error("not held"), { definite: true });
    const m = mutex; mutex = null;
    await m.release(); // resolves whether or not the key was still ours (the library does not say)
  },
  async held() { return { held: mutex !== null && mutex.isAcquired }; }, // false once a refresh failed
};
serve("redis-semaphore Mutex", "redis-semaphore", ops);
