"""lockcheck judge adapter for redis-py's asyncio Lock (redis.asyncio.lock.Lock, Debian python3-redis),
speaking PROTOCOL.md. Single Redis only. The requests are read by the event loop's own reader, so the lock's
coroutines run on the loop the library expects. Run: python3 THIS_FILE"""
import asyncio, json, os, sys
try:
    import redis
    import redis.asyncio
except ImportError:  # say so at once, as redis_py_lock.py does
    sys.exit(f"redis_py_asyncio_lock: {sys.executable} cannot import redis.asyncio (redis-py 4.2+): run this adapter "
             "with a python3 that has it, e.g. Debian's after apt-get install python3-redis (adapters/README.md)")
from redis.exceptions import LockError, RedisError
env = os.environ
if env.get("LOCKCHECK_TOPOLOGY", "single") != "single":
    sys.exit("redis_py_asyncio_lock: this adapter drives LOCKCHECK_TOPOLOGY=single only")
host, port = env["LOCKCHECK_REDIS"].split(",")[0].rsplit(":", 1)
key, ttl = env["LOCKCHECK_KEY"], int(env["LOCKCHECK_TTL_MS"]) / 1000.0
OPS = ["acquire", "release", "renew", "use", "held"]


def reply(msg): sys.stdout.write(json.dumps(msg) + "\n"); sys.stdout.flush()


async def main():
    r = redis.asyncio.Redis(host=host, port=int(port), client_name=env["LOCKCHECK_CLIENT_NAME"],
                            socket_timeout=int(env["LOCKCHECK_COMMAND_TIMEOUT_MS"]) / 1000.0)
    lock = None  # the one lease this client may hold

    async def do(op, req):  # the extra fields of an ok reply; raises to answer fail/info
        nonlocal lock
        if op == "acquire":
            wait = req.get("wait_ms", 0) / 1000.0
            cand = r.lock(key, timeout=ttl, thread_local=False)
            if not await cand.acquire(blocking=wait > 0, blocking_timeout=wait or None):
                raise LockError("not acquired")
            lock = cand
        elif op == "renew":
            if lock is None: raise LockError("not held")
            await lock.extend(ttl, replace_ttl=True)
        elif op == "release":
            if lock is None: raise LockError("not held")
            held, lock = lock, None
            await held.release()  # raises LockNotOwnedError (a LockError) if the token is gone
        elif op == "held":
            return {"held": lock is not None and await lock.owned()}
        return {}  # use: no fencing token; answering now is performing now

    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    reply({"type": "hello", "client": "redis-py asyncio Lock", "version": redis.__version__, "ops": OPS})
    while line := await reader.readline():  # ends when lockcheck closes our stdin
        req = json.loads(line); rid, op = req.get("id"), req.get("op")
        if op not in OPS: reply({"id": rid, "type": "fail", "error": "unsupported"}); continue
        try:
            reply(dict(id=rid, type="ok", **(await do(op, req))))
        except LockError as e:  # definite: redis answered and the lease is not (or no longer) ours
            reply({"id": rid, "type": "fail", "error": str(e) or type(e).__name__})
        except (RedisError, OSError, asyncio.TimeoutError) as e:  # the command may have run
            reply({"id": rid, "type": "info", "error": type(e).__name__ + ": " + str(e)})


asyncio.run(main())
