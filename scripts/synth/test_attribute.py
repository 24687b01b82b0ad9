#!/usr/bin/env python3
"""Test of scripts/synth/attribute.py (make synth-quick): on a hand-written iCE40 netlist whose
answer is worked out below, every LUT lands in the group of the registers it feeds, a LUT feeding
two groups or a data register's enable is control, a chain through a carry is followed and one
into a submodule instance stops at its pin (grouped by the pin's name), a module instantiated twice
counts twice, the wrapper's own cells are not counted, and a register is named by its cell (not by
a debug wire on its Q net). Prints one line; exits 1 on a failed check."""
import io
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def lut(i0, o):
    return {"type": "SB_LUT4", "port_directions": {"I0": "input", "I1": "input", "I2": "input", "I3": "input",
                                                   "O": "output"},
            "connections": {"I0": [i0], "I1": ["0"], "I2": ["0"], "I3": ["0"], "O": [o]}}


def ff(d, q, e=None, kind="SB_DFF"):
    c = {"type": kind, "port_directions": {"C": "input", "D": "input", "Q": "output"},
         "connections": {"C": [2], "D": [d], "Q": [q]}}
    if e is not None:
        c["port_directions"]["E"] = "input"
        c["connections"]["E"] = [e]
    return c


# switch (bits: 2 clk, 3 input a, 10.. internal):
#   L1: a -> tx_flit_q.D                              data path (crossbar)
#   L2: a -> tx_flit_q.E and cr_q.D                   control (a data register's enable, two groups)
#   L3 -> carry -> L4 -> u_lfsr.s_q.D                 lfsr (through a carry)
#   L5: a -> cr_q.D                                   control
#   L6: a -> output port cnt_up                       observation (a counter port)
#   L7: a -> acc_up_q.D                               observation
#   L8: a -> tx_flit_q.D, also named dbg_view         data path
#   L9: a -> tx_flit_q.E only                         control (a data register's enable)
#   dbg: the Q net of cr_q is also called dbg_view[0]: cr_q stays control
SWITCH = {
    "ports": {"clk": {"direction": "input", "bits": [2]}, "a": {"direction": "input", "bits": [3]},
              "cnt_up": {"direction": "output", "bits": [16]}},
    "netnames": {"dbg_view": {"hide_name": 0, "bits": [21]}, "tx_flit": {"hide_name": 0, "bits": [20]}},
    "cells": {
        "L1": lut(3, 10), "tx_flit_q_SB_DFFE_Q": ff(10, 20, e=11, kind="SB_DFFE"),
        "L2": lut(3, 11),
        "L3": lut(3, 12),
        "C1": {"type": "SB_CARRY", "port_directions": {"I0": "input", "I1": "input", "CI": "input", "CO": "output"},
               "connections": {"I0": [12], "I1": ["0"], "CI": ["0"], "CO": [13]}},
        "L4": lut(13, 14), "u_lfsr.s_q_SB_DFF_Q": ff(14, 22),
        "L5": lut(3, 15), "g_out[0].cr_q_SB_DFF_Q": ff(15, 21),
        "L6": lut(3, 16),
        "L7": lut(3, 17), "acc_up_q_SB_DFF_Q": ff(17, 23),
        "L8": lut(3, 18), "tx_flit_q_SB_DFFE_Q_1": ff(18, 24, e=26, kind="SB_DFFE"),
        "L9": lut(3, 26),
        "L2b": lut(11, 19),  # L2 also feeds cr_q's data through L2b
        "g_out[0].cr_q_SB_DFF_Q_1": ff(19, 25),
    },
}
# network (found by its name, "lcan_network" in it): two switch instances (named and with port
# directions as yosys writes a parameterized module: SW) and
#   N1: x -> inj_flit_q.D                              network
#   N2: x -> s1.a only (s1.cnt_up -> ej_q, a network register): control (pin a's group); the walk
#       does not go through a switch instance
#   N3: x -> s1.seed only: lfsr (pin seed's group)
SW = "$paramod$0123\\lcan_switch"
SW_DIRS = {"clk": "input", "a": "input", "seed": "input", "cnt_up": "output"}
NETWORK = {
    "ports": {"clk": {"direction": "input", "bits": [2]}, "x": {"direction": "input", "bits": [3]}},
    "cells": {"s0": {"type": SW, "port_directions": SW_DIRS, "connections": {"clk": [2], "a": [3], "cnt_up": [30]}},
              "s1": {"type": SW, "port_directions": SW_DIRS, "connections": {"clk": [2], "a": [40], "seed": [42], "cnt_up": [31]}},
              "N1": lut(3, 32), "g_inj[0].inj_flit_q_SB_DFF_Q": ff(32, 33),
              "N2": lut(3, 40), "g_ej[0].ej_q_SB_DFF_Q": ff(31, 41), "N3": lut(3, 42)},
}
TOP = {"ports": {"clk": {"direction": "input", "bits": [2]}},
       "cells": {"u_dut": {"type": "lcan_network_net", "connections": {"clk": [2], "x": [5]}},
                 "W1": lut(2, 5), "sr_q_SB_DFF_Q": ff(5, 6)}}
NETLIST = {"modules": {SW: SWITCH, "lcan_network_net": NETWORK, "synth_wrap": TOP,
                       "SB_LUT4": {"ports": {}, "cells": {}}}}

EXPECT = {"lut": {"data": 4, "control": 9, "lfsr": 5, "observation": 4, "network": 1},
          "ff": {"data": 4, "control": 4, "lfsr": 2, "observation": 2, "network": 2},
          "lut_total": 23, "ff_total": 14}


def main():
    fails = []
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "n.json")
        with open(p, "w") as f:
            json.dump(NETLIST, f)
        r = subprocess.run([sys.executable, os.path.join(HERE, "attribute.py"), p, "synth_wrap"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fails.append("attribute.py failed: " + r.stderr.strip())
        else:
            got = json.load(io.StringIO(r.stdout))
            for k, v in EXPECT.items():
                if got.get(k) != v:
                    fails.append("%s: got %s, want %s" % (k, got.get(k), v))
        bad = subprocess.run([sys.executable, os.path.join(HERE, "attribute.py"), p, "nosuchtop"],
                             capture_output=True, text=True)
        if bad.returncode != 1 or len(bad.stderr.strip().splitlines()) != 1:
            fails.append("a missing top: want exit 1 and one line, got %d: %r" % (bad.returncode, bad.stderr))
    for f in fails:
        print("test_attribute: FAIL " + f)
    print("test_attribute: %d checks, %d failed" % (len(EXPECT) + 1, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
