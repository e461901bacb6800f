// lockcheck judge adapter for redis-lock (errorception; npm `redis-lock`), speaking PROTOCOL.md. 0.x takes a
// node_redis 3 client and calls back with `done`; 1.x takes a node-redis 4 client and resolves to an async
// release. Single Redis only. The library writes `lock.` + LOCKCHECK_KEY (judge --keys lock.<key>).
// Run: NODE_PATH=DIR/node_modules node tools/judge/adapters/redis_lock.js (DIR: install.sh DIR)
const { nodeRedisV3Client, packageVersion, requireInstalled, serve } = require("./judge_protocol");
const redisLock = requireInstalled("redis-lock");
const v1 = Number(packageVersion("redis-lock").split(".")[0]) >= 1;
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS), key = env.LOCKCHECK_KEY;
const RETRY_DELAY = 50; // ms between attempts: the library's default

async function nodeRedisV4Client() {
  const first = env.LOCKCHECK_REDIS.split(","), colon = first[0].lastIndexOf(":");
  const client = requireInstalled("redis").createClient({
    socket: { host: first[0].slice(0, colon), port: Number(first[0].slice(colon + 1)) }, name: env.LOCKCHECK_CLIENT_NAME });
  client.on("error", (e) => console.error("redis:", e.message));
  await client.connect();
  return client;
}
// The release the library hands over: 0.x `done(callback)`, 1.x `async () => ...`. Either deletes the key
// whenever this process's clock says the lease has not run out, whoever holds it now (redis-lock #29).
const callRelease = (done) => (v1 ? done() : new Promise((resolve) => done(resolve)));

// Serves the protocol over a client of its own; `clientOptions` go to a 0.x's node_redis client (a track-record
// adapter's application settings, track/redis_lock_detect_buffers.js).
async function serveRedisLock(clientOptions = {}) {
  const lock = redisLock(v1 ? await nodeRedisV4Client() : await nodeRedisV3Client(clientOptions), RETRY_DELAY);
  const take = () => (v1 ? lock(key, ttl) : new Promise((resolve) => lock(key, ttl, resolve)));
  let held = null;
  serve("redis-lock", "redis-lock", {
    // The library retries every 50 ms until it has the lock and cannot give up: past wait_ms (at least one
    // retry delay: it has no single attempt) the answer is info, for it may still take the lock, and a lock it
    // takes later is released at once.
    async acquire(r) {
      const taking = take();
      let timer;
      const waited = new Promise((resolve) => { timer = setTimeout(resolve, Math.max(r.wait_ms || 0, RETRY_DELAY), null); });
      const done = await Promise.race([taking, waited]);
      clearTimeout(timer);
      if (done === null) {
        taking.then(callRelease);
        throw new Error("still trying after wait_ms (redis-lock cannot give up)");
      }
      held = done;
    },
    async use() {}, // no fencing token; answering now is performing now
    async release() {
      if (!held) throw Object.assign(new Error("not held"), { definite: true });
      const done = held;
      held = null;
      await callRelease(done);
    },
  });
}
module.exports = { serveRedisLock };
if (require.main === module) serveRedisLock();
