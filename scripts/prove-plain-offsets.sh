#!/usr/bin/env bash
# prove-plain-offsets.sh: lcan_switch's plain offsets (PLAIN_OFS: P, P_DN, U powers of two and sigma
# only of U = 2; the allocator reads r_in, r_up, r_dn and sigma combinationally from the LFSR state)
# give on every tick the values of the registered offsets and sigma that the switch computed before
# (r_*_q, g_sigma's up_perm_q drawn a step ahead through sig_next_q), which the RTL still writes, the
# same way, without reading them. Per shape: the working tree's lcan_switch elaborated and flattened,
# its registered and plain values and the LFSR state exposed, tb/cells/plain_offsets_miter.v asserts
# them equal (sig_next_q: sigma of the state stepped once); yosys `sat -tempinduct` from a reset tick
# (rst = 1 on tick 1, any inputs after it; the induction step from any state meeting the asserts):
# they hold on every tick after reset. With that, a switch reading the plain values behaves as one
# reading the registers: the rest of the switch is the same logic (make prove-switch proves that
# rest against a revision with the registered offsets).
# Usage: scripts/prove-plain-offsets.sh   (YOSYS; ONLY=NAME,NAME)
# Prints one line per shape; exits 1 if any proof fails (the log has the counterexample).
set -u
cd "$(dirname "$0")/.."
YOSYS=${YOSYS:-yosys}
LOGDIR=${LOGDIR:-build/prove-plain-offsets}
mkdir -p "$LOGDIR"
files=$(grep -v -e '^#' -e lcan_network.v rtl/lcan_network.f | tr '\n' ' ')
B="M_L 2 P_DN 1 P_UP 1 ADDR_W 3 DIG_OFF 1 DIG_W 1 PAYLOAD_W 4 LEVEL 2"
# NAME:SIG:P:SW:UPERM_W:PARAMETERS (SIG: sigma drawn, U = 2)
SHAPES=(
  "packet-sigma:1:4:2:4:$B W_UP 2 MODE 1 DEPTH 1"
  "packet-rotate-u2:0:4:2:4:$B W_UP 2 MODE 1 DEPTH 2 UP_CHOICE 0"
  "packet-top:0:2:1:1:$B W_UP 0 MODE 1 DEPTH 2"
  "packet-pdn2-u4-rotate:0:8:3:16:M_L 2 P_DN 2 P_UP 2 ADDR_W 3 DIG_OFF 1 DIG_W 1 PAYLOAD_W 4 LEVEL 2 W_UP 2 MODE 1 DEPTH 1 UP_CHOICE 0"
  "circuit-sigma:1:4:2:4:$B W_UP 2 MODE 0 DEPTH 1"
  "circuit-top:0:2:1:1:$B W_UP 0 MODE 0 DEPTH 2"
  "circuit-m4-u4-rotate:0:8:3:16:M_L 4 P_DN 1 P_UP 1 ADDR_W 4 DIG_OFF 2 DIG_W 2 PAYLOAD_W 4 LEVEL 2 W_UP 4 MODE 0 DEPTH 1 UP_CHOICE 0"
)
fail=0
for sh in "${SHAPES[@]}"; do
  IFS=: read -r name sig p sw pw prm <<< "$sh"
  case ",${ONLY:-$name}," in *",$name,"*) ;; *) continue ;; esac
  chp=""
  set -- $prm
  aw=3
  while [ $# -ge 2 ]; do chp="$chp -chparam $1 $2"; [ "$1" = ADDR_W ] && aw=$2; [ "$1" = PAYLOAD_W ] && pw_=$2; shift 2; done
  fw=$((2 + aw + pw_))
  sigren=""
  [ "$sig" = 1 ] && sigren="rename g_sigma.sig_next_q x_sig_next;"
  log=$LOGDIR/$name.log
  t0=$(date +%s.%N)
  if $YOSYS -q -l "$log" -p "read_verilog -DYOSYS -Irtl $files; hierarchy -top lcan_switch $chp; proc; flatten;
      cd lcan_switch; rename u_lfsr.s_q x_s; rename r_in_q x_rq_in; rename r_up_q x_rq_up; rename r_dn_q x_rq_dn;
      rename r_in_p x_rp_in; rename r_up_p x_rp_up; rename r_dn_p x_rp_dn; rename up_perm_r x_perm_r;
      rename up_perm_p x_perm_p; $sigren expose w:x_*; cd ..; memory -nomap; memory_map; opt_clean;
      rename lcan_switch dut;
      read_verilog -formal tb/cells/plain_offsets_miter.v;
      chparam -set P $p -set FW $fw -set ADDR_W $aw -set SW $sw -set UPERM_W $pw -set SIG $sig plain_offsets_miter;
      hierarchy -top plain_offsets_miter; proc; flatten; opt_clean;
      sat -tempinduct -prove-asserts -set-at 1 rst 1 -seq 1 -maxsteps 4 plain_offsets_miter" > /dev/null 2>&1 \
     && grep -q "Induction step proven: SUCCESS" "$log"; then
    res="proven (every tick after reset, k-induction)"
  else
    res="FAILED (see $log)"; fail=1
  fi
  t1=$(date +%s.%N)
  printf 'prove-plain-offsets: %-22s %s, %.1f s\n' "$name" "$res" "$(echo "$t1 - $t0" | bc)"
done
exit $fail
