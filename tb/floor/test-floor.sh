#!/usr/bin/env bash
# test-floor.sh (make test-floor): tb/floor/lcan_switch22_uni.v, lcan_switch22_ckt.v and
# lcan_switch22_bcast.v are still equal to rtl/lcan_switch for their configurations (k-induction,
# pinned straps and seed, and with them as inputs; the circuit floor with LINK_HOLD 0 and 1; the
# broadcast floor also against lcan_switch's AREA_FORMS = 1), and the proof rejects a wrong switch:
# a mutant that scans the rotated order downwards (r, r-1, ..) for the downer outputs, a circuit
# mutant that puts input 1 first for r = 3 as well as r = 1, a held circuit mutant that loads a
# held output's register on headers only (LINK_HOLD = 1, ckt-held-free: a data flit is lost), and
# a broadcast mutant that does not record upper 2 in input 1's served set (a flooding broadcast
# from child 1 that gets upper 2 is then not consumed and asks for upper 2 again) must fail it.
# Exit 1 on any other outcome.
set -u
cd "$(dirname "$0")/../.."
rc=0
for mode in pinned free ckt-pinned ckt-free ckt-held-pinned ckt-held-free bcast-pinned bcast-free bcast-area-pinned bcast-area-free; do
  tb/floor/prove-floor.sh "$mode" || rc=1
done
mut=$(mktemp /tmp/floor-mutant.XXXXXX.v)
trap 'rm -f "$mut"' EXIT
# reject FILE MODE LOG WHAT SED: the floor FILE with the sed edit SED must fail prove-floor.sh MODE
reject() {
  sed "$5" "$1" > "$mut"
  if cmp -s "$mut" "$1"; then
    echo "test-floor: the mutant ($4) was not made: $1 changed?"; rc=1
  elif GATE="$mut" LOG="build/prove-floor/$3.log" tb/floor/prove-floor.sh "$2" > /dev/null; then
    echo "test-floor: FAIL: the proof accepted a mutant ($4)"; rc=1
  else
    echo "test-floor: the proof rejects a mutant ($4)"
  fi
}
# rotation 1 scans 1, 0, 3, 2 instead of 1, 2, 3, 0
reject tb/floor/lcan_switch22_uni.v pinned mutant "rotation 1 scanned downwards" \
  's/2.d1: pick = q\[1\] ? 2.d1 : q\[2\] ? 2.d2 : q\[3\] ? 2.d3 : 2.d0;/2'"'"'d1: pick = q[1] ? 2'"'"'d1 : q[0] ? 2'"'"'d0 : q[3] ? 2'"'"'d3 : 2'"'"'d2;/'
# the circuit floor: input 1 first for r = 3 as well as for r = 1 (the UP requesters' order)
reject tb/floor/lcan_switch22_ckt.v ckt-free mutant-ckt "input 1 first for r = 3" \
  's/wire f = ~r\[1\] & r\[0\];/wire f = r[0];/'
# the circuit floor with held outputs: a held register loaded on headers only (a data flit lost)
reject tb/floor/lcan_switch22_ckt.v ckt-held-free mutant-ckt-held "held register loaded on headers only" \
  's/                    if (wr\[o\])$/                    if (wr[o] \& ~set_q[o])/'
# the broadcast floor: upper 2's grant to input 1 not recorded in its served set
reject tb/floor/lcan_switch22_bcast.v bcast-free mutant-bcast "upper 2 not recorded as served" \
  's/gu2\[1\], g0\[1\], gu2\[0\], g1\[0\]};/1'"'"'b0, g0[1], gu2[0], g1[0]};/'
[ $rc -eq 0 ] && echo "test-floor: passed" || echo "test-floor: FAILED"
exit $rc
