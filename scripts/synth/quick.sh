#!/usr/bin/env bash
# make synth-quick: yosys synth_ice40 of one small switch, (2,2) packet mode, payload 8 (the
# configuration sw-2-2-w8-packet of configs.tsv), then `check -assert` (no combinational loop, no
# multiple or missing drivers), and scripts/synth/attribute.py on its netlist (its sums must be
# stat's counts). Prints two lines; exits non-zero when yosys or the attribution fails, 2 when it is
# missing. Writes nothing but a temporary directory it removes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
YOSYS="${YOSYS:-yosys}"
command -v "$YOSYS" >/dev/null 2>&1 || { echo "synth: $YOSYS not found: run make deps" >&2; exit 2; }
flist="$root/rtl/lcan_network.f"
[ -f "$flist" ] || { echo "synth-quick: $flist not found" >&2; exit 1; }
files=()
while read -r f; do
  f="${f%%#*}"; f="${f//[[:space:]]/}"
  [ -n "$f" ] || continue
  case "$f" in /*) ;; *) f="$root/$f" ;; esac
  files+=("$f")
done < "$flist"
params="$(awk -F'\t' '$1 == "sw-2-2-w8-packet" {print $4}' "$here/configs.tsv")"
chp=""
for kv in $params; do chp="$chp -chparam ${kv%%=*} ${kv#*=}"; done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if ! "$YOSYS" -l "$tmp/yosys.log" -q -p "read_verilog ${files[*]}; hierarchy -check -top lcan_switch $chp;
    synth_ice40 -top lcan_switch -json $tmp/netlist.json; check -assert; tee -q -o $tmp/stat.json stat -json" >/dev/null 2>&1; then
  echo "synth-quick: yosys synth_ice40 of lcan_switch (2,2) packet FAILED; last lines of the log:" >&2
  tail -n 15 "$tmp/yosys.log" >&2
  exit 1
fi
# the switch's module (its kept units, e.g. lcan_xbar_col, are modules of their own beside it)
top="$("${PYTHON:-python3}" -c 'import json,sys; print([k for k in json.load(open(sys.argv[1]))["modules"] if "lcan_switch" in k][0].lstrip(chr(92)))' "$tmp/stat.json")"
"${PYTHON:-python3}" "$here/attribute.py" "$tmp/netlist.json" "$top" --top-is-dut > "$tmp/attr.json"
"${PYTHON:-python3}" - "$tmp/stat.json" "$tmp/attr.json" "$top" "$here" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[4])
import collect
mods = collect.load_stat(sys.argv[1])["modules"]
m = collect.expand(mods, collect.find_module(mods, sys.argv[3]))  # with the kept units' cells
ff = sum(n for t, n in m.items() if t.startswith("SB_DFF"))
print("synth-quick: lcan_switch (2,2) packet, payload 8: synth_ice40 ok: %d SB_LUT4, %d FF, %d SB_CARRY"
      % (m.get("SB_LUT4", 0), ff, m.get("SB_CARRY", 0)))
# attribute.py puts every LUT and flip-flop in exactly one group: its sums are stat's counts, and
# the crossbar's registers (4 outputs x 13 flit bits) are the data path's
a = json.load(open(sys.argv[2]))
lut = a["lut"]
print("synth-quick: LUTs by function (attribute.py): " + ", ".join("%s %d" % kv for kv in sorted(lut.items())))
bad = []
if a["lut_total"] != m.get("SB_LUT4", 0) or sum(lut.values()) != a["lut_total"]:
    bad.append("LUTs %d (sum %d) against stat's %d" % (a["lut_total"], sum(lut.values()), m.get("SB_LUT4", 0)))
if a["ff_total"] != ff:
    bad.append("FFs %d against stat's %d" % (a["ff_total"], ff))
if a["ff"].get("data") != 52 or not lut.get("data") or not lut.get("control"):
    bad.append("want 52 data-path registers and data-path and control LUTs, got %s" % a)
if bad:
    print("synth-quick: attribute.py FAILED: " + "; ".join(bad))
    sys.exit(1)
PY
