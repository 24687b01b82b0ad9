# equiv-prove.sh: sourced by scripts/prove-switch.sh and scripts/prove-pinned.sh, the one place of
# their yosys equivalence run. equiv_prove LOG COMMANDS: COMMANDS elaborate two designs and stash
# them as gold and gate (design -stash); equiv_make pairs their ports and named registers,
# equiv_simple and equiv_induct (k = SEQ) prove every pair equal from any common state. Sets res to
# "proven equal (N pairs)" or "FAILED (see LOG)" and returns non-zero on a failed proof.
equiv_prove() {
  local log=$1 cmds=$2
  if $YOSYS -q -l "$log" -p "$cmds
        design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
        equiv_make gold gate equiv; hierarchy -top equiv; async2sync;
        equiv_simple -seq $SEQ; equiv_induct -seq $SEQ; equiv_status -assert" > /dev/null 2>&1; then
    res="proven equal ($(grep -o 'Found [0-9]* \$equiv cells' "$log" | tail -1 | cut -d' ' -f2) pairs)"
  else
    res="FAILED (see $log)"
    return 1
  fi
}

# equiv_bounded LOG COMMANDS: the same two designs, compared from reset instead of from any common
# state: a miter of gold and gate (every output), rst = 1 on the first tick and any inputs after
# it, proven by SAT for BOUND ticks (the outputs of the reset tick itself are not compared). For a
# change that adds or renames state (e.g. a register holding a value computed a tick early), where
# the pairs of equiv_make are not an induction invariant. Sets res like equiv_prove.
equiv_bounded() {
  local log=$1 cmds=$2
  if $YOSYS -q -l "$log" -p "$cmds
        design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
        miter -equiv -flatten -make_assert -ignore_gold_x gold gate miter; hierarchy -top miter;
        async2sync; sat -verify -prove-asserts -set-at 1 in_rst 1 -prove-skip 1 -seq $BOUND miter" \
        > /dev/null 2>&1; then
    res="equal for $BOUND ticks after reset (SAT)"
  else
    res="FAILED (see $log)"
    return 1
  fi
}
