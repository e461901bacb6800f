// lockcheck judge adapter for warlock (npm `node-redis-warlock`) over node_redis 3, speaking PROTOCOL.md.
// Single Redis only. Its key is LOCKCHECK_KEY itself: the adapter sets warlock.makeKey to the identity (the
// library documents makeKey as the place to choose the key; 0.0.x would write lock:<md5>, later <key>:lock).
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/node_redis_warlock.js (DIR: install.sh DIR)
const { nodeRedisV3Client, requireInstalled, serve } = require("./judge_protocol");
const Warlock = requireInstalled("node-redis-warlock");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const RETRY_DELAY = 50; // ms between attempts within wait_ms (warlock.optimistic's `wait`, from 0.1.0)

// Serves the protocol over a client of its own, retrying every `retryDelayMs` (the application's choice, as
// optimistic()'s `wait` is: a track-record adapter's, track/warlock_tight_retry.js).
async function serveWarlock(retryDelayMs = RETRY_DELAY) {
  const warlock = Warlock(await nodeRedisV3Client());
  warlock.makeKey = (k) => k;
  // lock() makes one attempt and calls back with an unlock function, or false when the key is taken.
  const attempt = () => new Promise((resolve, reject) => warlock.lock(key, ttl, (e, unlock) => (e ? reject(e) : resolve(unlock))));
  let unlock = null;
  serve("warlock", "node-redis-warlock", {
    // Attempts every retryDelayMs while wait_ms lasts (0: one attempt), as optimistic() does; 0.0.x has no
    // optimistic(), so the adapter loops the same way for every version.
    async acquire(r) {
      const end = performance.now() + (r.wait_ms || 0);
      for (;;) {
        const got = await attempt();
        if (got) { unlock = got; return; }
        if (performance.now() + retryDelayMs > end) throw Object.assign(new Error("not acquired"), { definite: true });
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      }
    },
    async use() {}, // no fencing token
    // The unlock script deletes the key only if it still holds this lock's value: 0.0.x's value is the
    // locking process's Date.now(), 0.1.0 and later a uuid v1.
    async release() {
      if (!unlock) throw Object.assign(new Error("not held"), { definite: true });
      const u = unlock;
      unlock = null;
      const deleted = await new Promise((resolve, reject) => u((e, n) => (e ? reject(e) : resolve(Number(n)))));
      if (deleted !== 1) throw Object.assign(new Error("not ours any more (nothing deleted)"), { definite: true });
    },
  });
}
module.exports = { serveWarlock };
if (require.main === module) serveWarlock();
