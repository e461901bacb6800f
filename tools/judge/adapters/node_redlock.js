// lockcheck judge adapter for node-redlock 5 (npm `redlock`) over ioredis, speaking PROTOCOL.md.
// One ioredis client per address of LOCKCHECK_REDIS: Redlock over N masters (single: N = 1).
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/node_redlock.js (DIR from install.sh)
const fs = require("fs"), path = require("path"), readline = require("readline");
const Redis = require("ioredis");
const { default: Redlock, ResourceLockedError } = require("redlock");
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
// connectionName: ioredis sends CLIENT SETNAME on every (re)connection.
const clients = env.LOCKCHECK_REDIS.split(",").map((a) => {
  const [host, port] = [a.slice(0, a.lastIndexOf(":")), Number(a.slice(a.lastIndexOf(":") + 1))];
  return new Redis({ host, port, connectionName: env.LOCKCHECK_CLIENT_NAME });
});
const RETRY_DELAY = 100; // ms between attempts (plus up to 50 ms jitter: the library's anti-herd)
const redlock = new Redlock(clients, { retryDelay: RETRY_DELAY, retryJitter: 50 });
let lock = null; // the one lease this client may hold; extend() returns a new Lock object

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
  },
  async use() {}, // no fencing token in node-redlock; answering now is performing now
  async renew() { if (!lock) throw new Error("not held"); lock = await lock.extend(ttl); },
  async release() { if (!lock) throw new Error("not held"); const l = lock; lock = null; await l.release(); },
  // The library's own notion: the Lock's validity (expiration, in this process's clock).
  async held() { return { held: lock !== null && lock.expiration > Date.now() }; },
};
const version = (name) => { // redlock's "exports" hides package.json from require(): read it
  for (const d of require.resolve.paths(name)) { // an npm alias (redlock@npm:fork@v) shows the fork's name
    try { const p = JSON.parse(fs.readFileSync(path.join(d, name, "package.json")));
      return p.name === name ? p.version : `${p.name}@${p.version}`; } catch {}
  }
};
const out = (m) => process.stdout.write(JSON.stringify(m) + "\n"); // pipes: written synchronously
out({ type: "hello", client: "node-redlock", version: version("redlock"), ops: Object.keys(ops) });
let chain = Promise.resolve(); // one request at a time, in order
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const r = JSON.parse(line);
  chain = chain.then(async () => {
    if (!ops[r.op]) return out({ id: r.id, type: "fail", error: "unsupported" });
    try {
      out({ id: r.id, type: "ok", ...(await ops[r.op](r)) });
    } catch (e) {
      if (e.message === "not held") return out({ id: r.id, type: "fail", error: e.message });
      out({ id: r.id, type: (await definite(e)) ? "fail" : "info", error: e.message });
    }
  });
}).on("close", () => chain.then(() => process.exit(0)));
