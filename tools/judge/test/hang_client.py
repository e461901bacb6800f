"""A judge client that hangs: it answers hello and every request until its second `acquire`, which it never
answers (it stops reading, as a library deadlocked in its acquire does). judge_client_hang expects the run
to kill it, report the hang and fail."""
import json, sys, threading

print(json.dumps({"type": "hello", "client": "hang probe", "ops": ["acquire", "use", "release"]}), flush=True)
acquires = 0
for line in sys.stdin:
    req = json.loads(line)
    if req["op"] == "acquire":
        acquires += 1
        if acquires == 2:
            print("hang probe: stuck in acquire (request %d)" % req["id"], file=sys.stderr, flush=True)
            threading.Event().wait()  # forever: only a SIGKILL ends it
    print(json.dumps({"id": req["id"], "type": "ok"}), flush=True)
