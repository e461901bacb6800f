// lockcheck judge adapter for node-redisson's RLock (a port of Java Redisson's lock: a hash whose field is the
// holder's id, a reentrancy counter its value) over ioredis, speaking PROTOCOL.md. Single Redis only. Its key
// is LOCKCHECK_KEY itself. Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/node_redisson.js
const { requireInstalled, serve } = require("./judge_protocol");
const { Redisson } = requireInstalled("node-redisson");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const first = env.LOCKCHECK_REDIS.split(",")[0], colon = first.lastIndexOf(":");
const redisson = new Redisson({
  redis: { options: { host: first.slice(0, colon), port: Number(first.slice(colon + 1)), connectionName: env.LOCKCHECK_CLIENT_NAME } },
  lockWatchdogTimeout: BigInt(ttl), // used only by lock()/tryLock() without a lease time: not driven here
});
const definite = (e) => Object.assign(e, { definite: true });
let lock = null; // one RLock (one holder id) per acquire, so that a lease is never re-entered
serve("node-redisson RLock", "node-redisson", {
  // tryLock(waitTime, leaseTime) in ms: the lease is the scenario's TTL, with no watchdog (like every other
  // adapter here; lockcheck's estimate of the validity then matches the key's PEXPIRE).
  async acquire(r) {
    const candidate = redisson.getLock(key);
    if (!(await candidate.tryLock(r.wait_ms || 0, ttl))) throw definite(new Error("not acquired"));
    lock = candidate;
  },
  async use() {}, // no fencing token
  // unlock() throws RedissonLockError "attempt to unlock lock, not locked by current client" when the hash has
  // no field of ours any more.
  async release() {
    if (!lock) throw definite(new Error("not held"));
    const l = lock;
    lock = null;
    try { await l.unlock(); } catch (e) { if (/not locked by current client/.test(e.message)) definite(e); throw e; }
  },
});
