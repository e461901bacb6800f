// Track-record adapter: node-redlock 4.x (npm `redlock@4.2.0`, the last 4.x) over ioredis, speaking
// PROTOCOL.md, to compare with the 5.x line (../node_redlock.js) on the bugs in ../../TRACK_RECORD.md.
// Run: NODE_PATH=DIR/node_modules node .../track/node_redlock_v4.js (DIR: install.sh DIR redlock@4.2.0)
const { redisClients, requireInstalled, serve } = require("../judge_protocol");
const Redlock = requireInstalled("redlock");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const clients = redisClients();
const RETRY_DELAY = 100; // as ../node_redlock.js
let lock = null;
const validity = (l) => ({ validUntil: performance.now() + (l.expiration - Date.now()) }); // as ../node_redlock.js

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
serve("node-redlock", "redlock", ops, async () => "fail");
