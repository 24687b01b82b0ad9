#!/usr/bin/env bash
# prove-floor.sh: prove tb/floor/lcan_switch22_uni.v (or GATE=file) equal, cycle for cycle, to
# rtl/lcan_switch.v elaborated with the same parameters, with yosys's SAT solver.
#   tb/floor/prove-floor.sh [pinned|free|ckt-pinned|ckt-free|ckt-held-pinned|ckt-held-free|bcast-pinned|bcast-free|
#                            bcast-area-pinned|bcast-area-free]
#   (default pinned)
#   pinned: the parameters of scripts/synth/configs.tsv's sw-2-2-w8-packet-noobs-d1-pinned-uni-held;
#   free:   the same with PIN_STRAPS = 0 and PIN_SEED = 0 (label, salt and seed are inputs: the reset
#           tick loads any LFSR state, the label bit may change on any tick).
#   ckt-*:  tb/floor/lcan_switch22_ckt.v, sw-2-2-w8-circuit-noobs-pinned's parameters (free: as above);
#   ckt-held-*: the same with LINK_HOLD = 1 on both sides (sw-2-2-w8-circuit-noobs-pinned-held: held
#           outputs, lcan_switch's C22 forms), tx_flit compared where tx_valid = 1 (floor_miter_ckt.v HELD);
#   bcast-*: tb/floor/lcan_switch22_bcast.v, sw-2-2-w8-packet-noobs-d1-pinned-held's (broadcasts,
#           held links; free: as above), miter tb/floor/floor_miter.v with SERVED (served sets related too);
#   bcast-area-*: the same with lcan_switch's AREA_FORMS = 1 (the floor's own forms in the generator).
# METHOD=induct (default): tb/floor/floor_miter.v, the two designs side by side with their state
#   registers exposed; asserts: every output equal, and the invariant (LFSR states, credits and FIFO
#   counts equal; lcan_switch reads its offsets and sigma from the LFSR state, PLAIN_OFS).
#   sat -tempinduct: base case from a reset tick (rst = 1 on tick 1, any inputs after it), then the
#   induction step from ANY state satisfying the asserts, any inputs: equal on every tick after
#   reset, unbounded.
# METHOD=bounded: scripts/equiv-prove.sh's equiv_bounded for these two designs: a miter (every
#   output), rst = 1 on the first tick, any inputs after it, proven for BOUND ticks (default 6).
# Environment: GATE, METHOD, BOUND, MAXSTEPS (induction length limit, default 4), YOSYS, LOG.
# Exit 0 when proven, 1 when the proof fails (the log has the counterexample), 2 on a usage error.
set -u
cd "$(dirname "$0")/../.."
YOSYS=${YOSYS:-yosys}
METHOD=${METHOD:-induct}
BOUND=${BOUND:-6}
MAXSTEPS=${MAXSTEPS:-4}
mode=${1:-pinned}
case "$mode" in
  ckt-*) GATE=${GATE:-tb/floor/lcan_switch22_ckt.v}; gtop=lcan_switch22_ckt ;;
  bcast-*) GATE=${GATE:-tb/floor/lcan_switch22_bcast.v}; gtop=lcan_switch22_bcast ;;
  *)     GATE=${GATE:-tb/floor/lcan_switch22_uni.v}; gtop=lcan_switch22_uni ;;
esac
LOG=${LOG:-build/prove-floor/$mode-$METHOD.log}
mkdir -p "$(dirname "$LOG")"
base="LEVEL 2 M_L 2 P_DN 1 W_UP 2 P_UP 1 ADDR_W 3 DIG_OFF 1 DIG_W 1 PAYLOAD_W 8 DEPTH 1 MODE 1 OBSERVE 0 UNICAST_ONLY 1 LINK_HOLD 1"
bbase="LEVEL 2 M_L 2 P_DN 1 W_UP 2 P_UP 1 ADDR_W 3 DIG_OFF 1 DIG_W 1 PAYLOAD_W 8 DEPTH 1 MODE 1 OBSERVE 0 LINK_HOLD 1"
cbase="LEVEL 2 M_L 2 P_DN 1 W_UP 2 P_UP 1 ADDR_W 3 DIG_OFF 1 DIG_W 1 PAYLOAD_W 8 DEPTH 4 MODE 0 OBSERVE 0"
case "$mode" in
  pinned) prm="$base PIN_STRAPS 1 LABEL_V 4 SALT_V 2792937945 PIN_SEED 1 SEED_V 305419896" ;;
  free)   prm="$base PIN_STRAPS 0 PIN_SEED 0" ;;
  ckt-pinned) prm="$cbase PIN_STRAPS 1 LABEL_V 4 SALT_V 2792937945 PIN_SEED 1 SEED_V 305419896" ;;
  ckt-free)   prm="$cbase PIN_STRAPS 0 PIN_SEED 0" ;;
  ckt-held-pinned) prm="$cbase LINK_HOLD 1 PIN_STRAPS 1 LABEL_V 4 SALT_V 2792937945 PIN_SEED 1 SEED_V 305419896" ;;
  ckt-held-free)   prm="$cbase LINK_HOLD 1 PIN_STRAPS 0 PIN_SEED 0" ;;
  bcast-pinned) prm="$bbase PIN_STRAPS 1 LABEL_V 4 SALT_V 2792937945 PIN_SEED 1 SEED_V 305419896" ;;
  bcast-free)   prm="$bbase PIN_STRAPS 0 PIN_SEED 0" ;;
  bcast-area-pinned) prm="$bbase AREA_FORMS 1 PIN_STRAPS 1 LABEL_V 4 SALT_V 2792937945 PIN_SEED 1 SEED_V 305419896" ;;
  bcast-area-free)   prm="$bbase AREA_FORMS 1 PIN_STRAPS 0 PIN_SEED 0" ;;
  *) echo "prove-floor: mode pinned, free, ckt-pinned, ckt-free, ckt-held-pinned, ckt-held-free, bcast-pinned, bcast-free,"
     echo "  bcast-area-pinned or bcast-area-free"; exit 2 ;;
esac
# chp: lcan_switch's parameters; gchp: the floor's (the same but AREA_FORMS, which it does not have)
chp=""; gchp=""
set -- $prm
while [ $# -ge 2 ]; do
  chp="$chp -chparam $1 $2"
  [ "$1" = AREA_FORMS ] || gchp="$gchp -chparam $1 $2"
  shift 2
done
files=$(grep -v -e '^#' -e lcan_network.v rtl/lcan_network.f | tr '\n' ' ')
gold="read_verilog -DYOSYS -Irtl $files; hierarchy -top lcan_switch $chp; proc; setattr -mod -unset keep_hierarchy; flatten; memory -nomap;
  memory_map; opt_clean;"
gate="read_verilog -DYOSYS -Irtl rtl/lcan_lfsr.v rtl/lcan_xbar_col.v $GATE; hierarchy -top $gtop $gchp; proc; setattr -mod -unset keep_hierarchy;
  flatten; opt_clean;"
case "$METHOD" in
  induct)
    case "$mode" in ckt-*)
    cc=g_circuit.u_circuit
    case "$mode" in ckt-held-*) held="-DHELD" ;; *) held="" ;; esac
    script="$gold cd lcan_switch;
      rename u_lfsr.s_q x_s; rename $cc.set_q x_set; rename $cc.src_q x_src;
      expose w:x_*; cd ..; rename lcan_switch gold; design -stash gold;
      $gate cd $gtop; rename u_lfsr.s_q x_s; rename set_q x_set; rename src0_q x_src0;
      rename src1_q x_src1; rename src2_q x_src2; rename src3_q x_src3;
      expose w:x_*; cd ..; rename $gtop gate; design -stash gate;
      design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
      read_verilog -formal $held tb/floor/floor_miter_ckt.v; hierarchy -top floor_miter_ckt; proc; flatten; opt_clean;
      sat -tempinduct -prove-asserts -set-at 1 rst 1 -seq 1 -maxsteps $MAXSTEPS -show-ports floor_miter_ckt"
    what="equal on every tick after reset (k-induction: base case from reset, step from any state meeting the invariant)"
    ;; *)
    # the packet floors (unicast-only and broadcast): LFSR, credits and FIFO counts related, and
    # with broadcasts the served sets as well (floor_miter.v with SERVED defined)
    pg=g_packet.u_packet
    case "$mode" in
      bcast-*) served="-DSERVED"; sv_gate="rename sv_q x_sv;"
        sv_gold="rename $pg.g_in[0].served_q x_sv0; rename $pg.g_in[1].served_q x_sv1;
          rename $pg.g_in[2].served_q x_sv2; rename $pg.g_in[3].served_q x_sv3;" ;;
      *) served=""; sv_gold=""; sv_gate="" ;;
    esac
    script="$gold cd lcan_switch;
      rename u_lfsr.s_q x_s;
      rename $pg.g_out[0].g_credit.cr_q x_cr0; rename $pg.g_out[1].g_credit.cr_q x_cr1;
      rename $pg.g_out[2].g_credit.cr_q x_cr2; rename $pg.g_out[3].g_credit.cr_q x_cr3;
      rename $pg.g_in[0].u_fifo.cnt_q x_cnt0; rename $pg.g_in[1].u_fifo.cnt_q x_cnt1;
      rename $pg.g_in[2].u_fifo.cnt_q x_cnt2; rename $pg.g_in[3].u_fifo.cnt_q x_cnt3;
      $sv_gold
      expose w:x_*; cd ..; rename lcan_switch gold; design -stash gold;
      $gate cd $gtop; rename u_lfsr.s_q x_s; rename cr_q x_cr; rename cnt_q x_cnt; $sv_gate
      expose w:x_*; cd ..; rename $gtop gate; design -stash gate;
      design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
      read_verilog -formal $served tb/floor/floor_miter.v; hierarchy -top floor_miter; proc; flatten; opt_clean;
      sat -tempinduct -prove-asserts -set-at 1 rst 1 -seq 1 -maxsteps $MAXSTEPS -show-ports floor_miter"
    what="equal on every tick after reset (k-induction: base case from reset, step from any state meeting the invariant)" ;;
    esac ;;
  bounded)
    script="$gold rename lcan_switch gold; design -stash gold;
      $gate rename $gtop gate; design -stash gate;
      design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
      miter -equiv -flatten -make_assert -ignore_gold_x gold gate miter; hierarchy -top miter;
      async2sync; sat -verify -prove-asserts -set-at 1 in_rst 1 -prove-skip 1 -seq $((BOUND + 1)) -show-ports miter"
    what="equal on every output for $BOUND ticks after the reset tick" ;;
  *) echo "prove-floor: METHOD induct or bounded"; exit 2 ;;
esac
t0=$(date +%s.%N)
if $YOSYS -q -l "$LOG" -p "$script" > /dev/null 2>&1 &&
   { [ "$METHOD" != induct ] || grep -q 'Induction step proven: SUCCESS' "$LOG"; }; then
  res="$what"; rc=0
else
  res="FAILED (see $LOG)"; rc=1
fi
t1=$(date +%s.%N)
printf 'prove-floor: %s, %s, %s: %s, %s s\n' "$GATE" "$mode" "$METHOD" "$res" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')"
exit $rc
