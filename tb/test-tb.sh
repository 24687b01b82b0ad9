#!/usr/bin/env bash
# test-tb.sh - the lockstep test suite of tb/ (run by `make test-tb`; the libraries are built by
# make first). Every check prints one line; the last line is "tb: N passed, N failed".
#
#   matrix    RTL vs model, every output every cycle, on Verilator: d>u, d=u, d<u, non-power-of-two
#             radix, w1>1 (cm5), parallel links (bft), both modes, several patterns
#   icarus    a few small configurations again on Icarus; the checksum of all RTL outputs over the
#             run must equal Verilator's bit for bit
#   route     `lcan route --engine rtl` prints what `--engine model` prints (same seed)
#   negative  +flip=K corrupts the model's view at cycle K: exit 1, first_mismatch.cycle == K
#   collective `lcan collective --engine rtl` on bft(3;1,1,1) and bft(4;1,2,4,8) (packet binaries,
#             the second one the matrix's): the JSON equals --engine model's but for "engine", and
#             the steps are seed 000's: bcast 2 log n, scatter / gather n + 1, alltoall formula (2)
#             (computed here); one run on Icarus; a flipped model bit is caught (exit 1)
#   embed     `lcan embed --engine rtl`: a guest's exchange on the RTL prints the model's JSON
#   faults    the FAULTS = 1 binaries with no faults in lockstep, both modes; route, traffic (with
#             --fault-at) and collective bcast under --faults on the RTL print the model's JSON
# The matrix runs UP_CHOICE uniform (the default) everywhere and rotate (--up-choice rotate, its own
# binaries) on two networks with U >= 3 uppers; packet lockstep mixes tree and flooding broadcasts.
# Flood queues (spec 8.7, FLOOD_Q > 0): two packet lockstep runs with many flooding broadcasts on
# bft(3;1,1,1), FLOOD_Q 8 (the binary of the mnb collective below) and 2 (queues fill); the mnb
# collective (flooding, FLOOD_Q = n) must take seed 000's n + 1 steps.
# LCAN_BUILD=DIR: the build directory (default build; `make test-tb` passes its BUILD).
set -uo pipefail
cd "$(dirname "$0")/.."
export LCAN_RTL_NOMAKE=1
export LCAN_BUILD=${LCAN_BUILD:-build}
RTL=tb/lcan-rtl
LCAN=$LCAN_BUILD/lcan
OUT=$LCAN_BUILD/tb/test
mkdir -p "$OUT"
pass=0; fail=0; failed=(); total_cycles=0; t0=$(date +%s)

ok()  { pass=$((pass+1)); echo "tb: ok   $*"; }
bad() { fail=$((fail+1)); failed+=("$1"); echo "tb: FAIL $*"; }

# json FILE EXPR: evaluate a python expression on the JSON object j read from FILE
json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null; }

# lockstep NAME SIM SPEC MODE PATTERN CYCLES [extra args]
lockstep() {
  local name=$1 sim=$2 spec=$3 mode=$4 pat=$5 cyc=$6; shift 6
  local f="$OUT/$name.json"
  "$RTL" lockstep "$spec" --sim "$sim" --mode "$mode" --pattern "$pat" --cycles "$cyc" --seed 7 --json --quiet "$@" \
    >"$f" 2>"$OUT/$name.err"
  local rc=$?
  local mm; mm=$(json "$f" 'j["mismatches"]')
  local c; c=$(json "$f" 'j["cycles"]')
  if [ $rc -eq 0 ] && [ "$mm" = "0" ] && [ "$(json "$f" 'j["failure"]')" = "None" ]; then
    [ "$sim" = verilator ] && total_cycles=$((total_cycles + c))
    ok "$name: $sim $spec $mode $pat: $c cycles, $(json "$f" 'j["packets"]') packets, 0 mismatches," \
       "checksum $(json "$f" 'j["checksum"]')"
  else
    bad "$name" "$name: $sim $spec $mode $pat: exit $rc, mismatches ${mm:-?}"
    sed 's/^/tb:      /' "$OUT/$name.err" | head -20
  fi
}

# par ARGS: lockstep ARGS in the background, TB_JOBS (default 2) at a time: a Verilator build is one
# thread in its front end, so two builds of different binaries overlap (runs of one binary share it:
# its build lock). par_end waits for them and prints each run's lines, in the order queued.
TB_JOBS=${TB_JOBS:-2}
case "$TB_JOBS" in ''|*[!0-9]*|0) echo "tb: TB_JOBS='$TB_JOBS' is not a positive number" >&2; exit 2;; esac
par_names=()
par() {
  while [ "$(jobs -rp | wc -l)" -ge "$TB_JOBS" ]; do wait -n; done
  ( total_cycles=0; lockstep "$@"; echo "$total_cycles" >"$OUT/$1.cycles" ) >"$OUT/$1.lines" 2>&1 &
  par_names+=("$1")
}
par_end() {
  wait
  local n
  for n in "${par_names[@]}"; do
    cat "$OUT/$n.lines"
    if grep -q '^tb: ok ' "$OUT/$n.lines" && ! grep -q '^tb: FAIL ' "$OUT/$n.lines"; then
      pass=$((pass + 1)); total_cycles=$((total_cycles + $(cat "$OUT/$n.cycles" 2>/dev/null || echo 0)))
    else
      fail=$((fail + 1)); failed+=("$n")
      grep -q '^tb: FAIL ' "$OUT/$n.lines" || echo "tb: FAIL $n: no result (the run died?)"
    fi
  done
  par_names=()
}

# The matrix (Verilator). Configurations are chosen so that few distinct binaries are built.
# Small instances of every class, so that the Verilator builds (the slow part) stay short in CI:
# d > u, d = u, d < u, non-power-of-two radix, w1 > 1 (two broadcast trees), parallel links, and the
# CM-5's w1 = 2 on a smaller XGFT; both modes; several patterns. `lcan lockstep` runs any larger network the same way.
# The CM-5 (256 leaves, 256 switches), both modes: its Verilator build compiles the switch's code once
# per switch type (tb/lcan-rtl verilator_config), so it fits in CI; queued first, the
# longest builds. Runs of one binary are not queued next to each other (the second would wait for the
# first one's build).
par m14 verilator cm5               packet  random    5000
par m15 verilator cm5               circuit worst     5000
par m01 verilator 'lcan(4,2,16)'    circuit worst     12000
par m03 verilator 'lcan(2,2,16)'    circuit bitrev    10000
par m02 verilator 'lcan(4,2,16)'    circuit random    10000
par m04 verilator 'lcan(2,2,16)'    packet  random    12000
par m05 verilator 'lcan(2,2,16)'    circuit transpose 8000
par m06 verilator 'lcan(2,3,8)'     circuit random    10000
par m07 verilator 'lcan(2,3,8)'     packet  identity  8000
par m08 verilator 'xgft(2;3,3;1,3)' circuit worst     10000
par m09 verilator 'xgft(2;3,3;1,3)' packet  random    10000
par m10 verilator 'xgft(2;4,4;2,2)' packet  random    4000
par m11 verilator 'bft(4;1,2,4,8)'  circuit random    10000
par m12 verilator 'bft(4;1,2,4,8)'  packet  random    10000
par m16 verilator 'lcan(2,3,8)'     circuit random    8000 --up-choice rotate
par m13 verilator 'bft(4;1,2,4,8)'  packet  bitrev    6000
# UP_CHOICE rotate (spec 6, the behaviour before uniform): two more binaries, networks with U >= 3
# (lcan(2,3,8): 3 uppers at level 1, 2 - m16, queued above between m12 and m13; bft(4;1,2,4,8): 2, 4,
# 8 parallel uppers)
par m17 verilator 'bft(4;1,2,4,8)'  packet  random    6000 --up-choice rotate
# flood queues (spec 8.7): m18 shares the binary of c-cbft8-mnb-flood (DEPTH 8, FLOOD_Q 8: the mnb
# rule of lcan_collective_engine_cfg for n = 8); m19 (its own binary) has queues of 2 flits that fill
# (FLOOD_Q >= m_l = 2: below that, two children flooding at once block each other, see spec 8.7)
par m18 verilator 'bft(3;1,1,1)'    packet  random    6000 --depth 8 --flood-queue 8 --bcast-rate 0.3 \
  --flood-share 0.8
par m19 verilator 'bft(3;1,1,1)'    packet  random    6000 --flood-queue 2 --bcast-rate 0.3 --flood-share 0.8
# unicast-only switches (spec 8.8, UNICAST_ONLY = 1) with one-flit FIFOs, the synthesis variant of
# docs/synthesis.md 18: the broadcasts of --bcast-rate (tree and flooding) travel as unicasts to their
# dest; xgft(2;4,4;2,2) has two trees (w1 = 2) and parallel links
par m20 verilator 'xgft(2;4,4;2,2)' packet  random    6000 --unicast-only --depth 1 --bcast-rate 0.3
# one-flit FIFOs with broadcasts: every link is a held link (lcan_switch's LINK_HOLD, DEPTH = 1): the
# receiver's FIFO entry is the sender's flit register, also while a broadcast candidate waits over
# several ticks for its copies (served masks); with the register cleared when not written (mutant
# 46) the same run with seed 1 mismatches at cycle 150
par m21 verilator 'lcan(2,2,16)'    packet  random    6000 --depth 1 --bcast-rate 0.3
par_end

if [ "$total_cycles" -ge 100000 ]; then
  ok "matrix: $total_cycles Verilator cycles in lockstep (>= 100000)"
else
  bad matrix-cycles "matrix: only $total_cycles Verilator cycles (want >= 100000)"
fi

# Icarus agreement: the same runs, bit for bit.
for row in "i01|lcan(2,3,8)|circuit|random|600" "i02|lcan(2,3,8)|packet|identity|300" \
           "i03|xgft(2;3,3;1,3)|circuit|worst|400"; do
  IFS='|' read -r name spec mode pat cyc <<<"$row"
  set -- "$name"
  lockstep "$1-v" verilator "$spec" "$mode" "$pat" $cyc
  lockstep "$1" icarus "$spec" "$mode" "$pat" $cyc
  a=$(json "$OUT/$1-v.json" 'j["checksum"], j["cycles"]'); b=$(json "$OUT/$1.json" 'j["checksum"], j["cycles"]')
  if [ -n "$a" ] && [ "$a" = "$b" ]; then
    ok "$1: Icarus and Verilator agree on $spec $mode $pat ($b)"
  else
    bad "$1-agree" "$1: Icarus ($b) and Verilator ($a) disagree on $spec $mode $pat"
  fi
done

# route: the RTL engine prints the model engine's numbers.
for eng in rtl; do
  "$LCAN" route 'lcan(2,3,8)' --pattern worst --trials 4 --seed 11 --json >"$OUT/route-model.json" 2>&1
  "$LCAN" route 'lcan(2,3,8)' --pattern worst --trials 4 --seed 11 --engine $eng --json \
    >"$OUT/route-$eng.json" 2>"$OUT/route-$eng.err"
  rc=$?
  same=$(python3 - "$OUT/route-model.json" "$OUT/route-$eng.json" "$eng" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
ok = list(a) == list(b) and b["engine"] == sys.argv[3] and all(a[k] == b[k] for k in a if k != "engine")
print("yes" if ok else "no")
PY
)
  if [ $rc -eq 0 ] && [ "$same" = yes ]; then
    ok "route: lcan(2,3,8) worst --engine $eng == --engine model ($(json "$OUT/route-$eng.json" '"first_pass_mean %s passes_mean %s" % (j["first_pass_mean"], j["passes_mean"])'))"
  else
    bad "route-$eng" "route: --engine $eng (exit $rc) differs from --engine model"
    head -5 "$OUT/route-$eng.err" "$OUT/route-$eng.json" "$OUT/route-model.json" | sed 's/^/tb:      /'
  fi
done

# negative: a corrupted model bit at cycle K must be caught at cycle K, with a waveform.
K=777
"$RTL" lockstep 'lcan(2,2,16)' --cycles 3000 --seed 7 --flip $K --json --quiet >"$OUT/neg.json" 2>"$OUT/neg.err"
rc=$?
got=$(json "$OUT/neg.json" 'j["first_mismatch"]["cycle"]')
wave=$(json "$OUT/neg.json" 'j["first_mismatch"]["waveform"]')
if [ $rc -eq 1 ] && [ "$got" = "$K" ] && [ -s "$wave" ]; then
  ok "negative: flipped model bit at cycle $K caught at cycle $got (exit 1), waveform $wave"
else
  bad negative "negative: exit $rc, first_mismatch.cycle '${got}' (want $K), waveform '${wave}'"
fi

# collective: the RTL engine prints the model engine's JSON, and seed 000's step counts.
# coll NAME ENGINE SPEC OP: compares with --engine model, checks the steps (seed000_steps below)
seed000_steps() { # SPEC OP [OPTIONS] -> the paper's count for bft(h;c_1,..,c_h), n = 2^h
  python3 - "$1" "$2" "${3:-}" <<'PY'
import re, sys
h, cs = re.fullmatch(r"bft\((\d+);([\d,]+)\)", sys.argv[1]).groups()
h = int(h); c = [int(x) for x in cs.split(",")]; n = 2 ** h
op = sys.argv[2]
if op == "mnb" and "--broadcast tree" not in sys.argv[3]:
    print(n + 1)                      # Thm 2: flooding with a queue per outgoing link (spec 8.7)
elif op == "bcast":
    print(2 * h)                      # Table 1: 2 log n
elif op in ("scatter", "gather"):
    print(n + 1)                      # Thm 1: n + 1
elif op == "alltoall":                # formula (2): sum ceil(4^(i-1)/c_i) + 2 log n - 1
    print(sum(-(-4 ** (i - 1) // c[i - 1]) for i in range(1, h + 1)) + 2 * h - 1)
PY
}
coll() { # NAME ENGINE SPEC OP [extra options for both engines]; no step check when seed 000 has none
  local name=$1 eng=$2 spec=$3 op=$4 want; shift 4; want=$(seed000_steps "$spec" "$op" "$*")
  "$LCAN" collective "$spec" --op "$op" "$@" --json >"$OUT/$name-model.json" 2>&1
  "$LCAN" collective "$spec" --op "$op" "$@" --engine "$eng" --json >"$OUT/$name.json" 2>"$OUT/$name.err"
  local rc=$?
  local same; same=$(python3 - "$OUT/$name-model.json" "$OUT/$name.json" "$eng" <<'PY'
import json, sys
try:
    a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
except Exception:
    print("no"); sys.exit()
ok = list(a) == list(b) and b["engine"] == sys.argv[3] and all(a[k] == b[k] for k in a if k != "engine")
print("yes" if ok and b["correct"] else "no")
PY
)
  local steps; steps=$(json "$OUT/$name.json" 'j["steps"]')
  if [ $rc -eq 0 ] && [ "$same" = yes ] && { [ -z "$want" ] || [ "$steps" = "$want" ]; }; then
    ok "$name: collective $spec --op $op${*:+ $*} --engine $eng: $steps steps (seed 000: ${want:-none}), JSON == --engine model"
  else
    bad "$name" "$name: collective $spec --op $op --engine $eng: exit $rc, steps ${steps:-?} (want $want), same as model: $same"
    head -5 "$OUT/$name.err" "$OUT/$name.json" | sed 's/^/tb:      /'
  fi
}
ct0=$(date +%s)
for op in bcast scatter gather alltoall; do
  coll "c-cbft8-$op" rtl 'bft(3;1,1,1)' "$op"
  coll "c-ebft16-$op" rtl 'bft(4;1,2,4,8)' "$op"
done
coll c-cbft8-alltoall-icarus icarus 'bft(3;1,1,1)' alltoall
# broadcasts: tree (spec 8.5) next to the default flooding (8.6); every leaf floods at once (mnb);
# UP_CHOICE rotate on the rotate binary of m17
coll c-cbft8-bcast-tree rtl 'bft(3;1,1,1)' bcast --broadcast tree
coll c-cbft8-mnb-flood rtl 'bft(3;1,1,1)' mnb
coll c-cbft8-mnb-tree rtl 'bft(3;1,1,1)' mnb --broadcast tree
coll c-ebft16-scatter-rotate rtl 'bft(4;1,2,4,8)' scatter --up-choice rotate
K=20
"$RTL" collective 'bft(3;1,1,1)' --op alltoall --flip $K --json >"$OUT/c-neg.json" 2>"$OUT/c-neg.err"
rc=$?
got=$(json "$OUT/c-neg.json" 'j["first_mismatch"]["cycle"]')
if [ $rc -eq 1 ] && [ "$got" = "$K" ]; then
  ok "c-negative: collective with a flipped model bit at cycle $K: mismatch at cycle $got, exit 1"
else
  bad c-negative "c-negative: collective --flip $K: exit $rc, first_mismatch.cycle '${got}'"
fi
echo "tb: collective checks: $(( $(date +%s) - ct0 )) s"

# embed: the nearest-neighbour exchange of a guest on the RTL (`lcan embed --engine rtl`, the
# matrix's m10 binary: xgft(2;4,4;2,2) = gft(2,4,2), packet) prints the model engine's JSON but for
# the exchange's "engine"; 2 x 24 packets (mesh 4x4: 4 x 3 + 4 x 3 edges), steps >= the dilation
for inject in path any; do
  name=e-gft242-mesh-$inject
  "$LCAN" embed 'gft(2,4,2)' --guest mesh:4x4 --inject $inject --json >"$OUT/$name-model.json" 2>&1
  "$LCAN" embed 'gft(2,4,2)' --guest mesh:4x4 --inject $inject --engine rtl --json >"$OUT/$name.json" 2>"$OUT/$name.err"
  rc=$?
  same=$(python3 - "$OUT/$name-model.json" "$OUT/$name.json" <<'PY'
import json, sys
try:
    a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
except Exception:
    print("no"); sys.exit()
ea, eb = a["exchange"].pop("engine"), b["exchange"].pop("engine")
x = b["exchange"]
ok = ea == "model" and eb == "rtl" and a == b and x["packets"] == 48 and x["errors"] == 0 and x["steps"] >= b["dilation"]
print("yes %d" % x["steps"] if ok else "no")
PY
)
  if [ $rc -eq 0 ] && [ "${same%% *}" = yes ]; then
    ok "$name: embed gft(2,4,2) --guest mesh:4x4 --inject $inject --engine rtl: ${same#yes } steps, JSON == --engine model"
  else
    bad "$name" "$name: embed --engine rtl: exit $rc, same as model: ${same:-?}"
    head -5 "$OUT/$name.err" | sed 's/^/tb:      /'
  fi
done

# faults (spec 14): the FAULTS = 1 switch (reach rows, masked requests, the general greedy
# allocator lcan_alloc_chain) with no faults in lockstep, both modes; then the model library's fault
# drivers on the RTL: `lcan route|traffic|collective ... --faults F --engine rtl` print the model
# engine's JSON (but for "engine" and the measured "cycles_per_s"), in lockstep (0 mismatches);
# networks with w_1 = 2 and w_1 = 3 (xgft(2;3,4;3,3): 3 uppers at level 1, the sigma scan).
ft0=$(date +%s)
par f01 verilator 'gft(2,2,2)'      circuit random 6000 --faults none
par f03 verilator 'xgft(2;3,4;3,3)' circuit worst  6000 --faults none
par f02 verilator 'gft(2,2,2)'      packet  random 6000 --faults none
par f04 verilator 'xgft(2;3,4;3,3)' packet  random 6000 --faults none
par_end
# fcmp NAME ENGINE CHECK CMD SPEC [options]: --engine model against --engine ENGINE; CHECK is a python
# expression on the RTL's JSON b that must hold too
fcmp() {
  local name=$1 eng=$2 check=$3 cmd=$4 spec=$5; shift 5
  "$LCAN" "$cmd" "$spec" "$@" --json >"$OUT/$name-model.json" 2>&1
  "$LCAN" "$cmd" "$spec" "$@" --engine "$eng" --json >"$OUT/$name.json" 2>"$OUT/$name.err"
  local rc=$?
  local same; same=$(python3 - "$OUT/$name-model.json" "$OUT/$name.json" "$eng" "$check" <<'PY'
import json, sys
try:
    a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
except Exception:
    print("no"); sys.exit()
skip = ("engine", "cycles_per_s")
ok = list(a) == list(b) and b["engine"] == sys.argv[3] and all(a[k] == b[k] for k in a if k not in skip)
print("yes" if ok and eval(sys.argv[4]) else "no")
PY
)
  if [ $rc -eq 0 ] && [ "$same" = yes ]; then
    ok "$name: $cmd $spec $* --engine $eng: JSON == --engine model ($check)"
  else
    bad "$name" "$name: $cmd $spec $* --engine $eng: exit $rc, same as model and $check: ${same:-?}"
    head -5 "$OUT/$name.err" "$OUT/$name.json" | sed 's/^/tb:      /'
  fi
}
fcmp f-route-1 rtl 'b["cut"] == 0' route 'gft(2,2,2)' --faults L1:0 --trials 3 --seed 3
fcmp f-route-2 rtl 'b["cut"] == 0' route 'xgft(2;3,4;3,3)' --faults random:2 --pattern worst --trials 3 --seed 5
fcmp f-route-cut rtl 'b["cut"] > 0' route 'gft(2,2,2)' --faults L1:0,L1:1 --trials 2
fcmp f-route-icarus icarus 'b["cut"] == 0' route 'gft(2,2,2)' --faults L2:1/0 --trials 2 --seed 9
fcmp f-traffic-1 rtl 'b["delivered"] > 0 and b["lost"] == 0' \
  traffic 'gft(2,2,2)' --faults L1:1 --load 0.3 --warmup 300 --measure 600
fcmp f-traffic-2 rtl 'b["dropped"] > 0 and b["lost"] == 0' \
  traffic 'xgft(2;3,4;3,3)' --faults random:2 --fault-at 300 --load 0.6 --warmup 300 --measure 600 --seed 8
fcmp f-coll-1 rtl 'b["correct"]' collective 'gft(2,2,2)' --op bcast --faults L1:0
fcmp f-coll-2 rtl 'b["correct"]' collective 'xgft(2;3,4;3,3)' --op bcast --faults L1:0,L2:1/0 --root 5
echo "tb: fault checks: $(( $(date +%s) - ft0 )) s"

# bad arguments: one line "lcan: ...", exit 2
"$RTL" lockstep 'lcan(2,2,6)' >/dev/null 2>"$OUT/err1"; rc1=$?
"$RTL" lockstep 'lcan(2,2,8)' --mode bogus >/dev/null 2>"$OUT/err2"; rc2=$?
# --unicast-only (spec 8.8) needs packet mode and no flood queues: refused before anything is built
"$RTL" lockstep 'lcan(2,2,8)' --mode circuit --unicast-only >/dev/null 2>"$OUT/err3"; rc3=$?
"$RTL" lockstep 'lcan(2,2,8)' --mode packet --unicast-only --flood-queue 2 >/dev/null 2>"$OUT/err4"; rc4=$?
for e in err3 err4; do [ "$(wc -l <"$OUT/$e")" -eq 1 ] && grep -q '^lcan: .*--unicast-only' "$OUT/$e" || rc3=9; done
if [ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && [ $rc4 -eq 2 ] && [ "$(wc -l <"$OUT/err1")" -eq 1 ] && grep -q '^lcan: ' "$OUT/err2"; then
  ok "errors: bad spec / bad option / --unicast-only in circuit mode or with flood queues -> one 'lcan:' line, exit 2"
else
  bad errors "errors: exit $rc1/$rc2/$rc3/$rc4: $(cat "$OUT/err1" "$OUT/err2" "$OUT/err3" "$OUT/err4")"
fi

# the malloc library every Verilator run uses (tb/lcan-rtl _malloc-preload: a file or an empty line;
# a bad LCAN_RTL_MALLOC is one "lcan:" line, exit 2)
lib=$("$RTL" _malloc-preload); rc1=$?
none=$(LCAN_RTL_MALLOC=none "$RTL" _malloc-preload); rc2=$?
LCAN_RTL_MALLOC=/nonexistent/libm.so "$RTL" _malloc-preload >"$OUT/out3" 2>"$OUT/err3"; rc3=$?
if [ $rc1 -eq 0 ] && { [ -z "$lib" ] || [ -f "$lib" ]; } && [ $rc2 -eq 0 ] && [ -z "$none" ] \
   && [ $rc3 -eq 2 ] && [ ! -s "$OUT/out3" ] && [ "$(wc -l <"$OUT/err3")" -eq 1 ] && grep -q '^lcan: ' "$OUT/err3"; then
  ok "malloc: _malloc-preload '${lib:-none}', none -> empty, a missing library -> one 'lcan:' line, exit 2"
else
  bad malloc "malloc: exit $rc1/$rc2/$rc3, '$lib' '$none': $(cat "$OUT/err3")"
fi

# LCAN_RTL_UNROLL=N: loops of more than N statements not unrolled (less memory in Verilator's front
# end, a slower binary, cached apart as _uN): the same run gives the default binary's checksum; a bad
# value is one "lcan:" line, exit 2, before anything is built
for u in "" 1; do
  LCAN_RTL_UNROLL=$u "$RTL" lockstep 'lcan(2,3,8)' --mode circuit --pattern random --cycles 2000 --seed 7 --json \
    --quiet >"$OUT/unroll$u.json" 2>"$OUT/unroll$u.err"
done
LCAN_RTL_UNROLL=0 "$RTL" build 'lcan(2,3,8)' --mode circuit >"$OUT/out4" 2>"$OUT/err4"; rc4=$?
c0=$(json "$OUT/unroll.json" 'j["checksum"]'); c1=$(json "$OUT/unroll1.json" 'j["checksum"]')
if [ -n "$c0" ] && [ "$c0" = "$c1" ] && [ "$(json "$OUT/unroll1.json" 'j["mismatches"]')" = 0 ] \
   && [ -x "$LCAN_BUILD/sim/verilator/3_2.2.2_1.3.3_1.1.1_u1-circuit/obj/Vtb_top" ] \
   && [ $rc4 -eq 2 ] && [ "$(wc -l <"$OUT/err4")" -eq 1 ] && grep -q '^lcan: LCAN_RTL_UNROLL' "$OUT/err4"; then
  ok "unroll: LCAN_RTL_UNROLL=1 lcan(2,3,8) circuit: checksum $c1 = the default binary's, 0 mismatches; 0 -> one 'lcan:' line, exit 2"
else
  bad unroll "unroll: checksums '$c0' / '$c1', exit $rc4: $(cat "$OUT/unroll1.err" "$OUT/err4" | head -5)"
fi

# LCAN_RTL_OPT: the evaluation code at -O2 up to 64 leaves (lcan(2,3,8) above), -O1 beyond (cm5 of the
# matrix); a bad level is one "lcan:" line, exit 2, before anything is built. Both built with
# -march=native when g++ takes it here (tb/lcan-rtl host_target())
LCAN_RTL_OPT=-O9 "$RTL" build 'lcan(2,3,8)' --mode circuit >"$OUT/out5" 2>"$OUT/err5"; rc5=$?
small="$LCAN_BUILD/sim/verilator/3_2.2.2_1.3.3_1.1.1-circuit/build.log"
large="$LCAN_BUILD/sim/verilator/4_4.4.4.4_2.2.2.4_1.1.1.1-packet/build.log"
native=0
case "$(${CXX:-g++} -march=native -Q --help=target 2>/dev/null)" in *-march=*) native=1 ;; esac
if grep -q 'OPT_FAST=-O2 ' "$small" && grep -q 'OPT_FAST=-O1 ' "$large" \
   && [ "$(head -1 "$small" | grep -c -- '-CFLAGS -march=native')" = $native ] \
   && [ "$(head -1 "$large" | grep -c -- '-CFLAGS -march=native')" = $native ] \
   && [ $rc5 -eq 2 ] && [ ! -s "$OUT/out5" ] && [ "$(wc -l <"$OUT/err5")" -eq 1 ] && grep -q '^lcan: LCAN_RTL_OPT' "$OUT/err5"; then
  ok "opt: lcan(2,3,8) built at -O2, cm5 at -O1 (-march=native: $native); LCAN_RTL_OPT=-O9 -> one 'lcan:' line, exit 2"
else
  bad opt "opt: $(grep -o 'OPT_FAST=[^ ]*' "$small" "$large" 2>&1 | tr '\n' ' ') exit $rc5: $(head -2 "$OUT/err5")"
fi

echo "tb: $(( $(date +%s) - t0 )) s"
echo "tb: $pass passed, $fail failed${failed:+ (${failed[*]})}"
[ $fail -eq 0 ]
