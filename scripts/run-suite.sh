#!/usr/bin/env bash
# run-suite.sh NAME PROG... -- SCRIPT...
# Runs test programs (no arguments) and test scripts (given the lcan binary path in $LCAN, default
# build/lcan). Each prints its own checks; this prints "NAME: N passed, N failed" over programs and
# scripts and exits non-zero when one failed.
# The tests are independent (each works in its own mktemp directory) and mostly single-threaded:
# they run TEST_JOBS at a time (default: the number of cores), each one's output is held back and
# printed whole, in the order given, so the log reads as a serial run would.
set -uo pipefail
name=$1; shift
export LCAN=${LCAN:-build/lcan}
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
case "$jobs" in ''|*[!0-9]*|0) echo "run-suite: TEST_JOBS='$jobs' is not a positive number" >&2; exit 2;; esac
out=$(mktemp -d) || { echo "run-suite: cannot create a temporary directory" >&2; exit 2; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$out"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

tests=(); kinds=()
mode=prog
for t in "$@"; do
  if [ "$t" = "--" ]; then mode=sh; continue; fi
  tests+=("$t"); kinds+=("$mode")
done

# start test i in the background: its stdout and stderr go to out/i.log, its exit status to out/i.rc
start() {
  local i=$1
  ( if [ "${kinds[$i]}" = prog ]; then "${tests[$i]}"; else bash "${tests[$i]}"; fi
    echo $? > "$out/$i.rc" ) > "$out/$i.log" 2>&1 &
  pids+=($!)
}

pass=0; fail=0; failed=()
next=0; shown=0; done_n=0; n=${#tests[@]}
while [ $shown -lt $n ]; do
  # keep up to $jobs tests running
  while [ $next -lt $n ] && [ $((next - done_n)) -lt "$jobs" ]; do start $next; next=$((next+1)); done
  wait -n 2>/dev/null
  if [ $? -eq 127 ] && [ ! -f "$out/$shown.rc" ]; then echo 1 > "$out/$shown.rc"; fi  # lost its status
  done_n=$(ls "$out" | grep -c '\.rc$')
  # print the finished tests, in order
  while [ $shown -lt $n ] && [ -f "$out/$shown.rc" ]; do
    cat "$out/$shown.log"
    rc=$(cat "$out/$shown.rc")
    if [ "$rc" = 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("${tests[$shown]}"); fi
    shown=$((shown+1))
  done
done
pids=()
echo "$name: $pass passed, $fail failed${failed:+ (${failed[*]})}"
[ $fail -eq 0 ]
