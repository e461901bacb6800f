// lockcheck judge adapter for redlock-universal over ioredis, speaking PROTOCOL.md: its SimpleLock on a single
// Redis (createLock), its RedLock over every master (createRedlock, LOCKCHECK_TOPOLOGY=redlock). Its key is
// LOCKCHECK_KEY itself. Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/redlock_universal.js
const { redisClients, requireInstalled, serve } = require("./judge_protocol");
const { createLock, createRedlock, IoredisAdapter } = requireInstalled("redlock-universal");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const RETRY_DELAY = 100; // ms between attempts: SimpleLock's default
const adapters = redisClients().map((client) => new IoredisAdapter(client));

let lock = null, handle = null;
// retryAttempts = the extra attempts that fit in wait_ms (0: one attempt).
function lockFor(waitMs) {
  const settings = { key, ttl, retryAttempts: Math.floor(waitMs / RETRY_DELAY), retryDelay: RETRY_DELAY };
  return env.LOCKCHECK_TOPOLOGY === "redlock" ? createRedlock({ adapters, ...settings }) : createLock({ adapter: adapters[0], ...settings });
}
const definite = (e) => Object.assign(e, { definite: true });
serve("redlock-universal", "redlock-universal", {
  async acquire(r) {
    const candidate = lockFor(r.wait_ms || 0);
    try { handle = await candidate.acquire(); } catch (e) {
      if (e.name === "LockAcquisitionError" && !/circuit|connect|timeout/i.test(e.message)) definite(e);
      throw e;
    }
    lock = candidate;
  },
  async use() {}, // no fencing token
  async renew() {
    if (!lock) throw definite(new Error("not held"));
    if (!(await lock.extend(handle, ttl))) throw definite(new Error("not extended (not ours any more)"));
  },
  async release() {
    if (!lock) throw definite(new Error("not held"));
    const [l, h] = [lock, handle];
    lock = handle = null;
    if (!(await l.release(h))) throw definite(new Error("not released (not ours any more)"));
  },
});
