// lockcheck judge adapter for @microfleet/ioredis-lock (an ES module) over ioredis, speaking PROTOCOL.md.
// Single Redis (one ioredis client) or a cluster (an ioredis Cluster). Its key is LOCKCHECK_KEY itself.
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/microfleet_ioredis_lock.js (DIR: install.sh DIR)
const { importInstalled, redisClients, serve } = require("./judge_protocol");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const DELAY = 50; // ms between attempts: the library's default

(async () => {
  const { createLock } = await importInstalled("@microfleet/ioredis-lock");
  const [client] = redisClients();
  let lock = null; // a Lock holds one key at a time, with one value (its own uuid): a new one per acquire
  serve("@microfleet/ioredis-lock", "@microfleet/ioredis-lock", {
    // retries = the extra attempts that fit in wait_ms (0: one attempt); jitter 1: exactly `delay` apart.
    async acquire(r) {
      const candidate = createLock(client, { timeout: ttl, retries: Math.floor((r.wait_ms || 0) / DELAY), delay: DELAY, jitter: 1 });
      try { await candidate.acquire(key); } catch (e) {
        // Every failure is a LockAcquisitionError; only this message says the key was someone else's.
        if (/^Could not acquire lock on/.test(e.message)) e.definite = true;
        throw e;
      }
      lock = candidate;
    },
    async use() {}, // no fencing token
    async renew() {
      if (!lock) throw Object.assign(new Error("not held"), { definite: true });
      try { await lock.extend(ttl); } catch (e) { if (/had expired$/.test(e.message)) e.definite = true; throw e; }
    },
    // release deletes only its own value (delifequal); "had expired" when the key was not ours any more.
    async release() {
      if (!lock) throw Object.assign(new Error("not held"), { definite: true });
      const l = lock;
      lock = null;
      try { await l.release(); } catch (e) { if (/had expired$/.test(e.message)) e.definite = true; throw e; }
    },
  });
})();
