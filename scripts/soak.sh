#!/usr/bin/env bash
# soak.sh [CYCLES] [SPEC...] - long packet-mode lockstep runs (issue 16; `make soak`, not in make test).
#
# Each network runs CYCLES (default 10^7) cycles of packet traffic on the Verilated RTL with the C
# model checking every output every cycle (tb/lcan-rtl lockstep), then drains. The harness checks
# packet conservation on the RTL's own outputs: every unicast delivered exactly once to its
# destination, every broadcast exactly N times on its tree's leaf ports (tb/harness/tb_drive.c,
# lockstep_packet). Load: injection probability 0.3 per leaf port and cycle with one phase in eight
# silent, broadcasts at 0.001 per leaf and cycle. Default network: cm5 (256 leaves, 256 switches);
# name others after CYCLES (e.g. 'lcan(2,2,256)', 1,024 switches: roughly 3-4 hours per 10^7 cycles
# on this machine, estimated from cm5's 54 minutes). Prints one line per network (cycles, packets, seconds, cycles/s)
# and writes build/soak/<name>.json; exits 1 on any mismatch or conservation failure.
set -uo pipefail
cd "$(dirname "$0")/.."
cycles=${1:-10000000}
shift || true
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(cm5)
case $cycles in ''|*[!0-9]*) echo "soak: CYCLES must be a number, not '$cycles'" >&2; exit 2 ;; esac
mkdir -p build/soak
fail=0
for spec in "${specs[@]}"; do
  name=$(echo "$spec" | tr -c 'A-Za-z0-9\n' '_')
  out=build/soak/$name.json
  tb/lcan-rtl lockstep "$spec" --mode packet --pattern random --cycles "$cycles" --seed 20261124 \
    --rate 0.3 --bcast-rate 0.001 --json --progress >"$out.tmp" 2>build/soak/$name.err
  rc=$?
  if [ $rc -eq 0 ] && python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j["mismatches"] == 0 and j["failure"] is None else 1)' "$out.tmp"; then
    mv -f "$out.tmp" "$out"
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("soak: ok   %s: %d cycles, %d packets, 0 mismatches, %.0f s, %.0f cycles/s" % (sys.argv[2], j["cycles"], j["packets"], j["seconds"], j["cycles_per_s"]))' "$out" "$spec"
    grep -h 'exactly once' build/soak/$name.err | sed 's/^/soak:      /'
  else
    fail=1
    echo "soak: FAIL $spec: exit $rc (build/soak/$name.err)"
    tail -5 build/soak/$name.err | sed 's/^/soak:      /'
  fi
done
exit $fail
