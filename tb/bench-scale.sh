#!/usr/bin/env bash
# bench-scale.sh - RTL simulation at scale (run by `make bench-scale`, part of `make bench`).
# For networks of 16..1,024 leaves (BENCH_SCALE overrides the list: "SPEC:MODE SPEC:MODE ..."):
# the Verilator build time from an empty build directory (wall and CPU seconds; build/ccache is kept,
# so the Verilator runtime and any C++ file compiled before - the same network built earlier from the
# same RTL - come from the cache: set BENCH_COLD=1 to build without ccache, every file compiled), the
# RTL alone and lockstep (RTL + model +
# compare) cycles/s and switch-cycles/s on uniform random packet traffic at load BENCH_RATE (default
# 0.1) or random permutations (circuit mode), and at the end the growth exponent b of build time
# against the number of switches (least squares fit of log(cpu seconds) = a + b log(switches)).
# A benchmark, not a test: figures go to docs/verification.md with the command that produced them.
set -uo pipefail
cd "$(dirname "$0")/.."
export LCAN_RTL_NOMAKE=1
make -s all tb-libs >/dev/null || { echo "bench-scale: make failed"; exit 1; }
CYC=${BENCH_CYC:-5000}
RATE=${BENCH_RATE:-0.1}
LIST=${BENCH_SCALE:-"lcan(2,2,16):packet kary(4,3):packet cm5:packet cm5:circuit lcan(2,2,256):circuit lcan(4,4,256):packet lcan(4,4,1024):packet"}
OUT=build/bench-scale
mkdir -p "$OUT"
: > "$OUT/fit.txt"
printf '%-16s %-8s %6s %8s %9s %9s %11s %11s %13s\n' network mode leaves switches build_s build_cpu \
  "RTL c/s" "lockstep c/s" "RTL sw-c/s"
for item in $LIST; do
  spec=${item%:*}; mode=${item##*:}
  info=$(build/lcan info "$spec" --json) || { echo "bench-scale: bad spec $spec"; continue; }
  # the cache key of tb/lcan-rtl (h_m1.m2.._w1.._p1..) from the geometry of lcan info
  read -r leaves switches key < <(python3 -c 'import json,sys
j=json.loads(sys.argv[1])
key="_".join([str(j["levels"])] + [".".join(map(str, j[k])) for k in ("m", "w", "p")])
print(j["leaves"], sum(j["switches_per_level"]), key)' "$info")
  rm -rf "build/sim/verilator/$key-$mode"
  t0=$(date +%s.%N)
  [ "${BENCH_COLD:-0}" = 1 ] && export CCACHE_DISABLE=1
  /usr/bin/time -f '%U %S' -o "$OUT/time.txt" tb/lcan-rtl build "$spec" --mode "$mode" >/dev/null 2>"$OUT/build.err" ||
    { echo "bench-scale: build failed: $spec $mode (see $OUT/build.err)"; continue; }
  t1=$(date +%s.%N)
  wall=$(python3 -c "print('%.0f' % ($t1 - $t0))")
  cpus=$(awk '{printf "%.0f", $1 + $2}' "$OUT/time.txt")
  pat=random; extra=(); [ "$mode" = packet ] && extra=(--rate "$RATE")
  run() { tb/lcan-rtl lockstep "$spec" --mode "$mode" --cycles "$CYC" --pattern $pat --nowire --quiet --json "${extra[@]}" "$@" 2>/dev/null |
          python3 -c 'import json,sys; print("%.0f" % json.loads(sys.stdin.read())["cycles_per_s"])' 2>/dev/null || echo "-"; }
  alone=$(run --nomodel); lock=$(run)
  swc=$(python3 -c "print('%.3g' % ($alone * $switches))" 2>/dev/null || echo "-")
  printf '%-16s %-8s %6d %8d %9s %9s %11s %11s %13s\n' "$spec" "$mode" "$leaves" "$switches" "$wall" "$cpus" \
    "$alone" "$lock" "$swc"
  echo "$switches $cpus" >> "$OUT/fit.txt"
done
python3 - "$OUT/fit.txt" <<'EOF'
import math, sys
pts = [tuple(float(v) for v in l.split()) for l in open(sys.argv[1]) if l.strip()]
pts = [(math.log(s), math.log(c)) for s, c in pts if s > 0 and c > 0]
if len(pts) >= 2:
    n = len(pts); mx = sum(p[0] for p in pts) / n; my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    b = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else float("nan")
    print("bench-scale: build CPU seconds grow as switches^%.2f over %d networks" % (b, n))
EOF
