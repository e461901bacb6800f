# Sourced by the command-line test scripts: a temporary work directory removed on exit, and
# `expect DESCRIPTION CONDITION...`, which prints ok/FAILED and counts; `expect_summary` ends the script.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
expect() {
  local description="$1"; shift
  if "$@"; then echo "ok: $description"; passes=$((passes + 1)); else echo "FAILED: $description"; failures=$((failures + 1)); fi
}
expect_summary() {
  echo "$passes passed, $failures failed"
  exit $(( failures > 0 ))
}
