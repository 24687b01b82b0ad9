#!/usr/bin/env bash
# coverage.sh [full|short] - line and toggle coverage of rtl/ from lockstep runs (issue 16).
#
# Every run is a normal lockstep run (RTL vs model, 0 mismatches required) of a Verilator build with
# --coverage-line --coverage-toggle (tb/lcan-rtl with LCAN_RTL_COVERAGE=1, cached apart from the
# plain builds); each writes build/coverage/<run>.dat, scripts/coverage.py merges them over runs,
# switch types and instances and reports per rtl/ file (docs/verification.md, "Coverage").
#   full   (make coverage)       the lockstep matrix of tb/test-tb.sh without the CM-5, packet traffic
#                                with broadcasts, the collectives, a pass-based route on the RTL and
#                                the switch-level lockstep (tb/switch, short form, two seeds);
#                                report -> build/coverage/report.md; fails below 95 % lines / 90 % toggles
#   short  (make test-coverage)  two small networks, one per mode: the flow works end to end, the
#                                merge and the report are right, lines >= 90 %
set -uo pipefail
cd "$(dirname "$0")/.."
form=${1:-full}
export LCAN_RTL_NOMAKE=1 LCAN_RTL_COVERAGE=1
B=${LCAN_BUILD:-build}   # LCAN_BUILD=DIR: the build directory of tb/lcan-rtl and tb/switch/tb-switch
OUT=$B/coverage/$form
rm -rf "$OUT"; mkdir -p "$OUT"
pass=0; fail=0; failed=()
ok()  { pass=$((pass+1)); echo "coverage: ok   $*"; }
bad() { fail=$((fail+1)); failed+=("$1"); echo "coverage: FAIL $*"; }

# run NAME CMD...: one lockstep-checked run writing $OUT/NAME.dat
run() {
  local name=$1; shift
  if LCAN_COV_FILE="$PWD/$OUT/$name.dat" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" && [ -s "$OUT/$name.dat" ]; then
    ok "$name: $*"
  else
    bad "$name" "$name: $* (exit $?)"; sed 's/^/coverage:      /' "$OUT/$name.err" | tail -5
  fi
}
# lockstep NAME SPEC MODE PATTERN CYCLES [extra]
lockstep() {
  local name=$1 spec=$2 mode=$3 pat=$4 cyc=$5; shift 5
  run "$name" tb/lcan-rtl lockstep "$spec" --mode "$mode" --pattern "$pat" --cycles "$cyc" --seed 7 --json --quiet "$@"
}

if [ "$form" = short ]; then
  lockstep s1 'lcan(2,3,8)' packet random 3000 --bcast-rate 0.02
  lockstep s2 'lcan(2,3,8)' circuit random 3000
  min=(--min-line 90)
else
  lockstep m01 'lcan(4,2,16)'    circuit worst     12000
  lockstep m02 'lcan(4,2,16)'    circuit random    10000
  lockstep m03 'lcan(2,2,16)'    circuit bitrev    10000
  lockstep m04 'lcan(2,2,16)'    packet  random    12000
  lockstep m04b 'lcan(2,2,16)'   packet  random    12000 --rate 0.9 --bcast-rate 0.05
  lockstep m06 'lcan(2,3,8)'     circuit random    10000
  lockstep m07 'lcan(2,3,8)'     packet  identity  8000
  lockstep m07b 'lcan(2,3,8)'    packet  random    8000 --rate 0.3 --bcast-rate 0.02
  lockstep m08 'xgft(2;3,3;1,3)' circuit worst     10000
  lockstep m09 'xgft(2;3,3;1,3)' packet  random    10000 --bcast-rate 0.02
  lockstep m10 'xgft(2;4,4;2,2)' packet  random    4000 --bcast-rate 0.02
  lockstep m11 'bft(4;1,2,4,8)'  circuit random    10000
  lockstep m12 'bft(4;1,2,4,8)'  packet  random    10000 --bcast-rate 0.02
  lockstep m13 'bft(4;1,2,4,8)'  packet  bitrev    6000
  run r01 "$B/lcan" route 'lcan(2,3,8)' --pattern worst --trials 4 --seed 11 --engine rtl --json
  for op in bcast scatter gather alltoall mnb; do
    run "c-$op" "$B/lcan" collective 'bft(4;1,2,4,8)' --op "$op" --engine rtl --json
  done
  # the switch-level lockstep: single switches with inputs no network produces (tb/switch)
  run sw1 tb/switch/tb-switch run --form short --seed 1 --cycles 40000
  run sw2 tb/switch/tb-switch run --form short --seed 2 --cycles 40000
  run t01 "$B/lcan" traffic 'lcan(2,2,16)' --engine rtl --sweep 0.2:0.8:0.3 --warmup 300 --measure 1000 --drain --bcast 0.02 --json
  min=(--min-line 95 --min-toggle 90)
fi

dats=("$OUT"/*.dat)
if [ -e "${dats[0]}" ]; then
  python3 scripts/coverage.py --md "$OUT/report.md" "${min[@]}" "${dats[@]}" | tee "$OUT/summary.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] && ok "report: $OUT/report.md" || bad report "coverage below the goal (${min[*]}): $OUT/report.md"
else
  bad report "no coverage files written"
fi
echo "coverage: $pass passed, $fail failed${failed:+ (${failed[*]})}"
[ $fail -eq 0 ]
