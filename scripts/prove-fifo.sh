#!/usr/bin/env bash
# prove-fifo.sh: the working tree's lcan_fifo (DEPTH > 1: entries that move towards slot 0 on a pop,
# docs/synthesis.md 27) equal to lcan_fifo of a revision with the ring of read and write pointers
# (default 3e1da7d, the last one), for DEPTH 2, 3, 4 and 5: tb/cells/fifo_ring_miter.v puts the two
# side by side on the same inputs and asserts count, empty and full equal on every tick and head
# equal whenever the FIFO is not empty (the switch reads head only then: lcan_switch_packet's
# candidate is the arriving flit when the FIFO is empty); yosys `sat -verify` from a reset tick (rst = 1
# on tick 1, any inputs after it) for SEQ ticks (default 24; DEPTH 5: 14, which is about 20 s where 24
# takes about 10 minutes). Bounded, not by induction: the two
# keep their entries in different places (no invariant pairs the registers by name). A FIFO with
# pointers visits every slot in DEPTH pushes, so SEQ well above 2 x DEPTH ticks covers every wrap.
# Usage: scripts/prove-fifo.sh [REV]   (YOSYS; SEQ; exits 1 if a proof fails, the log has the trace)
set -u
cd "$(dirname "$0")/.."
YOSYS=${YOSYS:-yosys}
REV=${1:-3e1da7d}
LOGDIR=${LOGDIR:-build/prove-fifo}
mkdir -p "$LOGDIR"
git rev-parse --verify -q "$REV^{commit}" > /dev/null || { echo "prove-fifo: no such revision: $REV"; exit 2; }
ring=$(mktemp /tmp/prove-fifo.XXXXXX.v)
trap 'rm -f "$ring"' EXIT
git show "$REV:rtl/lcan_fifo.v" | sed 's/^module lcan_fifo #(/module lcan_fifo_ring #(/' > "$ring"
grep -q '^module lcan_fifo_ring' "$ring" && grep -q 'rd_q' "$ring" ||
  { echo "prove-fifo: $REV's lcan_fifo has no ring of pointers to compare with"; exit 2; }
rc=0
for cfg in "2 1 2 ${SEQ:-24}" "3 2 2 ${SEQ:-24}" "4 2 3 ${SEQ:-24}" "5 3 3 ${SEQ:-14}"; do
  set -- $cfg
  log="$LOGDIR/depth$1.log"
  t0=$(date +%s)
  if $YOSYS -q -l "$log" -p "read_verilog $ring rtl/lcan_fifo.v; read_verilog -formal tb/cells/fifo_ring_miter.v;
      chparam -set D $1 -set AW $2 -set CW $3 fifo_ring_miter; hierarchy -top fifo_ring_miter; proc; flatten;
      memory -nomap; memory_map; opt_clean; async2sync;
      sat -verify -prove-asserts -set-at 1 rst 1 -seq $4 -show-ports fifo_ring_miter" > /dev/null 2>&1; then
    res="equal for $(($4 - 1)) ticks after the reset tick"
  else
    res="FAILED (see $log)"; rc=1
  fi
  echo "prove-fifo: DEPTH $1 vs $REV's ring: $res, $(( $(date +%s) - t0 )) s"
done
exit $rc
