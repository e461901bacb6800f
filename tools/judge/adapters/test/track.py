#!/usr/bin/env python3
"""Track-record scenarios (see tools/judge/TRACK_RECORD.md): each drives two copies of an adapter through
the protocol, under one fault, against throwaway redis-servers, and prints VIOLATED or HOLDS.

    python3 tools/judge/adapters/test/track.py SCENARIO [--masters N] ADAPTER_CMD...

SCENARIO:
  refresh-revives  redis-semaphore #175: A holds; A paused (SIGSTOP) past the TTL; B acquires, uses,
                   releases; A resumed (SIGCONT). Violated if A still says held (its background refresh
                   re-created the key) after B held the lock in between.
  late-reply       node-redlock PR #369 (Redlock step 4): A's link delays Redis's replies by 1.6 x TTL;
                   A acquires with wait 0; B acquires meanwhile. Violated if A's acquire answers ok while
                   B holds the lock (A's lock was valid for no time at all).
  retry-expiry     node-redlock #169/#296/#299: A holds; B acquires with a wait that ends in success after
                   retries. Violated if B's fresh lock is already expired by the library's own account
                   (held false, renew refused) while Redis holds it for B.
Exit status: 0 HOLDS, 1 VIOLATED, 2 a protocol error or setup problem."""
import json, os, socket, sys, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from drive import ProtocolError, Setup, resp  # noqa: E402


class DelayProxy:
    """A loopback TCP proxy to one redis-server that can hold back the server's replies by `delay` s.
    Only what the server sends is delayed (the request reaches Redis at once, its answer comes late):
    the client sees a slow link, Redis sees nothing unusual."""

    def __init__(self, target_port):
        self.target, self.delay, self.socks = target_port, 0.0, []
        self.lsock = socket.socket()
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(16)
        self.port = self.lsock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:  # ends when close() closes the listening socket
            try:
                c, _ = self.lsock.accept()
            except OSError:
                return
            s = socket.create_connection(("127.0.0.1", self.target))
            self.socks += [c, s]
            threading.Thread(target=self._pump, args=(c, s, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(s, c, True), daemon=True).start()

    def _pump(self, src, dst, delayed):
        while True:  # ends when either side closes
            try:
                data = src.recv(65536)
                if not data:
                    break
                if delayed and self.delay:
                    time.sleep(self.delay)  # one chunk at a time: later chunks queue behind it, in order
                dst.sendall(data)
            except OSError:
                break
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self):
        self.lsock.close()
        for s in self.socks:
            s.close()


def show(what, msg):
    print("%-52s -> %s" % (what, json.dumps(msg)))
    return msg


def refresh_revives(setup, cmd):
    a, b = setup.client("A", cmd), setup.client("B", cmd)
    print("client: %s %s, TTL %d ms" % (a.hello["client"], a.hello.get("version"), setup.ttl))
    show("A acquire wait 0", a.call("acquire", wait_ms=0))
    a.stop()
    print("SIGSTOP A; sleep %d ms (past the TTL)" % (setup.ttl * 1.3))
    time.sleep(setup.ttl * 1.3 / 1000)
    print("server keys (A paused): %s" % setup.lock_keys())
    b_got = show("B acquire wait 0 (A paused)", b.call("acquire", wait_ms=0))["type"] == "ok"
    show("B use", b.call("use"))
    show("B release", b.call("release"))
    a.cont()
    print("SIGCONT A; sleep 300 ms (A's overdue refresh timer runs)")
    time.sleep(0.3)
    keys = setup.lock_keys()
    print("server keys after A resumed: %s" % keys)
    held = show("A held", a.call("held")).get("held")
    show("A use", a.call("use"))
    show("A release", a.call("release"))
    return b_got and held is True


def late_reply(setup, cmd):
    proxy = DelayProxy(setup.servers[0].port)
    try:
        a = setup.client("A", cmd, addresses="127.0.0.1:%d" % proxy.port)
        b = setup.client("B", cmd)
        print("client: %s %s, TTL %d ms" % (a.hello["client"], a.hello.get("version"), setup.ttl))
        show("A acquire wait 0 (warm-up, no delay)", a.call("acquire", wait_ms=0))
        show("A release (warm-up)", a.call("release"))
        proxy.delay = setup.ttl * 1.6 / 1000
        print("A's link now delays Redis's replies by %d ms" % (proxy.delay * 1000))
        t0 = time.monotonic()
        rid = a.send("acquire", wait_ms=0)
        time.sleep(setup.ttl * 1.2 / 1000)
        print("server keys at %d ms: %s" % ((time.monotonic() - t0) * 1000, setup.lock_keys()))
        b_got = show("B acquire wait 0 at %d ms" % ((time.monotonic() - t0) * 1000),
                     b.call("acquire", wait_ms=0))["type"] == "ok"
        reply = a.reply(rid, timeout=30)
        show("A acquire reply at %d ms" % ((time.monotonic() - t0) * 1000), reply)
        proxy.delay = 0
        print("server keys now: %s" % setup.lock_keys())
        if reply["type"] == "ok":
            show("A held", a.call("held"))
            show("A use (while B holds)", a.call("use"))
        show("B release", b.call("release"))
        return b_got and reply["type"] == "ok"
    finally:
        proxy.delay = 0
        for c in setup.clients:  # the clients first, while the proxy still forwards
            c.close()
        proxy.close()


def retry_expiry(setup, cmd):
    a, b = setup.client("A", cmd), setup.client("B", cmd)
    print("client: %s %s, TTL %d ms" % (a.hello["client"], a.hello.get("version"), setup.ttl))
    show("A acquire wait 0", a.call("acquire", wait_ms=0))
    t0 = time.monotonic()
    rid = b.send("acquire", wait_ms=setup.ttl * 3)
    time.sleep(setup.ttl * 0.6 / 1000)
    show("A renew at %d ms" % ((time.monotonic() - t0) * 1000), a.call("renew"))
    time.sleep(setup.ttl * 0.8 / 1000)
    show("A release at %d ms" % ((time.monotonic() - t0) * 1000), a.call("release"))
    got = b.reply(rid, timeout=30)
    show("B acquire (wait %d) reply at %d ms" % (setup.ttl * 3, (time.monotonic() - t0) * 1000), got)
    if got["type"] != "ok":
        return False
    port = setup.servers[0].port
    keys = setup.lock_keys()[port]
    print("server: %s" % {k: (v, "PTTL %s" % resp(port, "PTTL", k)) for k, v in keys.items()})
    held = show("B held", b.call("held")).get("held")
    renew = show("B renew", b.call("renew"))
    print("server: %s" % {k: (v, "PTTL %s" % resp(port, "PTTL", k)) for k, v in setup.lock_keys()[port].items()})
    show("B release", b.call("release"))
    return bool(keys) and (held is False or renew["type"] != "ok")


SCENARIOS = {"refresh-revives": (refresh_revives, 1000), "late-reply": (late_reply, 500),
             "retry-expiry": (retry_expiry, 1000)}


def main():
    args = sys.argv[1:]
    if not args or args[0] not in SCENARIOS:
        sys.exit(__doc__)
    name, masters = args.pop(0), 1
    if args[:1] == ["--masters"]:
        masters = int(args[1])
        args = args[2:]
    run, ttl = SCENARIOS[name]
    setup = Setup(masters, key="lockcheck-track", ttl=ttl)
    try:
        violated = run(setup, args)
    except ProtocolError as e:
        print("PROTOCOL ERROR: %s" % e)
        setup.close(keep=True)
        return 2
    setup.close()
    print("%s: %s" % (name, "VIOLATED" if violated else "HOLDS"))
    return 1 if violated else 0


if __name__ == "__main__":
    sys.exit(main())
