#!/usr/bin/env bash
# params.sh TOOL CONFIG [MODE] [TOP]
# Prints the parameter flags that set lcan_network's (H, M, W, P, MODE) for one tool.
# CONFIG is "H:m1,..,mh:w1,..,wh:p1,..,ph" (level 1 first, as in spec 1.1), the network
# pgft(H;m1,..;w1,..;p1,..). The packed 32-bit vectors (level 1 in the low bits, spec 13) are not
# computed here: they come from `build/lcan info SPEC --json`, key "parameters" ($LCAN overrides
# the tool's path). A bad CONFIG gets lcan info's one-line error and exit 1.
# TOOL: verilator (-G), iverilog (-P TOP.), yosys (chparam -set ... TOP).
set -euo pipefail
tool=$1; cfg=$2; mode=${3:-0}; top=${4:-lcan_network}
lcan=${LCAN:-$(dirname "$0")/../build/lcan}
IFS=: read -r h m w p <<<"$cfg"
if ! json=$("$lcan" info "pgft($h;$m;$w;$p)" --json); then
  echo "params.sh: bad configuration '$cfg'" >&2; exit 1
fi
vals=$(python3 -c 'import json, sys
q = json.load(sys.stdin)["parameters"]
print(q["H"], q["M"], q["W"], q["P"])' <<<"$json")
read -r H M W P <<<"$vals"
case $tool in
  verilator) echo "-GH=$H -GM=$M -GW=$W -GP=$P -GMODE=$mode" ;;
  iverilog)  echo "-P$top.H=$H -P$top.M=$M -P$top.W=$W -P$top.P=$P -P$top.MODE=$mode" ;;
  yosys)     echo "chparam -set H $H -set M $M -set W $W -set P $P -set MODE $mode $top" ;;
  *) echo "params.sh: unknown tool $tool" >&2; exit 1 ;;
esac
