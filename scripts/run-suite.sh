#!/usr/bin/env bash
# run-suite.sh NAME PROG... -- SCRIPT...
# Runs test programs (no arguments) and test scripts (given the lcan binary path in $LCAN, default
# build/lcan). Each prints its own checks; this prints "NAME: N passed, N failed" over programs and
# scripts and exits non-zero when one failed.
set -uo pipefail
name=$1; shift
export LCAN=${LCAN:-build/lcan}
pass=0; fail=0; failed=()
mode=prog
for t in "$@"; do
  if [ "$t" = "--" ]; then mode=sh; continue; fi
  if [ $mode = prog ]; then "$t"; else bash "$t"; fi
  if [ $? -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("$t"); fi
done
echo "$name: $pass passed, $fail failed${failed:+ (${failed[*]})}"
[ $fail -eq 0 ]
