// lockcheck judge adapter for node-redlock 5 (npm `redlock`) over ioredis, speaking PROTOCOL.md.
// One ioredis client per address of LOCKCHECK_REDIS: Redlock over N masters (single: N = 1; cluster: one
// ioredis Cluster, which routes the lock key to its master; sentinel: one client on the sentinels' master).
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/node_redlock.js (DIR from install.sh)
const { redisClients, requireInstalled, serve } = require("./judge_protocol");
const { default: Redlock, ResourceLockedError } = requireInstalled("redlock");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const clients = redisClients();
const RETRY_DELAY = 100; // ms between attempts (plus up to 50 ms jitter: the library's anti-herd)
const redlock = new Redlock(clients, { retryDelay: RETRY_DELAY, retryJitter: 50 });
let lock = null; // the one lease this client may hold; extend() returns a new Lock object
// The Lock's own validity: `expiration` (ms on this process's wall clock) moved onto the monotonic clock.
const validity = (l) => ({ validUntil: performance.now() + (l.expiration - Date.now()) });

// Definite "did not happen": every node that voted against said the key is someone else's
// (ResourceLockedError), or the library refused locally (an already-expired lock).
async function definite(err) {
  if (!err.attempts) return false;
  if (err.attempts.length === 0) return true;
  const stats = await err.attempts[err.attempts.length - 1];
  return [...stats.votesAgainst.values()].every((e) => e instanceof ResourceLockedError);
}
const ops = {
  // retryCount = extra attempts that fit in wait_ms (0: one attempt).
  async acquire(r) {
    lock = await redlock.acquire([key], ttl, { retryCount: Math.floor((r.wait_ms || 0) / RETRY_DELAY) });
    return validity(lock);
  },
  async use() {}, // no fencing token in node-redlock; answering now is performing now
  async renew() { if (!lock) throw new Error("not held"); lock = await lock.extend(ttl); return validity(lock); },
  async release() { if (!lock) throw new Error("not held"); const l = lock; lock = null; await l.release(); },
  // The library's own notion: the Lock's validity (expiration, in this process's clock).
  async held() { return { held: lock !== null && lock.expiration > Date.now() }; },
};
serve("node-redlock", "redlock", ops, async (e) => (e.message === "not held" || (await definite(e)) ? "fail" : "info"));
