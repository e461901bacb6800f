"""A judge client that only reports its wall clock: every `use` appends time.time() to $JUDGE_CLOCK_LOG, so
a test can see the run move the client's clock (the clock shim the worker preloads). Acquire and release
always succeed: no lock is judged here."""
import json, os, sys, time

print(json.dumps({"type": "hello", "client": "wall clock probe", "ops": ["acquire", "use", "release"]}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if req["op"] == "use":
        with open(os.environ["JUDGE_CLOCK_LOG"], "a") as log:
            log.write("%f\n" % time.time())
    print(json.dumps({"id": req["id"], "type": "ok"}), flush=True)
