#!/usr/bin/env bash
# test_cli_seed001.sh - `lcan collective --algo recursive` and `lcan collective --ideal` (seed 001's
# Broadcast / Sparse-Broadcast, docs/spec.md 10.3), checked with python3's json module.
# Expected numbers, not from the code under test: binomial h(h+1); recursive on w(n) = n:
# 54 at N = 128 (the issue's independent run), 2h + 2h log2 h for h = 2^j (8 at h = 2, 64 at h = 8,
# 160 at h = 16); w = 1: recursive = binomial = h(h+1); prefix on the recursive broadcast: twice the
# broadcast (108 at N = 128, 320 at 2^16; 2h(h+1) = 40 on the CBFT h = 4). Bad input: exit 2, one
# line, no stdout.
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_seed001.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# json_is ARGS -- PYTHON-CONDITION (on d, the parsed output; rows by algo in r)
json_is() {
  local args=() cond
  while [ "$1" != "--" ]; do args+=("$1"); shift; done
  shift; cond=$1
  "$LCAN" "${args[@]}" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
    fail=$((fail+1)); echo "FAIL: lcan ${args[*]} -> exit $rc: $(head -c 300 "$tmp/err")"; return
  fi
  if python3 - "$tmp/out" "$cond" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["algo"]: x for x in d.get("rows", [])}
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
  then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: lcan ${args[*]}: not ($cond): $(head -c 400 "$tmp/out")"; fi
}

# bad TEXT ARGS...: exit 2, nothing on stdout, one line on stderr containing TEXT
bad() {
  local want=$1; shift
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF -- "$want" "$tmp/err"; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "FAIL: lcan $* -> exit $rc, stderr '$(head -c 300 "$tmp/err")', $(wc -c <"$tmp/out") stdout bytes"
  fi
}

json_is collective --ideal 7 --json -- 'r["recursive"]["steps"] == 54 and r["binomial"]["steps"] == 56 and d["correct"]'
json_is collective --ideal 8 --w n --json -- 'r["recursive"]["steps"] == 64 and r["binomial"]["steps"] == 72'
json_is collective --ideal 16 --json -- 'r["recursive"]["steps"] == 160 and r["binomial"]["steps"] == 272 and all(x["capacity_violations"] == 0 and x.get("missing", 0) == 0 and x.get("duplicates", 0) == 0 and x["correct"] for x in d["rows"])'
json_is collective --ideal 2 --json -- 'r["recursive"]["steps"] == 8 and r["binomial"]["steps"] == 6 and d["leaves"] == 4'
json_is collective --ideal 10 --w 1 --json -- 'r["recursive"]["steps"] == 110 == r["binomial"]["steps"] and r["pipelined"]["steps"] < 110 and d["capacities"] == [1] * 10'
json_is collective --ideal 6 --w sqrt --json -- 'd["capacities"] == [1, 2, 2, 4, 4, 8] and d["correct"]'
json_is collective --ideal 5 --w log --json -- 'd["capacities"] == [1, 2, 3, 4, 5] and d["correct"]'
json_is collective 'bft(7;1,2,4,8,16,32,64)' --op bcast --algo recursive --json -- 'd["steps"] == 54 == d["expect_steps"] and d["correct"] and d["messages"] == 127'
json_is collective 'bft(7;1,2,4,8,16,32,64)' --op bcast --algo binomial --json -- 'd["steps"] == 56 and d["correct"]'
json_is collective 'bft(4;1,2,4,8)' --op reduce --algo recursive --root 9 --combine max --json -- 'd["steps"] == 24 and d["correct"]'
json_is collective 'bft(5;1,1,1,1,1)' --op bcast --algo recursive --json -- 'd["steps"] == 30 and d["correct"]'
json_is collective 'bft(7;1,2,4,8,16,32,64)' --op prefix --algo recursive --json -- 'd["steps"] == 108 and d["correct"]'
json_is collective 'bft(4;1,1,1,1)' --op prefix --algo recursive --combine max --json -- 'd["steps"] == 40 and d["correct"]'
json_is collective --ideal 16 --json -- 'r["prefix"]["steps"] == 320 and r["prefix"]["correct"] and r["prefix"]["wrong_results"] == 0'
"$LCAN" collective --ideal 4 >"$tmp/out" 2>"$tmp/err" && grep -q "recursive" "$tmp/out" && grep -q "MODEL ONLY" "$tmp/out" \
  && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: lcan collective --ideal 4 (text)"; }

bad "--ideal" collective --ideal 21
bad "--ideal" collective --ideal 0
bad "is not one of n, 1, sqrt, log" collective --ideal 4 --w foo
bad "takes no SPEC" collective --ideal 4 --op bcast
bad "takes no SPEC" collective 'bft(2;1,2)' --ideal 4
bad "--w applies to --ideal only" collective 'bft(2;1,2)' --op bcast --w n
bad "model only" collective --ideal 4 --engine rtl
bad "two different runs" collective --ideal 4 --cbt 3
bad "binary tree" collective 'kary(4,2)' --op bcast --algo recursive
bad "applies to --op bcast, reduce and prefix" collective 'bft(3;1,2,4)' --op scatter --algo recursive
bad "reduce and prefix take binomial or recursive" collective 'bft(3;1,2,4)' --op prefix --algo hw
bad "drop it with --algo recursive" collective 'bft(3;1,2,4)' --op reduce --algo recursive --compact 1
bad "is not one of hw, leaves, binomial, recursive" collective 'bft(3;1,2,4)' --op bcast --algo bogus
bad "reduce and prefix take binomial or recursive" collective 'bft(3;1,2,4)' --op reduce --algo hw
bad "capacity violation" collective 'bft(4;1,1,4,4)' --op bcast --algo recursive

echo "test_cli_seed001: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
