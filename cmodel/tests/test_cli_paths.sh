#!/usr/bin/env bash
# test_cli_paths.sh - `lcan paths` and `lcan info`'s node_connectivity (spec 2.5): JSON keys, the
# paths of seed 002 Figure 4a (GFT(3,2,2), leaves (0;000) and (0;101): two paths through the roots
# (3;000)/(3;001)) rebuilt here from the labels, w_1 paths of 2L+1 nodes on cm5, text output, and bad
# input (exit 2, one line "lcan: ..." on stderr, nothing on stdout).
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_paths.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
ko() { fail=$((fail+1)); echo "test_cli_paths: FAIL: $*"; }

bad() {
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" -eq 1 ] && head -c 6 "$tmp/err" | grep -q '^lcan: '; then ok
  else ko "lcan $* -> exit $rc, $lines stderr lines, $(wc -c <"$tmp/out") stdout bytes: $(head -c 300 "$tmp/err")"; fi
}

# seed 002 Figure 4a: GFT(3,2,2), leaf (0;000) = 0 and (0;101) = 5 (a_3 a_2 a_1 = 1 0 1)
"$LCAN" paths 'gft(3,2,2)' 0 5 --json >"$tmp/j" 2>"$tmp/err" && [ ! -s "$tmp/err" ] || ko "paths gft(3,2,2) 0 5: $(cat "$tmp/err")"
python3 - "$tmp/j" <<'PY' && ok || ko "gft(3,2,2) 0 5 (above)"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("spec", "src", "dst", "lca_level", "node_connectivity", "paths", "labels"):
    assert k in d, "missing key " + k
assert d["lca_level"] == 3 and d["node_connectivity"] == 2 and len(d["paths"]) == 2, d
# the paper's p_i: (0;000) (1;00 i) (2;0 0i) (3;00i) (2;1 0i) (1;10 i) (0;101), labels a..; b..
want = [["(0,0,0)", "(0,0; %d)" % i, "(0; 0,%d)" % i, "(; 0,0,%d)" % i, "(1; 0,%d)" % i, "(1,0; %d)" % i, "(1,0,1)"]
        for i in (0, 1)]
assert d["labels"] == want, (d["labels"], want)
assert all(p[0] == "L0:0" and p[-1] == "L0:5" for p in d["paths"]), d["paths"]
PY

# cm5 (w_1 = 2): two paths of 2L+1 nodes, inner nodes disjoint, for pairs at every LCA level
for pair in "0 1" "0 4" "0 17" "3 200" "255 0"; do
  set -- $pair
  "$LCAN" paths cm5 "$1" "$2" --json >"$tmp/j" 2>"$tmp/err" || { ko "paths cm5 $pair: $(cat "$tmp/err")"; continue; }
  python3 - "$tmp/j" "$1" "$2" <<'PY' && ok || ko "cm5 $pair (above)"
import json, sys
d = json.load(open(sys.argv[1])); s, t = int(sys.argv[2]), int(sys.argv[3])
L = 1
for k in range(4):          # cm5: four base-4 digits; LCA level = most significant differing digit
    if (s >> (2 * k)) & 3 != (t >> (2 * k)) & 3:
        L = k + 1
assert d["lca_level"] == L and d["node_connectivity"] == 2, d
inner = [n for p in d["paths"] for n in p[1:-1]]
assert len(d["paths"]) == 2 and all(len(p) == 2 * L + 1 for p in d["paths"]), d["paths"]
assert len(inner) == len(set(inner)), "paths share a node"
assert [int(n.split(":")[0][1:]) for n in d["paths"][0]] == list(range(L + 1)) + list(range(L - 1, -1, -1))
PY
done

# info: node_connectivity = w_1
for case in "cm5 2" "gft(3,2,2) 2" "lcan(2,4,16) 1" "xgft(2;4,4;3,2) 3" "kary(4,3) 1"; do
  set -- $case
  v=$("$LCAN" info "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["node_connectivity"])')
  [ "$v" = "$2" ] && ok || ko "info $1: node_connectivity $v, expected $2"
done
"$LCAN" info cm5 | grep -q '^node_connectivity 2$' && ok || ko "info cm5 text: no node_connectivity line"

# text output: a header line and one line per path
"$LCAN" paths 'xgft(2;4,4;3,2)' 1 14 >"$tmp/t" 2>&1
[ "$(grep -c '^path [0-2]:' "$tmp/t")" = 3 ] && ok || ko "text: $(cat "$tmp/t")"

# bad input
bad paths
bad paths cm5
bad paths cm5 0
bad paths cm5 3 3
bad paths cm5 0 256
bad paths cm5 -1 4
bad paths cm5 0 x
bad paths cm5 0 1 2
bad paths cm5 0 1 --bogus
bad paths 'cm6' 0 1
"$LCAN" paths --help | grep -q 'usage: lcan paths' && ok || ko "--help"

echo "test_cli_paths: $pass passed, $fail failed"
[ $fail -eq 0 ]
