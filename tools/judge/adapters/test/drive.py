#!/usr/bin/env python3
"""A tiny driver of the judge protocol (PROTOCOL.md), for testing adapters by hand. Stdlib only.

    python3 tools/judge/adapters/test/drive.py [--masters N] [--ttl MS] ADAPTER_CMD...

Starts N throwaway redis-servers on free loopback ports (N > 1: LOCKCHECK_TOPOLOGY=redlock), runs two
copies (A, B) of the adapter, and checks the protocol and the basic lock behaviour:
hello first; A acquires; B's acquire with wait 0 fails; A uses, renews, releases; B acquires; `held`;
an unknown op gets fail/"unsupported"; every connection to Redis is named; a `valid_ms` (the library's own
validity) is a number, and on A's acquire and renew within the TTL. Then, informationally, it
pauses A (SIGSTOP) past the TTL while B acquires and releases, resumes it, and prints A's answers.
Exit status: 0 all checks passed, 1 a behaviour check failed, 2 a protocol error.
track.py imports the helpers below for the track-record scenarios."""
import argparse, json, os, queue, shutil, signal, socket, subprocess, sys, tempfile, threading, time


class ProtocolError(Exception):
    pass


PROBE = "lockcheck-drive-probe"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def resp(port, *args, timeout=2.0):
    """Sends one command to Redis on 127.0.0.1:port, returns the decoded reply (enough RESP2 for us)."""
    def encode(*words):
        return b"".join([b"*%d\r\n" % len(words)] + [b"$%d\r\n%s\r\n" % (len(w), w) for w in
                                                       (str(x).encode() for x in words)])
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        # Our own connections are named too, so connection_names() can tell them from the adapter's.
        s.sendall(encode("CLIENT", "SETNAME", PROBE) + encode(*args))
        f = s.makefile("rb")

        def read():
            line = f.readline().rstrip(b"\r\n")
            kind, rest = line[:1], line[1:]
            if kind in (b"+", b"-"):
                return rest.decode()
            if kind == b":":
                return int(rest)
            if kind == b"$":
                n = int(rest)
                return None if n < 0 else f.read(n + 2)[:-2].decode()
            if kind == b"*":
                n = int(rest)
                return None if n < 0 else [read() for _ in range(n)]
            raise ProtocolError("bad RESP reply %r" % line)
        read()  # CLIENT SETNAME's +OK
        return read()


class RedisServer:
    def __init__(self, workdir):
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", workdir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):  # bounded: 100 x 50 ms
            try:
                if resp(self.port, "PING") == "PONG":
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server on port %d did not start" % self.port)

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


class Client:
    """One adapter process: requests on its stdin, replies read from its stdout by a thread."""

    def __init__(self, name, cmd, env, workdir):
        self.name, self.next_id, self.lines = name, 1, queue.Queue()
        self.stderr_path = os.path.join(workdir, "client-%s.stderr" % name)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(self.stderr_path, "wb"), env=env, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        self.hello = self._line(10.0, "the hello line")
        if self.hello.get("type") != "hello" or not isinstance(self.hello.get("ops"), list):
            raise ProtocolError("%s: first line is not a hello: %r" % (name, self.hello))
        for op in ("acquire", "release"):
            if op not in self.hello["ops"]:
                raise ProtocolError("%s: hello lacks required op %s" % (name, op))

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _line(self, timeout, what):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise ProtocolError("%s: no %s within %.1fs" % (self.name, what, timeout))
        if line is None:
            raise ProtocolError("%s: exited (%s) while we expected %s; stderr in %s" % (
                self.name, self.proc.wait(), what, self.stderr_path))
        try:
            msg = json.loads(line)
        except ValueError:
            raise ProtocolError("%s: not a JSON line: %r (expected %s)" % (self.name, line, what))
        if not isinstance(msg, dict):
            raise ProtocolError("%s: not a JSON object: %r" % (self.name, line))
        return msg

    def send(self, op, **fields):
        """Writes a request, returns its id (the reply is read by reply())."""
        rid, self.next_id = self.next_id, self.next_id + 1
        self.proc.stdin.write(json.dumps(dict(id=rid, op=op, **fields)) + "\n")
        self.proc.stdin.flush()
        return rid

    def reply(self, rid, timeout=10.0):
        msg = self._line(timeout, "the reply to request %d" % rid)
        if msg.get("id") != rid:
            raise ProtocolError("%s: reply id %r, expected %d: %r" % (self.name, msg.get("id"), rid, msg))
        if msg.get("type") not in ("ok", "fail", "info"):
            raise ProtocolError("%s: reply type must be ok/fail/info: %r" % (self.name, msg))
        if msg["type"] != "ok" and not isinstance(msg.get("error"), str):
            raise ProtocolError("%s: a %s reply needs an error string: %r" % (self.name, msg["type"], msg))
        valid_ms = msg.get("valid_ms")
        if valid_ms is not None and (isinstance(valid_ms, bool) or not isinstance(valid_ms, (int, float))):
            raise ProtocolError("%s: valid_ms must be a number of milliseconds: %r" % (self.name, msg))
        return msg

    def call(self, op, timeout=10.0, **fields):
        return self.reply(self.send(op, **fields), timeout)

    def supports(self, op):
        return op in self.hello["ops"]

    def stop(self):
        os.kill(self.proc.pid, signal.SIGSTOP)

    def cont(self):
        os.kill(self.proc.pid, signal.SIGCONT)

    def close(self):
        try:
            os.kill(self.proc.pid, signal.SIGCONT)
            self.proc.stdin.close()
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class Setup:
    """N redis-servers and a way to start named adapter processes against them."""

    def __init__(self, masters=1, key="lockcheck-drive", ttl=2000):
        self.workdir = tempfile.mkdtemp(prefix="lockcheck-drive-")
        self.servers, self.clients, self.key, self.ttl = [], [], key, ttl
        for _ in range(masters):
            self.servers.append(RedisServer(self.workdir))

    def env(self, name, number, addresses=None):
        env = dict(os.environ)
        env.update(LOCKCHECK_TOPOLOGY="single" if len(self.servers) == 1 else "redlock",
                   LOCKCHECK_REDIS=addresses or ",".join("127.0.0.1:%d" % s.port for s in self.servers),
                   LOCKCHECK_KEY=self.key, LOCKCHECK_TTL_MS=str(self.ttl),
                   LOCKCHECK_CLIENT_NAME="drive-%s" % name, LOCKCHECK_PROCESS=str(number),
                   LOCKCHECK_COMMAND_TIMEOUT_MS="1000")
        return env

    def client(self, name, cmd, addresses=None):
        c = Client(name, cmd, self.env(name, len(self.clients), addresses), self.workdir)
        self.clients.append(c)
        return c

    def lock_keys(self):
        """{port: {key: value}} of every key naming the lock (the key itself or ending with it)."""
        out = {}
        for s in self.servers:
            keys = resp(s.port, "KEYS", "*" + self.key)
            out[s.port] = {k: resp(s.port, "GET", k) for k in keys}
        return out

    def connection_names(self):
        names = []
        for s in self.servers:
            for line in resp(s.port, "CLIENT", "LIST").splitlines():
                fields = dict(f.split("=", 1) for f in line.split(" ") if "=" in f)
                if fields.get("name") != PROBE:
                    names.append(fields.get("name", ""))
        return names

    def close(self, keep=False):
        """Stops everything; the work folder (the clients' stderr) is kept only when asked."""
        for c in self.clients:
            c.close()
        for s in self.servers:
            s.stop()
        if keep:
            print("clients' stderr kept in %s" % self.workdir)
        else:
            shutil.rmtree(self.workdir, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--masters", type=int, default=1, help="redis-servers to start (>1: redlock)")
    ap.add_argument("--ttl", type=int, default=2000, help="LOCKCHECK_TTL_MS")
    ap.add_argument("cmd", nargs=argparse.REMAINDER, help="the adapter command")
    args = ap.parse_args()
    if not args.cmd:
        ap.error("give the adapter command")
    setup, failures, checks = Setup(args.masters, ttl=args.ttl), [], []

    def expect(what, msg, want):
        good = msg["type"] == want
        checks.append(what)
        print("%-4s %-44s -> %s" % ("ok" if good else "FAIL", what, json.dumps(msg)))
        if not good:
            failures.append(what)
        return msg

    def validity(what, msg):
        """A library's own validity (valid_ms), when it reports one: left of the TTL, so in (0, TTL]."""
        if msg["type"] != "ok" or "valid_ms" not in msg:
            return
        checks.append(what)
        good = 0 < msg["valid_ms"] <= args.ttl
        print("%-4s %-44s -> %s" % ("ok" if good else "FAIL", what, msg["valid_ms"]))
        if not good:
            failures.append(what)

    try:
        a, b = setup.client("A", args.cmd), setup.client("B", args.cmd)
        print("hello A: %s" % json.dumps(a.hello))
        validity("A acquire valid_ms in (0, TTL]", expect("A acquire wait 0", a.call("acquire", wait_ms=0), "ok"))
        expect("B acquire wait 0 (A holds)", b.call("acquire", wait_ms=0), "fail")
        expect("B acquire wait 300 (A holds)", b.call("acquire", wait_ms=300), "fail")
        print("     server keys: %s" % setup.lock_keys())
        if a.supports("held"):
            m = expect("A held", a.call("held"), "ok")
            checks.append("A held true")
            if m.get("held") is not True:
                failures.append("A held is not true")
                print("FAIL A held should be true")
            m = expect("B held", b.call("held"), "ok")
            checks.append("B held false")
            if m.get("held") is not False:
                failures.append("B held is not false")
                print("FAIL B held should be false")
        expect("A use", a.call("use"), "ok")
        if a.supports("renew"):
            validity("A renew valid_ms in (0, TTL]", expect("A renew", a.call("renew"), "ok"))
        else:
            expect("A renew (not in ops)", a.call("renew"), "fail")
        names = setup.connection_names()
        checks.append("names")
        good = names and all(n in ("drive-A", "drive-B") for n in names)
        print("%-4s %-44s -> %s" % ("ok" if good else "FAIL", "every connection named", names))
        if not good:
            failures.append("connection names")
        expect("A release", a.call("release"), "ok")
        expect("B acquire wait 0 (after A released)", b.call("acquire", wait_ms=0), "ok")
        expect("A unknown op 'frobnicate'", a.call("frobnicate"), "fail")
        expect("B release", b.call("release"), "ok")
        expect("B release again (holds nothing)", b.call("release"), "fail")

        # Informational: A paused past its TTL while B takes and gives back the lock.
        print("--- pause: A acquires, SIGSTOP A for %d ms; B acquires, uses, releases; SIGCONT A" % (args.ttl * 2))
        print("info A acquire -> %s" % json.dumps(a.call("acquire", wait_ms=0)))
        a.stop()
        time.sleep(args.ttl * 1.5 / 1000)
        print("info B acquire wait 0 (A paused) -> %s" % json.dumps(b.call("acquire", wait_ms=0)))
        print("info B use -> %s" % json.dumps(b.call("use")))
        print("info B release -> %s" % json.dumps(b.call("release")))
        time.sleep(args.ttl * 0.5 / 1000)
        a.cont()
        time.sleep(0.3)  # let A's overdue timers (a background refresh) run
        print("info server keys after SIGCONT: %s" % setup.lock_keys())
        for op in ("held", "use", "release"):
            if a.supports(op):
                print("info A %s -> %s" % (op, json.dumps(a.call(op))))
    except ProtocolError as e:
        print("PROTOCOL ERROR: %s" % e)
        setup.close(keep=True)
        return 2
    setup.close(keep=bool(failures))
    print("%d passed, %d failed" % (len(checks) - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
