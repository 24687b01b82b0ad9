#!/usr/bin/env bash
# test_cli_faults.sh - faults on the command line (spec 14.5): `lcan faults` (elements, off ports,
# cut pairs, node connectivity, seed 002's guarantee) in text and JSON, --faults / --fault-at on
# route, traffic and collective (JSON keys faults, cut, dropped, reached), and bad input (exit 2,
# one line "lcan: ..." on stderr, nothing on stdout).
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_faults.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
ko() { fail=$((fail+1)); echo "test_cli_faults: FAIL: $*"; }

bad() {
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" -eq 1 ] && head -c 6 "$tmp/err" | grep -q '^lcan: '; then ok
  else ko "lcan $* -> exit $rc, $lines stderr lines, $(wc -c <"$tmp/out") stdout bytes: $(head -c 300 "$tmp/err")"; fi
}

# the help and the command table
"$LCAN" --help | grep -q '^  faults ' && ok || ko "lcan --help lists faults"
"$LCAN" faults --help | grep -q -- '--faults LIST' && ok || ko "lcan faults --help"
for c in route traffic collective; do
  "$LCAN" $c --help | grep -q -- '--faults LIST' && ok || ko "lcan $c --help mentions --faults"
done

# lcan faults: gft(3,2,2) (N = 8, w_1 = 2), leaf 1 without its two links: 2N - 1 = 15 cut pairs
"$LCAN" faults 'gft(3,2,2)' --faults 'L1:0/1, l1:1/1' --json >"$tmp/j" 2>"$tmp/err" && [ ! -s "$tmp/err" ] || ko "faults json: $(cat "$tmp/err")"
python3 - "$tmp/j" <<'PY' && ok || ko "faults gft(3,2,2) leaf 1 cut (above)"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("spec", "seed", "faults", "elements", "links_off", "switches_off", "off_ports", "rows", "cut_pairs_total",
          "cut_pairs", "node_connectivity", "guaranteed"):
    assert k in d, "missing key " + k
assert d["faults"] == 2 and d["elements"] == ["L1:0/1", "L1:1/1"] and d["links_off"] == 2 and d["switches_off"] == 0, d
assert d["off_ports"] == 2 and d["cut_pairs_total"] == 15 and d["node_connectivity"] == 2 and d["guaranteed"] is False, d
pairs = set(map(tuple, d["cut_pairs"]))
assert pairs == {(1, b) for b in range(8)} | {(s, 1) for s in range(8)}, pairs
PY
# fewer than w_1 elements: guaranteed, nothing cut (cm5, every single element drawn by random:1)
for s in 1 2 3 4 5; do
  "$LCAN" faults cm5 --faults random:1 --seed $s --json >"$tmp/j" 2>"$tmp/err" || { ko "faults cm5 random:1 seed $s"; continue; }
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["faults"]==1 and d["guaranteed"] is True and d["cut_pairs_total"]==0 and d["cut_pairs"]==[], d' "$tmp/j" && ok || ko "cm5 random:1 seed $s"
done
# the list is bounded: a level-1 group of cm5 cut off (its w_1 = 2 parents): 2*4*256 - 16 pairs, 100 shown
"$LCAN" faults cm5 --faults L1:0,L1:1 --json >"$tmp/j" 2>&1 &&
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["cut_pairs_total"]==2*4*256-16 and len(d["cut_pairs"])==100, d["cut_pairs_total"]' "$tmp/j" && ok || ko "cm5 group cut: $(head -c 300 "$tmp/j")"
"$LCAN" faults 'gft(3,2,2)' --faults L3:7 >"$tmp/t" 2>&1 && grep -q '^guaranteed  *yes' "$tmp/t" && grep -q '^cut_pairs  *0' "$tmp/t" && ok || ko "faults text: $(cat "$tmp/t")"

# route: JSON keys, no cut with fewer than w_1 faults, cut sources with a leaf cut off
"$LCAN" route 'xgft(2;4,4;3,3)' --faults L1:0,L2:4/1 --trials 2 --json >"$tmp/j" 2>"$tmp/err" || ko "route faults: $(cat "$tmp/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["faults"]==2 and d["cut"]==0 and d["passes_max"]>=1, d' "$tmp/j" && ok || ko "route json $(head -c 300 "$tmp/j")"
"$LCAN" route 'gft(3,2,2)' --faults L1:0/1,L1:1/1 --trials 1 --pattern identity --json >"$tmp/j" 2>"$tmp/err" || ko "route cut: $(cat "$tmp/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["faults"]==2 and d["cut"]==1 and d["first_pass_mean"]==7/8, d' "$tmp/j" && ok || ko "route identity, leaf 1 cut: $(head -c 300 "$tmp/j")"

# traffic: static faults (< w_1): every packet delivered, nothing dropped; mid-run: conservation
"$LCAN" traffic 'gft(3,2,2)' --faults L2:1 --load 0.3 --warmup 200 --measure 500 --json >"$tmp/j" 2>"$tmp/err" || ko "traffic static: $(cat "$tmp/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["faults"]==1 and d["fault_at"]==1 and d["cut"]==0 and d["dropped"]==0 and d["lost"]==0 and d["delivered"]==d["injected"]==d["created"], d' "$tmp/j" && ok || ko "traffic static $(head -c 400 "$tmp/j")"
"$LCAN" traffic 'gft(3,2,2)' --faults L2:1,L3:2/0,L1:0/1 --fault-at 150 --load 0.4 --warmup 200 --measure 500 --json >"$tmp/j" 2>"$tmp/err" || ko "traffic mid-run: $(cat "$tmp/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["fault_at"]==150 and d["injected"]==d["delivered"]+d["dropped"] and d["created"]==d["injected"]+d["discarded"]+d["unsent"] and d["duplicated"]==0 and d["lost"]==0, d' "$tmp/j" && ok || ko "traffic mid-run $(head -c 400 "$tmp/j")"

# collective: bcast on the w_1 trees
"$LCAN" collective cm5 --op bcast --faults L4:1 --root 9 --json >"$tmp/j" 2>"$tmp/err" || ko "bcast faults: $(cat "$tmp/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["faults"]==1 and d["reached"]==256 and d["unreached"]==0 and d["cut"]==0 and d["correct"] is True, d' "$tmp/j" && ok || ko "bcast cm5 $(head -c 400 "$tmp/j")"
"$LCAN" collective 'gft(3,2,2)' --op bcast --broadcast tree --faults L1:0/0,L1:1/0 --root 3 --json >"$tmp/j" 2>"$tmp/err" || ko "bcast leaf cut: $(cat "$tmp/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["reached"]==7 and d["unreached"]==1 and d["cut"]==1 and d["correct"] is True, d' "$tmp/j" && ok || ko "bcast leaf 0 cut $(head -c 400 "$tmp/j")"

# bad input
bad faults 'gft(3,2,2)' --faults L3:9
grep -q "bad fault 'L3:9': level 3 has 8 switches (0..7)" "$tmp/err" && ok || ko "message: $(cat "$tmp/err")"
bad faults 'gft(3,2,2)' --faults L0:1
bad faults 'gft(3,2,2)' --faults L1:0/2
bad faults 'gft(3,2,2)' --faults L1:0,,L1:1
bad faults 'gft(3,2,2)' --faults random:73
grep -q "72 elements" "$tmp/err" && ok || ko "random:K message: $(cat "$tmp/err")"
bad faults 'gft(3,2,2)' --faults bogus
bad faults 'gft(3,2,2)'
bad faults --faults L1:0
bad faults 'lcan(2,2,65536)' --faults L1:0
grep -q "reach tables" "$tmp/err" && ok || ko "reach size message: $(cat "$tmp/err")"
bad route cm5 --faults L9:0
bad route cm5 --fault-at 5
bad route cm5 --faults L1:0 --fault-at 5
bad traffic cm5 --fault-at 5
bad traffic cm5 --faults L1:0 --fault-at x
bad traffic cm5 --faults L1:0 --bcast 0.1
bad traffic cm5 --faults random:99999
bad collective cm5 --op scatter --faults L1:0
bad collective cm5 --op bcast --flits 2 --faults L1:0
bad collective cm5 --op bcast --fault-at 3
bad collective --ideal 4 --faults L1:0

echo "test_cli_faults: $pass passed, $fail failed"
[ $fail -eq 0 ]
