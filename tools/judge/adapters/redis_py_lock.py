"""lockcheck judge adapter for redis-py's Lock (Debian python3-redis), speaking PROTOCOL.md.
Single Redis, a cluster (RedisCluster) or Sentinel (master_for); no Redlock in redis-py. Run: python3 THIS_FILE"""
import json, os, sys
try:
    import redis
except ImportError:  # say so at once: re-executing another interpreter would only make the client late
    sys.exit(f"redis_py_lock: {sys.executable} cannot import redis (redis-py): run this adapter with a python3 "
             "that has it, e.g. Debian's after apt-get install python3-redis (adapters/README.md)")
from redis.exceptions import LockError, RedisError
env = os.environ; topology = env.get("LOCKCHECK_TOPOLOGY", "single")
if topology not in ("single", "cluster", "sentinel"):
    sys.exit("redis_py_lock: redis-py's Lock supports LOCKCHECK_TOPOLOGY=single, cluster or sentinel")
seeds = [(a.rsplit(":", 1)[0], int(a.rsplit(":", 1)[1])) for a in env["LOCKCHECK_REDIS"].split(",")]
# client_name: CLIENT SETNAME on every pooled connection; the command timeout bounds a partitioned node's wait.
# RedisCluster follows MOVED / CLUSTER SLOTS; master_for asks the sentinels (SENTINEL MASTERS) per new connection.
kw = dict(client_name=env["LOCKCHECK_CLIENT_NAME"], socket_timeout=int(env["LOCKCHECK_COMMAND_TIMEOUT_MS"]) / 1000.0)
if topology == "cluster": r = redis.RedisCluster(startup_nodes=[redis.cluster.ClusterNode(h, p) for h, p in seeds], **kw)
elif topology == "sentinel": r = redis.Sentinel(seeds, **kw).master_for(env["LOCKCHECK_SENTINEL_MASTER"])
else: r = redis.Redis(host=seeds[0][0], port=seeds[0][1], **kw)
key, ttl = env["LOCKCHECK_KEY"], int(env["LOCKCHECK_TTL_MS"]) / 1000.0
lock = None  # the one lease this client may hold

def do(op, req):  # returns the extra fields of an ok reply; raises to answer fail/info
    global lock
    if op == "acquire":
        wait = req.get("wait_ms", 0) / 1000.0
        # thread_local=False: the token must survive across our calls.
        cand = r.lock(key, timeout=ttl, thread_local=False)
        # wait 0: one SET NX attempt (blocking=False); else retry for at most `wait` seconds.
        if not cand.acquire(blocking=wait > 0, blocking_timeout=wait or None):
            raise LockError("not acquired")
        lock = cand
    elif op == "use":
        pass  # no fencing token in redis-py; answering now is performing now
    elif op == "renew":
        if lock is None: raise LockError("not held")
        lock.extend(ttl, replace_ttl=True)  # 4.x: reset the TTL rather than add to it
    elif op == "release":
        if lock is None: raise LockError("not held")
        held, lock = lock, None
        held.release()  # raises LockNotOwnedError (a LockError) if the token is gone
    elif op == "held":
        return {"held": lock is not None and lock.owned()}  # owned(): GET == our token
    return {}
def reply(msg): sys.stdout.write(json.dumps(msg) + "\n"); sys.stdout.flush()

OPS = ["acquire", "release", "renew", "use", "held"]
reply({"type": "hello", "client": "redis-py Lock", "version": redis.__version__, "ops": OPS})
for line in sys.stdin:  # ends when lockcheck closes our stdin
    req = json.loads(line); rid, op = req.get("id"), req.get("op")
    if op not in OPS: reply({"id": rid, "type": "fail", "error": "unsupported"}); continue
    try:
        reply(dict(id=rid, type="ok", **do(op, req)))
    except LockError as e:  # definite: redis answered and the lease is not (or no longer) ours
        reply({"id": rid, "type": "fail", "error": str(e) or type(e).__name__})
    except redis.sentinel.MasterNotFoundError as e:  # definite: no sentinel named a master, nothing was sent
        reply({"id": rid, "type": "fail", "error": "unreachable: " + str(e)})
    except (RedisError, OSError) as e:  # a connection error or timeout: the command may have run
        reply({"id": rid, "type": "info", "error": type(e).__name__ + ": " + str(e)})
