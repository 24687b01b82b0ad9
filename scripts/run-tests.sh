#!/usr/bin/env bash
# Runs each test target given (make targets), prints one summary line per suite and a total;
# exits non-zero if any suite failed. Each suite prints its own "N passed, N failed" line.
set -uo pipefail
failed=()
t0=$(date +%s)
for t in "$@"; do
  echo "=== $t"
  s=$(date +%s)
  if ! make --no-print-directory "$t"; then failed+=("$t"); fi
  echo "=== $t: $(( $(date +%s) - s )) s"
done
echo "=== all suites: $(( $(date +%s) - t0 )) s"
echo "=== test suites: $(( $# - ${#failed[@]} )) passed, ${#failed[@]} failed${failed:+ (${failed[*]})}"
[ ${#failed[@]} -eq 0 ]
