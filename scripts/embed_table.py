#!/usr/bin/env python3
"""embed_table.py - the table of docs/embeddings.md: `lcan embed HOST --guest G --json` for the
guests and hosts of seed 002 section 6 (and a few hosts no theorem covers), printed as one markdown
table on stdout. With --rtl ENGINE (icarus or rtl) the exchange of every host of at most RTL_LEAVES
leaves also runs on the RTL in lockstep with the model (`lcan embed ... --engine ENGINE`, both
--inject modes): the last column says whether its JSON is the model engine's but for the engine name
(exit 1 if any is not).

Usage: python3 scripts/embed_table.py [build/lcan] [--rtl icarus|rtl]      (make embed-table)
"""
import json
import subprocess
import sys

CASES = [
    ("gft(2,4,2)", "ring:16"), ("gft(3,4,2)", "ring:64"), ("gft(4,4,2)", "ring:256"), ("gft(2,3,2)", "ring:9"),
    ("gft(3,3,2)", "ring:27"), ("gft(3,4,1)", "ring:64"), ("gft(2,4,2)", "mesh:16"),
    ("gft(3,2,2)", "cbt:2"), ("gft(5,2,2)", "cbt:4"), ("gft(7,2,2)", "cbt:6"), ("gft(9,2,2)", "cbt:8"),
    ("gft(2,4,4)", "mesh:4x4"), ("gft(3,4,4)", "mesh:4x16"), ("gft(4,4,4)", "mesh:16x16"), ("gft(6,2,2)", "mesh:8x8"),
    ("gft(4,4,4)", "torus:16x16"), ("gft(6,2,2)", "torus:8x8"),
    ("gft(3,4,4)", "mesh:4x4x4"), ("gft(6,2,2)", "mesh:4x4x4"), ("gft(8,2,2)", "mesh:4x4x4x4"),
    ("gft(4,2,2)", "mesh:2x2x2x2"),
    ("gft(3,2,2)", "hypercube:3"), ("gft(4,2,2)", "hypercube:4"), ("gft(6,2,2)", "hypercube:6"),
    ("gft(8,2,2)", "hypercube:8"), ("gft(10,2,2)", "hypercube:10"),
    ("gft(2,4,4)", "pyramid:1:3"), ("gft(3,4,4)", "pyramid:2:3"), ("gft(4,4,4)", "pyramid:3:3"),
    ("gft(5,4,4)", "pyramid:4:3"),
    ("gft(4,4,2)", "hypercube:8"), ("gft(3,4,2)", "mesh:8x8"), ("cm5", "ring:256"), ("cm5", "mesh:16x16"),
    ("cm5", "hypercube:8"), ("kary(4,3)", "torus:4x4x4"),
]


RTL_LEAVES = 16  # small builds: a few seconds each with Icarus


def run_json(args):
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def rtl_same(lcan, host, guest, engine):
    """True if the exchange on the RTL (both inject modes) prints the model engine's JSON."""
    for inject in ("path", "any"):
        base = [lcan, "embed", host, "--guest", guest, "--json", "--inject", inject]
        a, b = run_json(base), run_json(base + ["--engine", engine])
        if a["exchange"].pop("engine") != "model" or b["exchange"].pop("engine") != engine or a != b:
            return False
    return True


def main():
    args = sys.argv[1:]
    rtl = None
    if "--rtl" in args:
        k = args.index("--rtl")
        rtl = args[k + 1] if k + 1 < len(args) else ""
        del args[k:k + 2]
        if rtl not in ("icarus", "rtl"):
            sys.exit("embed_table.py: --rtl '%s': expected icarus or rtl" % rtl)
    lcan = args[0] if args else "build/lcan"
    bad = 0
    print("| host | guest | load | dilation | congestion (levels 1..h) | expansion "
          "| paper: load, dilation, congestion, expansion | paper ref | meets | Thm 10: 2b/L_h "
          "| exchange steps (path / any port) | dilation + congestion - 1 | exchange: RTL = model |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for host, guest in CASES:
        out = subprocess.run([lcan, "embed", host, "--guest", guest, "--json"], capture_output=True, text=True,
                             check=True).stdout
        d = json.loads(out)
        out = subprocess.run([lcan, "embed", host, "--guest", guest, "--json", "--inject", "any"], capture_output=True,
                             text=True, check=True).stdout
        steps_any = json.loads(out)["exchange"]["steps"]
        pb = d["paper_bound"]
        if pb is None:
            paper, ref = "—", "—"
        else:
            le = "≤ " if "at most" in d["paper_ref"] else ""
            paper = "%d, %d, %s%d, %.4g" % (pb["load"], pb["dilation"], le, pb["congestion"], pb["expansion"])
            ref = d["paper_ref"].replace("seed 002 ", "")
        meets = {True: "yes", False: "**no**", None: "—"}[d["meets_paper_bound"]]
        lb = "—" if d["lower_bound"] is None else "%.4g" % d["lower_bound"]
        same = "—"
        if rtl is not None and d["leaves"] <= RTL_LEAVES:
            same = "yes (%s)" % rtl if rtl_same(lcan, host, guest, rtl) else "**no** (%s)" % rtl
            bad += same.startswith("**")
        print("| `%s` | `%s` | %d | %d | %d (%s) | %.4g | %s | %s | %s | %s | %d / %d | %d | %s |" % (
            host, guest, d["load"], d["dilation"], d["congestion"], ",".join(map(str, d["congestion_per_level"])),
            d["expansion"], paper, ref, meets, lb, d["exchange"]["steps"], steps_any, d["dilation"] + d["congestion"] - 1,
            same))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
