#!/usr/bin/env bash
# traffic_booksim.sh - `lcan traffic` side by side with BookSim2 (docs/traffic.md). BookSim2 is
# never a project dependency: build it yourself outside the tree (see docs/traffic.md) and pass
# its binary and the directory holding booksim_fattree_k4n3.cfg / k4n4.cfg.
#
#   [LCAN=build-x/lcan] scripts/traffic_booksim.sh BOOKSIM CFGDIR [REPEATS]   (default build/lcan)
#
# Runs, interleaved (BookSim, lcan, BookSim, lcan, ...), REPEATS times (default 3) each:
#   k4n3 at load 0.1      vs  lcan traffic 'kary(4,3)' --pattern uniform --load 0.1
#   k4n3 at 0.245 (BookSim's saturation)  vs  'kary(4,3)' at 0.55 (ours) and at 0.245
#   k4n4 at load 0.1      vs  lcan traffic 'kary(4,4)' --pattern uniform --load 0.1
# with the same 10000 warm-up + 10000 measured cycles (BookSim: warmup_periods = 1,
# sample_period = 10000, max_samples = 2 as in the configs). Speed = simulated cycles / CPU seconds:
# BookSim's user + system time (/usr/bin/time, whole process), lcan's own cycles_per_s (CPU time
# of the run); CPU time is steadier than wall time on a shared machine.
# Prints one row per case: median cycles/s of each, the ratio, and both latencies.
set -euo pipefail
BOOKSIM=${1:?usage: traffic_booksim.sh BOOKSIM CFGDIR [REPEATS]}
CFG=${2:?usage: traffic_booksim.sh BOOKSIM CFGDIR [REPEATS]}
REP=${3:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LCAN=${LCAN:-$ROOT/build/lcan} # LCAN=build-x/lcan to time another build
tmp=$(mktemp -d /tmp/traffic_booksim.XXXXXX); trap 'rm -rf "$tmp"' EXIT

cfg_at() { # CFG LOAD -> a copy with injection_rate = LOAD
  sed "s/^injection_rate = .*/injection_rate = $2;/" "$CFG/$1" >"$tmp/$1.$2.cfg"
  echo "$tmp/$1.$2.cfg"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

bs_run() { # CFGFILE -> "cycles_per_s latency accepted"
  # (BookSim exits non-zero after a normal run: /usr/bin/time then adds a line; the times are the last)
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$BOOKSIM" "$1" >"$tmp/bs.out" 2>&1 || true
  local cyc lat acc t
  cyc=$(sed -n 's/^Time taken is \([0-9]*\) cycles.*/\1/p' "$tmp/bs.out" | tail -1)
  lat=$(sed -n 's/^Packet latency average = \([0-9.]*\).*/\1/p' "$tmp/bs.out" | tail -1)
  acc=$(sed -n 's/^Accepted flit rate average = *\([0-9.]*\).*/\1/p' "$tmp/bs.out" | tail -1)
  t=$(tail -1 "$tmp/time" | awk '{print $1 + $2}')
  awk -v c="$cyc" -v t="$t" -v l="$lat" -v a="$acc" 'BEGIN {printf "%.0f %s %s\n", (t > 0 ? c / t : 0), l, a}'
}

lcan_run() { # SPEC LOAD -> "cycles_per_s latency accepted"
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$LCAN" traffic "$1" --pattern uniform --load "$2" \
    --warmup 10000 --measure 10000 --json >"$tmp/l.json"
  python3 - "$tmp/l.json" "$tmp/time" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
u, s = map(float, open(sys.argv[2]).read().splitlines()[-1].split()[:2])
# lcan's own figure: ticks / CPU time of the run (clock_gettime, ns resolution); /usr/bin/time's
# 10 ms steps are too coarse for a run of a few hundredths of a second
print("%.0f %.4f %.4f" % (d["cycles_per_s"], d["latency_avg"], d["accepted"]))
EOF
}

case_row() { # NAME BSCFG BSLOAD SPEC LOAD
  local name=$1 bcfg bsr=() lr=()
  bcfg=$(cfg_at "$2" "$3")
  for _ in $(seq "$REP"); do
    bsr+=("$(bs_run "$bcfg")")
    lr+=("$(lcan_run "$4" "$5")")
  done
  local bsc lc bsl ll bsa la
  bsc=$(printf '%s\n' "${bsr[@]}" | awk '{print $1}' | median)
  lc=$(printf '%s\n' "${lr[@]}" | awk '{print $1}' | median)
  bsl=$(printf '%s\n' "${bsr[0]}" | awk '{print $2}'); bsa=$(printf '%s\n' "${bsr[0]}" | awk '{print $3}')
  ll=$(printf '%s\n' "${lr[0]}" | awk '{print $2}'); la=$(printf '%s\n' "${lr[0]}" | awk '{print $3}')
  printf '| %s | %s @ %s | %s @ %s | %s | %s | %.1fx | %s / %s | %s / %s |\n' "$name" "$2" "$3" "$4" "$5" \
    "$bsc" "$lc" "$(awk -v a="$lc" -v b="$bsc" 'BEGIN {print (b > 0 ? a / b : 0)}')" "$bsl" "$ll" "$bsa" "$la"
}

echo "| case | BookSim2 config @ load | lcan @ load | BookSim2 cycles/s | lcan cycles/s | ratio | latency BookSim / lcan | accepted BookSim / lcan |"
echo "|---|---|---|---|---|---|---|---|"
case_row "64 nodes, load 0.1" booksim_fattree_k4n3.cfg 0.1 'kary(4,3)' 0.1
case_row "64 nodes, each at its saturation" booksim_fattree_k4n3.cfg 0.245 'kary(4,3)' 0.55
case_row "64 nodes, same load 0.245" booksim_fattree_k4n3.cfg 0.245 'kary(4,3)' 0.245
case_row "256 nodes, load 0.1" booksim_fattree_k4n4.cfg 0.1 'kary(4,4)' 0.1
