#!/usr/bin/env python3
"""Renders reports/clients.md and reports/clients.html from one `lockcheck compare --clients` run.

Reads compare's results.json (the cells, their tallies, the first violation's witness), the clients' table the
script wrote (name, library, version, command, keys, whether it ran) and the run's facts (command, commit, date,
wall time, load). Renders only: it runs nothing. Standard library only. Called by clients_report.sh.
"""
import argparse
import html
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clients_explore_section  # noqa: E402  (beside this file)

# Properties shown as their own table, in the checkers' order; the others only where a run judged them.
LEVELS = {
    "mutual_exclusion_server": "mutual exclusion, server level (the key had one owner)",
    "mutual_exclusion_client": "mutual exclusion, client level (no two clients believed they held it)",
    "mutual_exclusion_resource": "mutual exclusion, resource level (no stale write accepted)",
    "owner_only_release": "only the owner releases",
    "bounded_unavailability": "bounded unavailability (the lock comes back after a holder dies)",
    "reentrancy": "reentrancy",
    "renewal": "renewal",
    "fencing": "fencing",
    "permit_safety": "permit safety",
    "fairness": "fairness",
}

# The judge scenario closest to each family, for reproducing a find with `lockcheck judge FILE --client CMD`.
JUDGE_FILES = {
    "pause": "scenarios/redis/pause-breaks-token.toml",
    "failover": "scenarios/redis/failover-breaks-token.toml",
    "clock-jump": "scenarios/redis/server-clock-jump-breaks-token.toml",
    "lossy": "scenarios/redis/lossy-network-token.toml",
}


def cell_text(prop):
    """matrix.md's notation: ✓ held in every run, ✓ j/N held where judged, ✗ k/N broken, – not exercised."""
    if prop is None:
        return "not run"
    status, runs, judged, violated = prop["status"], prop["runs"], prop["judged"], prop["violated"]
    if status == "broken":
        return f"✗ {violated}/{runs}"
    if status == "holds":
        return "✓" if judged == runs else f"✓ {judged}/{runs}"
    return "–"


def read_clients(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            name, library, version, command, keys, status = line.rstrip("\n").split("\t")
            rows.append(dict(name=name, library=library, version=version, command=command, keys=keys, status=status))
    return rows


def reproduce(row_id, client, family, seed):
    """The command that reruns one cell's seed on real Redis (real time: a rate, not a byte-for-byte replay)."""
    if client is None:
        return (f"build/tools/lockcheck compare --backend redis --variants {row_id} --faults {family} "
                f"--seed {seed} --history-dir .")
    keys = f" --client-keys {client['name']}={client['keys']}" if client["keys"] != "-" else ""
    return (f"NODE_PATH=build/judge-clients/node_modules build/tools/lockcheck compare --backend redis "
            f"--clients '{client['name']}={client['command']}'{keys} --faults {family} --seed {seed} --history-dir .")


def judge_hint(client, family):
    path = JUDGE_FILES.get(family)
    if client is None or path is None:
        return None
    keys = f" --keys {client['keys']}" if client["keys"] != "-" else ""
    return f"build/tools/lockcheck judge {path} --runs 5{keys} --client \"{client['command']}\""


def against_reference(row, token_cell, prop, mock_token_cell=None):
    """Own bug or known limit, as far as these runs tell: does lockcheck's textbook lock keep the property under
    the same family, here (real Redis, this run's seeds) and in the committed mock comparison (reports/, 10 seeds)?"""
    if not row.startswith("client:"):
        return None
    t = token_cell["properties"].get(prop) if token_cell else None
    m = mock_token_cell["properties"].get(prop) if mock_token_cell else None
    here = ("could not judge it here" if t is None or t["status"] in ("not exercised", "not checked")
            else f"✗ {t['violated']}/{t['runs']} here" if t["status"] == "broken" else f"✓ here ({t['judged']} run(s))")
    on_mock = "" if m is None or m["status"] in ("not exercised", "not checked") else (
        f", ✗ {m['violated']}/{m['runs']} on the mock" if m["status"] == "broken" else f", ✓ on the mock ({m['runs']} seeds)")
    if (t and t["status"] == "broken") or (m and m["status"] == "broken"):
        return (f"the reference `token` breaks under this family too ({here}{on_mock}): a limit of the "
                "single-instance TTL lock under this fault, not this client's own")
    return (f"the reference `token` holds under this family ({here}{on_mock}): a candidate bug of the client's "
            "own; confirm it with more runs (a real run is one draw of its interleavings)")


HUNG_NOTE = re.compile(r"^`([^`]+)` under `([^`]+)`: a client hung")


def hung_cells(results):
    """(row, family) where a client stopped answering and was killed (compare's notes): its verdicts rest on the
    history up to the kill, its op counted `info`; the page marks such cells."""
    return {(m.group(1), m.group(2)) for m in map(HUNG_NOTE.match, results.get("notes", [])) if m}


def build_model(results, clients, meta, reference=None):
    by_row = {("client:" + c["name"]): c for c in clients}
    families = [f for f in results["faults"]]
    cells = {(c["variant"], c["fault"]): c for c in results["cells"]}
    mock_cells = {(c["variant"], c["fault"]): c for c in (reference or {}).get("cells", [])}
    rows = [v for v in results["variants"]]
    # Clients that did not run (preflight refused) are rows too: the page says why.
    for c in clients:
        if c["status"] != "ran" and "client:" + c["name"] not in rows:
            rows.append("client:" + c["name"])
    judged_props = [p for p in LEVELS if any(p in c["properties"] and c["properties"][p]["status"] != "not exercised"
                                               and c["properties"][p]["status"] != "not checked"
                                               for c in results["cells"])]
    findings = []
    for row in rows:
        for fam in families:
            cell = cells.get((row, fam["id"]))
            if not cell:
                continue
            for prop in LEVELS:
                p = cell["properties"].get(prop)
                if p and p["status"] == "broken":
                    client = by_row.get(row)
                    findings.append(dict(row=row, family=fam, prop=prop, p=p, client=client,
                                         against=against_reference(row, cells.get(("token", fam["id"])), prop,
                                                                   mock_cells.get(("token", fam["id"]))),
                                         reproduce=reproduce(row, client, fam["id"], p["first_violating_seed"]),
                                         judge=judge_hint(client, fam["id"])))
    return dict(rows=rows, families=families, cells=cells, props=judged_props, findings=findings, by_row=by_row,
                hung=hung_cells(results))


def row_label(row, by_row):
    c = by_row.get(row)
    if c is None:
        return f"`{row}` (reference)"
    return f"{c['library']} {c['version']}"


def glance(model, row):
    """Two columns of the at-a-glance table: the families that broke the client level; the other breaks."""
    client = model["by_row"].get(row)
    if client is not None and client["status"] != "ran":
        return f"{client['status']} | "
    if not any((row, fam["id"]) in model["cells"] for fam in model["families"]):
        return "no cell ran (compare's notes below say why) | "
    client_level = [f["family"]["id"] for f in model["findings"]
                    if f["row"] == row and f["prop"] == "mutual_exclusion_client"]
    others = sorted({f"{f['prop']} ({f['family']['id']})" for f in model["findings"]
                     if f["row"] == row and f["prop"] not in ("mutual_exclusion_client", "mutual_exclusion_resource")})
    others += [f"a client hung ({fam})" for (hung_row, fam) in sorted(model["hung"]) if hung_row == row]
    return (", ".join(client_level) or "nothing") + " | " + (", ".join(others) or "–")


def anchor(f):
    return f"{f['row']}--{f['family']['id']}--{f['prop']}".replace(":", "-").replace("/", "-").replace("@", "")


def finding_title(f, by_row):
    p = f["p"]
    return (f"{row_label(f['row'], by_row)} × {f['family']['title']}: {LEVELS[f['prop']]} "
            f"✗ {p['violated']}/{p['runs']}")


def finding_items(f):
    """One violated cell's facts, as markdown list items (the witness and summary as the checker wrote them)."""
    p = f["p"]
    items = [f"Summary (seed {p['first_violating_seed']}): {p['summary']}", f"Witness: {p['cause']}"]
    if f["against"]:
        items.append(f"Against the reference: {f['against']}")
    items.append(f"Rerun this cell: `{f['reproduce']}` (add `--runs 5` instead of `--seed` for a rate)")
    if f["judge"]:
        items.append(f"The same fault as a judge scenario: `{f['judge']}`")
    return items


def notes_items(clients, results):
    not_run = [f"`client:{c['name']}` ({c['library']}): {c['status']}" for c in clients if c["status"] != "ran"]
    return not_run + list(results.get("notes", []))


def markdown(model, results, clients, meta, explore_lines=()):
    out = []
    w = out.append
    w("# The ecosystem's Redis lock clients, judged side by side")
    w("")
    w("<!-- generated by tools/judge/clients_report.sh; do not edit by hand -->")
    w("")
    w("**How to read this page.** Each row is a Redis lock client library as a service runs it, driven through "
      "its adapter (`tools/judge/adapters/`, [PROTOCOL.md](../tools/judge/PROTOCOL.md)) by `lockcheck compare "
      "--backend redis --clients`: real `redis-server` processes, real client processes, real faults (a pause "
      "is SIGSTOP of the client's process, a crash SIGKILL and a new process 0.5 s later, a partition drops every "
      "byte on the client's own proxy link to the node, a failover kills the master and promotes a replica that "
      "lags 100–200 ms with the clients re-routed to it, clock faults move the client's wall clock or "
      "redis-server's through lockcheck's LD_PRELOAD clock shim; tools/redis_backend/README.md). Every client runs the same "
      "workload as the catalogue's `token` row (3 client processes contending for one key on one master, TTL "
      "1 s, holds of 50–200 ms, 8 s per run). `token` (SET NX PX + compare-and-delete, the textbook lock) and "
      "`redlock` (five masters, quorum) are lockcheck's own reference implementations: a client that breaks where "
      "`token` breaks meets a limit of the single-instance TTL lock under that fault; a client that breaks where "
      "`token` holds has a bug of its own. Quorum clients (node-redlock, `RedlockMutex`, redlock-universal) run "
      "here against one master, as their single-instance users do.")
    w("")
    w("A cell is `✓` when every run could judge the property and it held, `✓ j/N` when only j of N runs could "
      "judge it (and it held in those), `✗ k/N` when it was violated in k of N runs, `–` when no run exercised "
      "it, `not run` when the client could not be run; `(hung)` marks a cell where a client stopped answering past its "
      "reply bound (the op's wait + the command timeout + 10 s) and was killed: the run is judged up to the kill, "
      "and compare's notes at the end say which request hung. A hang under `partition` is, for the "
      "ioredis-based adapters, the adapters' own choice: on a single master `judge_protocol.js` gives ioredis no "
      "command timeout (so that the track record's rows stay as recorded), and ioredis then waits on a "
      "partitioned node without end (node-redlock 5's partition cell, rerun once with a 500 ms `commandTimeout`, answered every request); "
      "the node_redis 3 adapters (redis-lock, warlock) and symfony/lock's (php-redis: a connect timeout only) set "
      "no read timeout either. It says how a client behaves when it is run without a timeout, not that the "
      "library cannot be given one. Mutual exclusion is judged at three levels: *server* (did "
      "Redis ever give the key to a second owner while the first was entitled), *client* (did two processes ever "
      "believe they held the lock at once: what a service's critical section sees), *resource* (did the "
      "protected resource accept a write from a holder whose lease had ended). The server level needs lockcheck "
      "to read the library's writes to Redis as grants of the key it was told (`keys it writes` below); where a "
      "client's row shows `–` there, only its client and resource levels judge it. Each ✗ below has its witness "
      "(the checker's account of the first violating run) and the command that reruns that cell. Real runs do "
      "not replay byte for byte: a rerun reproduces a find at about its k/N rate.")
    w("")
    w("## What was run")
    w("")
    w(f"- Command: `{meta['command']}`")
    w(f"- lockcheck commit `{meta['commit']}`, {meta['date_utc']}; wall time {meta['wall_s']} s; "
      f"load average before {meta['load_before']}, after {meta['load_after']} ({meta['cpus']} CPUs, shared)")
    w(f"- Runs per cell: {len(results['seeds'])} (seeds {', '.join(str(s) for s in results['seeds'])}); "
      f"{len(model['rows'])} rows × {len(model['families'])} fault families")
    w(f"- Fault families: {meta['families_why']}")
    w("")
    w("| fault family | what it does |")
    w("|---|---|")
    for fam in model["families"]:
        w(f"| `{fam['id']}` | {fam['description']} |")
    w("")
    w("## At a glance: what broke each client (client level)")
    w("")
    w("| row | broken under (client-level mutual exclusion) | other properties broken |")
    w("|---|---|---|")
    for row in model["rows"]:
        w(f"| {row_label(row, model['by_row'])} | {glance(model, row)} |")
    w("")
    w("## The clients")
    w("")
    w("| row | library, version | adapter command | keys it writes | ran |")
    w("|---|---|---|---|---|")
    for c in clients:
        keys = "the lock's key" if c["keys"] == "-" else f"`{c['keys']}`"
        w(f"| `client:{c['name']}` | {c['library']} {c['version']} | `{c['command']}` | {keys} | {c['status']} |")
    w("")
    for prop in model["props"]:
        w(f"## {LEVELS[prop]}")
        w("")
        w("| row | " + " | ".join(f["title"] for f in model["families"]) + " |")
        w("|---|" + "---|" * len(model["families"]))
        for row in model["rows"]:
            cells = []
            for fam in model["families"]:
                cell = model["cells"].get((row, fam["id"]))
                p = cell["properties"].get(prop) if cell else None
                text = cell_text(p) + (" (hung)" if (row, fam["id"]) in model["hung"] else "")
                if p and p["status"] == "broken":
                    text = f"[{text}](#{anchor(dict(row=row, family=fam, prop=prop))})"
                cells.append(text)
            w(f"| {row_label(row, model['by_row'])} | " + " | ".join(cells) + " |")
        w("")
    w("## What broke: each violated cell")
    w("")
    if not model["findings"]:
        w("Nothing was violated in this run.")
    for f in model["findings"]:
        w(f"### <a id=\"{anchor(f)}\"></a>{finding_title(f, model['by_row'])}")
        w("")
        for item in finding_items(f):
            w(f"- {item}")
        w("")
    if notes_items(clients, results):
        w("## Clients that did not run, and compare's notes")
        w("")
        for item in notes_items(clients, results):
            w(f"- {item}")
        w("")
    out.extend(explore_lines)
    w("## Files")
    w("")
    w("- [`clients/matrix.md`](clients/matrix.md), [`clients/report.html`](clients/report.html), "
      "[`clients/results.json`](clients/results.json): compare's own output of this run (the workload table, "
      "progress per row, every property's counts); `clients/compare.log` its printed output.")
    w("- Regenerate: `tools/judge/clients_report.sh` (`--help`); it takes about 17–25 minutes on a loaded "
      "2-core machine.")
    w("")
    return "\n".join(out)


def inline_html(text):
    """The markdown the header uses (`code`, **bold**, *italic*, [text](link)), escaped, as HTML."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]*)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]*)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"\*([^*]*)\*", r"<i>\1</i>", out)
    return re.sub(r"\[([^\]]*)\]\(([^)]*)\)", r'<a href="\2">\1</a>', out)


def to_html(md_model, results, clients, meta, markdown_text, explore_html=""):
    """A self-contained page: the same content, as tables (no scripts, nothing fetched)."""
    e = html.escape
    model = md_model
    parts = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Redis lock clients, judged</title>",
             "<style>body{font-family:sans-serif;max-width:75em;margin:1em auto;padding:0 1em;line-height:1.4}"
             "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;"
             "font-size:90%}th{background:#eee}.bad{background:#fbd5d5}.ok{background:#e2f5e2}.na{color:#888}"
             "code{background:#f4f4f4;padding:0 .2em;font-size:90%}h3{font-size:100%;margin-top:1.5em}</style>"
             "</head><body>"]
    a = parts.append
    a("<h1>The ecosystem's Redis lock clients, judged side by side</h1>")
    # The explanatory header and run facts: the markdown's first sections, paragraph by paragraph.
    head = markdown_text.split("## At a glance")[0].split("\n")
    for line in head[4:]:
        if not line.strip() or line.startswith("| fault family") or line.startswith("|---"):
            continue
        if line.startswith("## "):
            a(f"<h2>{e(line[3:])}</h2>")
        elif line.startswith("- "):
            a(f"<p>{inline_html(line[2:])}</p>")
        elif line.startswith("| `"):
            cols = [x.strip() for x in line.strip("|").split("|")]
            a(f"<p><code>{e(cols[0].strip('`'))}</code>: {e(cols[1])}</p>")
        else:
            a(f"<p>{inline_html(line)}</p>")
    a("<h2>At a glance: what broke each client (client level)</h2><table><tr><th>row</th>"
      "<th>broken under (client-level mutual exclusion)</th><th>other properties broken</th></tr>")
    for row in model["rows"]:
        broken, others = glance(model, row).split(" | ")
        a(f"<tr><td>{e(row_label(row, model['by_row']).replace('`', ''))}</td><td>{e(broken)}</td>"
          f"<td>{e(others)}</td></tr>")
    a("</table>")
    a("<h2>The clients</h2><table><tr><th>row</th><th>library, version</th><th>adapter command</th>"
      "<th>keys it writes</th><th>ran</th></tr>")
    for c in clients:
        keys = "the lock's key" if c["keys"] == "-" else c["keys"]
        a(f"<tr><td><code>client:{e(c['name'])}</code></td><td>{e(c['library'])} {e(c['version'])}</td>"
          f"<td><code>{e(c['command'])}</code></td><td>{e(keys)}</td><td>{e(c['status'])}</td></tr>")
    a("</table>")
    for prop in model["props"]:
        a(f"<h2>{e(LEVELS[prop])}</h2><table><tr><th>row</th>")
        for fam in model["families"]:
            a(f"<th title=\"{e(fam['description'])}\">{e(fam['title'])}</th>")
        a("</tr>")
        for row in model["rows"]:
            a(f"<tr><td>{e(row_label(row, model['by_row']).replace('`', ''))}</td>")
            for fam in model["families"]:
                cell = model["cells"].get((row, fam["id"]))
                p = cell["properties"].get(prop) if cell else None
                text = cell_text(p) + (" (hung)" if (row, fam["id"]) in model["hung"] else "")
                if p and p["status"] == "broken":
                    a(f"<td class=\"bad\"><a href=\"#{anchor(dict(row=row, family=fam, prop=prop))}\">{e(text)}</a></td>")
                else:
                    a(f"<td class=\"{'ok' if text.startswith('✓') else 'na'}\">{e(text)}</td>")
            a("</tr>")
        a("</table>")
    a("<h2>What broke: each violated cell</h2>")
    if not model["findings"]:
        a("<p>Nothing was violated in this run.</p>")
    for f in model["findings"]:
        a(f"<h3 id=\"{anchor(f)}\">{inline_html(finding_title(f, model['by_row']))}</h3><ul>")
        a("".join(f"<li>{inline_html(item)}</li>" for item in finding_items(f)) + "</ul>")
    if notes_items(clients, results):
        a("<h2>Clients that did not run, and compare's notes</h2><ul>")
        a("".join(f"<li>{inline_html(item)}</li>" for item in notes_items(clients, results)) + "</ul>")
    a(explore_html)
    a("<h2>Files</h2><p><a href=\"clients/report.html\">clients/report.html</a>, "
      "<a href=\"clients/matrix.md\">clients/matrix.md</a>, <a href=\"clients/results.json\">clients/results.json</a>: "
      "compare's own output of this run. Regenerate: <code>tools/judge/clients_report.sh</code>.</p>")
    a("</body></html>\n")
    return "".join(parts)


def print_summary(model):
    """The client level (what a service's critical section sees), row by family, on standard output."""
    prop = "mutual_exclusion_client"
    title = "client-level mutual exclusion"
    width = max([len(r) for r in model["rows"]] + [len(title)]) + 2
    print(title.ljust(width) + "".join(f["id"][:12].ljust(13) for f in model["families"]))
    for row in model["rows"]:
        texts = []
        for fam in model["families"]:
            cell = model["cells"].get((row, fam["id"]))
            hung = "+hung" if (row, fam["id"]) in model["hung"] else ""
            texts.append((cell_text(cell["properties"].get(prop) if cell else None) + hung).ljust(13))
        print(row.ljust(width) + "".join(texts))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", required=True, help="compare's results.json")
    parser.add_argument("--clients", required=True, help="the clients' table (TSV: name library version command keys status)")
    parser.add_argument("--meta", required=True, help="the run's facts (JSON)")
    parser.add_argument("--reference", help="the committed mock comparison's results.json (reports/), for the "
                        "reference token's verdict over 10 seeds beside this run's")
    parser.add_argument("--explore", help="clients_explore.sh's folder (reports/clients/explore): a section on what "
                        "explore --client found in each client, when it holds a run.json")
    parser.add_argument("--md", required=True)
    parser.add_argument("--html", required=True)
    args = parser.parse_args()
    with open(args.results, encoding="utf-8") as f:
        results = json.load(f)
    with open(args.meta, encoding="utf-8") as f:
        meta = json.load(f)
    clients = read_clients(args.clients)
    reference = None
    if args.reference and os.path.exists(args.reference):
        with open(args.reference, encoding="utf-8") as f:
            reference = json.load(f)
    model = build_model(results, clients, meta, reference)
    explore_lines = clients_explore_section.markdown_lines(clients_explore_section.load(args.explore, clients))
    text = markdown(model, results, clients, meta, explore_lines)
    with open(args.md, "w", encoding="utf-8") as f:
        f.write(text)
    with open(args.html, "w", encoding="utf-8") as f:
        f.write(to_html(model, results, clients, meta, text, clients_explore_section.html_text(explore_lines, inline_html)))
    print_summary(model)
    broken_rows = sorted({f["row"] for f in model["findings"]})
    print(f"wrote {args.md} and {args.html}: {len(model['findings'])} violated cell(s) in "
          f"{len(broken_rows)} row(s)")


if __name__ == "__main__":
    main()
