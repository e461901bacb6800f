// Track-record adapter: node-redlock 4.x (npm `redlock@4.2.0`, the last 4.x) over ioredis, speaking
// PROTOCOL.md, to compare with the 5.x line (../node_redlock.js) on the bugs in ../../TRACK_RECORD.md.
// Run: NODE_PATH=DIR/node_modules node .../track/node_redlock_v4.js (DIR: install.sh DIR redlock@4.2.0)
const fs = require("fs"), path = require("path"), readline = require("readline");
const Redis = require("ioredis");
const Redlock = require("redlock");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
// connectionName: ioredis sends CLIENT SETNAME on every (re)connection.
const clients = env.LOCKCHECK_REDIS.split(",").map((a) => {
  const colon = a.lastIndexOf(":");
  return new Redis({ host: a.slice(0, colon), port: Number(a.slice(colon + 1)), connectionName: env.LOCKCHECK_CLIENT_NAME });
});
const RETRY_DELAY = 100; // as ../node_redlock.js
let lock = null;

const ops = {
  // 4.x reads retryCount from the instance (`options.retryCount || this.retryCount` would turn 0
  // into the default 10), so each acquire gets a Redlock with its own retryCount.
  async acquire(r) {
    const retryCount = Math.floor((r.wait_ms || 0) / RETRY_DELAY);
    const rl = new Redlock(clients, { retryCount, retryDelay: RETRY_DELAY, retryJitter: 50 });
    rl.on("clientError", (e) => console.error("clientError:", e.message));
    lock = await rl.lock(key, ttl);
  },
  async use() {},
  async renew() { if (!lock) throw new Error("not held"); lock = await lock.extend(ttl); },
  async release() { if (!lock) throw new Error("not held"); const l = lock; lock = null; await l.unlock(); },
  async held() { return { held: lock !== null && lock.expiration > Date.now() }; },
};
const version = (name) => {
  for (const d of require.resolve.paths(name)) {
    try { return JSON.parse(fs.readFileSync(path.join(d, name, "package.json"))).version; } catch {}
  }
};
const out = (m) => process.stdout.write(JSON.stringify(m) + "\n");
out({ type: "hello", client: "node-redlock", version: version("redlock"), ops: Object.keys(ops) });
let chain = Promise.resolve();
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const r = JSON.parse(line);
  chain = chain.then(async () => {
    if (!ops[r.op]) return out({ id: r.id, type: "fail", error: "unsupported" });
    try { out({ id: r.id, type: "ok", ...(await ops[r.op](r)) }); }
    // 4.x reports every failure, a refusal or a connection error, as one LockError: we say fail,
    // which is wrong for a lost reply (it may have happened); fine for the loopback runs here.
    catch (e) { out({ id: r.id, type: "fail", error: e.message }); }
  });
}).on("close", () => chain.then(() => process.exit(0)));
