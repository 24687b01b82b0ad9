#!/usr/bin/env bash
# test_embed_cli.sh - `lcan embed`: the JSON keys and values for the paper's cases (seed 002 §6:
# ring congestion 1 with dilation 2h, Q(h) ceil(h/2), CBT at most 3, 2-D mesh at most 3, three
# pyramids at most 5), the text output, a user's map file (recomputed here: load, dilation from the
# leaf digits), bad input (exit 2, one line "lcan: ..." on stderr, nothing on stdout), and the
# exchange on the RTL (`--engine icarus`, tb/lcan-rtl; Verilator's `--engine rtl` is in
# tb/test-tb.sh, which builds that binary anyway): the model engine's JSON and text but for the
# engine name on gft(3,2,2) and gft(2,4,2), a corrupted model view caught (exit 1).
# Usage: LCAN=build/lcan bash cmodel/tests/test_embed_cli.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
ko() { fail=$((fail+1)); echo "test_embed_cli: FAIL: $*"; }

bad() {
  "$LCAN" embed "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" -eq 1 ] && head -c 6 "$tmp/err" | grep -q '^lcan: '; then ok
  else ko "lcan embed $* -> exit $rc, $lines stderr lines, $(wc -c <"$tmp/out") stdout bytes: $(head -c 300 "$tmp/err")"; fi
}

# host, guest, expected congestion, "eq" (exact) or "le" (at most), expected dilation
while read -r host guest cong rel dil; do
  "$LCAN" embed "$host" --guest "$guest" --json >"$tmp/j" 2>"$tmp/err"; rc=$?
  [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] || { ko "$host $guest: exit $rc $(cat "$tmp/err")"; continue; }
  python3 - "$tmp/j" "$cong" "$rel" "$dil" <<'EOF' && ok || ko "$host $guest (above)"
import json, sys
d = json.load(open(sys.argv[1])); cong, rel, dil = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
keys = ["host", "guest", "map", "map_ref", "nodes", "edges", "leaves", "load", "dilation", "congestion",
        "congestion_per_level", "expansion", "paper_bound", "paper_ref", "meets_paper_bound", "bisection",
        "lower_bound", "lower_bound_ref", "exchange"]
miss = [k for k in keys if k not in d]
err = []
if miss: err.append("missing keys %s" % miss)
elif rel == "eq" and d["congestion"] != cong: err.append("congestion %s != %d" % (d["congestion"], cong))
elif rel == "le" and d["congestion"] > cong: err.append("congestion %s > %d" % (d["congestion"], cong))
if not miss:
    pb = d["paper_bound"]
    if pb is None or pb["congestion"] != cong or pb["dilation"] != dil or pb["load"] != 1: err.append("paper_bound %s" % pb)
    if d["load"] != 1 or d["dilation"] != dil or d["meets_paper_bound"] is not True: err.append("load/dilation/meets")
    if abs(d["expansion"] - d["leaves"] / d["nodes"]) > 1e-12: err.append("expansion")
    if max(d["congestion_per_level"]) != d["congestion"]: err.append("per level")
    x = d["exchange"]
    if x["packets"] != 2 * d["edges"] or x["errors"] != 0 or x["steps"] < d["dilation"]: err.append("exchange %s" % x)
if err:
    print("test_embed_cli:", d.get("host"), d.get("guest"), "; ".join(err)); sys.exit(1)
EOF
done <<'CASES'
gft(2,4,2) ring:16 1 eq 4
gft(3,4,2) ring:64 1 eq 6
gft(2,3,2) ring:9 2 le 4
gft(4,2,2) hypercube:4 2 eq 8
gft(5,2,2) hypercube:5 3 eq 10
gft(4,2,2) cbt:3 3 le 8
gft(3,4,4) mesh:4x16 3 le 6
gft(2,4,4) torus:4x4 3 le 4
gft(3,4,4) mesh:4x4x4 5 le 6
gft(3,4,4) pyramid:2:3 5 le 6
CASES

# Theorem 10's bound: Q(4) in GFT(4,2,2): b = 8, 2b / (m w^h) = 16 / 32
"$LCAN" embed 'gft(4,2,2)' --guest hypercube:4 --json --no-exchange | python3 -c '
import json, sys; d = json.load(sys.stdin)
sys.exit(0 if d["lower_bound"] == 0.5 and d["bisection"] == 8 and d["exchange"] is None else 1)' && ok || ko "lower bound / --no-exchange"
# --inject any: the lowest ready port; the same embedding, every packet delivered
"$LCAN" embed 'gft(2,4,4)' --guest pyramid:1:3 --inject any --json | python3 -c '
import json, sys; d = json.load(sys.stdin); x = d["exchange"]
sys.exit(0 if x["inject"] == "any" and x["errors"] == 0 and x["packets"] == 2 * d["edges"] and x["steps"] >= 4 else 1)' \
  && ok || ko "--inject any"
# no theorem for this host: paper_bound null, meets null
"$LCAN" embed cm5 --guest ring:256 --json --no-exchange | python3 -c '
import json, sys; d = json.load(sys.stdin)
sys.exit(0 if d["paper_bound"] is None and d["meets_paper_bound"] is None and d["congestion"] >= 1 else 1)' && ok || ko "cm5 ring"

# text output
"$LCAN" embed 'gft(2,4,2)' --guest ring:16 >"$tmp/out" 2>&1 && grep -q '^congestion  *1  1$' "$tmp/out" \
  && grep -q '^meets the paper.s bound: yes' "$tmp/out" && grep -q '^exchange  *32 packets' "$tmp/out" && ok \
  || ko "text: $(cat "$tmp/out")"
"$LCAN" embed --help | grep -q '^usage: lcan embed' && ok || ko "--help"

# a user's map: ring:16 on leaves in plain order, checked against a recomputation here
python3 - "$tmp/map" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("# plain order\n")
    for v in range(16): f.write("%d %d\n" % (v, 15 - v))
EOF
"$LCAN" embed 'gft(2,4,2)' --guest ring:16 --map "file:$tmp/map" --json >"$tmp/j" 2>"$tmp/err" && python3 - "$tmp/j" <<'EOF' && ok || ko "map file $(cat "$tmp/err")"
import json, sys
d = json.load(open(sys.argv[1]))
leaf = {v: 15 - v for v in range(16)}
def lca(a, b):
    for l in (2, 1):
        if a // 4 ** (l - 1) % 4 != b // 4 ** (l - 1) % 4: return l
    return 0
dil = max(2 * lca(leaf[v], leaf[(v + 1) % 16]) for v in range(16))
ok = d["map"].startswith("file:") and d["load"] == 1 and d["dilation"] == dil == 4 and d["congestion"] >= 1
sys.exit(0 if ok else 1)
EOF

# bad input
printf '0 0\n1 1\n' >"$tmp/short"
printf '0 0\n0 1\n' >"$tmp/dup"
printf '0 99\n' >"$tmp/range"
printf 'zero one\n' >"$tmp/junk"
bad
bad 'gft(2,4,2)'
bad --guest ring:16
bad 'gft(2,4,2' --guest ring:16
bad 'gft(2,4,2)' --guest ring:17
bad 'gft(2,4,2)' --guest ring:2
bad 'gft(2,4,2)' --guest ring
bad 'gft(2,4,2)' --guest tree:3
bad 'gft(2,4,2)' --guest mesh:4x
bad 'gft(2,4,2)' --guest mesh:8x8
bad 'gft(2,4,2)' --guest hypercube:0
bad 'gft(2,4,2)' --guest pyramid:2:0
bad 'gft(2,4,2)' --guest
bad 'gft(2,4,2)' --guest ring:16 --map bogus
bad 'gft(2,4,2)' --guest ring:16 --map file:
bad 'gft(2,4,2)' --guest ring:16 --map "file:$tmp/missing"
bad 'gft(2,4,2)' --guest ring:16 --map "file:$tmp"
bad 'gft(2,4,2)' --guest ring:16 --map "file:$tmp/short"
bad 'gft(2,4,2)' --guest ring:16 --map "file:$tmp/dup"
bad 'gft(2,4,2)' --guest ring:16 --map "file:$tmp/range"
bad 'gft(2,4,2)' --guest ring:16 --map "file:$tmp/junk"
bad 'gft(2,4,2)' --guest ring:16 --seed -1
bad 'gft(2,4,2)' --guest ring:16 --seed 4294967296
bad 'gft(2,4,2)' --guest ring:16 --inject x
bad 'gft(2,4,2)' --guest ring:16 --inject
bad 'gft(2,4,2)' --guest ring:16 --bogus
bad 'gft(2,4,2)' 'gft(2,4,2)' --guest ring:16
bad 'gft(2,4,2)' --guest ring:16 --json=1
# the exchange on the RTL: a bad engine, a host above the RTL engines' 1024 leaves (2^11 = 2048),
# --no-exchange (nothing to run on the RTL), a guest too large for the host: refused before any exec
bad 'gft(3,2,2)' --guest ring:8 --engine foo
bad 'gft(3,2,2)' --guest ring:8 --engine ''
bad 'gft(3,2,2)' --guest ring:8 --engine MODEL
bad 'gft(11,2,2)' --guest ring:8 --engine icarus
bad 'gft(11,2,2)' --guest ring:8 --engine rtl
bad 'gft(3,2,2)' --guest ring:8 --engine rtl --no-exchange
bad 'gft(3,2,2)' --guest ring:9 --engine icarus
bad 'gft(3,2,2)' --guest ring:8 --engine icarus --map "file:$tmp/missing"
# --check: the arguments only (an RTL engine is not started), exit 0 and no output
for a in "--engine rtl" "--engine icarus" ""; do
  "$LCAN" embed 'gft(3,2,2)' --guest ring:8 $a --check >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && ok || ko "--check $a: exit $rc $(cat "$tmp/err")"
done

# The exchange on the RTL in lockstep with the model (every output compared every cycle): the JSON
# (and the text) must be the model engine's but for the engine name, exit 0; packets = 2 x guest
# edges (ring:N: N edges, hypercube:K: K 2^(K-1), mesh AxB: A(B-1) + B(A-1)), steps >= dilation.
case "$LCAN" in
*/san/*) echo "test_embed_cli: RTL engines skipped under the sanitizer build" ;;
*)
  if command -v iverilog >/dev/null && command -v vvp >/dev/null; then
    lcan_abs=$(cd "$(dirname "$LCAN")" && pwd)/$(basename "$LCAN")
    root=$(cd "$(dirname "$lcan_abs")/.." && pwd)
    python3 -c 'for v in range(8): print(v, 7 - v)' >"$tmp/rev8.map"
    # engine, host, guest, packets, extra options ("-": none; a relative map file: runs in $tmp)
    while read -r eng host guest pk extra; do
      [ "$extra" = "-" ] && extra=""
      (cd "$tmp" && "$lcan_abs" embed "$host" --guest "$guest" $extra --json >"$tmp/m.json" 2>"$tmp/m.err")
      (cd "$tmp" && "$lcan_abs" embed "$host" --guest "$guest" $extra --engine "$eng" --json \
        >"$tmp/r.json" 2>"$tmp/r.err"); rc=$?
      python3 - "$tmp/m.json" "$tmp/r.json" "$eng" "$pk" <<'EOF' && [ $rc -eq 0 ] && ok \
        || ko "$eng $host $guest $extra: RTL != model or exit $rc: $(tail -3 "$tmp/r.err")"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ea, eb = a["exchange"].pop("engine"), b["exchange"].pop("engine")
x = b["exchange"]
if ea != "model" or eb != sys.argv[3] or a != b or x["packets"] != int(sys.argv[4]) or x["errors"] != 0 \
        or x["steps"] < b["dilation"]:
    print("test_embed_cli: model", a["exchange"], ea, "RTL", b["exchange"], eb); sys.exit(1)
EOF
    done <<'RUNS'
icarus gft(3,2,2) ring:8 16 -
icarus gft(3,2,2) hypercube:3 24 --inject any
icarus gft(3,2,2) ring:8 16 --map file:rev8.map --seed 5
icarus gft(2,4,2) mesh:4x4 48 -
icarus gft(2,4,2) mesh:4x4 48 --inject any
RUNS
    # the text output too: the same lines but the engine name
    "$LCAN" embed 'gft(3,2,2)' --guest ring:8 >"$tmp/m.txt" 2>&1
    "$LCAN" embed 'gft(3,2,2)' --guest ring:8 --engine icarus >"$tmp/r.txt" 2>"$tmp/r.err"; rc=$?
    if [ $rc -eq 0 ] && grep -q '(engine model)' "$tmp/m.txt" \
        && [ "$(sed 's/(engine model)/(engine icarus)/' "$tmp/m.txt")" = "$(cat "$tmp/r.txt")" ]; then ok
    else ko "text: icarus (exit $rc) != model: $(diff "$tmp/m.txt" "$tmp/r.txt" | head -5)"; fi
    # negative test of the comparison: the model's view corrupted at cycle 3 -> a mismatch at cycle 3, exit 1
    "$root/tb/lcan-rtl" embed 'gft(3,2,2)' --guest ring:8 --engine icarus --flip 3 --json >"$tmp/n.json" 2>"$tmp/n.err"
    rc=$?
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); sys.exit(0 if d["mismatches"] == 1 and d["first_mismatch"]["cycle"] == 3 else 1)' \
      "$tmp/n.json" 2>/dev/null && [ $rc -eq 1 ] && ok || ko "negative: --flip 3 -> exit $rc $(head -c 300 "$tmp/n.json")"
    # lcan-rtl itself refuses what lcan embed refuses (it asks `lcan embed ... --check` first)
    "$root/tb/lcan-rtl" embed 'gft(11,2,2)' --guest ring:8 >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || ko "lcan-rtl embed gft(11,2,2): exit $rc"
  else
    echo "test_embed_cli: RTL engines skipped (no iverilog)"
  fi ;;
esac

echo "test_embed_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
