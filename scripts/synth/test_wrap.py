#!/usr/bin/env python3
"""Test of scripts/synth/wrap.py (make synth-quick): on a hand-written netlist, the input bits that no
cell reads (also through a module below) are tied to 0 and cost no shift-register flip-flop, the
output bits that are constants (also through a module below) are left out of the XOR tree, and the
rest is wired as before; with --inputs ring the XOR tree's registers drive the inputs. Prints one line; exits 1 on a failed check."""
import io
import json
import os
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrap  # noqa: E402

# sub: inputs a[1:0], b; output y[1:0]. y[0] = a[0] & b (a cell), y[1] = constant 0; a[1] is not read.
# dut: inputs clk, p[2:0], q; outputs o[2:0], r. u = sub(a = p[1:0], b = q, y -> o[1:0]); o[2] =
# constant 1; r = p[2] straight through (an input read by an output port). So the DUT reads p[0],
# p[2], q (sub does not read a[1] = p[1]) and its constant outputs are o[1] (through sub) and o[2].
NETLIST = {"modules": {
    "sub": {
        "ports": {"a": {"direction": "input", "bits": [2, 3]},
                  "b": {"direction": "input", "bits": [4]},
                  "y": {"direction": "output", "bits": [5, "0"]}},
        "cells": {"and0": {"type": "$_AND_", "port_directions": {"A": "input", "B": "input", "Y": "output"},
                           "connections": {"A": [2], "B": [4], "Y": [5]}}},
    },
    "dut": {
        "ports": {"clk": {"direction": "input", "bits": [2]},
                  "p": {"direction": "input", "bits": [3, 4, 5]},
                  "q": {"direction": "input", "bits": [6]},
                  "o": {"direction": "output", "bits": [7, 8, "1"]},
                  "r": {"direction": "output", "bits": [5]}},
        "cells": {"u": {"type": "sub", "connections": {"a": [3, 4], "b": [6], "y": [7, 8]}}},
    },
}}


def run_wrap(options):
    """wrap.py OPTIONS NETLIST dut on NETLIST written to a temporary file: (exit status, stdout)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "netlist.json")
        with open(path, "w") as f:
            json.dump(NETLIST, f)
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            rc = wrap.main(["wrap.py"] + options + [path, "dut"])
    return rc, out.getvalue()


def main():
    fails = []

    def check(cond, what):
        if not cond:
            fails.append(what)

    mods = NETLIST["modules"]
    used = wrap.read_inputs(mods, "dut", {})
    check(used == {"clk": set(), "p": {0, 2}, "q": {0}}, "inputs read: %r" % used)
    const = wrap.constant_outputs(mods, "dut", {})
    check(const == {"o": {1, 2}, "r": set()}, "constant outputs: %r" % const)

    rc, v = run_wrap([])
    check(rc == 0, "wrap.py exit %d" % rc)
    # 3 bits read -> a 3-bit shift register; p's unread bit 1 is 0; q after p's two bits
    check("reg [2:0] sr_q;" in v, "shift register of the 3 bits read")
    check(".p({sr_q[1], 1'b0, sr_q[0]})" in v, "p wired bit by bit, bit 1 tied to 0")
    check(".q(sr_q[2 +: 1])" in v, "q from the shift register after p")
    # o[0] and r (2 bits) into the tree; o's constant bits open
    check("wire [1:0] dut_out;" in v, "2 output bits into the XOR tree")
    check(".o(open_o)" in v and "assign dut_out[0] = open_o[0];" in v, "o[0] into the tree, o[1:2] open")
    check(".r(dut_out[1 +: 1])" in v, "r into the tree after o's live bit")
    check("(1 more the DUT does not read tied to 0)" in v and "(2 more the DUT ties to a constant left open)" in v,
          "header counts")
    # --inputs ring: no shift register; the tree's leaves are {si, o[0], r} (3 -> 1 node), and the
    # three input bits read are all driven by that one register
    rc, r = run_wrap(["--inputs", "ring"])
    check(rc == 0, "wrap.py --inputs ring exit %d" % rc)
    check("reg [2:0] sr_q;" not in r and "wire [2:0] sr_q;" in r, "ring: no shift register")
    check(all("assign sr_q[%d] = x0_q[0];" % k in r for k in range(3)), "ring: inputs from the tree's register")
    check("wire [2:0] leaves = {si, dut_out};" in r and "x0_q[0] <= ^leaves[2:0];" in r, "ring: si a leaf of the tree")
    check("assign so = x0_q[0];" in r, "ring: so from the root")
    bad, _ = run_wrap(["--inputs", "loop"])
    check(bad == 2, "--inputs loop refused (exit %d)" % bad)
    if fails:
        for f in fails:
            print("test_wrap: FAILED: " + f)
        print(v)
        return 1
    print("test_wrap: wrap.py ties 1 unread input bit to 0 and leaves 2 constant output bits open; --inputs ring: 15 checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
