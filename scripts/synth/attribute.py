#!/usr/bin/env python3
"""Where the LUTs go: attribute every LUT of a synthesized DUT to the function it serves.

Usage: attribute.py NETLIST.json TOP [--names] [--top-is-dut]

NETLIST.json is yosys's write_json of the iCE40 netlist (run-one.sh writes it after synth_ice40);
TOP the wrapper's top module (synth_wrap). The DUT is every module below TOP, each counted once per
instance (TOP itself when it instantiates none, or with --top-is-dut: a DUT synthesized on its own,
quick.sh, whose kept units are modules below it). Every flip-flop
(SB_DFF*) is put in a group by the RTL name of the register it implements (yosys names the cell
after it), and every LUT by the flip-flop pins its output reaches through other LUTs and carries
(not through a submodule instance: its input pins count as registers, below):

  data         a switch's output flit registers (tx_flit), data pin only: the crossbar's
               multiplexers, what section 6's bound counts
  fifo_data    the input FIFOs' storage (lcan_fifo mem_q, flood queues' mem_q), data pin only
  lfsr         the LFSR, sigma and the offsets (lcan_lfsr, g_sigma, r_in / r_up / r_dn)
  observation  the counters (acc_*, *_ev_q)
  control      everything else: valid bits, credits, FIFO counts and pointers, served sets,
               circuit state, the route decision and the allocator (a LUT that serves several
               groups, or the enable of a data register, is control too)
  network      registers of lcan_network itself (leaf injection / ejection registers)

A module's output ports, and the input pins of a submodule instance, count as registers of a group
by their port name: cnt_* and dbg* (counters, debug view) observation, seed and salt (a switch's
LFSR seed, which lcan_network mixes from the network's seed) lfsr, *flit* data (a network's
ejection flits, which its switches' registers drive), the rest control. Prints JSON: {"lut": {group: n}, "ff": {group: n}, "lut_total": n, "ff_total": n};
with --names, the flip-flop names per group instead (to check the patterns on a new RTL). Exit 1
with one line on a malformed netlist or a missing TOP.
"""
import collections
import json
import re
import sys

# (group, pattern on a register's hierarchical RTL name), first match wins
GROUPS = [
    ("observation", re.compile(r"(^|\.)(acc_\w+|\w+_ev_q)(\[|$)")),
    ("lfsr", re.compile(r"(^|\.)(u_lfsr|lfsr_\w+|g_sigma|sig_\w+|up_perm\w*|r_in\w*|r_up\w*|r_dn\w*)(\.|\[|$)")),
    ("fifo_data", re.compile(r"(^|\.)mem_q(\[|$)")),
    ("data", re.compile(r"(^|\.)tx_flit(_q)?(\[|$)")),
]
DATA_GROUPS = ("data", "fifo_data")


def port_group(name):
    """The group of a module's output port or a submodule instance's input pin, by its name."""
    if re.match(r"(cnt_|dbg)", name):
        return "observation"
    if name in ("seed", "salt"):
        return "lfsr"
    return "data" if "flit" in name else "control"


def die(msg):
    print(f"attribute: {msg}", file=sys.stderr)
    sys.exit(1)


def register_names(cell_name, net_names):
    """The RTL names of the register a flip-flop implements: yosys names the cell after it
    (u_lfsr.s_q_SB_DFF_Q_3 -> u_lfsr.s_q); else (an internal cell name) the names of its Q net,
    which also include the wires the register drives (the debug view's bus, for one)."""
    if not cell_name.startswith("$"):
        return [re.sub(r"_SB_DFF\w*$", "", cell_name)]
    return [n for n in net_names if not n.startswith("$")]


def group_of(names, in_network):
    """A register's group: the first group one of its names matches."""
    for g, rx in GROUPS:
        if any(rx.search(n) for n in names):
            return g
    return "network" if in_network else "control"


def attribute_module(mod, in_network, modules):
    """(LUT counts, FF counts, FF names per group) of one module's own cells; modules: the names of
    the netlist's modules (a cell of one of those types is a submodule instance, not logic)."""
    names = collections.defaultdict(list)
    for nn, nd in mod.get("netnames", {}).items():
        if nd.get("hide_name"):
            continue
        for b in nd["bits"]:
            names[b].append(nn)
    cells = mod.get("cells", {})
    sinks = collections.defaultdict(list)
    for cn, c in cells.items():
        for p, bits in c.get("connections", {}).items():
            if c.get("port_directions", {}).get(p) == "input":
                for b in bits:
                    sinks[b].append((cn, p))
    out_group = {}
    for pn, pd in mod.get("ports", {}).items():
        if pd["direction"] == "output":
            g = port_group(pn)
            for b in pd["bits"]:
                out_group[b] = g
    ff_group, ff_names = {}, collections.defaultdict(set)
    for cn, c in cells.items():
        if c["type"].startswith("SB_DFF"):
            q = c["connections"]["Q"][0]
            rn = register_names(cn, names.get(q, []))
            g = group_of(rn, in_network)
            ff_group[cn] = g
            ff_names[g].add(re.sub(r"\[\d+\]$", "", min(rn, key=len)) if rn else cn)
    memo = {}

    def reach(cn):  # the groups (with the pin kind) that cell cn's outputs reach
        if cn in memo:
            return memo[cn]
        memo[cn] = frozenset()
        out = set()
        c = cells[cn]
        for p, bits in c["connections"].items():
            if c.get("port_directions", {}).get(p) != "output":
                continue
            for b in bits:
                if b in out_group:
                    out.add((out_group[b], "D"))
                for sc, sp in sinks.get(b, []):
                    t = cells[sc]["type"]
                    if t.startswith("SB_DFF"):
                        out.add((ff_group[sc], "D" if sp == "D" else "ctl"))
                    elif t not in modules or t.startswith("SB_"):  # a LUT, a carry, an internal cell
                        out |= reach(sc)
                    else:  # a submodule instance's input pin
                        out.add((port_group(sp), "D"))
        memo[cn] = frozenset(out)
        return memo[cn]

    sys.setrecursionlimit(max(10000, 4 * len(cells)))
    lut = collections.Counter()
    for cn, c in cells.items():
        if c["type"] != "SB_LUT4":
            continue
        r = reach(cn)
        gs = {g for g, _ in r}
        if len(gs) == 1:
            g = next(iter(gs))
            kinds = {k for _, k in r}
            lut[g if (g not in DATA_GROUPS or kinds == {"D"}) else "control"] += 1
        else:
            lut["control"] += 1
    return lut, collections.Counter(ff_group.values()), ff_names


def main(argv):
    if len(argv) < 3:
        die("usage: attribute.py NETLIST.json TOP [--names] [--top-is-dut]")
    try:
        with open(argv[1]) as f:
            mods = json.load(f)["modules"]
    except (OSError, ValueError, KeyError) as e:
        die(f"cannot read the netlist {argv[1]}: {e}")
    top = argv[2]
    if top not in mods:
        die(f"no module {top} in {argv[1]}")
    # instances of each module below TOP (TOP's own cells are the wrapper's, not counted)
    count = collections.Counter()
    network = set()

    def walk(m, k):
        for c in mods[m].get("cells", {}).values():
            t = c["type"]
            if t in mods and mods[t].get("cells") is not None and not t.startswith("SB_"):
                count[t] += k
                if "lcan_network" in t:
                    network.add(t)
                walk(t, k)

    walk(top, 1)
    # a DUT synthesized as the top itself (quick.sh: --top-is-dut; flat, or with kept units below it)
    if not count or "--top-is-dut" in argv[3:]:
        count[top] += 1
        if "lcan_network" in top:
            network.add(top)
    lut, ff, names = collections.Counter(), collections.Counter(), collections.defaultdict(set)
    for m, k in count.items():
        lm, fm, nm = attribute_module(mods[m], m in network, mods)
        for g, n in lm.items():
            lut[g] += n * k
        for g, n in fm.items():
            ff[g] += n * k
        for g, s in nm.items():
            names[g] |= s
    if "--names" in argv[3:]:
        print(json.dumps({g: sorted(s) for g, s in sorted(names.items())}, indent=1))
        return
    print(json.dumps({"lut": dict(sorted(lut.items())), "ff": dict(sorted(ff.items())),
                      "lut_total": sum(lut.values()), "ff_total": sum(ff.values())}))


if __name__ == "__main__":
    main(sys.argv)
