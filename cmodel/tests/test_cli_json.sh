#!/usr/bin/env bash
# test_cli_json.sh - JSON output of the lcan tool, checked with python3's json module.
#   lcan info cm5 --json: seed 002's CM-5 = XGFT(4;4,4,4,4;2,2,2,4): 256 leaves, 128/64/32/32
#     switches, links S_{l-1} w_l = 512/256/128/128, diameter 8, average distance
#     2(1*3 + 2*3*4 + 3*3*16 + 4*3*64)/255, root cut m_h w_1..w_h / 2 = 64 (Table 1).
#   lcan info: canonical and PGFT forms of a few members (spec 1.3).
#   lcan recurrence 2 2 3 --json: 1, 3/4, 39/64, ... (seed 004 recurrence, by hand).
#   lcan route 'lcan(4,4,256)' --pattern worst --trials 100 --json: the keys and their shapes,
#     recurrence = p(4) of d=u=4 computed here, fractions in 0..1, histogram sums to trials.
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_json.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# check NAME PYTHON-EXPR-FILE: runs the python checks on $tmp/out; they print FAIL lines
check() {
  local name=$1 prog=$2 res
  res=$(python3 - "$tmp/out" <<<"$prog" 2>&1)
  local p f
  p=$(grep -c '^ok' <<<"$res"); f=$(grep -vc '^ok' <<<"$res")
  pass=$((pass+p)); fail=$((fail+f))
  [ "$f" -eq 0 ] || { echo "FAIL: $name"; grep -v '^ok' <<<"$res"; }
}

run() {
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
    fail=$((fail+1)); echo "FAIL: lcan $* -> exit $rc: $(head -c 300 "$tmp/err")"; return 1
  fi
  pass=$((pass+1))
}

PY_HEAD='
import json, sys, math
doc = json.load(open(sys.argv[1]))
def ok(c, msg):
    print("ok" if c else "FAIL " + msg)
'

run info cm5 --json && check "info cm5" "$PY_HEAD"'
keys = ["spec","pgft","leaves","levels","switches_per_level","links_per_level","diameter","avg_distance","root_cut",
        "node_connectivity","m","w","p","parameters"]
ok(sorted(doc) == sorted(keys), "keys %s" % sorted(doc))
ok(doc.get("node_connectivity") == 2, "node_connectivity %r (w_1 = 2)" % doc.get("node_connectivity"))
ok(doc["spec"] == "cm5", "spec %r" % doc["spec"])
ok(doc["pgft"] == "pgft(4;4,4,4,4;2,2,2,4;1,1,1,1)", "pgft %r" % doc["pgft"])
ok(doc["leaves"] == 256, "leaves")
ok(doc["levels"] == 4, "levels")
ok(doc["switches_per_level"] == [128, 64, 32, 32], "switches %r" % doc["switches_per_level"])
ok(doc["links_per_level"] == [256*2, 128*2, 64*2, 32*4], "links %r" % doc["links_per_level"])
ok(doc["diameter"] == 8, "diameter")
avg = 2*(1*3 + 2*3*4 + 3*3*16 + 4*3*64)/255
ok(abs(doc["avg_distance"] - avg) < 1e-12, "avg %r vs %r" % (doc["avg_distance"], avg))
ok(doc["root_cut"] == 4*2*2*2*4//2, "root_cut %r" % doc["root_cut"])
ok([doc["m"], doc["w"], doc["p"]] == [[4, 4, 4, 4], [2, 2, 2, 4], [1, 1, 1, 1]], "m w p %r" % [doc["m"], doc["w"], doc["p"]])
# lcan_network parameters (spec 13): 32-bit fields, level 1 in the low bits
ok(doc["parameters"] == {"H": 4, "M": "128'"'"'h00000004000000040000000400000004",
                         "W": "128'"'"'h00000004000000020000000200000002",
                         "P": "128'"'"'h00000001000000010000000100000001"}, "parameters %r" % doc["parameters"])
'

# canonical / pgft forms: spec as typed, canonical, pgft, leaves, switches
while IFS='|' read -r typed canon pg leaves sw; do
  run info "$typed" --json && check "info $typed" "$PY_HEAD"'
ok(doc["spec"] == "'"$canon"'", "spec %r" % doc["spec"])
ok(doc["pgft"] == "'"$pg"'", "pgft %r" % doc["pgft"])
ok(doc["leaves"] == '"$leaves"', "leaves %r" % doc["leaves"])
ok(doc["switches_per_level"] == '"$sw"', "switches %r" % doc["switches_per_level"])
ok(doc["diameter"] == 2 * doc["levels"] == 2 * len(doc["switches_per_level"]), "diameter")
'
done <<'TABLE'
LCAN(4,4,256)|lcan(4,4,256)|pgft(4;4,4,4,4;1,4,4,4;1,1,1,1)|256|[64, 64, 64, 64]
 kary ( 4 , 3 ) |kary(4,3)|pgft(3;4,4,4;1,4,4;1,1,1)|64|[16, 16, 16]
lcan(2,3,16)|lcan(2,3,16)|pgft(4;2,2,2,2;1,3,3,3;1,1,1,1)|16|[8, 12, 18, 27]
lcan(3,2,81)|lcan(3,2,81)|pgft(4;3,3,3,3;1,2,2,2;1,1,1,1)|81|[27, 18, 12, 8]
gft(3,2,2)|gft(3,2,2)|pgft(3;2,2,2;2,2,2;1,1,1)|8|[8, 8, 8]
bft(4;1,2,4,8)|bft(4;1,2,4,8)|pgft(4;2,2,2,2;1,1,1,1;1,2,4,8)|16|[8, 4, 2, 1]
xgft(2;04,4;1,2)|xgft(2;4,4;1,2)|pgft(2;4,4;1,2;1,1)|16|[4, 2]
pgft(2;2,2;1,2)|pgft(2;2,2;1,2;1,1)|pgft(2;2,2;1,2;1,1)|4|[2, 2]
TABLE

# plain text: same numbers, no JSON
run info cm5 && { if grep -q '^leaves *256$' "$tmp/out" && grep -q '^diameter *8$' "$tmp/out"; then pass=$((pass+1)); else
  fail=$((fail+1)); echo "FAIL: plain lcan info cm5"; cat "$tmp/out"; fi; }

run recurrence 2 2 3 --json && check "recurrence 2 2 3" "$PY_HEAD"'
p = doc["p"]
ok(len(p) == 4, "length %d" % len(p))
ok(p[0] == 1 and p[1] == 0.75 and p[2] == 0.609375, "p %r" % p)
ok(abs(p[3] - (1 - (1 - 39/128)**2)) < 1e-15, "p3 %r" % p[3])
'
run recurrence 2 3 4 --json && check "recurrence 2 3 4" "$PY_HEAD"'
p = doc["p"]
ok(len(p) == 5 and abs(p[0] - (2/3)**4) < 1e-15, "p0 %r" % p[0])
'
run recurrence 4 4 2 --load 0.5 --json && check "recurrence --load" "$PY_HEAD"'
p = doc["p"]
ok(p[0] == 0.5 and abs(p[1] - (1 - (1 - 0.5/4)**4)) < 1e-15, "p %r" % p)
'
run recurrence 2 2 3 && { if [ "$(grep -vc '^#' "$tmp/out")" -eq 4 ]; then pass=$((pass+1)); else
  fail=$((fail+1)); echo "FAIL: plain recurrence prints p(0..3)"; cat "$tmp/out"; fi; }

ROUTE_CHECK='
keys = ["spec","pattern","engine","up_choice","trials","seed","first_pass_mean","first_pass_sem","passes_mean",
        "passes_max","passes_hist","recurrence","stage_occupancy"]
ok(sorted(doc) == sorted(keys), "keys %s" % sorted(doc))
ok(doc["up_choice"] == "uniform", "up_choice %r (default uniform)" % doc["up_choice"])
T = doc["trials"]
ok(0 <= doc["first_pass_mean"] <= 1, "first_pass_mean %r" % doc["first_pass_mean"])
ok(doc["first_pass_sem"] >= 0, "first_pass_sem")
ok(1 <= doc["passes_mean"] <= doc["passes_max"], "passes_mean %r max %r" % (doc["passes_mean"], doc["passes_max"]))
h = doc["passes_hist"]
items = list(h.items()) if isinstance(h, dict) else list(enumerate(h))
ok(sum(c for _, c in items) == T, "passes_hist sums to %r" % sum(c for _, c in items))
ok(max(int(k) for k, c in items if c) == doc["passes_max"], "passes_hist max")
ok(abs(sum(int(k) * c for k, c in items) / T - doc["passes_mean"]) < 1e-9, "passes_hist mean")
occ = doc["stage_occupancy"]
ok(all(0 <= x <= 1 for x in occ), "stage_occupancy %r" % occ)
'
if run route 'lcan(4,4,256)' --pattern worst --trials 100 --json; then
  check "route lcan(4,4,256) worst" "$PY_HEAD$ROUTE_CHECK"'
ok(doc["spec"] == "lcan(4,4,256)" and doc["pattern"] == "worst" and doc["engine"] == "model", "echo")
ok(doc["trials"] == 100 and doc["seed"] == 1, "defaults")
ok(len(doc["stage_occupancy"]) == 4, "stage_occupancy length")
p = 1.0
for i in range(4):
    p = 1 - (1 - p/4)**4
ok(doc["recurrence"] is not None and abs(doc["recurrence"] - p) < 1e-12, "recurrence %r vs %r" % (doc["recurrence"], p))
ok(doc["first_pass_sem"] > 0, "sem over 100 trials")
'
  # a second run gives the same numbers (reproducible from --seed)
  cp "$tmp/out" "$tmp/first"
  run route 'lcan(4,4,256)' --pattern worst --trials 100 --json && {
    if cmp -s "$tmp/out" "$tmp/first"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: route not reproducible"; fi; }
fi
if run route cm5 --trials 1 --seed 7 --json; then
  check "route cm5" "$PY_HEAD$ROUTE_CHECK"'
ok(doc["recurrence"] is None, "cm5 is not an LCAN: recurrence must be null")
ok(doc["first_pass_sem"] == 0, "sem of one trial")
ok(doc["pattern"] == "random" and doc["trials"] == 1 and doc["seed"] == 7, "defaults/echo")
'
fi
if run route 'kary(2,3)' --pattern identity --trials 2 --json; then
  check "route identity" "$PY_HEAD$ROUTE_CHECK"'
ok(doc["first_pass_mean"] == 1.0 and doc["passes_max"] == 1, "identity routes in one pass")
ok(doc["recurrence"] is not None, "kary is an LCAN")
'
fi

echo "test_cli_json: $pass passed, $fail failed"
[ $fail -eq 0 ]
