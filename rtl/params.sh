#!/usr/bin/env bash
# params.sh TOOL CONFIG [MODE] [TOP]
# Prints the parameter flags that set lcan_network's (H, M, W, P, MODE) for one tool.
# CONFIG is "H:m1,..,mh:w1,..,wh:p1,..,ph" (level 1 first, as in spec 1.1); the per-level lists
# become packed 32-bit vectors with level 1 in the low bits (spec 13).
# TOOL: verilator (-G), iverilog (-P TOP.), yosys (chparam -set ... TOP).
set -euo pipefail
tool=$1; cfg=$2; mode=${3:-0}; top=${4:-lcan_network}
IFS=: read -r h m w p <<<"$cfg"
vec() {  # "a,b,c" -> (32*n)'h<c><b><a>
  local -a v; IFS=, read -r -a v <<<"$1"
  [ "${#v[@]}" -eq "$h" ] || { echo "params.sh: '$1' needs $h entries" >&2; exit 1; }
  local s="" i
  for ((i = ${#v[@]} - 1; i >= 0; i--)); do s+=$(printf '%08x' "${v[$i]}"); done
  printf "%d'h%s" $((32 * h)) "$s"
}
M=$(vec "$m"); W=$(vec "$w"); P=$(vec "$p")
case $tool in
  verilator) echo "-GH=$h -GM=$M -GW=$W -GP=$P -GMODE=$mode" ;;
  iverilog)  echo "-P$top.H=$h -P$top.M=$M -P$top.W=$W -P$top.P=$P -P$top.MODE=$mode" ;;
  yosys)     echo "chparam -set H $h -set M $M -set W $W -set P $P -set MODE $mode $top" ;;
  *) echo "params.sh: unknown tool $tool" >&2; exit 1 ;;
esac
