#!/usr/bin/env bash
# test_cli_paper.sh - `lcan collective SPEC --op mnb --engine paper` (seed 000 §4's flooding in the
# paper's step model): the JSON keys, n + 1 steps and the CBFT queues 2^(i-1) against the paper,
# the text output, and bad input (exit 2, one line "lcan: ..." on stderr, nothing on stdout).
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_paper.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
ko() { fail=$((fail+1)); echo "test_cli_paper: FAIL: $*"; }

bad() {
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" -eq 1 ] && head -c 6 "$tmp/err" | grep -q '^lcan: '; then ok
  else ko "lcan $* -> exit $rc, $lines stderr lines, $(wc -c <"$tmp/out") stdout bytes: $(head -c 300 "$tmp/err")"; fi
}

for h in 2 4 6 8; do
  spec="bft($h;$(python3 -c "print(','.join(['1'] * $h))"))"
  "$LCAN" collective "$spec" --op mnb --engine paper --json >"$tmp/j" 2>"$tmp/err" || { ko "$spec: $(cat "$tmp/err")"; continue; }
  python3 - "$tmp/j" "$h" <<'PY' && ok || ko "$spec (above)"
import json, sys
d = json.load(open(sys.argv[1])); h = int(sys.argv[2]); n = 2 ** h
for k in ("op", "spec", "engine", "model_only", "leaves", "steps", "paper_steps", "deliveries",
          "queue_peak_up", "queue_peak_down", "paper_queue"):
    assert k in d, "missing " + k
assert d["engine"] == "paper" and d["model_only"] is True and d["leaves"] == n
assert d["steps"] == n + 1 == d["paper_steps"], d["steps"]
assert d["deliveries"] == n * (n - 1)
assert d["queue_peak_up"] == [0] + [2 ** (i - 1) for i in range(1, h)] + [0], d["queue_peak_up"]
assert d["paper_queue"] == d["queue_peak_up"], d["paper_queue"]
PY
done
"$LCAN" collective 'bft(5;1,2,4,8,16)' --op mnb --engine paper >"$tmp/t" 2>&1
grep -q '^steps          33 (paper: n + 1 = 33)' "$tmp/t" && ok || ko "EBFT text: $(cat "$tmp/t")"

bad collective kary'(4,3)' --op mnb --engine paper
bad collective cm5 --op mnb --engine paper
bad collective 'bft(4;1,1,1,1)' --op bcast --engine paper
bad collective 'bft(4;1,1,1,1)' --op mnb --broadcast tree --engine paper
bad collective 'bft(4;1,1,1,1)' --op mnb --engine papr
bad collective 'bft(13;1,1,1,1,1,1,1,1,1,1,1,1,1)' --op mnb --engine paper

echo "test_cli_paper: $pass passed, $fail failed"
[ $fail -eq 0 ]
