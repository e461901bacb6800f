"""A judge adapter (tools/judge/PROTOCOL.md) with a bug on purpose, for explore --client's tests: its lock is SET NX PX
with a random token, but its release is a plain DEL, without checking that the key still holds its token. Once its
key expired under it (a pause, a node clock jump) and another client took the lock, its release deletes the other's
key (owner_only_release violated), which lockcheck's reference Mutex never does. Run: python3 THIS_FILE (redis-py)."""
import json, os, secrets, sys
try:
    import redis
except ImportError:
    sys.exit(f"unchecked_release_client: {sys.executable} cannot import redis (apt-get install python3-redis)")
env = os.environ
host, port = env["LOCKCHECK_REDIS"].split(",")[0].rsplit(":", 1)
r = redis.Redis(host=host, port=int(port), client_name=env["LOCKCHECK_CLIENT_NAME"],
                socket_timeout=int(env["LOCKCHECK_COMMAND_TIMEOUT_MS"]) / 1000.0)
key, ttl_ms = env["LOCKCHECK_KEY"], int(env["LOCKCHECK_TTL_MS"])
token = None  # the one lease this client may hold

def do(op, req):  # the extra fields of an ok reply; raises LookupError for fail, RedisError for info
    global token
    if op == "acquire":
        candidate = secrets.token_hex(8)
        if not r.set(key, candidate, nx=True, px=ttl_ms): raise LookupError("held by another owner")
        token = candidate
        return {"token": candidate}
    if op == "release":
        if token is None: raise LookupError("not held")
        token = None
        r.delete(key)  # THE BUG: no check that the key is still ours (a correct release compares the token first)
    return {}

def reply(msg): sys.stdout.write(json.dumps(msg) + "\n"); sys.stdout.flush()
OPS = ["acquire", "use", "release"]
reply({"type": "hello", "client": "unchecked release (a bug on purpose)", "ops": OPS})
for line in sys.stdin:  # ends when lockcheck closes our stdin
    req = json.loads(line)
    try:
        reply(dict(id=req.get("id"), type="ok", **do(req.get("op"), req)))
    except LookupError as e:  # definite: the lock was refused or is not ours
        reply({"id": req.get("id"), "type": "fail", "error": str(e)})
    except (redis.RedisError, OSError) as e:  # may have happened
        reply({"id": req.get("id"), "type": "info", "error": type(e).__name__ + ": " + str(e)})
