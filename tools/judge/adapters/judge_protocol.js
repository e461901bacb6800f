// The judge protocol (../PROTOCOL.md) for the Node adapters, written once: their Redis connections, the
// installed version of their library, and the request loop (hello first, one request at a time, in order).
// An adapter gives its ops and, if its library's errors need it, how an error maps to fail or info.
const fs = require("fs"), path = require("path"), readline = require("readline");

// require(name), or exit at once saying what is missing: an adapter run without the pinned packages on
// NODE_PATH must not look like a client that never answers.
function requireInstalled(name) {
  try {
    return require(name);
  } catch (e) {
    if (e.code !== "MODULE_NOT_FOUND") throw e;
    process.stderr.write(`${path.basename(process.argv[1])}: ${process.execPath} cannot load '${name}' ` +
      `(NODE_PATH=${process.env.NODE_PATH || ""}): install the pinned clients with ` +
      "sh tools/judge/adapters/install.sh DIR and set NODE_PATH=DIR/node_modules (adapters/README.md)\n");
    process.exit(2);
  }
}

// import(name) for an ES module package, resolved through NODE_PATH as require() is (import() alone ignores
// NODE_PATH), or exit at once saying what is missing, as requireInstalled does.
async function importInstalled(name) {
  let file;
  try { file = require.resolve(name); } catch (e) {
    if (e.code !== "MODULE_NOT_FOUND") throw e;
    requireInstalled(name); // exits with the message
  }
  return import(require("url").pathToFileURL(file).href);
}

// One ioredis client per address of LOCKCHECK_REDIS (ioredis resolved through NODE_PATH: 4.x or 5.x); on a
// cluster one ioredis Cluster seeded with every address, which follows MOVED and CLUSTER SLOTS itself; on a
// sentinel one ioredis client that asks the sentinels for the master on each (re)connection (SENTINEL
// GET-MASTER-ADDR-BY-NAME) and, with its failover detector, reconnects when they announce +switch-master
// (without it a client cut off from an old master would keep waiting on it until the heal).
// connectionName: ioredis sends CLIENT SETNAME on every (re)connection, which attributes its commands.
// commandTimeout (cluster and sentinel only, so the single and redlock runs of the track record stay as
// recorded): without one ioredis waits forever on a partitioned node, and the judge reports a hang.
function redisClients() {
  const Redis = requireInstalled("ioredis"), env = process.env, options = { connectionName: env.LOCKCHECK_CLIENT_NAME };
  const nodes = env.LOCKCHECK_REDIS.split(",").map((a) => {
    const colon = a.lastIndexOf(":");
    return { host: a.slice(0, colon), port: Number(a.slice(colon + 1)) };
  });
  const commandTimeout = Number(env.LOCKCHECK_COMMAND_TIMEOUT_MS);
  if (env.LOCKCHECK_TOPOLOGY === "cluster") return [new Redis.Cluster(nodes, { redisOptions: { ...options, commandTimeout } })];
  if (env.LOCKCHECK_TOPOLOGY === "sentinel") {
    return [new Redis({ sentinels: nodes, name: env.LOCKCHECK_SENTINEL_MASTER, ...options, commandTimeout,
      sentinelCommandTimeout: commandTimeout, failoverDetector: true })];
  }
  return nodes.map((node) => new Redis({ ...node, ...options }));
}

// One node_redis 3.x client (npm `redis@3`, the callback API the older lock libraries take) on the first
// address of LOCKCHECK_REDIS, resolved once it is ready and named. node_redis 3 has no name option: each
// (re)connection queues CLIENT SETNAME when it connects, so it goes out before any command issued after (a
// command issued while disconnected goes out before it, unattributed: the server-level verdicts say unknown).
// The pinned install has it as redis-v3 (install.sh); a track-record folder as redis, which may be a 0.x
// (node_redis 0.10 takes createClient(port, host, options), 2.x and 3.x one options object). `options` are
// the application's own client settings (a track-record row's: detect_buffers).
function nodeRedisV3Client(options = {}) {
  let redis, name = "redis-v3";
  try { redis = require(name); } catch { name = "redis"; redis = requireInstalled(name); }
  const env = process.env, first = env.LOCKCHECK_REDIS.split(",")[0];
  const colon = first.lastIndexOf(":"), host = first.slice(0, colon), port = Number(first.slice(colon + 1));
  const client = /^0\./.test(packageVersion(name)) ? redis.createClient(port, host, options)
    : redis.createClient({ host, port, ...options });
  client.on("error", (e) => console.error("redis:", e.message)); // reconnects by itself
  client.on("connect", () => client.send_command("CLIENT", ["SETNAME", env.LOCKCHECK_CLIENT_NAME]));
  return new Promise((resolve) => client.once("ready", () => resolve(client)));
}

// The version of package `name` as installed (read from its package.json: some packages' "exports" hide it
// from require()); an npm alias (redlock@npm:fork@v) shows the fork's name too.
function packageVersion(name) {
  for (const d of require.resolve.paths(name)) {
    try { const p = JSON.parse(fs.readFileSync(path.join(d, name, "package.json")));
      return p.name === name ? p.version : `${p.name}@${p.version}`; } catch {}
  }
}

// Definite unless told otherwise: an error the adapter marked `definite` did not happen; any other (a Redis
// or connection error) may have.
const byDefiniteFlag = async (e) => (e.definite ? "fail" : "info");

// Writes the hello line for `client` (its library: package `pkg`), then answers each request line with
// ops[op](request) until stdin closes: ok with what the op returns (its `validUntil`, the library's validity's
// end on the monotonic performance.now(), goes out as `valid_ms` from the request's reading: PROTOCOL.md), or
// `outcome(error)`.
function serve(client, pkg, ops, outcome = byDefiniteFlag) {
  const out = (m) => process.stdout.write(JSON.stringify(m) + "\n"); // pipes: written synchronously
  out({ type: "hello", client, version: packageVersion(pkg), ops: Object.keys(ops) });
  let chain = Promise.resolve(); // one request at a time, in order
  readline.createInterface({ input: process.stdin }).on("line", (line) => {
    const read = performance.now(), r = JSON.parse(line);
    chain = chain.then(async () => {
      if (!ops[r.op]) return out({ id: r.id, type: "fail", error: "unsupported" });
      try { const { validUntil, ...fields } = (await ops[r.op](r)) || {};
        out({ id: r.id, type: "ok", ...fields, ...(validUntil === undefined ? {} : { valid_ms: validUntil - read }) }); }
      catch (e) { out({ id: r.id, type: await outcome(e), error: e.message }); }
    });
  }).on("close", () => chain.then(() => process.exit(0)));
}
module.exports = { importInstalled, nodeRedisV3Client, packageVersion, redisClients, requireInstalled, serve };
