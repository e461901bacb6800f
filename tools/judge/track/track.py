#!/usr/bin/env python3
"""The track record's rows (rows.toml), each judged on its buggy and its fixed version, as a gate.

  track.py --lockcheck BUILD/tools/lockcheck [--node NODE] [--runs N] [NAME ...]

For each row (all, or the NAMEs): installs each side's npm packages into a temporary folder
(adapters/install.sh --only; deleted after), runs `lockcheck judge <name>.toml --json` with that side's
adapter, and reads the exact counts from the JSON: the buggy side must be violated in at least min_violated
seeds, the fixed side must hold in every seed it ran (none violated, none unknown), and no client may hang or
the judge fail. Prints one table line per side (TRACK_RECORD.md's table) and exits 1 if any row failed, 2 if
a side could not be installed or judged at all. --runs N judges seeds 1..N instead of the file's (the quick
form: a row's min_violated is then capped at N).
A rows file may name a row's scenario (`file`, relative to the rows file) and give a side as `reference`, a
lockcheck reference client beside the lockcheck binary (e.g. "lockcheck_judge_mutex --watchdog") instead of
packages and an adapter: FINDINGS.md's bugs have no fixed version, and the reference lock holds instead
(findings/rows.toml). A side with no packages runs the adapter with the library already installed (a `.py`
adapter with --python: Debian's python3-redis), and may name itself (`version`).
Standard library only (Python 3.11+: tomllib).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTERS = os.path.join(HERE, "..", "adapters")


def observed(tally):
    """The judge's own wording (tools/lockcheck/main.cpp, observed_text), from exact counts."""
    runs, violated, unknown = tally["runs"], tally["violated"], tally["unknown"]
    if runs == 0:
        return "not checked"
    if violated > 0:
        return f"violated ({violated}/{runs})"
    if unknown == runs:
        return "unknown"
    if unknown > 0:
        return f"holds ({runs - unknown}/{runs}), unknown ({unknown})"
    return f"holds ({runs})"


def problems(side, tally, report, exit_code, min_violated):
    """Why this side does not show what the row claims (empty: it does)."""
    found = []
    if exit_code not in (0, 1):
        found.append(f"lockcheck judge exited {exit_code}")
    found += [f"hung: {hang}" for hang in report["client_hangs"]]
    if tally is None:
        return found + ["the property was not checked"]
    if side == "buggy" and tally["violated"] < min_violated:
        found.append(f"violated in {tally['violated']} seed(s), fewer than {min_violated}")
    if side == "fixed":
        if tally["violated"] > 0:
            found.append(f"violated in {tally['violated']} seed(s): {tally.get('witness', '')}")
        if tally["unknown"] > 0:
            found.append(f"{tally['unknown']} seed(s) could not judge it: {tally.get('unknown_reason', '')}")
        if tally["runs"] == 0 or tally["runs"] != len(report["seeds"]):
            found.append(f"judged in {tally['runs']} of {len(report['seeds'])} seeds")
    return found


def side_name(spec):
    return spec.get("version") or spec.get("reference") or " ".join(spec["packages"])


def judge_side(args, row, side, work):
    spec = row[side]
    folder = os.path.join(work, side)
    if "reference" in spec:
        client = os.path.join(os.path.dirname(os.path.abspath(args.lockcheck)), spec["reference"])
    else:
        if spec.get("packages"):
            install = ["sh", os.path.join(ADAPTERS, "install.sh"), "--only", folder, *spec["packages"]]
            done = subprocess.run(install, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(install)} failed:\n{done.stdout}")
        interpreter = args.python if spec["adapter"].endswith(".py") else args.node
        client = f"{interpreter} {os.path.join(ADAPTERS, spec['adapter'])}"
    out = os.path.join(work, f"{side}.json")
    scenario = os.path.join(os.path.dirname(os.path.abspath(args.rows)), row["file"]) if "file" in row \
        else os.path.join(HERE, row["name"] + ".toml")
    command = [args.lockcheck, "judge", scenario, "--client", client, "--json", out]
    if row.get("keys"):
        command += ["--keys", ",".join(row["keys"])]
    if args.runs:
        command += ["--runs", str(args.runs)]
    env = dict(os.environ, NODE_PATH=os.path.join(folder, "node_modules"))
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not os.path.exists(out):
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode} without a verdict:\n{done.stdout}")
    with open(out) as f:
        report = json.load(f)["scenarios"][0]
    return report, done.returncode, done.stdout


def run_row(args, row):
    """Judges both sides of one row; prints its table lines; returns the list of failures."""
    failures = []
    with tempfile.TemporaryDirectory(prefix=f"lockcheck-track-{row['name']}-") as work:
        for side in ("buggy", "fixed"):
            report, exit_code, output = judge_side(args, row, side, work)
            tally = report["properties"].get(row["property"])
            min_violated = row["buggy"].get("min_violated", 1)
            if args.runs:
                min_violated = min(min_violated, args.runs)
            found = problems(side, tally, report, exit_code, min_violated)
            expected = f"violated >= {min_violated}" if side == "buggy" else "holds, every seed judged"
            version = side_name(row[side])
            verdict = observed(tally) if tally else "not checked"
            print(f"| {row['name']} | {version} | {row['property']} | {verdict} | {expected} | "
                  f"{'ok' if not found else 'MISMATCH'} |", flush=True)
            if found:
                failures.append(f"{row['name']} ({side}: {version}): " + "; ".join(found))
                sys.stderr.write(f"--- lockcheck judge output ({row['name']}, {side}) ---\n{output}\n")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lockcheck", required=True, help="the lockcheck binary")
    parser.add_argument("--node", default="node", help="the node interpreter the adapters run with")
    parser.add_argument("--python", default=sys.executable,
                        help="the python3 the Python adapters run with (one with the client's library: Debian's)")
    parser.add_argument("--runs", type=int, default=0, help="judge seeds 1..N instead of the file's")
    parser.add_argument("--rows", default=os.path.join(HERE, "rows.toml"))
    parser.add_argument("names", nargs="*", help="rows to run (default: all)")
    args = parser.parse_args()
    with open(args.rows, "rb") as f:
        rows = tomllib.load(f)["row"]
    unknown = set(args.names) - {row["name"] for row in rows}
    if unknown:
        sys.exit(f"track.py: no row named {', '.join(sorted(unknown))} in {args.rows}")
    print("| scenario | version | property | observed | expected | |")
    print("|---|---|---|---|---|---|", flush=True)
    failures = []
    try:
        for row in rows:
            if not args.names or row["name"] in args.names:
                failures += run_row(args, row)
    except (RuntimeError, OSError, KeyError, ValueError) as error:
        sys.stderr.write(f"track.py: {error}\n")
        return 2
    for failure in failures:
        sys.stderr.write(f"FAILED {failure}\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
