#!/usr/bin/env python3
"""A C++ reference adapter started while its Redis is down (a restarted client during a node crash) says hello
and answers `fail` (unreachable) to an acquire, as PROTOCOL.md asks, instead of dying at start-up.
Usage: node_down_at_start.py ADAPTER NODES   (NODES: how many addresses, all of them closed ports)"""
import json
import os
import socket
import subprocess
import sys


def closed_port():
    # A port the kernel just handed out and nobody listens on any more: connecting to it is refused.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


adapter, nodes = sys.argv[1], int(sys.argv[2])
env = dict(os.environ, LOCKCHECK_REDIS=",".join(f"127.0.0.1:{closed_port()}" for _ in range(nodes)),
           LOCKCHECK_COMMAND_TIMEOUT_MS="200")
done = subprocess.run([adapter], input='{"id":1,"op":"acquire"}\n', capture_output=True, text=True, env=env, timeout=60)
lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
problems = []
if done.returncode != 0:
    problems.append(f"exited {done.returncode}: {done.stderr.strip()[-300:]}")
if not lines or lines[0].get("type") != "hello":
    problems.append(f"no hello first: {done.stdout!r}")
if len(lines) < 2 or lines[1].get("id") != 1 or lines[1].get("type") != "fail":
    problems.append(f"the acquire was not answered fail: {done.stdout!r}")
if problems:
    print(f"FAILED: {adapter} with its node(s) down:\n  " + "\n  ".join(problems))
    sys.exit(1)
print(f"ok: {os.path.basename(adapter)} answered {lines[1]}")
