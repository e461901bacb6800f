#!/usr/bin/env bash
# benchmarks_page.sh --update keeps the blocks of the page that the run does not measure, as they were written
# (a heading inside a block's output stays output), puts the measured one in its place, and without --update
# the page holds only what ran. Runs against an empty build directory, so the one selected block is "Not run"
# at once (exit 1): what is tested is the page, not a benchmark.
# Usage: benchmarks_page_test.sh <repo root>
set -uo pipefail
repo=${1:?usage: benchmarks_page_test.sh <repo root>}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/empty-build"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$work/page.md" <<'PAGE'
# Benchmarks

## This run

- commit abc1234

## Figures

### The raw hiredis lock cycle alone

Block `token_raw`. Command (run in the repository's root):

Commit abc1234; 2026-01-01 00:00:00 UTC; load average 1 before, 1 after; 1 s of wall time; exit status 0.

```text
### a line of output that looks like a heading
raw_cycles_per_s=12345
```

### Mutex contended: 8 threads on one key, 200 acquisitions each

Block `token_contended`. Command (run in the repository's root):

```text
contended_old_figure=1
```

## Not measured in this run

- something

## Measured by hand only

Text.
PAGE

run_page() { "$repo/tools/bench/benchmarks_page.sh" "$work/empty-build" --only token_contended --out "$work/page.md" "$@" >"$work/log" 2>&1; }

run_page --update
[[ $? == 1 ]] || fail "a block that could not run exits 1"
grep -q 'raw_cycles_per_s=12345' "$work/page.md" || fail "--update lost the kept block's figure"
grep -q '^### a line of output that looks like a heading$' "$work/page.md" || fail "--update lost a heading-like output line"
grep -q 'Commit abc1234; 2026-01-01' "$work/page.md" || fail "--update lost the kept block's own commit and date"
grep -q 'kept from the page before (--update.*`token_raw`' "$work/page.md" || fail "the header does not name the kept block"
grep -q 'contended_old_figure' "$work/page.md" && fail "--update kept the old text of the block it measured"
grep -q 'Not run: missing' "$work/page.md" || fail "the measured block's new text is missing"
grep -q '^- `token_raw`' "$work/page.md" && fail "a kept block is listed as not measured"
[[ $(grep -c '^Block `token_raw`' "$work/page.md") == 1 ]] || fail "the kept block appears other than once"
# In the script's order (token_mutex_vs_raw, token_contended, token_raw), whichever ran.
contended=$(grep -n '^Block `token_contended`' "$work/page.md" | cut -d: -f1)
raw=$(grep -n '^Block `token_raw`' "$work/page.md" | cut -d: -f1)
((contended < raw)) || fail "the blocks are not in the script's order"

run_page
grep -q 'raw_cycles_per_s' "$work/page.md" && fail "without --update the page kept a block that did not run"
grep -q '^- `token_raw`' "$work/page.md" || fail "without --update an unmeasured block is listed as not measured"
echo "benchmarks_page --update: ok"
