"""A judge client that takes SECONDS (argv[1]) to start, as a runtime loading its modules on a loaded machine
does, then answers every request at once. judge_client_start expects the run's time 0 to wait for its hello."""
import json, sys, time

time.sleep(float(sys.argv[1]))
print(json.dumps({"type": "hello", "client": "slow start", "ops": ["acquire", "use", "release"]}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "type": "ok"}), flush=True)
