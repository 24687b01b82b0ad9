#!/usr/bin/env bash
# test_cli_limits.sh - issue 17: every numeric option of every lcan subcommand at its boundaries and
# beyond (min-1, min, max, max+1, huge, negative, empty, blanks, hex, leading '+'), write errors on
# stdout, memory estimates, `--` before -h, --check, and a pattern file read once (stdin).
# Accepted values run with --check where the subcommand has it (nothing is simulated).
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_limits.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# expect RC ARGS...: exit status RC; for 2 exactly one line "lcan: ..." on stderr and empty stdout,
# for 0 an empty stderr
expect() {
  local want=$1; shift
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  local lines; lines=$(wc -l <"$tmp/err")
  local ok=1
  [ $rc -eq "$want" ] || ok=0
  if [ "$want" -eq 2 ] || [ "$want" -eq 1 ]; then
    { [ "$lines" -eq 1 ] && head -c 6 "$tmp/err" | grep -q '^lcan: '; } || ok=0
  fi
  [ "$want" -eq 2 ] && [ -s "$tmp/out" ] && ok=0
  [ "$want" -eq 0 ] && [ -s "$tmp/err" ] && ok=0
  if [ $ok -eq 1 ]; then pass=$((pass+1)); else
    fail=$((fail+1)); echo "FAIL: lcan $* -> exit $rc (want $want), $lines stderr lines: $(head -c 300 "$tmp/err")"; fi
}

# limits CMD-PREFIX... -- OPT MIN MAX [SUFFIX...]: the boundary set for one numeric option
limits() {
  local pre=() ; while [ "$1" != "--" ]; do pre+=("$1"); shift; done; shift
  local opt=$1 min=$2 max=$3; shift 3
  expect 0 "${pre[@]}" "$opt" "$min" "$@"
  expect 0 "${pre[@]}" "$opt=$max" "$@"
  [ "$min" -gt 0 ] && expect 2 "${pre[@]}" "$opt" $((min - 1)) "$@"
  expect 2 "${pre[@]}" "$opt" "$(python3 -c "print($max + 1)")" "$@"
  for v in 99 999 19 9 99999999999999999999 18446744073709551616 -1 '' ' 1' '1 ' 0x10 +1 1.0 1e3; do
    # values inside the range stay accepted (9 for --cbt 1..8 is out, 99 for --depth 1..255 is in)
    if [[ "$v" =~ ^[0-9]+$ ]] && [ "$(python3 -c "print(int($min <= $v <= $max))")" = 1 ]; then
      expect 0 "${pre[@]}" "$opt" "$v" "$@"
    else
      expect 2 "${pre[@]}" "$opt" "$v" "$@"
    fi
  done
}

S='lcan(2,2,16)'
limits route "$S" --check -- --trials 1 1000000
limits route "$S" --check -- --max-passes 1 1000000
limits route "$S" --check -- --seed 0 18446744073709551615
limits collective "$S" --op bcast --check -- --root 0 15
expect 2 collective "$S" --op bcast --root 16 --check
limits collective "$S" --op bcast --check -- --flits 1 1000000
limits collective "$S" --op bcast --check -- --trees 1 64
limits collective "$S" --op reduce --check -- --compact 0 20
limits collective "$S" --op bcast --check -- --depth 1 255
limits collective "$S" --op bcast --check -- --seed 0 4294967295
limits collective -- --cbt 1 8 --check
expect 0 collective --cbt 8
expect 2 collective --cbt 9          # was accepted (parse_digits wrapped)
expect 2 collective --cbt 19         # was "out of memory"
expect 2 collective --cbt 99         # was undefined behaviour (shift exponent 100)
for p in 'D U STAGES' ; do :; done
expect 0 recurrence 1 1 0
expect 0 recurrence 1000000 1000000 3
expect 2 recurrence 0 2 3; expect 2 recurrence 2 0 3; expect 2 recurrence 1000001 2 3; expect 2 recurrence 2 1000001 3
expect 0 recurrence 2 2 100000
expect 2 recurrence 2 2 100001; expect 2 recurrence 2 2 -1; expect 2 recurrence 2 2 ''; expect 2 recurrence 2 2 ' 3'
expect 2 recurrence 2 2 0x3; expect 2 recurrence 2 2 +3; expect 2 recurrence 2 2 99999999999999999999
expect 2 recurrence 9 2 3x
for v in 0 1 0.5 1e-3 .5; do expect 0 recurrence 2 2 3 --load "$v"; done
for v in 1.0001 -0.1 nan inf '' ' 0.5' +0.5 0x1p-1 1e400; do expect 2 recurrence 2 2 3 --load "$v"; done
for v in 0.01 1 1e6; do expect 0 route "$S" --check --mem-limit "$v"; done
for v in 0 0.0001 1e7 -1 '' nan ' 1' +1; do expect 2 route "$S" --check --mem-limit "$v"; done

# memory: refused up front with one line, exit 2 (4 TB of alltoall messages; 6 GB of route state)
expect 2 collective 'kary(64,3)' --op alltoall
expect 2 route 'gft(4,32,32)' --mem-limit 1
grep -q 'needs about .* GB of memory' "$tmp/err" && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: memory message: $(cat "$tmp/err")"; }
expect 2 collective "$S" --op alltoall --mem-limit 0.001

# write errors on stdout: one line, exit 1
if [ -w /dev/full ]; then
  "$LCAN" info cm5 --json >/dev/full 2>"$tmp/err"; rc=$?
  [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: /dev/full -> $rc $(cat "$tmp/err")"; }
  "$LCAN" recurrence 2 2 100000 >/dev/full 2>"$tmp/err"; rc=$?
  [ $rc -eq 1 ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: recurrence >/dev/full -> $rc"; }
  "$LCAN" route "$S" --json >/dev/full 2>"$tmp/err"; rc=$?
  [ $rc -eq 1 ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: route >/dev/full -> $rc"; }
fi

# -h after -- is a positional (the SPEC); before it, help
expect 2 info -- -h cm5
expect 0 info cm5 -h
expect 2 route -- -h
# bad pattern / file before any run, on every engine (the RTL engines exit before building)
for e in model rtl icarus; do
  expect 2 route "$S" --engine $e --pattern file:/nonexistent
  expect 2 route "$S" --engine $e --pattern bogus
  expect 2 route "$S" --engine $e --pattern ''
done
expect 2 route "$S" --engine icarus --pattern file:/dev/stdin </dev/null

# a pattern file is read once: stdin serves every trial
seq 15 -1 0 | "$LCAN" route "$S" --pattern file:/dev/stdin --trials 5 --json >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q '"trials": 5' "$tmp/out" && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: stdin pattern, 5 trials -> $rc $(cat "$tmp/err")"; }
mkfifo "$tmp/fifo"; ( seq 0 15 >"$tmp/fifo" & )
timeout 20 "$LCAN" route "$S" --pattern "file:$tmp/fifo" --trials 3 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: FIFO pattern, 3 trials -> $rc $(cat "$tmp/err")"; }

echo "test_cli_limits: $pass passed, $fail failed"
[ $fail -eq 0 ]
