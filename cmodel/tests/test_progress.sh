#!/usr/bin/env bash
# test_progress.sh - progress of long runs (issue 17): `--progress` writes progress lines on stderr
# and never touches stdout (the same result as without it, timing fields aside); without it, and
# with stderr not a terminal, stderr stays empty. A run of a few seconds must show an estimate
# ("about N s left"), and at most about one line per second. The RTL harness (`lcan lockstep
# --sim icarus --progress`) is checked the same way, except under the sanitizer build
# (build/san/lcan) or without iverilog, with its write checks (/dev/full, the mismatch waveform).
# Usage: LCAN=build/lcan bash cmodel/tests/test_progress.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
ko() { fail=$((fail+1)); echo "test_progress: FAIL: $*"; }

# strip the wall-clock fields, which differ from run to run
norm() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("seconds", "cycles_per_s")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
print(json.dumps(strip(d), sort_keys=True))' "$1"; }

# check NAME ARGS...: same stdout with and without --progress, progress lines only with it
check() {
  local name=$1; shift
  "$LCAN" "$@" --json >"$tmp/plain" 2>"$tmp/plain.err"; rc1=$?
  /usr/bin/time -f %e -o "$tmp/time" "$LCAN" "$@" --json --progress >"$tmp/prog" 2>"$tmp/prog.err"; rc2=$?
  secs=$(tail -1 "$tmp/time")
  if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(norm "$tmp/plain")" = "$(norm "$tmp/prog")" ]; then ok
  else ko "$name: stdout differs with --progress (exit $rc1 / $rc2)"; fi
  [ ! -s "$tmp/plain.err" ] && ok || ko "$name: stderr not empty without --progress: $(head -c 200 "$tmp/plain.err")"
  if grep -q "^lcan: ${name%% *}: done in " "$tmp/prog.err" && ! grep -qv "^lcan: ${name%% *}: " "$tmp/prog.err"; then ok
  else ko "$name: progress lines: $(head -c 300 "$tmp/prog.err")"; fi
  # at most one line a second (+ the final line, + one for rounding)
  lines=$(wc -l <"$tmp/prog.err")
  python3 -c "import sys; sys.exit(0 if $lines <= int($secs) + 2 else 1)" && ok || ko "$name: $lines lines in $secs s"
  cp "$tmp/prog.err" "$tmp/last.err"
}

# estimate NAME SIZE REGEX ARGS...: a run of a few seconds shows an estimate (REGEX), which needs one
# second and a first trial or cycle done. The last check's --progress run (ARGS with SIZE for each @)
# is looked at first; where it ended in under 3 s (a fast machine: the sizes are set for a few
# seconds on a loaded one, 3-4 times that under the sanitizers) the --progress run is repeated with
# SIZE doubled, up to four times, so that the test checks the estimate and not the machine's speed.
estimate() {
  local name=$1 size=$2 re=$3 k; shift 3
  for k in 0 1 2 3 4; do
    if [ "$k" -gt 0 ]; then
      size=$((size * 2))
      /usr/bin/time -f %e -o "$tmp/time" "$LCAN" "${@//@/$size}" --progress >/dev/null 2>"$tmp/last.err"
      secs=$(tail -1 "$tmp/time")
    fi
    if grep -Eq "$re" "$tmp/last.err"; then ok; return; fi
    python3 -c "import sys; sys.exit(0 if $secs < 3 else 1)" || break
  done
  ko "$name: no estimate in a run of $secs s: $(head -c 300 "$tmp/last.err")"
}

check "route" route 'lcan(2,2,65536)' --pattern random --trials 6
estimate "route" 6 '^lcan: route: [0-9]+/[0-9]+ trials \([0-9]+%\), .* elapsed, about .* left$' \
  route 'lcan(2,2,65536)' --pattern random --trials @ --json
check "traffic" traffic 'kary(4,3)' --sweep 0.1:0.7:0.2 --warmup 30000 --measure 30000
estimate "traffic" 30000 '^lcan: traffic: [0-9]+/[0-9]+ cycles \([0-9]+%\), .* left$' \
  traffic 'kary(4,3)' --sweep 0.1:0.7:0.2 --warmup @ --measure @ --json
check "collective" collective 'kary(8,2)' --op alltoall
# --progress is an ordinary flag: refused with a value, accepted by --check
"$LCAN" route 'lcan(2,2,4)' --progress=1 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || ko "--progress=1: exit $rc"
"$LCAN" traffic 'lcan(2,2,4)' --progress --check >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && ok || ko "traffic --progress --check: exit $rc"

# the RTL harness: lockstep on Icarus (the binary of lcan(2,2,4) is cached by the other suites)
case "$LCAN" in
*san*) ;;
*)
  if command -v iverilog >/dev/null; then
    args=(lockstep 'lcan(2,2,4)' --sim icarus --cycles 4000 --nowire --json)
    "$LCAN" "${args[@]}" >"$tmp/plain" 2>"$tmp/plain.err"; rc1=$?
    /usr/bin/time -f %e -o "$tmp/time" "$LCAN" "${args[@]}" --progress >"$tmp/prog" 2>"$tmp/prog.err"; rc2=$?
    secs=$(tail -1 "$tmp/time")
    if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(norm "$tmp/plain")" = "$(norm "$tmp/prog")" ]; then ok
    else ko "lockstep: stdout differs with --progress (exit $rc1 / $rc2): $(head -c 300 "$tmp/prog.err")"; fi
    cp "$tmp/prog.err" "$tmp/last.err"
    estimate "lockstep" 4000 '^lcan: lockstep: [0-9]+/[0-9]+ cycles \([0-9]+%\), .* left$' \
      lockstep 'lcan(2,2,4)' --sim icarus --cycles @ --nowire --json
    grep -q '^lcan: lockstep: ' "$tmp/plain.err" && ko "lockstep: progress without --progress" || ok
    # the harness checks its own output (write errors, issue 17): /dev/full is one line, exit 1
    "$LCAN" lockstep 'lcan(2,2,4)' --sim icarus --cycles 200 --nowire --json >/dev/full 2>"$tmp/err"; rc=$?
    [ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "lcan: cannot write the output: No space left on device" ] && ok \
      || ko "lockstep >/dev/full: exit $rc: $(head -c 300 "$tmp/err")"
    # a mismatch's waveform is written as NAME.tmp and renamed: the final name, no .tmp left
    "$LCAN" lockstep 'lcan(2,2,4)' --sim icarus --cycles 200 --nowire --flip 150 --json >"$tmp/out" 2>"$tmp/err"
    vcd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["waveform"] or "")' "$tmp/out")
    [ -s "$vcd" ] && [ ! -e "$vcd.tmp" ] && ok || ko "mismatch waveform '$vcd' missing or .tmp left"
  fi ;;
esac

echo "test_progress: $pass passed, $fail failed"
[ $fail -eq 0 ]
