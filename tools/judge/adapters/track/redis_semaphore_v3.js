// Track-record adapter: redis-semaphore's Mutex before 5.x (npm `redis-semaphore@3.2.1` and `@4.1.0`, over
// ioredis 4, their peer), speaking PROTOCOL.md, for issue #24 in ../../TRACK_RECORD.md. Single Redis only.
// Run: NODE_PATH=DIR/node_modules node .../track/redis_semaphore_v3.js
//   (DIR: install.sh DIR redis-semaphore@3.2.1 ioredis@4.30.1)
const fs = require("fs"), path = require("path"), readline = require("readline");
const Redis = require("ioredis");
const { Mutex } = require("redis-semaphore");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const a = env.LOCKCHECK_REDIS.split(",")[0], colon = a.lastIndexOf(":");
const client = new Redis({ host: a.slice(0, colon), port: Number(a.slice(colon + 1)), connectionName: env.LOCKCHECK_CLIENT_NAME });
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
const version = (name) => {
  for (const d of require.resolve.paths(name)) {
    try { return JSON.parse(fs.readFileSync(path.join(d, name, "package.json"))).version; } catch {}
  }
};
const out = (m) => process.stdout.write(JSON.stringify(m) + "\n");
out({ type: "hello", client: "redis-semaphore Mutex", version: version("redis-semaphore"), ops: Object.keys(ops) });
let chain = Promise.resolve();
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const r = JSON.parse(line);
  chain = chain.then(async () => {
    if (!ops[r.op]) return out({ id: r.id, type: "fail", error: "unsupported" });
    try { out({ id: r.id, type: "ok", ...(await ops[r.op](r)) }); }
    catch (e) { out({ id: r.id, type: e.definite ? "fail" : "info", error: e.message }); }
  });
}).on("close", () => chain.then(() => process.exit(0)));
