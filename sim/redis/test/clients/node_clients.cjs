// Real Node.js clients, unchanged, against served mocks: node-redis (default settings = RESP3 via HELLO 3,
// and RESP: 2), ioredis (with and without a password) and redlock on 1 and on 3 servers.
// Usage: node node_clients.cjs PORT PASSWORD_PORT PASSWORD PORT2 PORT3   (NODE_PATH = the installed clients)
'use strict';
const assert = require('node:assert/strict');
const { createClient } = require('redis');
const Redis = require('ioredis');
const Redlock = require('redlock');

const [port, passwordPort, password, port2, port3] = process.argv.slice(2);
const host = '127.0.0.1';
let failures = 0;
let passes = 0;

// A mock without transactions answers MULTI with an unknown-command error, one without databases answers
// SELECT 1 with "DB index is out of range": only then do those parts report a skip (with the answer) instead
// of running. The probe runs on a connection of its own.
async function unsupported(command, pattern) {
  const probe = new Redis({ host, port: Number(port), maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.call(...command);
    if (command[0] === 'MULTI') await probe.call('DISCARD');
    return null;
  } catch (error) {
    return pattern.test(String(error.message)) ? String(error.message) : null;
  } finally {
    probe.disconnect();
  }
}
let multiRefusal = null;
let selectRefusal = null;
// The mock serves MULTI and SELECT: a refusal is a regression and fails the test (it once printed SKIP and
// passed, so a mock that lost transactions would have stayed green).
function skip(name, answer) { throw new Error(`${name}: the mock refused it: ${JSON.stringify(answer)}`); }

async function check(name, body) {
  try {
    await body();
    passes++;
    console.log(`ok   ${name}`);
  } catch (error) {
    failures++;
    console.log(`FAIL ${name}: ${error && error.stack ? error.stack : error}`);
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms); })])
    .finally(() => clearTimeout(timer));
}

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

async function nodeRedis(label, options) {
  const client = createClient({ socket: { host, port: Number(port), reconnectStrategy: false }, ...options });
  client.on('error', () => {});
  await withTimeout(client.connect(), 3000, `${label} connect`);
  try {
    await check(`${label}: PING, SET/GET, HGETALL`, async () => {
      assert.equal(await client.ping(), 'PONG');
      assert.equal(await client.set(`${label}:k`, 'v'), 'OK');
      assert.equal(await client.get(`${label}:k`), 'v');
      assert.equal(await client.get(`${label}:missing`), null);
      await client.hSet(`${label}:h`, { a: '1', b: '2' });
      assert.deepEqual({ ...(await client.hGetAll(`${label}:h`)) }, { a: '1', b: '2' });
    });
    await check(`${label}: lock cycle (SET NX PX, compare-and-delete EVAL)`, async () => {
      assert.equal(await client.set(`${label}:lock`, 'tok', { condition: 'NX', expiration: { type: 'PX', value: 30000 } }), 'OK');
      assert.equal(await client.set(`${label}:lock`, 'other', { condition: 'NX', expiration: { type: 'PX', value: 30000 } }), null);
      assert.equal(await client.eval(RELEASE, { keys: [`${label}:lock`], arguments: ['other'] }), 0);
      assert.equal(await client.eval(RELEASE, { keys: [`${label}:lock`], arguments: ['tok'] }), 1);
      assert.equal(await client.exists(`${label}:lock`), 0);
    });
    await check(`${label}: transaction`, async () => {
      if (multiRefusal) return skip(`${label}: transaction`, multiRefusal);
      const results = await client.multi().set(`${label}:t`, '1').incr(`${label}:t`).exec();
      assert.deepEqual(results.map(String), ['OK', '2']);
    });
    await check(`${label}: SELECT 1`, async () => {
      if (selectRefusal) return skip(`${label}: SELECT 1`, selectRefusal);
      const other = createClient({ socket: { host, port: Number(port), reconnectStrategy: false }, database: 1, ...options });
      other.on('error', () => {});
      try {
        await withTimeout(other.connect(), 3000, `${label} connect db 1`);
        await other.set(`${label}:db1`, 'x');
        assert.equal(await client.get(`${label}:db1`), null);
        assert.equal(await other.get(`${label}:db1`), 'x');
      } finally {
        other.destroy();
      }
    });
    await check(`${label}: pub/sub`, async () => {
      const subscriber = client.duplicate();
      subscriber.on('error', () => {});
      await subscriber.connect();
      try {
        let deliver;
        const received = new Promise((resolve) => { deliver = resolve; });
        await subscriber.subscribe(`${label}:ch`, (message) => deliver(message));  // resolves once confirmed
        assert.equal(await client.publish(`${label}:ch`, 'hello'), 1);
        assert.equal(await withTimeout(received, 2000, 'message'), 'hello');
      } finally {
        subscriber.destroy();
      }
    });
    await check(`${label}: CLIENT, CONFIG GET, INFO`, async () => {
      assert.equal(typeof (await client.clientId()), 'number');
      const config = await client.configGet('maxmemory*');
      assert.equal(config['maxmemory-policy'], 'noeviction');
      const info = await client.info('server');
      assert.match(info, /redis_version:7\.0\.15/);
    });
  } finally {
    client.destroy();
  }
}

async function ioredisChecks(label, extra, targetPort) {
  const client = new Redis({ host, port: Number(targetPort), lazyConnect: true, maxRetriesPerRequest: 0,
    retryStrategy: () => null, ...extra });
  client.on('error', () => {});
  await withTimeout(client.connect(), 3000, `${label} connect`);
  try {
    await check(`${label}: connect (ready check reads INFO), SET/GET`, async () => {
      assert.equal(client.status, 'ready');
      assert.equal(await client.set(`${label}:k`, 'v', 'PX', 30000, 'NX'), 'OK');
      assert.equal(await client.get(`${label}:k`), 'v');
    });
    await check(`${label}: lock cycle`, async () => {
      assert.equal(await client.set(`${label}:lock`, 'tok', 'PX', 30000, 'NX'), 'OK');
      assert.equal(await client.eval(RELEASE, 1, `${label}:lock`, 'tok'), 1);
    });
    await check(`${label}: transaction`, async () => {
      if (multiRefusal) return skip(`${label}: transaction`, multiRefusal);
      const results = await client.multi().set(`${label}:t`, '1').incr(`${label}:t`).exec();
      assert.deepEqual(results, [[null, 'OK'], [null, 2]]);
    });
    await check(`${label}: pub/sub`, async () => {
      const subscriber = client.duplicate();
      subscriber.on('error', () => {});
      try {
        await subscriber.subscribe(`${label}:ch`);
        const received = new Promise((resolve) => subscriber.on('message', (channel, message) => resolve(message)));
        assert.equal(await client.publish(`${label}:ch`, 'hi'), 1);
        assert.equal(await withTimeout(received, 2000, 'message'), 'hi');
      } finally {
        subscriber.disconnect();
      }
    });
  } finally {
    client.disconnect();
  }
}

async function redlockChecks(label, ports) {
  const clients = ports.map((p) => new Redis({ host, port: Number(p), maxRetriesPerRequest: 0, retryStrategy: () => null }));
  clients.forEach((c) => c.on('error', () => {}));
  try {
    const redlock = new Redlock(clients, { retryCount: 2, retryDelay: 50, driftFactor: 0.01 });
    redlock.on('clientError', () => {});
    await check(`${label}: lock, contend, extend, unlock`, async () => {
      const lock = await redlock.lock(`${label}:resource`, 5000);
      await assert.rejects(redlock.lock(`${label}:resource`, 5000));
      const extended = await lock.extend(10000);
      for (const c of clients) assert.equal(await c.get(`${label}:resource`), extended.value);
      await extended.unlock();
      for (const c of clients) assert.equal(await c.exists(`${label}:resource`), 0);
      const again = await redlock.lock(`${label}:resource`, 5000);
      await again.unlock();
    });
  } finally {
    clients.forEach((c) => c.disconnect());
  }
}

(async () => {
  multiRefusal = await unsupported(['MULTI'], /unknown command/i);
  selectRefusal = await unsupported(['SELECT', '1'], /DB index is out of range/);
  await check('node-redis default settings (HELLO 3)', () => nodeRedis('node-redis-resp3', {}));
  await check('node-redis RESP: 2', () => nodeRedis('node-redis-resp2', { RESP: 2 }));
  await check('ioredis without a password', () => ioredisChecks('ioredis', {}, port));
  await check('ioredis with a password', () => ioredisChecks('ioredis-auth', { password }, passwordPort));
  await check('ioredis with a wrong password is refused', async () => {
    const client = new Redis({ host, port: Number(passwordPort), lazyConnect: true, password: 'wrong',
      maxRetriesPerRequest: 0, retryStrategy: () => null });
    const errors = [];
    client.on('error', (error) => errors.push(String(error.message)));
    try {
      await assert.rejects(withTimeout(client.connect().then(() => client.get('x')), 3000, 'wrong password'));
      assert.ok(errors.some((text) => /WRONGPASS/.test(text)), `errors seen: ${JSON.stringify(errors)}`);
    } finally {
      client.disconnect();
    }
  });
  await check('node-redis with a password (HELLO 3 AUTH default ...)', async () => {
    const client = createClient({ socket: { host, port: Number(passwordPort), reconnectStrategy: false }, password });
    client.on('error', () => {});
    await withTimeout(client.connect(), 3000, 'connect with password');
    try {
      assert.equal(await client.ping(), 'PONG');
    } finally {
      client.destroy();
    }
  });
  await check('redlock on 1 server', () => redlockChecks('redlock-1', [port]));
  await check('redlock on 3 servers', () => redlockChecks('redlock-3', [port, port2, port3]));
  console.log(`node clients: ${passes} passed, ${failures} failed`);
  process.exit(failures === 0 ? 0 : 1);
})();
