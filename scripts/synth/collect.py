#!/usr/bin/env python3
"""Gather one configuration's synthesis numbers into JSON (stdout).

usage: collect.py DIR NAME LABEL TOP 'PARAMS'
       collect.py --check-cache OUTDIR   (remove every broken OUTDIR/NAME/result.json, one line each)
DIR holds what scripts/synth/run-one.sh left there: generic.stat.json, ice40.stat.json,
ice40-pnr.json / ice40-pnr.log, ice40.attr.json (attribute.py), optionally ecp5.stat.json /
ecp5-pnr.json / ecp5-pnr.log, times.txt. Also computes the shape of the DUT (ports, flit width, switches) and the crossbar
lower bound of docs/synthesis.md ("The crossbar bound").
"""
import json
import os
import re
import sys

# the repository (scripts/synth/..)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def clog2(x):
    b = 0
    while (1 << b) < x:
        b += 1
    return b


def load(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def load_stat(path):
    """yosys `stat -json`; Yosys 0.23 writes broken JSON after the "modules" object for a design
    with hierarchy (a trailing comma, or the text hierarchy table): only "modules" is read."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        s = f.read()
    try:
        return {"modules": json.loads(s)["modules"]}
    except ValueError:
        i = s.index("{", s.index('"modules"'))
        mods, _ = json.JSONDecoder().raw_decode(s, i)
        return {"modules": mods}


def submodule(mods, t):
    """The key of mods that cell type t instantiates, or None for a primitive. A module instantiated
    with parameters is "$paramod..." both as a cell type and as a key; one without is "\\name" as a
    cell type and may be "name" as a key (yosys 0.23's stat -json), so both spellings are tried."""
    if t in mods:
        return t
    if t.startswith("\\") and t[1:] in mods:
        return t[1:]
    if "\\" + t in mods:
        return "\\" + t
    return None


def expand(mods, name, memo=None):
    """Cell types of module `name` with every submodule instance replaced by its own cells."""
    memo = {} if memo is None else memo
    if name in memo:
        return memo[name]
    out = {}
    for t, n in mods[name]["num_cells_by_type"].items():
        sub = submodule(mods, t)
        if sub is not None:
            for t2, n2 in expand(mods, sub, memo).items():
                out[t2] = out.get(t2, 0) + n * n2
        else:
            out[t] = out.get(t, 0) + n
    memo[name] = out
    return out


def find_module(mods, top):
    for key in mods:
        if key == top or key == "\\" + top:
            return key
    return None


def mux_luts(k):
    """Fewest LUT4s in any LUT network computing one bit of a k-way select (docs/synthesis.md)."""
    if k <= 1:
        return 0
    n = k + clog2(k)            # k data inputs + ceil(log2 k) select inputs
    return -(-(n - 1) // 3)     # ceil((n - 1) / 3)


def parse_params(params):
    out = {}
    for kv in params.split():
        k, v = kv.split("=", 1)
        out[k] = [int(x) for x in v.split(",")] if "," in v else int(v)
    return out


def is_switch(top):
    """A row whose DUT is one switch: lcan_switch, or a hand-written switch of tb/floor (a floor
    measurement with lcan_switch's ports: tb/floor/TOP.v exists, the rule run-one.sh reads it by)."""
    return top == "lcan_switch" or os.path.isfile(os.path.join(ROOT, "tb", "floor", top + ".v"))


def shape(top, p):
    """Switches as (count, D, U) per level, flit width, payload width, leaf ports."""
    pw = p["PAYLOAD_W"]
    if is_switch(top):
        d, u = p["M_L"] * p["P_DN"], p["W_UP"] * p["P_UP"]
        return {"levels": [(1, d, u)], "fw": 2 + p["ADDR_W"] + pw, "payload_w": pw,
                "d": d, "u": u, "leaf_ports": None}
    h, m, w, pp = p["H"], p["M"], p["W"], p["P"]
    m = m if isinstance(m, list) else [m]
    w = w if isinstance(w, list) else [w]
    pp = pp if isinstance(pp, list) else [pp]
    levels = []
    for l in range(1, h + 1):
        s = 1
        for j in range(l):
            s *= w[j]
        for j in range(l, h):
            s *= m[j]
        d = m[l - 1] * pp[l - 1]
        u = w[l] * pp[l] if l < h else 0
        levels.append((s, d, u))
    n = 1
    for x in m:
        n *= x
    addr_w = sum(clog2(x) for x in m)
    return {"levels": levels, "fw": 2 + addr_w + pw, "payload_w": pw, "d": None, "u": None,
            "leaf_ports": n * w[0] * pp[0]}


FF_PREFIX = ("SB_DFF", "TRELLIS_FF")


def count(cells, kind):
    """cells: num_cells_by_type of one module."""
    c = {"lut": 0, "ff": 0, "carry": 0, "bram": 0, "other": 0}
    for t, n in cells.items():
        if t in ("SB_LUT4", "LUT4"):
            c["lut"] += n
        elif t.startswith(FF_PREFIX):
            c["ff"] += n
        elif t in ("SB_CARRY", "CCU2C"):
            c["carry"] += n
        elif t.startswith("SB_RAM40") or t in ("DP16KD", "PDPW16KD"):
            c["bram"] += n
        elif t in ("TRELLIS_DPR16X4", "PFUMX", "L6MUX21"):
            pass  # ECP5 LUT RAM and LUT-combining muxes: counted below
        elif t.startswith(("$paramod", "$scopeinfo", "\\", "lcan_")):
            pass  # the DUT instance inside the wrapper; scope annotations
        else:
            c["other"] += n
    if kind == "ecp5":
        c["lutram"] = cells.get("TRELLIS_DPR16X4", 0)
        c["mux"] = cells.get("PFUMX", 0) + cells.get("L6MUX21", 0)
    return c


def stat_split(stat, top):
    """(DUT cell types, wrapper cell types) from yosys `stat -json` of synth_wrap: the whole
    hierarchy expanded (a network keeps one module per switch), less the wrapper's own cells."""
    mods = stat["modules"]
    w = find_module(mods, "synth_wrap")
    wrap = {t: n for t, n in mods[w]["num_cells_by_type"].items() if submodule(mods, t) is None}
    total = expand(mods, w)
    dut = {t: n - wrap.get(t, 0) for t, n in total.items()}
    return {t: n for t, n in dut.items() if n}, wrap


NAME_CUT = re.compile(r"(_SB_|_TRELLIS_|_LUT4_|_CCU2C_|_PFUMX|_L6MUX|\$|_DFFLC$|_LC$|_CARRY)")


def short(cell):
    m = NAME_CUT.search(cell)
    return cell[:m.start()] if m and m.start() > 0 else cell


def critical(report):
    """Start, end, LUT levels and delays of the worst posedge->posedge path."""
    paths = [p for p in report.get("critical_paths", [])
             if p.get("from", "").startswith("posedge") and p.get("to", "").startswith("posedge")]
    if not paths:
        return None
    p = paths[0]["path"]
    logic = [s for s in p if s["type"] == "logic"]
    carries = sum(1 for s in logic if "CARRY" in s["to"]["cell"] or "CCU2" in s["to"]["cell"]
                  or s["to"]["port"] in ("COUT", "COUT0", "COUT1"))
    start = p[0]["to"]["cell"] if p[0]["type"] == "clk-to-q" else p[0]["from"]["cell"]
    via = []
    for s in logic:
        n = short(s["to"]["cell"])
        if n not in via:
            via.append(n)
    return {
        "via": via,
        "start": short(start),
        "end": short(p[-1]["to"]["cell"]),
        "luts": len(logic) - carries,
        "carries": carries,
        "logic_ns": round(sum(s["delay"] for s in p if s["type"] in ("logic", "clk-to-q", "setup")), 2),
        "route_ns": round(sum(s["delay"] for s in p if s["type"] == "routing"), 2),
    }


def pnr(report, log):
    r = {"status": "not run"}
    if report is not None:
        fm = list(report.get("fmax", {}).values())
        r["status"] = "ok"
        r["fmax_mhz"] = round(fm[0]["achieved"], 2) if fm else None
        r["util"] = {k: v for k, v in report.get("utilization", {}).items() if v["used"]}
        r["critical"] = critical(report)
    elif log is not None:
        err = [ln.strip() for ln in log.splitlines() if ln.startswith("ERROR") or "timeout after" in ln]
        r["status"] = "timeout" if any("timeout after" in e for e in err) else "failed"
        r["error"] = err[0] if err else "nextpnr failed (no ERROR line)"
        # nextpnr prints the utilisation before it gives up: "ICESTORM_LC:  8980/ 7680   116%"
        for ln in log.splitlines():
            m = re.search(r"(ICESTORM_LC|TRELLIS_COMB|TRELLIS_SLICE):\s*(\d+)/\s*(\d+)\s+(\d+)%", ln)
            if m:
                r["need"] = {"cell": m.group(1), "used": int(m.group(2)), "available": int(m.group(3)),
                             "percent": int(m.group(4))}
    return r


def gather(d, name, label, top, params):
    """All numbers of one configuration from the files run-one.sh left in directory d."""
    p = parse_params(params)
    sh = shape(top, p)
    switches = sum(s for s, _, _ in sh["levels"])
    ports = sum(s * (dn + up) for s, dn, up in sh["levels"])
    bound = sum(s * sh["fw"] * (dn * mux_luts(dn + up) + up * mux_luts(dn))
                for s, dn, up in sh["levels"])
    res = {"name": name, "label": label, "top": top, "params": params, "mode": p.get("MODE"),
           "payload_w": sh["payload_w"], "fw": sh["fw"], "d": sh["d"], "u": sh["u"],
           "switches": switches, "switch_ports": ports, "leaf_ports": sh["leaf_ports"],
           "levels": sh["levels"], "xbar_bound_luts": bound}

    g = load_stat(os.path.join(d, "generic.stat.json"))
    gt = find_module(g["modules"], top) if g else None
    if gt:
        cells = expand(g["modules"], gt)
        n = sum(cells.values())
        ff = sum(k for t, k in cells.items() if "DFF" in t)
        res["generic"] = {"cells": n, "ff": ff, "logic": n - ff}

    times = {}
    tp = os.path.join(d, "times.txt")
    if os.path.exists(tp):
        for ln in open(tp):
            step, ms, rc = ln.split()
            times[step] = {"s": round(int(ms) / 1000.0, 1), "rc": int(rc)}
    res["times"] = times

    for fam in ("ice40", "ecp5"):
        st = load_stat(os.path.join(d, fam + ".stat.json"))
        if st is None:
            if fam + "-synth" in times:  # ran and failed or timed out
                lp = os.path.join(d, fam + "-synth.log")
                err = [ln.strip() for ln in open(lp) if ln.startswith("ERROR")] if os.path.exists(lp) else []
                t = times[fam + "-synth"]
                msg = ("yosys did not finish in %.0f s (SYNTH_TIMEOUT)" % t["s"]) if t["rc"] == 124 else \
                    (err[0] if err else "yosys failed (rc %d)" % t["rc"])
                res[fam] = {"synth_error": msg, "pnr": {"status": "not run", "error": msg}}
            continue
        dut, wrap = stat_split(st, top)
        logp = os.path.join(d, fam + "-pnr.log")
        log = open(logp).read() if os.path.exists(logp) else None
        if fam + "-pnr" in times and times[fam + "-pnr"]["rc"] == 124 and log is not None:
            log += "\ntimeout after %ss\n" % times[fam + "-pnr"]["s"]
        res[fam] = {"dut": count(dut or {}, fam), "wrapper": count(wrap or {}, fam),
                    "pnr": pnr(load(os.path.join(d, fam + "-pnr.json")), log)}
        sp = os.path.join(d, fam + "-pnr.seeds")  # run-one.sh: the seeds run, the last one's result kept
        if os.path.exists(sp):
            seeds = [int(x) for x in open(sp).read().split()]
            res[fam]["pnr"]["seed"] = seeds[-1]
            res[fam]["pnr"]["seeds_not_legalised"] = seeds[:-1]
        by_function = load(os.path.join(d, fam + ".attr.json"))  # attribute.py (iCE40 only)
        if by_function is not None:
            res[fam]["by_function"] = by_function
    return res


def check_cache(outdir):
    """`collect.py --check-cache OUTDIR` (make synth, before make decides what to redo): a
    result.json that is not a complete JSON object (a full disk, an edit, a killed copy) is removed
    with one line, so that make synthesizes that configuration again."""
    if not os.path.isdir(outdir):
        return 0
    for name in sorted(os.listdir(outdir)):
        p = os.path.join(outdir, name, "result.json")
        if name.startswith(".") or not os.path.isfile(p):
            continue
        try:
            with open(p) as f:
                ok = isinstance(json.load(f), dict)
        except (OSError, ValueError):
            ok = False
        if not ok:
            sys.stderr.write("synth: %s is broken (an interrupted or failed write?): redoing %s\n" % (p, name))
            os.remove(p)
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--check-cache":
        return check_cache(argv[2])
    if len(argv) != 6:
        sys.stderr.write(__doc__)
        return 2
    res = gather(*argv[1:6])
    json.dump(res, sys.stdout, indent=1)
    sys.stdout.write("\n")
    sys.stdout.flush()  # a full disk shows here (the caller renames the file only after exit 0)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except OSError as e:  # an unreadable tool file, a full disk: one line, not a traceback
        sys.stderr.write("synth: collect.py: %s%s\n" % (e.strerror or e, ": %s" % e.filename if e.filename else ""))
        sys.exit(1)
