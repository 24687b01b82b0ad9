#!/usr/bin/env bash
# test_cli_upchoice.sh - the tool options of UP_CHOICE (spec 6) and the flooding broadcast (spec 8.6):
# --up-choice uniform|rotate on route / traffic / collective (JSON key up_choice, default uniform),
# --broadcast flood|tree on collective (JSON key broadcast, default flood), bad values: one line,
# exit 2; the collective figures computed here independently of the model: tree mnb on
# bft(h;..) = n + 2 log2 n - 1, flooding mnb delivers n (n - 1) flits (every leaf all but its own)
# in seed 000 Thm 2's n + 1 steps with the driver's flood queues (spec 8.7; --flood-queue, JSON
# flood_q, flood_up = 4.1's 2^(i-1)), in no fewer than n + 1 with --flood-queue 0 (n + 1 exactly at
# n = 4), flooding bcast n - 1 copies; lockstep and --engine rtl hand --up-choice to tb/lcan-rtl unchanged.
# Usage: LCAN=build/lcan bash cmodel/tests/test_cli_upchoice.sh
set -u
LCAN=${LCAN:-build/lcan}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ok() { if [ "$1" = 1 ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $2"; fi; }

bad_msg() {
  local want=$1; shift
  "$LCAN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" -eq 1 ] && grep -qF -- "$want" "$tmp/err"; then
    pass=$((pass+1))
  else
    fail=$((fail+1))
    echo "FAIL: lcan $* -> exit $rc, $lines stderr lines, $(wc -c <"$tmp/out") stdout bytes: $(head -c 300 "$tmp/err")"
  fi
}

# key FILE KEY: the JSON value of KEY in the one object of FILE (python3 reads it)
key() { python3 -c "import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(json.dumps(v) if isinstance(v, list) else v)" "$1" "$2"; }

# --- bad values
bad_msg "route: --up-choice 'random' is not one of uniform, rotate" route cm5 --up-choice random
bad_msg "--up-choice 'Uniform' is not one of uniform, rotate" route cm5 --up-choice Uniform
bad_msg "--up-choice" route cm5 --up-choice
bad_msg "--up-choice" route cm5 --up-choice=
bad_msg "traffic: --up-choice 'x' is not one of uniform, rotate" traffic cm5 --load 0.1 --up-choice x
bad_msg "collective: --up-choice '1' is not one of uniform, rotate" collective cm5 --op mnb --up-choice 1
bad_msg "collective: --broadcast 'all' is not one of flood, tree" collective 'bft(3;1,1,1)' --op mnb --broadcast all
bad_msg "collective: --broadcast '' is not one of flood, tree" collective 'bft(3;1,1,1)' --op bcast --broadcast=
bad_msg "--broadcast" collective 'bft(3;1,1,1)' --op mnb --broadcast
bad_msg "collective: --broadcast applies to --op mnb and bcast" collective 'bft(3;1,1,1)' --op scatter --broadcast tree
# checked before a hand-over to the RTL engines too
bad_msg "--up-choice 'no'" route cm5 --engine rtl --up-choice no
bad_msg "--broadcast 'no'" collective cm5 --op mnb --engine icarus --broadcast no
bad_msg "collective: --flood-queue '256' is too large (max 255)" collective 'bft(3;1,1,1)' --op mnb --flood-queue 256
bad_msg "collective: --flood-queue" collective 'bft(3;1,1,1)' --op mnb --flood-queue -1
bad_msg "--flood-queue" collective 'bft(3;1,1,1)' --op mnb --flood-queue
bad_msg "--flood-queue '300'" collective cm5 --op mnb --engine rtl --flood-queue 300
bad_msg "collective: --flood-queue 3 is below cm5's largest m_l = 4: the floods of a switch's children could never all be accepted (spec 8.7); use 0 or 4..255" collective cm5 --op mnb --flood-queue 3
bad_msg "collective: --flood-queue 1 is below" collective 'bft(3;1,1,1)' --op mnb --engine rtl --flood-queue 1

# --- help texts
for c in route traffic collective; do
  "$LCAN" $c --help >"$tmp/out" 2>&1
  ok "$(grep -q -- '--up-choice' "$tmp/out" && echo 1)" "$c --help does not mention --up-choice"
done
"$LCAN" collective --help >"$tmp/out" 2>&1
ok "$(grep -q -- '--broadcast B' "$tmp/out" && echo 1)" "collective --help does not mention --broadcast"

# --- route: key up_choice, default uniform; the two choices route differently on lcan(2,4,16)
"$LCAN" route 'lcan(2,4,16)' --trials 200 --json >"$tmp/u" 2>"$tmp/err"
"$LCAN" route 'lcan(2,4,16)' --trials 200 --json --up-choice uniform >"$tmp/u2" 2>>"$tmp/err"
"$LCAN" route 'lcan(2,4,16)' --trials 200 --json --up-choice rotate >"$tmp/r" 2>>"$tmp/err"
ok "$([ "$(key "$tmp/u" up_choice)" = uniform ] && [ "$(key "$tmp/r" up_choice)" = rotate ] && echo 1)" "route up_choice keys: $(cat "$tmp/err")"
ok "$(cmp -s "$tmp/u" "$tmp/u2" && echo 1)" "route: the default is not --up-choice uniform"
ok "$([ "$(key "$tmp/u" first_pass_mean)" != "$(key "$tmp/r" first_pass_mean)" ] && echo 1)" "route: uniform and rotate give the same first pass"
# U = 2 everywhere (lcan(2,2,n)): sigma = [r_up, 1 - r_up], the same uppers (spec 5)
"$LCAN" route 'lcan(2,2,64)' --trials 50 --json --up-choice rotate >"$tmp/r2"
"$LCAN" route 'lcan(2,2,64)' --trials 50 --json --up-choice uniform >"$tmp/u3"
ok "$([ "$(key "$tmp/u3" first_pass_mean)" = "$(key "$tmp/r2" first_pass_mean)" ] && echo 1)" "route lcan(2,2,64): U = 2 must not depend on the choice"
"$LCAN" route 'lcan(2,4,16)' --trials 3 --up-choice rotate >"$tmp/out"
ok "$(grep -q '^up_choice  *rotate' "$tmp/out" && echo 1)" "route text: no up_choice line"

# --- traffic
"$LCAN" traffic 'lcan(2,4,16)' --load 0.2 --warmup 200 --measure 300 --json --up-choice rotate >"$tmp/t" 2>"$tmp/err"
ok "$([ "$(key "$tmp/t" up_choice)" = rotate ] && echo 1)" "traffic up_choice key: $(head -c 200 "$tmp/t") $(cat "$tmp/err")"
"$LCAN" traffic 'lcan(2,4,16)' --load 0.2 --warmup 200 --measure 300 --json >"$tmp/t2" 2>"$tmp/err"
ok "$([ "$(key "$tmp/t2" up_choice)" = uniform ] && echo 1)" "traffic default up_choice"

# --- collective: mnb on CBFT and EBFT, n = 4..64
for h in 2 3 4 5 6; do
  n=$((1 << h))
  cb=$(printf '1%.0s,' $(seq 1 $h)); cb="bft($h;${cb%,})"
  eb=""; for ((i = 0; i < h; i++)); do eb="$eb$((1 << i)),"; done; eb="bft($h;${eb%,})"
  for s in "$cb" "$eb"; do
    "$LCAN" collective "$s" --op mnb --json >"$tmp/f" 2>"$tmp/err"; rcf=$?
    "$LCAN" collective "$s" --op mnb --broadcast tree --json >"$tmp/tr" 2>>"$tmp/err"; rct=$?
    ok "$([ $rcf -eq 0 ] && [ $rct -eq 0 ] && echo 1)" "$s mnb: exit $rcf / $rct: $(cat "$tmp/err")"
    ok "$([ "$(key "$tmp/f" broadcast)" = flood ] && [ "$(key "$tmp/tr" broadcast)" = tree ] && [ "$(key "$tmp/f" up_choice)" = uniform ] && echo 1)" "$s mnb: broadcast / up_choice keys"
    ok "$([ "$(key "$tmp/tr" steps)" -eq $((n + 2 * h - 1)) ] && echo 1)" "$s mnb tree: steps $(key "$tmp/tr" steps), expected n + 2 log2 n - 1 = $((n + 2 * h - 1))"
    ok "$([ "$(key "$tmp/f" deliveries)" -eq $((n * (n - 1))) ] && [ "$(key "$tmp/tr" deliveries)" -eq $((n * n)) ] && echo 1)" "$s mnb: deliveries flood $(key "$tmp/f" deliveries) (n(n-1) = $((n * (n - 1)))), tree $(key "$tmp/tr" deliveries)"
    # the driver's flood queues (spec 8.7): seed 000 Thm 2's n + 1, 4.1's up-queue peaks 2^(i-1)
    ok "$([ "$(key "$tmp/f" steps)" -eq $((n + 1)) ] && [ "$(key "$tmp/f" flood_q)" -eq $n ] && echo 1)" "$s mnb flood: steps $(key "$tmp/f" steps) (n + 1 = $((n + 1))), flood_q $(key "$tmp/f" flood_q) (n)"
    want=$(python3 -c "print([1 << (i - 1) for i in range(1, $h)] + [-1])" | tr -d ' ')
    ok "$([ "$(key "$tmp/f" flood_up | tr -d ' ')" = "$want" ] && echo 1)" "$s mnb flood: flood_up $(key "$tmp/f" flood_up), seed 000 4.1: $want"
    # FLOOD_Q = 0 (spec 8.6: floods wait in the input FIFOs)
    "$LCAN" collective "$s" --op mnb --flood-queue 0 --json >"$tmp/f" 2>"$tmp/err"
    st=$(key "$tmp/f" steps)
    ok "$([ "$st" -ge $((n + 1)) ] && [ "$st" -le $((n + 2 * h - 1)) ] && [ "$(key "$tmp/f" flood_q)" -eq 0 ] && echo 1)" "$s mnb flood FLOOD_Q 0: steps $st below n + 1 = $((n + 1)) or above the tree's"
    [ $n -eq 4 ] && ok "$([ "$st" -eq 5 ] && echo 1)" "$s mnb flood: steps $st, n + 1 = 5"
    ok "$([ "$(key "$tmp/f" flood_up | tr -d ' ')" = "$(python3 -c "print([-1] * $h)" | tr -d ' ')" ] && echo 1)" "$s mnb FLOOD_Q 0: flood_up $(key "$tmp/f" flood_up)"
    ok "$([ "$(key "$tmp/f" correct)" = True ] && echo 1)" "$s mnb flood: not correct"
    ok "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); q=d['queue_peak']; u=d['queue_peak_ub']; sys.exit(0 if len(q)==$h and len(u)==$h and all(0<=a<=b for a,b in zip(q,u)) else 1)" "$tmp/f" && echo 1)" "$s mnb flood: queue_peak $(key "$tmp/f" queue_peak) / $(key "$tmp/f" queue_peak_ub)"
  done
done
"$LCAN" collective 'bft(4;1,1,1,1)' --op bcast --root 5 --json >"$tmp/b" 2>"$tmp/err"
ok "$([ "$(key "$tmp/b" deliveries)" -eq 15 ] && [ "$(key "$tmp/b" steps)" -eq 8 ] && echo 1)" "bcast flood: deliveries $(key "$tmp/b" deliveries) (n - 1 = 15), steps $(key "$tmp/b" steps) (2h = 8)"
"$LCAN" collective 'bft(4;1,1,1,1)' --op bcast --broadcast tree --json >"$tmp/b" 2>"$tmp/err"
ok "$([ "$(key "$tmp/b" deliveries)" -eq 16 ] && echo 1)" "bcast tree: deliveries $(key "$tmp/b" deliveries) (n = 16)"
"$LCAN" collective 'bft(3;1,1,1)' --op mnb --broadcast tree >"$tmp/out"
ok "$(grep -q '^broadcast  *tree' "$tmp/out" && grep -q '^queue_peak ' "$tmp/out" && ! grep -q '^flood queues' "$tmp/out" && echo 1)" "collective text: broadcast / queue_peak lines"
"$LCAN" collective 'bft(3;1,1,1)' --op mnb >"$tmp/out"
ok "$(grep -q 'FLOOD_Q 8' "$tmp/out" && grep -q '^flood queues  *up: 1 2  down: 0 0 0' "$tmp/out" && echo 1)" "collective text: FLOOD_Q / flood queues lines: $(grep -i flood "$tmp/out" | tr '\n' '|')"

# --- hand-over: lockstep and --engine rtl pass --up-choice unchanged
mkdir -p "$tmp/repo/build" "$tmp/repo/tb"
cp "$LCAN" "$tmp/repo/build/lcan"
printf '#!/bin/sh\nfor a in "$0" "$@"; do printf "[%%s]" "$a"; done; echo\nexit 7\n' >"$tmp/repo/tb/lcan-rtl"
chmod +x "$tmp/repo/tb/lcan-rtl"
"$tmp/repo/build/lcan" lockstep cm5 --up-choice rotate >"$tmp/out" 2>"$tmp/err"; rc=$?
ok "$([ $rc -eq 7 ] && [ "$(cat "$tmp/out")" = "[$tmp/repo/tb/lcan-rtl][lockstep][cm5][--up-choice][rotate]" ] && echo 1)" "lockstep hand-over: exit $rc, '$(cat "$tmp/out")'"
"$tmp/repo/build/lcan" route cm5 --engine rtl --up-choice=rotate >"$tmp/out" 2>"$tmp/err"; rc=$?
ok "$([ $rc -eq 7 ] && [ "$(cat "$tmp/out")" = "[$tmp/repo/tb/lcan-rtl][route][cm5][--engine][rtl][--up-choice=rotate]" ] && echo 1)" "route --engine rtl hand-over: exit $rc, '$(cat "$tmp/out")'"
"$tmp/repo/build/lcan" collective cm5 --op mnb --engine icarus --broadcast tree --up-choice rotate >"$tmp/out" 2>"$tmp/err"; rc=$?
ok "$([ $rc -eq 7 ] && [ "$(cat "$tmp/out")" = "[$tmp/repo/tb/lcan-rtl][collective][cm5][--op][mnb][--engine][icarus][--broadcast][tree][--up-choice][rotate]" ] && echo 1)" "collective hand-over: exit $rc, '$(cat "$tmp/out")'"
rm -f "$tmp/repo/tb/lcan-rtl"
"$tmp/repo/build/lcan" lockstep --help >"$tmp/out" 2>"$tmp/err"
ok "$(grep -q -- '--up-choice' "$tmp/out" && echo 1)" "lockstep --help (no tb/lcan-rtl) does not mention --up-choice"

echo "test_cli_upchoice: $pass passed, $fail failed"
[ $fail -eq 0 ]
