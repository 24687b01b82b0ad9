#!/usr/bin/env python3
"""Test of scripts/synth/collect.py's cell counts (make synth-quick): on a yosys `stat -json`
"modules" object written out below (the spellings yosys 0.23 writes), a kept submodule is counted
inside the DUT whether it was instantiated with parameters ("$paramod..." as cell type and key) or
without ("name" as cell type, "\\name" as key; before stop 42 the second was left out), a module
instantiated twice counts twice, and the wrapper's own cells are not the DUT's. Prints one line;
exits 1 on a failed check."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import collect  # noqa: E402

MODS = {
    "\\synth_wrap": {"num_cells_by_type": {"SB_LUT4": 5, "SB_DFF": 7, "$paramod\\lcan_switch\\P=4": 1}},
    "$paramod\\lcan_switch\\P=4": {"num_cells_by_type": {"SB_LUT4": 10, "SB_DFFE": 3, "pick_unit": 2,
                                                         "$paramod\\col\\W=8": 1}},
    "\\pick_unit": {"num_cells_by_type": {"SB_LUT4": 4}},
    "$paramod\\col\\W=8": {"num_cells_by_type": {"SB_LUT4": 6}},
}


def main():
    fails = []
    dut, wrap = collect.stat_split({"modules": MODS}, "synth_wrap")
    c = collect.count(dut, "ice40")
    if c["lut"] != 10 + 2 * 4 + 6:
        fails.append("DUT LUTs %d, expected 24 (the switch, two unparametrized units, one column)" % c["lut"])
    if c["ff"] != 3:
        fails.append("DUT flip-flops %d, expected 3" % c["ff"])
    w = collect.count(wrap, "ice40")
    if w["lut"] != 5 or w["ff"] != 7:
        fails.append("wrapper %d LUT / %d FF, expected 5 / 7" % (w["lut"], w["ff"]))
    if collect.submodule(MODS, "SB_LUT4") is not None:
        fails.append("a primitive taken for a submodule")
    for f in fails:
        print("test_collect: FAIL " + f)
    print("test_collect: %d checks, %d failed" % (4, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
