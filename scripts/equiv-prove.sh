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
