#!/usr/bin/env python3
"""Generate the measurement wrapper `synth_wrap` around one DUT (switch or network).

A switch or a network has far more IO bits than any iCE40/ECP5 package has pins, so the DUT is
placed inside a wrapper with three pins:

  clk  the DUT's clock (every DUT input named `clk`);
  si   serial input: a shift register of IN_W flip-flops (one per DUT input bit the DUT reads, no
       LUTs) drives every other DUT input, so no input is constant and nothing is optimized away;
       an input bit the DUT never reads (in the synthesized netlist: no cell and no output port
       of any module below it takes it, e.g. the fault pins of a network built with FAULTS = 0)
       is tied to 0 instead of costing a flip-flop;
       with `--inputs ring` there is no shift register: si is one more leaf of the XOR tree below,
       and the DUT's input bits are driven, in turn, by the XOR tree's registers (each register
       drives about IN_W / X input bits). The wrapper then costs no flip-flop of its own for the
       inputs: on the iCE40 a flip-flop fed by another flip-flop takes a whole logic cell (its LUT
       a pass-through), so the shift register costs IN_W cells, which is what a switch's inputs
       cost its neighbours' output registers inside a network, not the switch. For a DUT that
       nearly fills the device (the (8,8) switch, docs/synthesis.md 25); the DUT is the same
       netlist either way (it is kept as its own module);
  so   serial output: every DUT output bit enters a pipelined XOR tree (one LUT4 = 4-input XOR
       per node, a register after every node), so every output is observable and no path in the
       wrapper has more than one LUT between registers: the wrapper never sets Fmax. An output
       bit the DUT ties to a constant (in the netlist, also through the modules below it: e.g.
       the counters and debug view of OBSERVE = 0) is left open: yosys cannot see through the
       kept DUT that it is constant, and its XOR nodes would cost LUTs that measure nothing.

The DUT instance carries (* keep_hierarchy *): yosys optimizes nothing across its boundary and
`stat` reports the DUT's cells and the wrapper's cells separately (scripts/synth/run-one.sh
subtracts nothing: it reads the DUT module's own count). The wrapper costs exactly IN_W + X
flip-flops and X LUT4s (`--inputs ring`: X flip-flops and X LUT4s), X = number of XOR tree nodes
(about OUT_W/3), IN_W and OUT_W the input bits read and output bits not constant.

usage: wrap.py [--inputs shift|ring] NETLIST.json TOP 'NAME=VALUE' ... > synth_wrap.v
NETLIST.json is yosys `write_json` of the synthesized DUT (its modules, cells and ports); VALUEs
are Verilog constants.
"""
import json
import sys


def read_inputs(modules, name, memo):
    """{port: set of bit indices} of module `name`'s input bits that something inside reads: a cell's
    input (for an instance of another module of the netlist, an input bit that module reads) or an
    output port of the module."""
    if name in memo:
        return memo[name]
    mod = modules[name]
    read = set()
    for p in mod["ports"].values():
        if p["direction"] == "output":
            read.update(b for b in p["bits"] if isinstance(b, int))
    for cell in mod.get("cells", {}).values():
        sub = cell["type"]
        if sub in modules:
            used = read_inputs(modules, sub, memo)
            for port, bits in cell["connections"].items():
                if modules[sub]["ports"][port]["direction"] != "output":
                    read.update(b for i, b in enumerate(bits) if isinstance(b, int) and i in used[port])
        else:
            dirs = cell.get("port_directions", {})
            for port, bits in cell["connections"].items():
                if dirs.get(port, "input") != "output":
                    read.update(b for b in bits if isinstance(b, int))
    memo[name] = {port: {i for i, b in enumerate(p["bits"]) if b in read}
                  for port, p in mod["ports"].items() if p["direction"] == "input"}
    return memo[name]


def constant_outputs(modules, name, memo):
    """{port: set of bit indices} of module `name`'s output bits that are constants: a constant in
    the netlist, or an output of an instance of another module of the netlist that is one there."""
    if name in memo:
        return memo[name]
    mod = modules[name]
    const_nets = set()
    for cell in mod.get("cells", {}).values():
        sub = cell["type"]
        if sub in modules:
            const = constant_outputs(modules, sub, memo)
            for port, bits in cell["connections"].items():
                if modules[sub]["ports"][port]["direction"] == "output":
                    const_nets.update(b for i, b in enumerate(bits) if i in const[port])
    memo[name] = {port: {i for i, b in enumerate(p["bits"]) if not isinstance(b, int) or b in const_nets}
                  for port, p in mod["ports"].items() if p["direction"] == "output"}
    return memo[name]


def main(argv):
    inputs = "shift"
    if len(argv) >= 3 and argv[1] == "--inputs":
        inputs = argv[2]
        argv = argv[:1] + argv[3:]
        if inputs not in ("shift", "ring"):
            sys.stderr.write("wrap: --inputs %s: use shift or ring\n" % inputs)
            return 2
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    ports_json, top, params = argv[1], argv[2], argv[3:]
    with open(ports_json) as f:
        modules = json.load(f)["modules"]
    mod = modules[top]
    used = read_inputs(modules, top, {})
    ins, outs = [], []
    for name, p in mod["ports"].items():
        width = len(p["bits"])
        if p["direction"] == "input":
            ins.append((name, width))
        elif p["direction"] == "output":
            outs.append((name, width))
        else:
            sys.stderr.write("wrap: port %s of %s is %s: not supported\n" % (name, top, p["direction"]))
            return 1
    # strap inputs of lcan_switch (label, salt) are constants in a network: tie them off so that
    # synthesis folds them as it does inside lcan_network (label 0: the LCA compare stays real logic)
    straps = {"label": "0", "salt": "32'h6A09E667"}
    data_ins = [(n, w) for (n, w) in ins if n != "clk" and n not in straps]
    in_w = sum(len(used[n]) for n, _ in data_ins)
    unread_w = sum(w for _, w in data_ins) - in_w
    const = constant_outputs(modules, top, {})
    out_w = sum(w - len(const[n]) for n, w in outs)
    const_w = sum(len(const[n]) for n, _ in outs)
    if out_w == 0:
        sys.stderr.write("wrap: %s has no outputs\n" % top)
        return 1

    L = []
    L.append("// Generated by scripts/synth/wrap.py for %s %s: do not edit." % (top, " ".join(params)))
    L.append("// %d DUT input bits from %s (%d more the DUT does not read tied to 0), "
             "%d DUT output bits into a pipelined XOR tree (%d more the DUT ties to a constant left "
             "open)." % (in_w, "a shift register" if inputs == "shift" else "the XOR tree's registers",
                         unread_w, out_w, const_w))
    L.append("`default_nettype none")
    L.append("module synth_wrap (")
    L.append("  input  wire clk,")
    L.append("  input  wire si,")
    L.append("  output wire so")
    L.append(");")
    sr_w = max(in_w, 1)
    # the XOR tree's stages: leaves (the DUT's outputs, and si with --inputs ring), then ceil(n/4)
    # registered nodes per stage down to one
    leaves = out_w + (1 if inputs == "ring" else 0)
    stages = []
    n = leaves
    while True:
        n = (n + 3) // 4
        stages.append(n)
        if n == 1:
            break
    if inputs == "shift":
        L.append("  reg [%d:0] sr_q;" % (sr_w - 1))
        if sr_w > 1:
            L.append("  always @(posedge clk) sr_q <= {sr_q[%d:0], si};" % (sr_w - 2))
        else:
            L.append("  always @(posedge clk) sr_q <= si;")
    else:
        # input bit k from the k-th tree register, round robin over all stages' registers
        regs = ["x%d_q[%d]" % (st, i) for st, m in enumerate(stages) for i in range(m)]
        L.append("  wire [%d:0] sr_q;" % (sr_w - 1))
        for k in range(sr_w):
            L.append("  assign sr_q[%d] = %s;" % (k, regs[k % len(regs)]))
        for st, m in enumerate(stages):
            L.append("  reg [%d:0] x%d_q;" % (m - 1, st))
    L.append("  wire [%d:0] dut_out;" % (out_w - 1))
    conns = []
    off = 0
    for n, w in ins:
        if n == "clk":
            conns.append("    .clk(clk)")
        elif n in straps:
            conns.append("    .%s(%s)" % (n, straps[n] if straps[n] != "0" else "%d'd0" % w))
        elif len(used[n]) == w:
            conns.append("    .%s(sr_q[%d +: %d])" % (n, off, w))
            off += w
        else:
            # bits from the top down: the shift register's bits for the bits read (in ascending
            # order from off), 0 for the rest
            sr_bit = {i: off + k for k, i in enumerate(sorted(used[n]))}
            parts = ["sr_q[%d]" % sr_bit[i] if i in sr_bit else "1'b0" for i in reversed(range(w))]
            off += len(sr_bit)
            conns.append("    .%s({%s})" % (n, ", ".join(parts)))
    off = 0
    opens = []
    for n, w in outs:
        if not const[n]:
            conns.append("    .%s(dut_out[%d +: %d])" % (n, off, w))
            off += w
        else:
            # the constant bits go to a wire nothing reads; the rest into the XOR tree
            live = [i for i in range(w) if i not in const[n]]
            opens.append("  wire [%d:0] open_%s;" % (w - 1, n))
            conns.append("    .%s(open_%s)" % (n, n))
            for k, i in enumerate(live):
                opens.append("  assign dut_out[%d] = open_%s[%d];" % (off + k, n, i))
            off += len(live)
    ptxt = ""
    if params:
        ps = []
        for p in params:
            k, v = p.split("=", 1)
            ps.append(".%s(%s)" % (k, v))
        ptxt = " #(" + ", ".join(ps) + ")"
    L.append("  (* keep_hierarchy *)")
    L.append("  %s%s u_dut (" % (top, ptxt))
    L.append(",\n".join(conns))
    L.append("  );")
    L.extend(opens)
    # pipelined XOR tree: stage s reduces n bits to ceil(n/4) registered bits
    if inputs == "ring":
        L.append("  wire [%d:0] leaves = {si, dut_out};" % out_w)
        prev = "leaves"
    else:
        prev = "dut_out"
    n = leaves
    for st, m in enumerate(stages):
        cur = "x%d_q" % st
        if inputs == "shift":
            L.append("  reg [%d:0] %s;" % (m - 1, cur))
        L.append("  always @(posedge clk) begin")
        for i in range(m):
            lo, hi = 4 * i, min(4 * i + 4, n)
            L.append("    %s[%d] <= ^%s[%d:%d];" % (cur, i, prev, hi - 1, lo))
        L.append("  end")
        n, prev = m, cur
    L.append("  assign so = %s[0];" % prev)
    L.append("endmodule")
    L.append("`resetall")
    sys.stdout.write("\n".join(L) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
