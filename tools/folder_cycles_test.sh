#!/usr/bin/env bash
# No include cycle between folders of sim/ or tools/ (issue 35): a folder is a node, and folder A has an edge to
# folder B when a source in A #includes a header that lives in B. Sources in test/, fuzz/ and bench/ folders are
# left out (as includers and as included): tests may reach anywhere. The graph spans the whole repo, so a cycle
# through lib/ or properties/ counts too when one of its folders is in sim/ or tools/; a cycle only among other
# folders is printed as a note, not a failure.
# Fails naming, per cycle, its folders, one loop through them, and every include (file:line) between them.
# Usage: folder_cycles_test.sh <repo root>
set -euo pipefail
repo=${1:?usage: folder_cycles_test.sh <repo root>}
cd "$repo"

# The repo's C++ sources: git's list (tracked and untracked, not ignored) when there is one, else every file but
# build directories'.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  listed=$(git ls-files --cached --others --exclude-standard)
else
  listed=$(find . -type d \( -name .git -o -name build -o -name 'build-*' -o -name node_modules -o -path ./out \) \
             -prune -o -type f -print | sed 's|^\./||')
fi
sources=$(grep -E '\.(cpp|hpp|h|cc|cpp\.in)$' <<<"$listed" | while read -r path; do
            [[ -f $path ]] && echo "$path"; done | sort)
[[ -n $sources ]] || { echo "no C++ sources under $repo" >&2; exit 2; }
source_list=$(mktemp)
trap 'rm -f "$source_list"' EXIT
echo "$sources" >"$source_list"

# An include resolves to a file of the repo: for "quoted" ones, the including file's folder joined with the
# included path when that file exists (how the compiler looks first); else, and for <bracketed> ones, any file
# whose path ends with the included path (include roots such as sim/, lib/, tools/<x>/), the one sharing the
# longest leading folders with the includer when several do. Includes that resolve to no file of the repo
# (system and package headers) are no edge.
# shellcheck disable=SC2086
awk -v source_list="$source_list" '
  function dirname(path) { return path ~ /\// ? substr(path, 1, match(path, /\/[^\/]*$/) - 1) : "." }
  function normalized(path,    parts, n, i, out, kept, k) {
    n = split(path, parts, "/"); k = 0
    for (i = 1; i <= n; i++) {
      if (parts[i] == "" || parts[i] == ".") continue
      if (parts[i] == ".." && k > 0 && kept[k] != "..") { k--; continue }
      kept[++k] = parts[i]
    }
    out = ""
    for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") kept[i]
    return out
  }
  function left_out(path) { return path ~ /(^|\/)(test|fuzz|bench)\// }
  function shared_folders(a, b,    pa, pb, na, nb, i) {
    na = split(a, pa, "/"); nb = split(b, pb, "/")
    for (i = 1; i < na && i < nb && pa[i] == pb[i]; i++) {}
    return i - 1
  }
  function resolve(includer, header, quoted,    own, suffix, best, best_shared, i, candidate, shared) {
    own = normalized(dirname(includer) "/" header)
    if (quoted && (own in exists)) return own
    suffix = normalized(header)
    best = ""; best_shared = -1
    for (i = 1; i <= count[suffix]; i++) {
      candidate = ending[suffix, i]
      shared = shared_folders(candidate, includer)
      if (shared > best_shared) { best = candidate; best_shared = shared }
    }
    return best
  }
  function in_scope(folder) { return folder ~ /^(sim|tools)(\/|$)/ }
  # Tarjan: strongly connected components of the folder graph.
  function connect(v,    i, w) {
    index_of[v] = low[v] = ++next_index
    stack[++depth] = v; on_stack[v] = 1
    for (i = 1; i <= out_degree[v]; i++) {
      w = successor[v, i]
      if (!(w in index_of)) { connect(w); if (low[w] < low[v]) low[v] = low[w] }
      else if (on_stack[w] && index_of[w] < low[v]) low[v] = index_of[w]
    }
    if (low[v] == index_of[v]) {
      components++
      do { w = stack[depth--]; on_stack[w] = 0; component[w] = components; size[components]++ } while (w != v)
    }
  }
  # One loop through a component: a breadth-first search from its first folder back to itself.
  function loop_through(start,    queue, head, tail, v, i, w, seen, parent, path) {
    head = 1; tail = 0; queue[++tail] = start
    while (head <= tail) {
      v = queue[head++]
      for (i = 1; i <= out_degree[v]; i++) {
        w = successor[v, i]
        if (component[w] != component[start]) continue
        if (w == start) {
          path = start
          for (; v != start; v = parent[v]) path = v " -> " path
          return start " -> " path
        }
        if (!(w in seen)) { seen[w] = 1; parent[w] = v; queue[++tail] = w }
      }
    }
    return start
  }
  BEGIN {
    while ((getline path < source_list) > 0) {
      exists[path] = 1
      n = split(path, parts, "/")
      suffix = ""
      for (i = n; i >= 1; i--) {
        suffix = parts[i] (suffix == "" ? "" : "/" suffix)
        ending[suffix, ++count[suffix]] = path
      }
    }
    close(source_list)
  }
  /^[ \t]*#[ \t]*include[ \t]*[<"]/ {
    if (left_out(FILENAME)) nextfile
    header = $0; sub(/^[^<"]*[<"]/, "", header); sub(/[>"].*$/, "", header)
    quoted = $0 ~ /include[ \t]*"/
    target = resolve(FILENAME, header, quoted)
    if (target == "" || left_out(target)) next
    from = dirname(FILENAME); to = dirname(target)
    if (from == to) next
    if (!((from, to) in includes)) {
      successor[from, ++out_degree[from]] = to
      folders[from] = 1; folders[to] = 1
      edges++
    }
    includes[from, to] = includes[from, to] "\n      " FILENAME ":" FNR ": " $0
  }
  END {
    n = 0
    for (f in folders) sorted[++n] = f
    for (i = 2; i <= n; i++) {  # insertion sort: the report lists folders in order, not in hash order
      f = sorted[i]
      for (j = i - 1; j >= 1 && sorted[j] > f; j--) sorted[j + 1] = sorted[j]
      sorted[j + 1] = f
    }
    for (i = 1; i <= n; i++) if (!(sorted[i] in index_of)) connect(sorted[i])
    failures = 0
    for (c = 1; c <= components; c++) {
      if (size[c] < 2) continue
      names = ""; touches_scope = 0; first = ""
      for (i = 1; i <= n; i++) if (component[sorted[i]] == c) {
        names = names " " sorted[i]; if (first == "") first = sorted[i]
        if (in_scope(sorted[i])) touches_scope = 1
      }
      if (!touches_scope) {
        print "note: a cycle outside sim/ and tools/ (not checked here):" names
        continue
      }
      failures++
      print "cycle among folders:" names > "/dev/stderr"
      print "  e.g. " loop_through(first) > "/dev/stderr"
      for (i = 1; i <= n; i++) for (j = 1; j <= n; j++)
        if (i != j && component[sorted[i]] == c && component[sorted[j]] == c && ((sorted[i], sorted[j]) in includes))
          print "    " sorted[i] " -> " sorted[j] ":" includes[sorted[i], sorted[j]] > "/dev/stderr"
    }
    if (failures > 0) {
      print "FAIL: " failures " include cycle(s) between folders of sim/ or tools/" > "/dev/stderr"
      exit 1
    }
    print "ok: " n " folders, " edges " folder edges, no include cycle between folders of sim/ or tools/"
  }' $sources
