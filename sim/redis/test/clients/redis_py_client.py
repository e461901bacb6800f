"""Debian's redis-py, unchanged, against a served mock: connect, a lock cycle, a transaction, SELECT 1, pub/sub.
Usage: python3 redis_py_client.py PORT PASSWORD_PORT PASSWORD"""
import sys
import time
import traceback

import redis

port, password_port, password = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
results = {"passed": 0, "failed": 0}


def check(name, body):
    try:
        body()
        results["passed"] += 1
        print(f"ok   {name}")
    except Exception:  # noqa: BLE001 - every failure is reported, then counted
        results["failed"] += 1
        print(f"FAIL {name}: {traceback.format_exc()}")


def refusal(command, pattern):
    """A mock without transactions answers MULTI with an unknown-command error, one without databases
    answers SELECT 1 with "DB index is out of range": only then is that part skipped (probed on a connection
    of its own)."""
    probe = redis.Redis(host="127.0.0.1", port=port, socket_timeout=3, single_connection_client=True)
    try:
        probe.execute_command(*command)
        if command[0] == "MULTI":
            probe.execute_command("DISCARD")
        return None
    except redis.exceptions.ResponseError as error:
        return str(error) if pattern in str(error) else None
    finally:
        probe.close()


def skipped(name, answer):
    """The mock serves MULTI and SELECT: a refusal is a regression, and fails the test (it once printed SKIP
    and passed, so a mock that lost transactions would have stayed green)."""
    if answer is not None:
        raise AssertionError(f"{name}: the mock refused it: {answer!r}")
    return False


def client(**extra):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=3, decode_responses=True, **extra)


def connect():
    r = client()
    assert r.ping() is True
    assert r.set("py:k", "v") is True
    assert r.get("py:k") == "v"
    assert r.hset("py:h", mapping={"a": "1", "b": "2"}) == 2
    assert r.hgetall("py:h") == {"a": "1", "b": "2"}
    assert r.info("server")["redis_version"] == "7.0.15"
    assert r.config_get("maxmemory-policy") == {"maxmemory-policy": "noeviction"}
    assert r.client_setname("py-client") is True
    assert r.client_getname() == "py-client"


def lock_cycle():
    r = client()
    lock = r.lock("py:lock", timeout=10, blocking_timeout=1)
    assert lock.acquire() is True
    assert r.lock("py:lock", timeout=10).acquire(blocking=False) is False
    assert lock.extend(5) is True
    lock.release()
    assert r.exists("py:lock") == 0


def transaction():
    if skipped("redis-py transaction", refusal(["MULTI"], "unknown command")):
        return
    pipe = client().pipeline(transaction=True)
    pipe.set("py:t", "1").incr("py:t")
    assert pipe.execute() == [True, 2]


def select_1():
    if skipped("redis-py SELECT 1", refusal(["SELECT", "1"], "DB index is out of range")):
        return
    r1 = client(db=1)
    r1.set("py:db1", "x")
    assert client().get("py:db1") is None
    assert r1.get("py:db1") == "x"


def pubsub():
    r = client()
    p = r.pubsub()
    p.subscribe("py:ch")
    confirmation = p.get_message(timeout=2)
    assert confirmation["type"] == "subscribe", confirmation
    assert r.publish("py:ch", "hello") == 1
    message = None
    deadline = time.monotonic() + 2
    while message is None and time.monotonic() < deadline:
        message = p.get_message(timeout=0.5)
    assert message is not None and message["data"] == "hello", message
    p.close()


def password_auth():
    r = redis.Redis(host="127.0.0.1", port=password_port, password=password, socket_timeout=3)
    assert r.ping() is True
    try:
        redis.Redis(host="127.0.0.1", port=password_port, socket_timeout=3).get("x")
        raise AssertionError("no NOAUTH without a password")
    except redis.exceptions.AuthenticationError:
        pass


check("redis-py connect, INFO, CONFIG GET, CLIENT SETNAME", connect)
check("redis-py lock cycle (redis.lock.Lock)", lock_cycle)
check("redis-py transaction", transaction)
check("redis-py SELECT 1", select_1)
check("redis-py pub/sub", pubsub)
check("redis-py password", password_auth)
print(f"redis-py: {results['passed']} passed, {results['failed']} failed")
sys.exit(0 if results["failed"] == 0 else 1)
