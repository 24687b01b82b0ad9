#!/usr/bin/env bash
# Runs each test target given (make targets), prints one summary line per suite (wall seconds and
# the CPU seconds - user + system - of everything it ran) and a total; exits non-zero if any suite
# failed. Each suite prints its own "N passed, N failed" line.
set -uo pipefail
failed=()
t0=$(date +%s)
TIMEFORMAT='%R %U %S'
tf=""
trap '[ -z "$tf" ] || rm -f "$tf" "$tf.rc"' EXIT  # (the suite's timing file, also when interrupted)
for t in "$@"; do
  echo "=== $t"
  tf=$(mktemp)
  { time { make --no-print-directory "$t" 2>&3 || echo fail > "$tf.rc"; } ; } 3>&2 2> "$tf"
  [ -e "$tf.rc" ] && failed+=("$t")
  read -r wall usr sys < "$tf"
  echo "=== $t: ${wall%.*} s wall, $(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%d", u + s }') s CPU"
  rm -f "$tf" "$tf.rc"
done
echo "=== all suites: $(( $(date +%s) - t0 )) s"
echo "=== test suites: $(( $# - ${#failed[@]} )) passed, ${#failed[@]} failed${failed:+ (${failed[*]})}"
[ ${#failed[@]} -eq 0 ]
