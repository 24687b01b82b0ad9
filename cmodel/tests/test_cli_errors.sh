#!/usr/bin/env bash
# test_cli_errors.sh - bad input to the lcan tool: exit status 2, exactly one line on stderr
# starting with "lcan: ", nothing on stdout, no crash. --help: usage on stdout, exit 0.
# Also the hand-over to tb/lcan-rtl (--engine rtl|icarus, lockstep), with a copy of the binary
# in a scratch repo: missing script -> the documented one-line error; present -> same arguments.
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_errors.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# bad ARGS...: one case of bad input
bad() {
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" -eq 1 ] && head -c 6 "$tmp/err" | grep -q '^lcan: '; then
    pass=$((pass+1))
  else
    fail=$((fail+1))
    echo "FAIL: lcan $* -> exit $rc, $lines stderr lines, $(wc -c <"$tmp/out") stdout bytes: $(head -c 300 "$tmp/err")"
  fi
}

# bad_msg TEXT ARGS...: bad input whose message contains TEXT
bad_msg() {
  local want=$1; shift
  bad "$@"
  if ! grep -qF -- "$want" "$tmp/err"; then
    fail=$((fail+1)); echo "FAIL: lcan $* -> message '$(cat "$tmp/err")' lacks '$want'"
  else
    pass=$((pass+1))
  fi
}

help() {
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  # lockstep's help comes from tb/lcan-rtl when it is built: only ask for some text there
  local want='^usage: lcan'; [ "$1" = lockstep ] && want='.'
  if [ $rc -eq 0 ] && grep -q "$want" "$tmp/out" && [ ! -s "$tmp/err" ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "FAIL: lcan $* -> exit $rc, stdout '$(head -c 100 "$tmp/out")', stderr '$(cat "$tmp/err")'"
  fi
}

# --- malformed specs (spec 1.3, 1.4)
bad_msg "lcan: bad spec 'lcan(2,2,6)': n=6 is not a power of d=2" info 'lcan(2,2,6)'
bad_msg "lcan: bad spec 'xgft(2;4;1,2)' at character 9: expected ',' (m list needs h=2 entries)" info 'xgft(2;4;1,2)'
bad_msg "at character 1" info ''
bad_msg "at character 1" info 'foo'
bad_msg "at character 5" info 'lcan'
bad_msg "at character 9" info 'lcan(4,4'
bad_msg "at character 14" info 'lcan(4,4,256))'
bad_msg "at character 8" info 'lcan(4,-4,256)'
bad_msg "at character 10" info 'lcan(4,4,99999999999)'
bad info 'lcan(4,4,25 6x)'
bad info 'lcan(4;4;256)'
bad_msg "d=1" info 'lcan(1,1,1)'
bad_msg "n=1" info 'lcan(4,4,1)'
bad_msg "m=1" info 'gft(3,1,2)'
bad_msg "h=0" info 'gft(0,2,2)'
bad_msg "h=17" info 'xgft(17;2;1)'
bad_msg "N=33554432" info 'gft(5,32,1)'
bad_msg "switches" info 'pgft(4;2,2,2,2;64,64,64,64)'
bad_msg "D+U" info 'pgft(2;64,2;1,64;2,1)'
bad_msg "c2=0" info 'bft(2;1,0)'
bad_msg "k=1" info 'kary(1,3)'
bad info 'cm5)'
bad info 'cm 6'
bad info 'pgft(2;2,2;1,2;1)'
bad info 'xgft(2;4,4,4;1,2)'
bad info "$(printf 'lcan(4,4,\n256)')"
bad route 'lcan(2,2,6)'
bad route 'kary(4,'

# --- commands, options, arguments
bad_msg "missing command" 
bad_msg "unknown command 'frobnicate'" frobnicate
bad_msg "unknown option '--json'" --json
bad_msg "missing SPEC" info
bad_msg "missing SPEC" info --json
bad_msg "unexpected argument" info cm5 gft
bad_msg "unknown option '--jsn'" info cm5 --jsn
bad_msg "takes no value" info cm5 --json=1
bad_msg "unknown option '-x'" info -x cm5
bad_msg "missing SPEC" route
bad_msg "unknown option '--foo'" route cm5 --foo
bad_msg "needs a value" route cm5 --trials
bad_msg "needs a value" route cm5 --pattern
bad_msg "--trials '0' must be at least 1" route cm5 --trials 0
bad_msg "is negative" route cm5 --trials -3
bad_msg "is negative" route cm5 --trials=-1
bad_msg "not a whole number" route cm5 --trials abc
bad_msg "trailing characters" route cm5 --trials 10x
bad_msg "too large" route cm5 --trials 99999999999999999999999
bad_msg "is empty" route cm5 --trials ''
bad_msg "not a whole number" route cm5 --trials ' 5'
bad_msg "not a whole number" route cm5 --trials +5
bad_msg "trailing characters" route cm5 --seed 1.5
bad_msg "is negative" route cm5 --seed -1
bad_msg "too large" route cm5 --seed 18446744073709551616
bad_msg "trailing characters" route cm5 --seed 12abc
bad_msg "too large" route cm5 --max-passes 99999999
bad_msg "--engine 'verilog' is not one of model, rtl, icarus" route cm5 --engine verilog
bad_msg "unknown pattern 'zigzag'" route cm5 --pattern zigzag
bad_msg "power of two" route 'gft(2,3,1)' --pattern bitrev
bad_msg "power of four" route 'gft(3,2,1)' --pattern transpose
bad_msg "cannot be read" route cm5 --pattern file:/nonexistent/lcan/perm
printf '0 1 2 3\n' >"$tmp/short.perm"
bad_msg "4 entries, need N=256" route cm5 --pattern "file:$tmp/short.perm"
bad_msg "--pattern is empty" route cm5 --pattern ''
bad_msg "missing D" recurrence
bad_msg "missing STAGES" recurrence 2 2
bad_msg "unexpected argument" recurrence 2 2 3 4
bad_msg "'0' must be at least 1" recurrence 0 2 3
bad_msg "is negative" recurrence 2 -2 3
bad_msg "not a whole number" recurrence 2 x 3
bad_msg "trailing characters" recurrence 2 2 3.5
bad_msg "too large" recurrence 2 2 1000000000000
bad_msg "--load '1.5' must be in 0..1" recurrence 2 2 3 --load 1.5
bad_msg "--load '-0.5' must be in 0..1" recurrence 2 2 3 --load -0.5
bad_msg "not a number" recurrence 2 2 3 --load abc
bad_msg "not a number" recurrence 2 2 3 --load 0.5x
bad_msg "not a number" recurrence 2 2 3 --load nanx
bad_msg "must be in 0..1" recurrence 2 2 3 --load nan
bad_msg "unknown option" recurrence 2 2 3 --loud 1
bad_msg "unknown command 'nope'" help nope

# --- help everywhere
help --help
help -h
help help
help help route
help info --help
help info cm5 --help
help route --help
help route 'lcan(2,2,6)' --trials 0 --help
help recurrence -h
help lockstep --help

# --- hand-over to tb/lcan-rtl, with a copy of the binary in a scratch repo <r>/build/lcan
mkdir -p "$tmp/r/build"
cp "$LCAN" "$tmp/r/build/lcan"
for args in "route cm5 --engine rtl" "route cm5 --engine=icarus --trials 2" "lockstep cm5"; do
  # shellcheck disable=SC2086
  "$tmp/r/build/lcan" $args >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
     [ "$(cat "$tmp/err")" = "lcan: RTL engine not available: tb/lcan-rtl missing (run make)" ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "FAIL: lcan $args without tb/lcan-rtl -> exit $rc: $(cat "$tmp/err")"
  fi
done
"$tmp/r/build/lcan" lockstep --help >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^usage: lcan lockstep' "$tmp/out" && [ ! -s "$tmp/err" ]; then pass=$((pass+1)); else
  fail=$((fail+1)); echo "FAIL: lockstep --help without tb/lcan-rtl -> exit $rc: $(cat "$tmp/err")"; fi
mkdir -p "$tmp/r/tb"
printf '#!/bin/sh\nfor a in "$0" "$@"; do printf "[%%s]" "$a"; done; echo\nexit 7\n' >"$tmp/r/tb/lcan-rtl"
chmod +x "$tmp/r/tb/lcan-rtl"
"$tmp/r/build/lcan" route 'lcan(4, 4, 256)' --engine rtl --trials 3 >"$tmp/out" 2>"$tmp/err"; rc=$?
want="[$tmp/r/tb/lcan-rtl][route][lcan(4, 4, 256)][--engine][rtl][--trials][3]"
if [ $rc -eq 7 ] && [ "$(cat "$tmp/out")" = "$want" ]; then pass=$((pass+1)); else
  fail=$((fail+1)); echo "FAIL: hand-over to tb/lcan-rtl: exit $rc, got '$(cat "$tmp/out")', want '$want'"; fi
"$tmp/r/build/lcan" lockstep a b >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 7 ] && [ "$(cat "$tmp/out")" = "[$tmp/r/tb/lcan-rtl][lockstep][a][b]" ]; then pass=$((pass+1)); else
  fail=$((fail+1)); echo "FAIL: lockstep hand-over: exit $rc, got '$(cat "$tmp/out")'"; fi
# the arguments are still checked before the hand-over
"$tmp/r/build/lcan" route cm5 --engine rtl --trials 0 >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ]; then pass=$((pass+1)); else
  fail=$((fail+1)); echo "FAIL: --engine rtl --trials 0 -> exit $rc"; fi

echo "test_cli_errors: $pass passed, $fail failed"
[ $fail -eq 0 ]
