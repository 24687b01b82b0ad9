#!/usr/bin/env bash
# Runs each test target given (make targets), prints one summary line per suite (wall seconds and
# the CPU seconds - user + system - of everything it ran) and a total; exits non-zero if any suite
# failed. Each suite prints its own "N passed, N failed" line.
set -uo pipefail
failed=()
t0=$(date +%s)
TIMEFORMAT='%R %U %S'  # bash's `time`: wall, user and system seconds of the suite
tf=$(mktemp) || { echo "run-tests: cannot create a temporary file" >&2; exit 2; }
trap 'rm -f "$tf"' EXIT  # (also when interrupted)
for t in "$@"; do
  echo "=== $t"
  # the suite's stderr goes to the run's (fd 3); only the timing line goes to $tf; $? is make's
  { time make --no-print-directory "$t" 2>&3 ; } 3>&2 2>"$tf" || failed+=("$t")
  read -r wall usr sys < "$tf"
  echo "=== $t: ${wall%.*} s wall, $(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%d", u + s }') s CPU"
done
echo "=== all suites: $(( $(date +%s) - t0 )) s"
echo "=== test suites: $(( $# - ${#failed[@]} )) passed, ${#failed[@]} failed${failed:+ (${failed[*]})}"
[ ${#failed[@]} -eq 0 ]
