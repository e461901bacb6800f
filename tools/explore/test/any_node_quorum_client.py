"""A judge adapter (tools/judge/PROTOCOL.md) with a bug on purpose, for explore --client's quorum test: a Redlock over
every master of LOCKCHECK_REDIS (SET NX PX with a random token on each, a checked release on each) that counts the
lock acquired when ANY master granted it, where Redlock needs a majority. Once one master's copy of the key expired
under its holder (that node's clock jumped ahead) another client takes that one master and holds too
(mutual_exclusion_client violated), which lockcheck's reference RedlockMutex never does: it needs two of three.
Run: python3 THIS_FILE (redis-py)."""
import json, os, secrets, sys
try:
    import redis
except ImportError:
    sys.exit(f"any_node_quorum_client: {sys.executable} cannot import redis (apt-get install python3-redis)")
env = os.environ
timeout_s = int(env["LOCKCHECK_COMMAND_TIMEOUT_MS"]) / 1000.0
nodes = [redis.Redis(host=a.rsplit(":", 1)[0], port=int(a.rsplit(":", 1)[1]), client_name=env["LOCKCHECK_CLIENT_NAME"],
                     socket_timeout=timeout_s) for a in env["LOCKCHECK_REDIS"].split(",")]
key, ttl_ms = env["LOCKCHECK_KEY"], int(env["LOCKCHECK_TTL_MS"])
RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
token = None  # the one lease this client may hold

def each(call):  # how many masters answered yes; a master that does not answer counts as no
    granted = 0
    for node in nodes:
        try:
            granted += 1 if call(node) else 0
        except (redis.RedisError, OSError):
            pass
    return granted

def do(op, req):  # the extra fields of an ok reply; raises LookupError for fail
    global token
    if op == "acquire":
        candidate = secrets.token_hex(8)
        if each(lambda n: n.set(key, candidate, nx=True, px=ttl_ms)) == 0:  # THE BUG: a majority is needed, not one
            each(lambda n: n.eval(RELEASE, 1, key, candidate))
            raise LookupError("held by another owner")
        token = candidate
        return {"token": candidate}
    if op == "release":
        if token is None: raise LookupError("not held")
        held, token = token, None
        if each(lambda n: n.eval(RELEASE, 1, key, held)) == 0: raise LookupError("the lease is no longer ours")
    return {}

def reply(msg): sys.stdout.write(json.dumps(msg) + "\n"); sys.stdout.flush()
reply({"type": "hello", "client": "any-node quorum (a bug on purpose)", "ops": ["acquire", "use", "release"]})
for line in sys.stdin:  # ends when lockcheck closes our stdin
    req = json.loads(line)
    try:
        reply(dict(id=req.get("id"), type="ok", **do(req.get("op"), req)))
    except LookupError as e:  # definite: the lock was refused or is not ours
        reply({"id": req.get("id"), "type": "fail", "error": str(e)})
