"""The clients page's section on what `lockcheck explore --client` found in each client (clients_explore.sh):
read from each search's explore.json (tools/explore/explore_json.hpp) under reports/clients/explore/<client>/,
as markdown lines the page's renderer places before its Files section (and turns into HTML the same way)."""
import html
import json
import os
import re


def _property(find):
    return find["property"] + (f" ({find['clause']})" if find.get("clause") else "")


def _rate(find):
    """The reproduction rate the search printed in the find's story ("reproduced in k of R runs ...")."""
    for sentence in find.get("story", []):
        if sentence.startswith("reproduced in "):
            return sentence.split(" (")[0].replace("reproduced in ", "")
    return "not rerun"


def load(explore_dir, clients):
    """Per client of the page's table (in its order): its search's lock record, or None when it has none."""
    if not explore_dir or not os.path.isdir(explore_dir):
        return None
    run_path = os.path.join(explore_dir, "run.json")
    if not os.path.exists(run_path):
        return None
    with open(run_path, encoding="utf-8") as f:
        run = json.load(f)
    searched = []
    for client in clients:
        path = os.path.join(explore_dir, client["name"], "explore.json")
        record = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                document = json.load(f)
            record = document["locks"][0] if document.get("locks") else None
        log = os.path.join(explore_dir, client["name"], "explore.log")
        summary = ""
        if os.path.exists(log):
            with open(log, encoding="utf-8") as f:
                summary = next((line.strip() for line in f if "judged runs in all" in line), "")
        searched.append((client, record, summary))
    return run, searched


def markdown_lines(loaded):
    if loaded is None:
        return []
    run, searched = loaded
    out = []
    w = out.append
    w("## What `explore --client` found in each client, from no hints")
    w("")
    w(f"Each client was searched by `lockcheck explore --client ADAPTER --all-properties` for {run['budget_s']} s of real "
      f"time (root seed {run['seed']}, {run['parallel']} judged runs at once), told no fault and no property: the guided "
      "search over the faults the real backend applies to a client (pauses, crashes and restarts of its process, its "
      "clock skewed, jumping and drifting, loss and partitions on its link, node crashes, restarts, failovers and node "
      "clock faults). A find is confirmed by reruns, decided against lockcheck's own `Mutex` under the same schedule "
      "(the **client's own bug** when that keeps the property; a **known limit** of the fault model when it breaks "
      "too), shrunk while it reproduces and written as a `lockcheck judge` scenario file "
      "([tools/explore/README.md](../tools/explore/README.md), \"explore --client\"). Blind spots are the search's "
      "marks no run reached: situations it cannot vouch for.")
    w("")
    w(f"- Command: `{run['command']}`; lockcheck commit `{run['commit']}`, {run['date_utc']}; wall time "
      f"{run['wall_s']} s; load average before {run['load_before']}, after {run['load_after']} ({run['cpus']} CPUs, shared)")
    w("")
    w("| client | runs of the search (judged runs in all) | own bugs | known limits met | blind spots |")
    w("|---|---|---|---|---|")
    details = []
    for client, record, summary in searched:
        label = f"{client['library']} {client['version']}"
        if record is None:
            w(f"| {label} | not searched | – | – | – |")
            continue
        judged = summary.split(", ")[1].split(" judged")[0] if ", " in summary else "?"
        own = record.get("own_bugs", [])
        limits = record.get("known_limits", [])
        blind = [m["mark"] for m in record.get("marks", []) if m.get("runs_reaching", 0) == 0 and not m.get("not_applicable")]
        own_text = ", ".join(f"[{_property(f)}](#explore-{client['name']}-{i})" for i, f in enumerate(own)) or "none"
        limit_text = ", ".join(
            f"{_property(f)} ({f['theory']['cases'] if f.get('theory') else 'reference breaks too'})" for f in limits) or "none"
        w(f"| {label} | {record['runs']} ({judged}) | {own_text} | {limit_text} | {', '.join(blind) or 'none'} |")
        for i, f in enumerate(own):
            details.append((client, i, f))
    w("")
    w("Longer searches find more than this budget: the own bugs no tracker describes, each with its file, its "
      "reproduction rate and a CTest, are in [tools/judge/FINDINGS.md](../tools/judge/FINDINGS.md).")
    w("")
    for client, i, f in details:
        w(f"### <a id=\"explore-{client['name']}-{i}\"></a>{client['library']} {client['version']}: {_property(f)}, its own bug")
        w("")
        w(f"- Witness: {f['cause']}")
        w(f"- Minimal schedule ({f['faults']} fault(s)): " + ("; ".join(f"`{s}`" for s in f["schedule"]) or "no fault"))
        w(f"- Reproduced: {_rate(f)}; decided: {f['decided_by']}")
        w(f"- Scenario file: [`clients/explore/{client['name']}/{f['file']}`](clients/explore/{client['name']}/{f['file']}); "
          f"rerun: `lockcheck judge reports/clients/explore/{client['name']}/{f['file']}`")
        w("")
    return out


def html_text(lines, inline_html):
    """The section's markdown lines as HTML: headings, paragraphs, list items and its one table."""
    parts = []
    table = []

    def flush_table():
        if not table:
            return
        parts.append("<table>")
        for n, row in enumerate(table):
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            tag = "th" if n == 0 else "td"
            parts.append("<tr>" + "".join(f"<{tag}>{inline_html(c)}</{tag}>" for c in cells) + "</tr>")
        parts.append("</table>")
        table.clear()

    for line in lines:
        if line.startswith("|"):
            if not line.startswith("|---"):
                table.append(line)
            continue
        flush_table()
        if line.startswith("### "):
            anchor = re.match(r'### <a id="([^"]*)"></a>(.*)', line)
            if anchor:
                parts.append(f"<h3 id=\"{html.escape(anchor.group(1))}\">{inline_html(anchor.group(2))}</h3>")
            else:
                parts.append(f"<h3>{inline_html(line[4:])}</h3>")
        elif line.startswith("## "):
            parts.append(f"<h2>{inline_html(line[3:])}</h2>")
        elif line.startswith("- "):
            parts.append(f"<p>{inline_html(line[2:])}</p>")
        elif line.strip():
            parts.append(f"<p>{inline_html(line)}</p>")
    flush_table()
    return "".join(parts)
