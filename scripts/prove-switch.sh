#!/usr/bin/env bash
# prove-switch.sh: prove lcan_switch of the working tree equal, cycle for cycle, to lcan_switch of a
# git revision (default HEAD) for a set of switch shapes and modes, with yosys's equivalence
# checker - the check for a change of the switch's RTL that must not change its behaviour (a
# restructuring for speed, area or simulation time). Both designs are elaborated with the same
# parameters and flattened; equiv_make pairs the ports and the registers by name (names ending in
# _q and the FIFO memories; other internal names are hidden, so next-state wires and cell
# internals may change freely); equiv_simple and equiv_induct prove every output and register
# pair equal from any common state (k-induction, k = SEQ).
# With BOUND=N the proof is instead bounded and from reset (equiv_bounded in scripts/equiv-prove.sh:
# every output equal on the N ticks after a reset tick, any inputs), for a change that adds state
# the pairs of registers cannot express (docs/synthesis.md 15: sigma drawn a step ahead).
# Usage: scripts/prove-switch.sh [REV] (REV: a git revision, default HEAD; YOSYS, SEQ=2, BOUND settable;
# ONLY=NAME,NAME proves those shapes alone; PLAIN=1 proves the default PLAIN_OFFSETS = 1 on both
# sides instead of 0, see below)
# lcan_switch's PLAIN_OFFSETS (offsets and sigma read from the LFSR state where they are bit fields
# of it, instead of registered): the shapes are proven with PLAIN_OFFSETS = 0 on each side that has
# the parameter (the registers pair by name), and then scripts/prove-plain-offsets.sh proves the
# plain values equal to the registered ones on every tick after reset (unless ONLY is given).
# Prints one line per shape; exits 1 if any proof fails (the log names the unproven pairs).
set -u
cd "$(dirname "$0")/.."
YOSYS=${YOSYS:-yosys}
SEQ=${SEQ:-2}
REV=${1:-HEAD}
LOGDIR=${LOGDIR:-build/prove-switch}
mkdir -p "$LOGDIR"
. scripts/equiv-prove.sh
git rev-parse --verify -q "$REV^{commit}" > /dev/null || { echo "prove-switch: no such revision: $REV"; exit 2; }
old=$(mktemp -d /tmp/prove-switch.XXXXXX)
trap 'rm -rf "$old"' EXIT
for f in $(git ls-tree --name-only "$REV" rtl/ | grep -E '\.(v|vh)$'); do
  git show "$REV:$f" > "$old/$(basename "$f")"
done
# every cell lcan_switch uses, in rtl/lcan_network.f's order
files=$(grep -v -e '^#' -e lcan_network.v rtl/lcan_network.f | xargs -n1 basename)

# NAME:PARAMETERS (lcan_switch's, as chparam NAME VALUE pairs); small shapes, every mode and option
B="M_L 2 P_DN 1 P_UP 1 ADDR_W 3 DIG_OFF 0 DIG_W 1 PAYLOAD_W 4 DEPTH 2"
# one-flit FIFOs (DEPTH 1: lcan_fifo's one-entry count), held links, unicast only (lcan_alloc's pick
# form); level 2 of a 3-bit address (digit 1), as the (2,2) synthesis rows. packet-d1-uni-held with
# the plain offsets (its synthesized form): the two uppers' pick form (lcan_alloc PICK_U) reads one
# bit of sigma's matrix per upper, the same grants and crossbar indices as before whenever sigma is
# a permutation, which the plain sigma is in every state (a function of the LFSR state) and the
# registered up_perm_q on every tick after reset only (the proof from any state would fail on the
# others; prove-plain-offsets.sh's packet-sigma proves the registered values equal to the plain
# ones after reset, and BOUND=8 with the registered sigma passed, 698 s)
B1="M_L 2 P_DN 1 P_UP 1 ADDR_W 3 DIG_OFF 1 DIG_W 1 PAYLOAD_W 4 DEPTH 1"
SHAPES=(
  "packet-l1:$B W_UP 2 MODE 1 LEVEL 1"
  "circuit-l1:$B W_UP 2 MODE 0 LEVEL 1"
  "packet-top:$B W_UP 0 MODE 1 LEVEL 3"
  "circuit-top:$B W_UP 0 MODE 0 LEVEL 3"
  "packet-rotate:$B W_UP 2 MODE 1 LEVEL 1 UP_CHOICE 0"
  "packet-flood-q2:$B W_UP 2 MODE 1 LEVEL 1 FLOOD_Q 2"
  "packet-faults:$B W_UP 2 MODE 1 LEVEL 1 FAULTS 1"
  "circuit-faults:$B W_UP 2 MODE 0 LEVEL 1 FAULTS 1"
  "packet-m3-u4:M_L 3 P_DN 1 P_UP 1 ADDR_W 4 DIG_OFF 0 DIG_W 2 PAYLOAD_W 4 DEPTH 2 W_UP 4 MODE 1 LEVEL 1"
  "packet-pdn2:M_L 2 P_DN 2 P_UP 1 ADDR_W 3 DIG_OFF 0 DIG_W 1 PAYLOAD_W 4 DEPTH 3 W_UP 3 MODE 1 LEVEL 1"
  "circuit-rotate:$B W_UP 2 MODE 0 LEVEL 1 UP_CHOICE 0"
  "circuit-m3-u4:M_L 3 P_DN 1 P_UP 1 ADDR_W 4 DIG_OFF 0 DIG_W 2 PAYLOAD_W 4 DEPTH 2 W_UP 4 MODE 0 LEVEL 1"
  "packet-d1:$B1 W_UP 2 MODE 1 LEVEL 2"
  "packet-d1-held:$B1 W_UP 2 MODE 1 LEVEL 2 LINK_HOLD 1"
  # held links with broadcasts at level 1 (the downers' outputs face the leaves: not held) and at
  # the top (no uppers); and the same three with AREA_FORMS = 1: lcan_switch's BFLOOR forms with
  # either kind of output (against a revision without the parameter, its default forms)
  "packet-d1-held-l1:M_L 2 P_DN 1 P_UP 1 ADDR_W 3 DIG_OFF 0 DIG_W 1 PAYLOAD_W 4 DEPTH 1 W_UP 2 MODE 1 LEVEL 1 LINK_HOLD 1"
  "packet-d1-held-top:$B1 W_UP 0 MODE 1 LEVEL 2 LINK_HOLD 1"
  "packet-d1-held-area:$B1 W_UP 2 MODE 1 LEVEL 2 LINK_HOLD 1 AREA_FORMS 1"
  "packet-d1-held-l1-area:M_L 2 P_DN 1 P_UP 1 ADDR_W 3 DIG_OFF 0 DIG_W 1 PAYLOAD_W 4 DEPTH 1 W_UP 2 MODE 1 LEVEL 1 LINK_HOLD 1 AREA_FORMS 1"
  "packet-d1-held-top-area:$B1 W_UP 0 MODE 1 LEVEL 2 LINK_HOLD 1 AREA_FORMS 1"
  "packet-d1-uni-held:$B1 W_UP 2 MODE 1 LEVEL 2 LINK_HOLD 1 UNICAST_ONLY 1 PLAIN_OFFSETS 1"
  "packet-top-uni:$B1 W_UP 0 MODE 1 LEVEL 2 UNICAST_ONLY 1"
  "packet-m3-u4-uni:M_L 3 P_DN 1 P_UP 1 ADDR_W 4 DIG_OFF 0 DIG_W 2 PAYLOAD_W 4 DEPTH 1 W_UP 4 MODE 1 LEVEL 1 UNICAST_ONLY 1"
  # the (4,4) broadcast switch of the synthesis rows (P = 8, held links, level 2): lcan_alloc's flat
  # forms of FLAT_P = 8, four uppers in sigma order (g_flatu) with the registered sigma
  "packet-m4-u4-d1-held:M_L 4 P_DN 1 P_UP 1 ADDR_W 5 DIG_OFF 2 DIG_W 2 PAYLOAD_W 4 DEPTH 1 W_UP 4 MODE 1 LEVEL 2 LINK_HOLD 1"
  # circuit mode without the debug view (lcan_switch_circuit's src loaded with the column select,
  # up to 4 ports): level 1 and level 2 (the (2,2) synthesis rows' digit)
  "circuit-l1-noobs:$B W_UP 2 MODE 0 LEVEL 1 OBSERVE 0"
  "circuit-d1-noobs:$B1 W_UP 2 MODE 0 LEVEL 2 OBSERVE 0"
  # circuit mode with held outputs (LINK_HOLD = 1, spec 7.1; before it, circuit mode ignored the
  # parameter): proven with scripts/held_miter.v, tx_flit of a held output compared where tx_valid
  # = 1, bounded from reset (HELD_BOUND ticks, default 8) - the (2,2) synthesis row's C22 forms
  # (level 2, no debug view: every output held), level 1 with and without the debug view (the
  # uppers held, the downers cleared), and lcan_switch's general form (three children: the AND-OR
  # crossbar; HELD_BOUND=4 was used for it, 8 ran over 20 minutes)
  "circuit-d1-held-noobs:$B1 W_UP 2 MODE 0 LEVEL 2 OBSERVE 0 LINK_HOLD 1"
  "circuit-held-l1:$B W_UP 2 MODE 0 LEVEL 1 LINK_HOLD 1"
  "circuit-held-l1-noobs:$B W_UP 2 MODE 0 LEVEL 1 OBSERVE 0 LINK_HOLD 1"
  "circuit-m3-u4-held:M_L 3 P_DN 1 P_UP 1 ADDR_W 4 DIG_OFF 0 DIG_W 2 PAYLOAD_W 4 DEPTH 2 W_UP 4 MODE 0 LEVEL 1 LINK_HOLD 1"
)
elab() { # DIR NAME PARAMS -> yosys commands elaborating DIR's lcan_switch as module NAME
  local rd="" p="" k v
  # (a cell the revision does not have yet, e.g. one added since, is left out of its elaboration)
  for f in $files; do [ ! -f "$1/$f" ] || rd="$rd $1/$f"; done
  set -- "$1" "$2" $3
  local dir=$1 name=$2; shift 2
  while [ $# -ge 2 ]; do p="$p -chparam $1 $2"; shift 2; done
  echo "read_verilog -DYOSYS -I$dir $rd; hierarchy -top lcan_switch $p; proc; setattr -mod -unset keep_hierarchy; flatten; memory -nomap;"
  echo "memory_map; opt_clean; rename -hide w:* x:* w:*_q w:*mem_q* %u %u %d; rename lcan_switch $name;"
  echo "design -stash $name;"
}
declared() { # FILE NAME VALUE ...: the pairs whose parameter FILE declares
  local f=$1 out=""; shift
  while [ $# -ge 2 ]; do
    ! grep -Eq "parameter( \[[^]]*\])? $1( |=)" "$f" || out="$out $1 $2"
    shift 2
  done
  echo "$out"
}
# circuit shapes with held outputs: scripts/held_miter.v over the two designs, its parameters from
# the shape (P, FW, address, debug and reach-row widths; the held outputs: all above level 1, else
# the uppers), sat bounded from a reset tick
held_prove() { # LOG COMMANDS PARAMS
  local log=$1 cmds=$2 n
  set -- $3
  local ml=0 pdn=0 wup=0 pup=0 aw=0 pw=0 lv=1 flt=0
  while [ $# -ge 2 ]; do
    case $1 in M_L) ml=$2 ;; P_DN) pdn=$2 ;; W_UP) wup=$2 ;; P_UP) pup=$2 ;; ADDR_W) aw=$2 ;;
      PAYLOAD_W) pw=$2 ;; LEVEL) lv=$2 ;; FAULTS) flt=$2 ;; esac
    shift 2
  done
  local d=$((ml * pdn)) p=$((ml * pdn + wup * pup)) hold
  if [ "$lv" -gt 1 ]; then hold=$(( (1 << p) - 1 )); else hold=$(( ((1 << p) - 1) & ~((1 << d) - 1) )); fi
  n=${HELD_BOUND:-8}
  local cfgw=1
  [ "$flt" = 0 ] || cfgw=$((1 << aw))
  if $YOSYS -q -l "$log" -p "$cmds
        design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
        read_verilog -formal scripts/held_miter.v;
        chparam -set P $p -set FW $((2 + aw + pw)) -set AW $aw -set DBGW $((p * 8)) -set CFGW $cfgw -set HOLD $hold held_miter;
        hierarchy -top held_miter; proc; flatten; opt_clean;
        sat -verify -prove-asserts -set-at 1 rst 1 -prove-skip 1 -seq $n held_miter" > /dev/null 2>&1; then
    res="equal for $n ticks after reset, tx_flit of held outputs where valid (SAT)"
  else
    res="FAILED (see $log)"
    return 1
  fi
}
# the check: induction from any common state, or with BOUND bounded from reset
prove=equiv_prove
[ -z "${BOUND:-}" ] || prove=equiv_bounded
fail=0
for s in "${SHAPES[@]}"; do
  name=${s%%:*}; prm=${s#*:}
  case ",${ONLY:-$name}," in *",$name,"*) ;; *) continue ;; esac
  log=$LOGDIR/$name.log
  t0=$(date +%s.%N)
  # the registered offsets (PLAIN_OFFSETS = 0) on the side that has the parameter: the plain ones
  # are proven equal to them below; a shape that names PLAIN_OFFSETS keeps its value (on a side
  # without the parameter it is dropped)
  # (PLAIN=1: both sides with their default, PLAIN_OFFSETS = 1, where the offsets and sigma are a
  # function of the paired LFSR state: sigma is then a permutation in every state the induction
  # starts from, which a registered up_perm_q of any value is not; lcan_alloc's flat form of two
  # uppers, FLAT_P, and the pick form of two uppers, PICK_U, equal the rank form for permutations
  # only)
  p2=$prm
  if [ "${PLAIN:-0}" = 0 ]; then
    case " $prm " in *" PLAIN_OFFSETS "*) ;; *) p2="$prm PLAIN_OFFSETS 0" ;; esac
  fi
  # a parameter one side's lcan_switch does not have (added since the revision: PLAIN_OFFSETS,
  # AREA_FORMS) is left out on that side
  pg=$(declared "$old/lcan_switch.v" $p2); pt=$(declared rtl/lcan_switch.v $p2)
  case " $prm " in
    *" MODE 0 "*" LINK_HOLD 1 "*)
      held_prove "$log" "$(elab "$old" gold "$pg") $(elab rtl gate "$pt")" "$prm" || fail=1 ;;
    *) "$prove" "$log" "$(elab "$old" gold "$pg") $(elab rtl gate "$pt")" || fail=1 ;;
  esac
  t1=$(date +%s.%N)
  printf 'prove-switch: %-16s vs %s: %s, %.1f s\n' "$name" "$REV" "$res" "$(echo "$t1 - $t0" | bc)"
done
# the working tree's plain offsets (PLAIN_OFFSETS = 1, the default) equal to its registered ones
if [ -z "${ONLY:-}" ] && grep -q 'parameter PLAIN_OFFSETS' rtl/lcan_switch.v; then
  LOGDIR=$LOGDIR/plain-offsets bash scripts/prove-plain-offsets.sh || fail=1
fi
exit $fail
