#!/usr/bin/env bash
# The lockcheck command line end to end: exit codes, witnesses, shrinking, replay, check, JUnit.
# Usage: cli_test.sh path/to/lockcheck
set -uo pipefail
lockcheck="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=/dev/null
source "$here/expect.sh"

"$lockcheck" run "$here/mismatch.toml" --junit "$work/junit.xml" > "$work/mismatch.out" 2>&1
code=$?
expect "a wrong expectation exits 1 (got $code)" test "$code" -eq 1
expect "it names the unexpected property" grep -q "UNEXPECTED mutual_exclusion_client" "$work/mismatch.out"
expect "it prints the replay command" grep -q "replay: lockcheck replay .*mismatch.toml --seed" "$work/mismatch.out"
expect "it shrinks to a single pause" grep -q "minimal fault schedule (1):" "$work/mismatch.out"
expect "the JUnit report has the failure" grep -q "<failure message=\"expected holds\">" "$work/junit.xml"
expect "the JUnit report passes the server level" grep -q "name=\"mutual_exclusion_server\">" "$work/junit.xml"

# One log for stdout and stderr (`> log 2>&1`): the progress lines on stderr never land inside a stdout line,
# so a replay command stays whole to copy. Twelve reports overflow any stdout buffer several times.
files=(); for _ in $(seq 12); do files+=("$here/mismatch.toml"); done
"$lockcheck" run "${files[@]}" --no-shrink > "$work/both.log" 2>&1
expect "12 progress lines in the log" test "$(grep -c 'running mismatch' "$work/both.log")" -eq 12
expect "each progress line is a whole line" test "$(grep -c '^running mismatch over [0-9]* seed(s)$' "$work/both.log")" -eq 12
expect "each replay command is a whole line" \
  test "$(grep -c 'replay: ' "$work/both.log")" -eq "$(grep -c '^    replay: lockcheck replay [^ ]*mismatch.toml --seed [0-9]* --out mismatch-seed[0-9]*.jsonl$' "$work/both.log")"

"$lockcheck" run "$here/invalid.toml" > "$work/invalid.out" 2>&1
code=$?
expect "an invalid scenario exits 2 (got $code)" test "$code" -eq 2
expect "the error has file:line:column" grep -q "invalid.toml:4:1: unknown key 'tll_ms'" "$work/invalid.out"

"$lockcheck" rnu "$here/mismatch.toml" > "$work/typo.out" 2>&1
code=$?
expect "an unknown subcommand exits 2 (got $code)" test "$code" -eq 2
expect "it is named, with the closest one" grep -q "unknown subcommand 'rnu' (did you mean 'run'?); known: run, judge, replay, check, compare, merge, explore, serve" "$work/typo.out"

"$lockcheck" run "$here/lua54-script.toml" > "$work/lua54.out" 2>&1
code=$?
expect "a Lua 5.4-only user script is rejected before the run (got $code)" test "$code" -eq 2
expect "the rejection names the construct and the line" grep -q "lua54-script.toml:5:.*integer division operator '//' is not Lua 5.1 syntax" "$work/lua54.out"

# Gates that can fail: --strict fails a scenario whose verdicts rest on nothing, and only --strict does.
"$lockcheck" run "$here/hollow.toml" > "$work/hollow.out" 2>&1
code=$?
expect "a hollow scenario passes without --strict (got $code)" test "$code" -eq 0
expect "but says what its verdicts rest on" grep -q "HOLLOW: none of the [0-9]* fault(s) landed while a client held the lock" "$work/hollow.out"
"$lockcheck" run "$here/hollow.toml" --strict > "$work/hollow-strict.out" 2>&1
code=$?
expect "with --strict a hollow scenario fails (got $code)" test "$code" -eq 1
expect "and says why" grep -q "STRICT: hollow rests on nothing (HOLLOW above)" "$work/hollow-strict.out"
"$lockcheck" run "$here/expects-none.toml" --strict > "$work/none-strict.out" 2>&1
code=$?
expect "with --strict a file that expects no verdict fails (got $code)" test "$code" -eq 1
expect "naming its reason" grep -q 'HOLLOW: the file expects no verdict (\[expect\] none = "a test of --strict' "$work/none-strict.out"
printf 'variant = "token"\nseeds = 2\n' > "$work/no-expect.toml"
"$lockcheck" run "$work/no-expect.toml" > "$work/no-expect.out" 2>&1
code=$?
expect "a scenario file without [expect] is refused (got $code)" test "$code" -eq 2
expect "at its first line, with the fix" grep -q "no-expect.toml:1:1: no \[expect\] table: .* or, when it is run for something else, \[expect\] none" "$work/no-expect.out"

# The lock script contract (scenarios/README.md, [scripts]): a breach is bad input, exit 2, never a passing run.
"$lockcheck" run "$here/contract-release-answers-2.toml" > "$work/contract-probe.out" 2>&1
code=$?
expect "a release answering 2 is refused before the run (got $code)" test "$code" -eq 2
expect "the refusal names the file's line, the script and the reply" \
  grep -q "contract-release-answers-2.toml:7:.*release_answers_2.lua broke the lock script contract: it returned (integer) 2" "$work/contract-probe.out"
"$lockcheck" run "$here/contract-release-answers-2-in-run.toml" > "$work/contract-run.out" 2>&1
code=$?
expect "a release answering 2 in the run exits 2 (got $code)" test "$code" -eq 2
expect "the run names the seed, the script and the reply" \
  grep -q "CONTRACT: seed 1, t=.*release_answers_2_near_expiry.lua broke the lock script contract: it returned (integer) 2" "$work/contract-run.out"
expect "and says the run failed for it" grep -q "1 with a script outside its contract (exit 2)" "$work/contract-run.out"
"$lockcheck" explore --scripts "$here/../../../scenarios/scripts/token_acquire.lua,$here/release_answers_2_near_expiry.lua" \
  --budget-runs 50 --seed 1 --out "$work/contract-finds" > "$work/contract-explore.out" 2>&1
code=$?
expect "explore stops on a release answering 2 with exit 2 (got $code)" test "$code" -eq 2
expect "naming the script and the reply" \
  grep -q "a lock script broke its contract in a run (seed [0-9]*, t=.*release_answers_2_near_expiry.lua broke the lock script contract: it returned (integer) 2" "$work/contract-explore.out"

"$lockcheck" compare --scripts "late=$here/../../../scenarios/scripts/token_acquire.lua,$here/release_answers_2_near_expiry.lua" \
  --faults baseline --runs 2 --out "$work/contract-compare" > "$work/contract-compare.out" 2>&1
code=$?
expect "compare exits 2 on a release answering 2 (got $code)" test "$code" -eq 2
expect "its matrix notes say which script broke it, and how" \
  grep -q "a lock script broke its contract, seed 1, t=.*release_answers_2_near_expiry.lua broke the lock script contract: it returned (integer) 2" "$work/contract-compare/matrix.md"

"$lockcheck" replay "$here/mismatch.toml" --seed 2 --out "$work/a.jsonl" 2> /dev/null
"$lockcheck" replay "$here/mismatch.toml" --seed 2 --out "$work/b.jsonl" 2> /dev/null
expect "replay is byte for byte" cmp -s "$work/a.jsonl" "$work/b.jsonl"
"$lockcheck" check "$work/a.jsonl" > "$work/check.out"
code=$?
expect "check finds the violation in the replayed history (exit $code)" test "$code" -eq 1
expect "check prints verdicts" grep -q "mutual_exclusion_client" "$work/check.out"
head -n 12 "$work/a.jsonl" > "$work/cut.jsonl"
"$lockcheck" check "$work/cut.jsonl" > "$work/cut.out" 2>&1
code=$?
expect "check refuses a history cut short (exit $code)" test "$code" -eq 2
expect "it says why" grep -q "cut.jsonl: the history is cut short: its last line (i=11)" "$work/cut.out"
expect "it judges nothing" test "$(grep -c "holds" "$work/cut.out")" -eq 0

"$lockcheck" run "$here/starved.toml" > "$work/starved.out" 2>&1
code=$?
expect "a lock that can only starve meets progress = starved because CROSSSLOT (exit $code)" test "$code" -eq 0
expect "the report shows it" grep -q "progress .* starved .* starved (2) .* ok" "$work/starved.out"
"$lockcheck" run "$here/not-starved.toml" > "$work/not-starved.out" 2>&1
code=$?
expect "a lock that runs fails progress = starved (exit $code)" test "$code" -eq 1
expect "with the acquisition as witness" grep -q "UNEXPECTED progress: progress: violated — expected starved, but" "$work/not-starved.out"

"$lockcheck" run "$here/mismatch.toml" --shard 1/3 --no-shrink > "$work/shard.out" 2>&1
expect "a shard runs a third of the seeds" grep -q "1 seed," "$work/shard.out"
"$lockcheck" run "$here/mismatch.toml" --shard 3/3 > /dev/null 2>&1
code=$?
expect "a bad shard is a usage error (got $code)" test "$code" -eq 2

# `unknown` never passes for `holds`: no run of a token lock nests, so reentrancy cannot be judged.
"$lockcheck" run "$here/unjudged.toml" --junit "$work/unjudged.xml" > "$work/unjudged.out" 2>&1
code=$?
expect "an expected holds that no run judged exits 1 (got $code)" test "$code" -eq 1
expect "it says why nothing was judged" grep -q "UNEXPECTED reentrancy: expected holds, but 2 of 2 runs could not judge it (unknown), first seed 1: not exercised" "$work/unjudged.out"
expect "the JUnit report fails it" grep -q "<failure message=\"expected holds\">expected holds, but 2 of 2 runs could not judge" "$work/unjudged.xml"
expect "the judged property still passes" grep -q "mutual_exclusion_server.*holds (2).*ok" "$work/unjudged.out"

# The shrunk schedule as printed, pasted as [[faults]] in place of [nemesis] with the replayed seed, gives the
# same violation (issue 24, item 11): the shrinker ran exactly that file.
seed=$(sed -n 's/.*replay: lockcheck replay .*--seed \([0-9]*\) .*/\1/p' "$work/mismatch.out" | head -1)
{
  sed -e '/^\[nemesis\]/,/^$/d' -e "s/^seeds = .*/seed = $seed/" -e '/^\[expect\]/,$d' "$here/mismatch.toml"
  sed -n '/as \[\[faults\]\]/,/^  [a-zA-Z]/p' "$work/mismatch.out" | sed -e '1d' -e '/^  [a-zA-Z]/d' -e 's/^      //'
  printf '\n[expect]\nmutual_exclusion_client = "violated"\n'
} > "$work/pasted.toml"
"$lockcheck" run "$work/pasted.toml" > "$work/pasted.out" 2>&1
code=$?
expect "the pasted minimal schedule reproduces the violation (got $code; $work/pasted.toml)" test "$code" -eq 0

# explore finds set-nx-ex-del's foreign release with no fault named, writes it as a scenario, and that file
# reproduces it; the same seed and budget print the same report.
"$lockcheck" explore --variant set-nx-ex-del --property owner_only_release --budget-runs 200 --seed 1 --out "$work/finds" > "$work/explore.out" 2> /dev/null
code=$?
expect "explore exits 1 on a find (got $code)" test "$code" -eq 1
expect "it names the property and the file" grep -q "FOUND owner_only_release violated: the lock's own bug" "$work/explore.out"
expect "it says what made it the lock's own" grep -q "own bug: the reference lock 'token' keeps it" "$work/explore.out"
expect "it lists every mark, reached or a blind spot" grep -q "release_while_other_holds" "$work/explore.out"
# The file is named by the lock as run: set-nx-ex-del, or set-nx-ex-del+watchdog when the find drew renewal on.
find_file=$(ls "$work"/finds/set-nx-ex-del*-owner_only_release.toml 2> /dev/null | head -1)
expect "the find is a scenario file" test -n "$find_file"
"$lockcheck" run "${find_file:-missing.toml}" > "$work/replayed-find.out" 2>&1
code=$?
expect "lockcheck run reproduces the find (got $code)" test "$code" -eq 0
"$lockcheck" explore --variant set-nx-ex-del --property owner_only_release --budget-runs 200 --seed 1 --jobs 2 --out "$work/finds2" > "$work/explore2.out" 2> /dev/null
expect "explore is deterministic in its seed, whatever --jobs" \
  cmp -s <(grep -v "runs in\|wrote\|replay:" "$work/explore.out") <(grep -v "runs in\|wrote\|replay:" "$work/explore2.out")
"$lockcheck" explore --variant no-such-lock > "$work/explore-bad.out" 2>&1
code=$?
expect "explore of an unknown variant is a usage error (got $code)" test "$code" -eq 2
"$lockcheck" explore --variant token --without failovr > "$work/explore-without.out" 2>&1
code=$?
expect "--without an unknown fault kind is a usage error (got $code)" test "$code" -eq 2
expect "it names the closest kind" grep -q "did you mean 'failover'" "$work/explore-without.out"
# token under a failover: a known limit (F5), listed with the kind to leave out to look past it; it neither ends
# the search nor counts as a find (exit 0)
"$lockcheck" explore --variant token --property mutual_exclusion_server --budget-runs 100 --seed 1 --out "$work/finds3" \
  > "$work/explore-limit.out" 2> /dev/null
code=$?
expect "known limits alone exit 0 (got $code)" test "$code" -eq 0
expect "the known limits met are listed" grep -q "known limits met" "$work/explore-limit.out"
expect "with how often it was met" grep -q "mutual_exclusion_server in [0-9]* run(s)" "$work/explore-limit.out"
expect "and the kind that leaves it out" grep -q -- "--without [a-z_]* leaves it out" "$work/explore-limit.out"
expect "the search went on to its budget" grep -q "(guided, seed 1, 100 runs" "$work/explore-limit.out"

expect_summary
