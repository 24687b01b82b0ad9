#!/usr/bin/env bash
# prove-pinned.sh: prove that a network built for synthesis with its switches specialized
# (lcan_network PIN_STRAPS = 1, FIXED_SEED = 1, SEED = S; docs/spec.md 13) is, cycle for cycle, the
# network simulators run (PIN_STRAPS = 0, FIXED_SEED = 0) with its seed input tied to S. Both are
# elaborated from the working tree with yosys and flattened; the seed input of both stops being a
# port (the simulators' network gets S on it, the pinned one ignores it); equiv_make pairs the other
# ports and the registers by name (names ending in _q and the FIFO memories), equiv_simple and
# equiv_induct prove every output and register pair equal from any common state (k = SEQ).
# Usage: scripts/prove-pinned.sh (YOSYS, SEQ=2, SEED=0x2545F491, LOGDIR settable)
# Prints one line per network; exits 1 if any proof fails (the log names the unproven pairs).
set -u
cd "$(dirname "$0")/.."
YOSYS=${YOSYS:-yosys}
SEQ=${SEQ:-2}
SEED=${SEED:-0x2545F491}
LOGDIR=${LOGDIR:-build/prove-pinned}
mkdir -p "$LOGDIR"
. scripts/equiv-prove.sh
hex=$(printf '%08x' "$SEED" 2>/dev/null) && [ ${#hex} -le 8 ] ||
  { echo "prove-pinned: SEED='$SEED' is not a 32-bit number (e.g. SEED=7 or SEED=0x2545F491)"; exit 2; }
seed_v="32'h$hex"
src=$(tr '\n' ' ' < rtl/lcan_network.f)

# NAME:H:M:W:P:MODE[:more chparam NAME VALUE pairs]; small networks (the proof of a 3-level network
# takes 5-15 minutes, with flood queues longer), both modes, faults, flood queues
NETS=(
  "lcan-2-2-8-circuit:3:2,2,2:1,2,2:1,1,1:0"
  "lcan-2-2-4-packet:2:2,2:1,2:1,1:1"
  "lcan-2-2-4-packet-flood:2:2,2:1,2:1,1:1:FLOOD_Q 2"
  "lcan-2-2-4-packet-faults:2:2,2:1,2:1,1:1:FAULTS 1"
)
vec() { # a,b,c -> yosys constant with level 1 in the low 32 bits
  local hex="" x n=0
  IFS=, read -r -a xs <<< "$1"
  for x in "${xs[@]}"; do hex="$(printf '%08x' "$x")$hex"; n=$((n + 32)); done
  echo "$n'h$hex"
}
fail=0
for net in "${NETS[@]}"; do
  IFS=: read -r name h m w p mode more <<< "$net"
  prm="-set H $h -set M $(vec "$m") -set W $(vec "$w") -set P $(vec "$p") -set MODE $mode -set PAYLOAD_W 4 -set DEPTH 2"
  if [ -n "$more" ]; then set -- $more; while [ $# -ge 2 ]; do prm="$prm -set $1 $2"; shift 2; done; fi
  elab() { # NAME EXTRA-CHPARAMS CONNECT
    echo "read_verilog -Irtl $src; chparam $prm $2 lcan_network; hierarchy -check -top lcan_network;"
    echo "proc; setattr -mod -unset keep_hierarchy; flatten; memory -nomap; memory_map; opt_clean;"
    echo "rename -hide w:* x:* w:*_q w:*mem_q* %u %u w:seed %u %d; delete -port w:seed; $3"
    echo "rename -top $1; design -stash $1;"
  }
  log=$LOGDIR/$name.log
  t0=$(date +%s.%N)
  equiv_prove "$log" "$(elab gold "" "connect -set seed $seed_v;")
      $(elab gate "-set PIN_STRAPS 1 -set FIXED_SEED 1 -set SEED $seed_v" "")" || fail=1
  t1=$(date +%s.%N)
  printf 'prove-pinned: %-26s pinned = unpinned, seed %s: %s, %.1f s\n' "$name" "$SEED" "$res" "$(echo "$t1 - $t0" | bc)"
done
exit $fail
