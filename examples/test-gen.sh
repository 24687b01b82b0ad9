#!/usr/bin/env bash
# test-gen.sh - what a new user does with `lcan gen` (docs/generator.md), through FuseSoC:
#   1. lcan gen cm5 -o DIR --name cm5_net; fusesoc lint target (verilator --lint-only -Wall);
#   2. lcan gen 'lcan(2,2,4)' --mode packet --name ex_net; fusesoc sim of the example
#      examples/selfcheck (Icarus), which must print "selfcheck: N passed, 0 failed";
#   3. the synth target of the generated core sets up (fusesoc run --setup; yosys is not run);
#   4. the library core rtl/lcan.core: its file list is rtl/lcan_network.f and its lint target passes;
#      its version and the generated cores' are `lcan --version`.
# Usage: bash examples/test-gen.sh [LCAN [FUSESOC]]  (defaults build/lcan, build/venv/bin/fusesoc)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LCAN=$(realpath -m "${1:-$root/build/lcan}")
FUSESOC=${2:-$root/build/venv/bin/fusesoc}
case $FUSESOC in */*) FUSESOC=$(realpath -m "$FUSESOC") ;; esac
work=$root/build/test-gen
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $1"; fi; }

if ! "$FUSESOC" --version >/dev/null 2>&1; then
  echo "test-gen: FuseSoC not found at $FUSESOC (make deps installs it)"
  echo "test-gen: 0 passed, 1 failed"
  exit 1
fi
# FuseSoC's Verilator lints run with the malloc library tb/lcan-rtl builds with (tcmalloc: cm5's lint
# in about 60 % of the CPU time, docs/verification.md 3)
preload=$("$root/tb/lcan-rtl" _malloc-preload) || { echo "test-gen: 0 passed, 1 failed"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
version=$("$LCAN" --version | cut -d' ' -f2)

# 1. cm5, lint through FuseSoC
ok "lcan gen cm5" '"$LCAN" gen cm5 -o "$work/cm5" --name cm5_net >gen-cm5.log 2>&1'
ok "fusesoc lint cm5_net (log $work/lint-cm5.log)" \
  'LD_PRELOAD="$preload" "$FUSESOC" --cores-root "$work/cm5" run --target lint lcan:generated:cm5_net >lint-cm5.log 2>&1'

# 2. the example under Icarus
ok "lcan gen lcan(2,2,4)" '"$LCAN" gen "lcan(2,2,4)" --mode packet --name ex_net -o "$work/ex_net" >gen-ex.log 2>&1'
"$FUSESOC" --cores-root "$work/ex_net" --cores-root "$root/examples/selfcheck" \
  run --target sim lcan:examples:selfcheck >sim-ex.log 2>&1
ok "fusesoc sim selfcheck ran (log $work/sim-ex.log)" '[ $? -eq 0 ]'
line=$(grep -E '^selfcheck: [0-9]+ passed, [0-9]+ failed' sim-ex.log)
echo "  ${line:-selfcheck: no result line}"
ok "selfcheck passes" '[[ "$line" =~ ^selfcheck:\ ([0-9]+)\ passed,\ 0\ failed ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]'

# 3. synth target of the generated core sets up
ok "fusesoc synth --setup ex_net" \
  '"$FUSESOC" --cores-root "$work/ex_net" run --setup --target synth lcan:generated:ex_net >synth-ex.log 2>&1'

# 4. the library core
ok "rtl/lcan.core lists rtl/lcan_network.f in order" \
  '[ "$(sed -n "s#^ *- \(lcan_.*\.v\)\$#rtl/\1#p" "$root/rtl/lcan.core")" = "$(grep -v "^ *$" "$root/rtl/lcan_network.f")" ]'
ok "fusesoc lint lcan:lcan:network" \
  'LD_PRELOAD="$preload" "$FUSESOC" --cores-root "$root/rtl" run --target lint lcan:lcan:network >lint-lib.log 2>&1'
ok "versions agree (lcan $version)" \
  'grep -q "^name: lcan:lcan:network:$version\$" "$root/rtl/lcan.core" && grep -q "^name: lcan:generated:cm5_net:$version\$" "$work/cm5/cm5_net.core"'

echo "test-gen: $pass passed, $fail failed"
[ $fail -eq 0 ]
