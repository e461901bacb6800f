// lockcheck judge adapter for node-redlock 4.x (npm `redlock@4.2.0`, the last 4.x: 5.x never left beta) over
// ioredis, speaking PROTOCOL.md; the track record's (../TRACK_RECORD.md) version without 5.x's missing check.
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/node_redlock_v4.js (DIR: install.sh DIR, which
// installs it beside 5.x as the alias redlock-v4; or install.sh --only DIR redlock@4.2.0 ioredis@5.9.3)
const { redisClients, requireInstalled, serve } = require("./judge_protocol");
let pkg = "redlock-v4", Redlock;
try { Redlock = require(pkg); } catch { pkg = "redlock"; Redlock = requireInstalled(pkg); }
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const clients = redisClients();
const RETRY_DELAY = 100; // as node_redlock.js
let lock = null;
const validity = (l) => ({ validUntil: performance.now() + (l.expiration - Date.now()) }); // as node_redlock.js

const ops = {
  // 4.x reads retryCount from the instance (`options.retryCount || this.retryCount` would turn 0
  // into the default 10), so each acquire gets a Redlock with its own retryCount.
  async acquire(r) {
    const retryCount = Math.floor((r.wait_ms || 0) / RETRY_DELAY);
    const rl = new Redlock(clients, { retryCount, retryDelay: RETRY_DELAY, retryJitter: 50 });
    rl.on("clientError", (e) => console.error("clientError:", e.message));
    lock = await rl.lock(key, ttl);
    return validity(lock);
  },
  async use() {},
  async renew() { if (!lock) throw new Error("not held"); lock = await lock.extend(ttl); return validity(lock); },
  async release() { if (!lock) throw new Error("not held"); const l = lock; lock = null; await l.unlock(); },
  async held() { return { held: lock !== null && lock.expiration > Date.now() }; },
};
// 4.x reports every failure, a refusal or a connection error, as one LockError: we say fail, which is wrong
// for a lost reply (it may have happened); fine for the loopback runs here.
serve("node-redlock", pkg, ops, async () => "fail");
