#!/usr/bin/env bash
# A lease's validity is the library's own (PROTOCOL.md, "Validity"): node-redlock's Lock ends at its first
# attempt + TTL - drift (1% of the TTL + 2 ms: 7 ms of the 500 ms here), so the acquires in the history end
# short of their invoke + TTL (the median by 5 ms at least: a cold start or a loaded machine may delay one
# attempt's start by some ms), where lockcheck's estimate (the request's sending + TTL) ends at or after it,
# every one; and the witness's "validity ended at" is such an end.
set -uo pipefail
lockcheck=$1 scenario=$2 adapter=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$lockcheck" judge "$scenario" --client "node $adapter" --history-dir "$work" > "$work/out" 2>&1
status=$?
cat "$work/out"
[ "$status" -eq 0 ] || { echo "library_validity: judge exited $status, expected 0 (the file's verdicts)"; exit 1; }
"${LOCKCHECK_PYTHON:-python3}" - "$work" <<'EOF'
import glob, json, re, sys

work = sys.argv[1]
ttl_us, short_us = 500_000, 5_000
ends, lasted = {}, []  # ends: process -> the valid_until of its acquires; lasted: valid_until - invoke
for path in glob.glob(work + "/*.jsonl"):
    invoked = {}
    for line in open(path):
        op = json.loads(line)
        if op.get("kind") != "op" or op.get("f") != "acquire":
            continue
        if op["type"] == "invoke":
            invoked[op["process"]] = op["t"]
        elif op["type"] == "ok":
            lasted.append(op["valid_until"] - invoked[op["process"]])
            ends.setdefault(op["process"], set()).add(op["valid_until"])
checked = len(lasted)
if checked == 0:
    sys.exit("library_validity: no acquire ok in the histories")
median = sorted(lasted)[len(lasted) // 2]
if median > ttl_us - short_us:
    sys.exit("library_validity: the acquires' median validity is %d us from their invoke, not the library's"
             " TTL - drift (< %d us); all: %s" % (median, ttl_us - short_us, sorted(lasted)))
witnesses = re.findall(r"process (\d+)'s validity ended at t=([0-9.]+)s", open(work + "/out").read())
if not witnesses:
    sys.exit("library_validity: no witness names a validity's end")
for process, end_s in witnesses:
    if not any(abs(end - float(end_s) * 1e6) < 2 for end in ends.get(int(process), ())):
        sys.exit("library_validity: the witness's end t=%ss is no acquire's validity of process %s" % (end_s, process))
print("library_validity: %d acquires valid for %d..%d us from their invoke (median %d, TTL %d); %d witness end(s)"
      " are the library's" % (checked, min(lasted), max(lasted), median, ttl_us, len(witnesses)))
EOF
