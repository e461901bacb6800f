"""A judge client whose every acquire takes 2 s (inside the scenario's wait_ms) and that answers everything
else at once: a pause of the run lands inside an acquire, with the request outstanding. judge_client_paused
expects a pause longer than the reply bound not to be reported as a hang."""
import json, sys, time

print(json.dumps({"type": "hello", "client": "slow probe", "ops": ["acquire", "use", "release"]}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if req["op"] == "acquire":
        time.sleep(2.0)  # a monotonic deadline: after a long SIGSTOP it is over at once
    print(json.dumps({"id": req["id"], "type": "ok"}), flush=True)
