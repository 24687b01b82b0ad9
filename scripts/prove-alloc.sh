#!/usr/bin/env bash
# prove-alloc.sh: prove rtl/lcan_alloc.v (log depth) equal to the reference chain
# (rtl/lcan_alloc_chain.v behind lcan_alloc_chain_wrap, want/start sets as lcan_switch built
# them) for every legal input, with yosys's SAT solver: tb/cells/prove_alloc_top.v computes
# ok = (grants, out_valid, out_src equal) and `sat -prove ok 1 -verify` proves it for all inputs.
# Usage: scripts/prove-alloc.sh [M,PDN,U[,UC[,PK[,FL[,PU[,FK]]]]] ...]   (default: the shapes below, P = 2..8)
# UC is UP_CHOICE (1 uniform: class UP in the order of any permutation sigma of the uppers, an
# unconstrained permutation matrix; 0 rotate, the default when omitted); PK is PICK_P (the pick
# form of one-output groups when P <= PK; default 0); FL is FLAT_P (the flat form of one-output
# groups with broadcasts when PK < P <= FL, and of the upper group with UC = 1: g_flat2 for two
# uppers, g_flatu for more; default 0); PU is PICK_U (the pick form of two uppers
# when P <= PU; default PK); FK is FLAT_KEEP (the flat form's one-output groups as kept
# lcan_flat_pick units; default 0; the units are flattened for the proof).
# Prints one line per shape; exits 1 if any proof fails (the counterexample is in the log).
set -u
cd "$(dirname "$0")/.."
YOSYS=${YOSYS:-yosys}
LOGDIR=${LOGDIR:-build/prove-alloc}
mkdir -p "$LOGDIR"
SHAPES=${*:-"2,1,0 2,1,2 4,1,2 2,1,4 4,1,4 2,2,2 4,2,0 3,1,3 2,3,2 3,2,2 2,2,4 6,1,2 8,1,0 \
  2,1,2,1 2,1,3,1 3,1,3,1 2,1,4,1 4,1,4,1 2,2,4,1 2,3,2,1 2,1,5,1 \
  2,1,0,0,8 2,1,2,0,8 2,1,2,1,8 3,1,3,1,8 4,1,0,0,8 4,1,4,1,8 2,2,4,1,8 6,1,2,0,8 4,1,2,1,8 \
  2,1,0,0,0,4 2,1,2,0,0,4 2,1,2,1,0,4 3,1,1,1,0,4 4,1,0,0,0,4 2,1,2,1,0,8 4,1,4,1,0,8 6,1,2,0,0,8 2,2,2,1,0,8 \
  2,1,3,1,0,8 5,1,3,1,0,8 2,2,4,1,0,8 2,1,6,1,0,8 1,1,3,1,0,8 \
  2,1,2,1,8,0,0 2,2,2,1,8 3,1,2,1,8 6,1,2,1,8 \
  2,1,2,1,0,4,0,1 2,1,0,0,0,4,0,1 2,1,1,1,0,4,0,1 3,1,1,1,0,4,0,1 2,1,2,0,0,4,0,1"}
fail=0
for s in $SHAPES; do
  IFS=, read -r m pdn u uc pk fl pu fk <<< "$s"
  uc=${uc:-0}
  pk=${pk:-0}
  fl=${fl:-0}
  pu=${pu:-$pk}
  fk=${fk:-0}
  p=$((m * pdn + u)); sw=1; while [ $((1 << sw)) -lt $p ]; do sw=$((sw + 1)); done
  log=$LOGDIR/prove-$m-$pdn-$u-$uc-$pk-$fl-$pu-$fk.log
  t0=$(date +%s.%N)
  if $YOSYS -q -l "$log" -p "read_verilog rtl/lcan_rr_pick.v rtl/lcan_prefix_count.v rtl/lcan_flat_pick.v rtl/lcan_alloc.v \
        rtl/lcan_alloc_chain.v tb/cells/lcan_alloc_chain_wrap.v tb/cells/prove_alloc_top.v; \
        chparam -set M $m -set PDN $pdn -set U $u -set SW $sw -set UP_CHOICE $uc -set PICK_P $pk -set FLAT_P $fl -set PICK_U $pu -set FLAT_KEEP $fk prove_alloc_top; \
        hierarchy -top prove_alloc_top; proc; setattr -mod -unset keep_hierarchy; flatten; opt -fast; \
        sat -prove ok 1 -verify -show-inputs" > /dev/null 2>&1 \
     && grep -q "SUCCESS" "$log"; then
    res="proved equal"
  else
    res="FAILED (see $log)"; fail=1
  fi
  t1=$(date +%s.%N)
  printf 'prove-alloc: M=%-2s PDN=%s U=%s UP_CHOICE=%s PICK_P=%s FLAT_P=%s PICK_U=%s FLAT_KEEP=%s (P=%2s): %s, %.1f s\n' "$m" "$pdn" "$u" "$uc" "$pk" "$fl" "$pu" "$fk" "$p" "$res" \
    "$(echo "$t1 - $t0" | bc)"
done
exit $fail
