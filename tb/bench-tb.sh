#!/usr/bin/env bash
# bench-tb.sh - simulation speed figures (run by `make bench-tb`, part of `make bench`).
# Prints cycles/s for: cm5 packet mode, uniform random traffic; lcan(2,2,256) circuit mode (the
# spec 7.5 pass driver, random permutations) - on Verilator and Icarus, each in lockstep with the
# model and with the RTL alone (+nomodel), so the cost of lockstep checking is visible.
# Binaries are built (once, cached) by tb/lcan-rtl; build time is not counted.
set -uo pipefail
cd "$(dirname "$0")/.."
export LCAN_RTL_NOMAKE=1
VL_CYC=${VL_CYC:-5000}
IV_CYC=${IV_CYC:-200}
row() { # SIM SPEC MODE CYCLES EXTRA...
  local sim=$1 spec=$2 mode=$3 cyc=$4; shift 4
  tb/lcan-rtl build "$spec" --mode "$mode" --sim "$sim" >/dev/null || { echo "bench-tb: build failed: $sim $spec $mode"; return; }
  tb/lcan-rtl lockstep "$spec" --mode "$mode" --sim "$sim" --cycles "$cyc" --nowire --quiet --json "$@" 2>/dev/null |
    python3 -c 'import json,sys
j=json.loads(sys.stdin.read())
print("%-10s %-14s %-8s %-9s %8d cycles %8.1f s %10.0f cycles/s" % (j["sim"], j["spec"], j["mode"],
      "lockstep" if j["model"] else "RTL alone", j["cycles"], j["seconds"], j["cycles_per_s"]))'
}
echo "bench-tb: simulator speed (tb/bench-tb.sh; VL_CYC=$VL_CYC IV_CYC=$IV_CYC cycles per row)"
for sim in verilator icarus; do
  c=$VL_CYC; [ $sim = icarus ] && c=$IV_CYC
  row $sim cm5 packet "$c" --pattern random
  row $sim cm5 packet "$c" --pattern random --nomodel
  # lcan(2,2,64), not 256: a 256-PE Verilator build takes longer than 15 minutes on 2 cores
  # (per-instance C++ for each of its 1024 switches); BENCH_LCAN overrides it
  row $sim "${BENCH_LCAN:-lcan(2,2,64)}" circuit "$c" --pattern random
  row $sim "${BENCH_LCAN:-lcan(2,2,64)}" circuit "$c" --pattern random --nomodel
done
