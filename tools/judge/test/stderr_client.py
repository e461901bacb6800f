"""A judge client that writes a line naming its process on standard error, then answers every request at
once. judge_keep expects `lockcheck judge --keep DIR` to leave that line where the user can read it."""
import json, os, sys

print(f"stderr of client {os.environ['LOCKCHECK_PROCESS']}", file=sys.stderr, flush=True)
print(json.dumps({"type": "hello", "client": "stderr writer", "ops": ["acquire", "use", "release"]}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "type": "ok"}), flush=True)
