#!/usr/bin/env bash
# make synth-alloc: the allocator alone, synthesized for the iCE40 (yosys synth_ice40), old and new:
# the reference chain of 2P lcan_rr_pick stages (rtl/lcan_alloc_chain.v, the former
# rtl/lcan_alloc.v) and the log-depth rtl/lcan_alloc.v, for switch shapes (M children, PDN links
# each, U uppers; P = M*PDN + U). Reports LUT levels (yosys `ltp -noff`: the longest path counted
# in cells, SB_LUT4 and SB_CARRY; inputs and outputs are the allocator's ports) and SB_LUT4 count.
# A run longer than ALLOC_TIMEOUT seconds (default 300) is reported as a timeout. Prints a
# markdown table; logs in build/synth-alloc/.
# Usage: scripts/synth/alloc-scaling.sh [M,PDN,U ...]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
YOSYS="${YOSYS:-yosys}"
TMO="${ALLOC_TIMEOUT:-300}"
command -v "$YOSYS" >/dev/null 2>&1 || { echo "synth-alloc: $YOSYS not found: run make deps" >&2; exit 2; }
out="$root/build/synth-alloc"
mkdir -p "$out"
SHAPES=${*:-"1,1,1 2,1,2 4,1,4 8,1,8 16,1,16 2,2,2 4,2,0 2,4,8"}
one() {  # top log params...
  local top=$1 log=$2; shift 2
  if timeout "$TMO" "$YOSYS" -q -l "$log" -p "read_verilog $root/rtl/lcan_rr_pick.v \
      $root/rtl/lcan_prefix_count.v $root/rtl/lcan_alloc.v $root/rtl/lcan_alloc_chain.v; \
      chparam $* $top; synth_ice40 -top $top; ltp -noff; stat" >/dev/null 2>&1; then
    lv=$(grep -a 'Longest topological path' "$log" | tail -1 | sed 's/.*length=\([0-9]*\).*/\1/')
    lut=$(grep -a 'SB_LUT4' "$log" | tail -1 | awk '{print $NF}')
    [ -n "$lut" ] || lut=$(grep -a 'SB_LUT4' "$log" | tail -1 | awk '{print $1}')
    echo "$lv $lut"
  else
    echo "timeout -"
  fi
}
echo "| shape (M,PDN,U) | P | chain: LUT levels | chain: LUTs | log-depth: LUT levels | log-depth: LUTs |"
echo "|---|---|---|---|---|---|"
for s in $SHAPES; do
  IFS=, read -r m pdn u <<< "$s"
  p=$((m * pdn + u)); sw=1; while [ $((1 << sw)) -lt $p ]; do sw=$((sw + 1)); done
  read -r nl nn <<< "$(one lcan_alloc "$out/new-$m-$pdn-$u.log" -set M $m -set PDN $pdn -set U $u -set SW $sw)"
  read -r ol on <<< "$(one lcan_alloc_chain "$out/chain-$m-$pdn-$u.log" -set P $p -set SW $sw)"
  echo "| ($m,$pdn,$u) | $p | $ol | $on | $nl | $nn |"
done
