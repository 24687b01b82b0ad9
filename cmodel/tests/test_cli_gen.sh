#!/usr/bin/env bash
# test_cli_gen.sh - `lcan gen` and `lcan draw` (docs/generator.md): the files written, their
# contents against numbers from docs/spec.md 1-2 (not from the generator), and bad input: exit 2,
# one line "lcan: ...", nothing on stdout, no file or directory left behind. Needs graphviz dot
# for the SVG (make deps); a missing dot must fail with exit 1 and leave nothing.
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_gen.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ok() { if eval "$2"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $1"; fi; }

# bad ARGS...: exit 2, one stderr line "lcan: ", empty stdout, the scratch tree unchanged
bad() {
  local before after
  before=$(cd "$tmp" && find . -path ./log -prune -o -print | sort)
  "$LCAN" "$@" >"$tmp/log/bo" 2>"$tmp/log/be"; rc=$?
  after=$(cd "$tmp" && find . -path ./log -prune -o -print | sort)
  lines=$(wc -l <"$tmp/log/be")
  if [ $rc -eq 2 ] && [ ! -s "$tmp/log/bo" ] && [ "$lines" -eq 1 ] && grep -q '^lcan: ' "$tmp/log/be" \
     && [ "$before" = "$after" ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1))
    echo "FAIL: lcan $* -> exit $rc, $lines stderr lines: $(head -c 300 "$tmp/log/be"); files: $(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')"
  fi
}
mkdir -p "$tmp/log" && touch "$tmp/afile"

# --- good runs
"$LCAN" gen cm5 -o "$tmp/cm5" --name cm5_net >"$tmp/log/out" 2>"$tmp/log/err"; rc=$?
ok "gen cm5 exit 0 (got $rc: $(head -c 200 "$tmp/log/err"))" '[ $rc -eq 0 ] && [ ! -s "$tmp/log/err" ]'
for f in cm5_net.v cm5_net.core cm5_net.json cm5_net.svg rtl/lcan_network.v; do
  ok "gen cm5 wrote $f" '[ -s "$tmp/cm5/$f" ]'
done
ok "gen cm5 left no temporaries" '[ -z "$(find "$tmp/cm5" -name ".*")" ]'
ok "gen copies every rtl/lcan_network.f file and the include rtl/*.vh" \
  '[ "$(ls "$tmp/cm5/rtl" | sort)" = "$( (sed -n "s#^rtl/##p" "$(dirname "$0")/../../rtl/lcan_network.f"; \
     cd "$(dirname "$0")/../../rtl" && ls -- *.vh) | sort)" ] && grep -q "^      - rtl/lcan_geom.vh: {is_include_file: true}$" "$tmp/cm5/cm5_net.core"'
# CM-5 = PGFT(4;4,4,4,4;2,2,2,4;1,1,1,1) (spec 1.2): N = 256, U0 = 2, S_l = w1..wl * m_{l+1}..m_h
# = 128, 64, 32, 32; ADDR_W = 8; FW = 2 + 8 + 16 = 26; debug bytes = sum S_l*(D_l+U_l)
# = 128*6 + 64*6 + 32*8 + 32*4 = 1536
ok "cm5 json geometry" 'python3 - "$tmp/cm5/cm5_net.json" <<PY
import json, sys
j = json.load(open(sys.argv[1]))
assert j["leaves"] == 256 and j["levels"] == 4 and j["leaf_ports"] == 2 and j["ports"] == 512, j
assert j["switches_per_level"] == [128, 64, 32, 32]
assert j["addr_w"] == 8 and j["flit_w"] == 26 and j["dbg_bytes"] == 1536
assert [l["m"] for l in j["level"]] == [4, 4, 4, 4] and [l["w"] for l in j["level"]] == [2, 2, 2, 4]
assert j["address_map"][255] == {"leaf": 255, "address": 255, "digits": [3, 3, 3, 3], "ports": [510, 511]}
assert j["module"] == "cm5_net" and j["mode"] == "packet" and j["version"]
PY'
ok "cm5 wrapper: module, parameters, 256 leaf groups, version" \
  'grep -q "^module cm5_net (" "$tmp/cm5/cm5_net.v" && grep -q "\.M({32.d4, 32.d4, 32.d4, 32.d4})" "$tmp/cm5/cm5_net.v" \
   && grep -q "\.W({32.d4, 32.d2, 32.d2, 32.d2})" "$tmp/cm5/cm5_net.v" && [ "$(grep -c "_inj_valid,$" "$tmp/cm5/cm5_net.v")" -eq 256 ] \
   && grep -q "lcan $("$LCAN" --version | cut -d" " -f2)" "$tmp/cm5/cm5_net.v"'
# links: L_1 = 256*2, L_2 = 128*2, L_3 = 64*2, L_4 = 32*4 -> 1024 edges; 256 + 256 nodes
ok "cm5 svg: 512 nodes, 1024 links" \
  '[ "$(grep -c "class=\"node\"" "$tmp/cm5/cm5_net.svg")" -eq 512 ] && [ "$(grep -c "class=\"edge\"" "$tmp/cm5/cm5_net.svg")" -eq 1024 ]'
# parallel links: bft(2;1,2) has p_2 = 2, so each level-1 switch has two edges to its parent
"$LCAN" draw 'bft(2;1,2)' -o "$tmp/bft.dot" && "$LCAN" draw 'bft(2;1,2)' -o "$tmp/bft.svg"
ok "draw bft(2;1,2): 4 + 2 level-2 edges (p_2 = 2)" \
  '[ "$(grep -c "^  n1_0 -- n2_0 " "$tmp/bft.dot")" -eq 2 ] && [ "$(grep -c "class=\"edge\"" "$tmp/bft.svg")" -eq 8 ]'
"$LCAN" gen 'bft(2;1,2)' --mode circuit --no-debug --payload-w 8 -o "$tmp/c" >/dev/null 2>&1
ok "circuit --no-debug wrapper: acks and clear, no dbg port" \
  'grep -q "input  wire clear" "$tmp/c/lcan_net.v" && grep -q "leaf3_ej_ack" "$tmp/c/lcan_net.v" && ! grep -q "output wire .* dbg" "$tmp/c/lcan_net.v" && grep -q "\.dbg(unused_dbg)" "$tmp/c/lcan_net.v"'
ok "generated wrappers lint clean (verilator -Wall)" \
  'verilator --lint-only -Wall -I"$tmp/c/rtl" "$tmp"/c/rtl/*.v "$tmp/c/lcan_net.v" --top-module lcan_net >"$tmp/log/lint" 2>&1 || { cat "$tmp/log/lint" | head -5; false; }'
"$LCAN" gen 'lcan(2,2,8)' --seed 4000000000 --no-debug -o "$tmp/s" >/dev/null 2>&1
ok "--seed: no seed port, FIXED_SEED = 1, SEED and PIN_STRAPS = 1 passed, seed in the JSON" \
  '! grep -q "wire \[31:0\] seed" "$tmp/s/lcan_net.v" && grep -q "\.FIXED_SEED(1)" "$tmp/s/lcan_net.v" && grep -q "\.SEED(32.d4000000000)" "$tmp/s/lcan_net.v" && grep -q "\.PIN_STRAPS(1)" "$tmp/s/lcan_net.v" && grep -q "\"seed\": 4000000000," "$tmp/s/lcan_net.json" && grep -q "\"seed\": null," "$tmp/c/lcan_net.json"'
ok "--seed wrapper lints clean (verilator -Wall) and elaborates under iverilog" \
  'verilator --lint-only -Wall -I"$tmp/s/rtl" "$tmp"/s/rtl/*.v "$tmp/s/lcan_net.v" --top-module lcan_net >"$tmp/log/lint-s" 2>&1 && iverilog -g2005 -I"$tmp/s/rtl" -o "$tmp/s.vvp" -s lcan_net "$tmp"/s/rtl/*.v "$tmp/s/lcan_net.v" >>"$tmp/log/lint-s" 2>&1 || { head -5 "$tmp/log/lint-s"; false; }'
"$LCAN" gen 'lcan(2,2,8)' --unicast-only --no-debug -o "$tmp/u" >/dev/null 2>&1
ok "--unicast-only: UNICAST_ONLY = 1 passed (spec 8.8), lints clean (verilator -Wall)" \
  'grep -q "\.UNICAST_ONLY(1)" "$tmp/u/lcan_net.v" && ! grep -q "UNICAST_ONLY" "$tmp/s/lcan_net.v" && verilator --lint-only -Wall -I"$tmp/u/rtl" "$tmp"/u/rtl/*.v "$tmp/u/lcan_net.v" --top-module lcan_net >"$tmp/log/lint-u" 2>&1 || { head -5 "$tmp/log/lint-u"; false; }'
ok "gen into an existing directory again (overwrite)" '"$LCAN" gen "bft(2;1,2)" -o "$tmp/c" >/dev/null 2>&1'
ok "version" '"$LCAN" --version | grep -Eq "^lcan [0-9]+\.[0-9]+\.[0-9]+$"'

# --- bad input: exit 2, one line, nothing left
bad gen 'lcan(2,2,6)' -o "$tmp/x"
bad gen 'foo' -o "$tmp/x"
bad gen cm5 --seed -1 -o "$tmp/x"
bad gen cm5 --seed 4294967296 -o "$tmp/x"
bad gen cm5
bad gen cm5 -o ''
bad gen cm5 -o /proc/lcan-gen-test
bad gen cm5 -o "$tmp/afile"
bad gen cm5 -o "$tmp/afile/sub"
bad gen cm5 -o "$tmp/missing/parent"
bad gen cm5 -o "$tmp/x" --name 9net
bad gen cm5 -o "$tmp/x" --name 'my-net'
bad gen cm5 -o "$tmp/x" --name module
bad gen cm5 -o "$tmp/x" --name logic
bad gen cm5 -o "$tmp/x" --name lcan_switch
bad gen cm5 -o "$tmp/x" --name ''
bad gen cm5 -o "$tmp/x" --name 'a$b'
bad gen cm5 -o "$tmp/x" --payload-w 0
bad gen cm5 -o "$tmp/x" --payload-w 33
bad gen cm5 -o "$tmp/x" --payload-w x
bad gen cm5 -o "$tmp/x" --depth 0
bad gen cm5 -o "$tmp/x" --depth 256
bad gen cm5 -o "$tmp/x" --depth -1
bad gen cm5 -o "$tmp/x" --mode wormhole
bad gen cm5 -o "$tmp/x" --no-debug=1
bad gen cm5 -o "$tmp/x" --mode circuit --unicast-only
bad gen cm5 -o "$tmp/x" --bogus
bad gen cm5 kary -o "$tmp/x"
bad gen 'lcan(2,2,8192)' -o "$tmp/x"
bad draw cm5
bad draw foo -o "$tmp/x.svg"
bad draw cm5 -o "$tmp/afile/x.svg"
bad draw 'kary(4,6)' -o "$tmp/x.svg"
# graphviz missing: run-time failure (exit 1), one line, still nothing left
before=$(cd "$tmp" && find . | sort)
PATH=/nonexistent "$LCAN" gen cm5 -o "$tmp/nodot" >"$tmp/log/out" 2>"$tmp/log/err"; rc=$?
after=$(cd "$tmp" && find . | sort)
ok "no dot: exit 1, one line, nothing left (got $rc)" \
  '[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/log/err")" -eq 1 ] && grep -q "dot" "$tmp/log/err" && [ "$before" = "$after" ]'

echo "test_cli_gen: $pass passed, $fail failed"
[ $fail -eq 0 ]
