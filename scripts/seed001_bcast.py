#!/usr/bin/env python3
"""seed001_bcast.py - seed 001's broadcast on the ideal fat-tree: the table and the plot of
docs/collectives.md ("Seed 001: recursive Broadcast / Sparse-Broadcast").

For log N = 2..MAX (default 20) and every capacity shape w in n (EBFT-like), 1 (CBFT), sqrt, log it
runs `lcan collective --ideal LOGN --w W --json` (binomial, recursive and pipelined broadcast, each
replayed period by period by the model, the prefix built on the recursive broadcast, beside
recurrences (2)-(4) and Theorem 3's bound (8)) and
writes:
  docs/data/seed001_bcast.csv   every row, with the command that produced it
  docs/img/seed001_bcast.png    steps / log N against log N (gnuplot)
and prints the markdown table (w = n, and the pipelined column for w = 1) on stdout.
Files are written to NAME.tmp and renamed, so a failed run leaves the old ones in place.
Python standard library and gnuplot only.

usage: python3 scripts/seed001_bcast.py [--lcan build/lcan] [--max 20] [--csv PATH] [--png PATH]
"""
import argparse
import csv
import json
import os
import subprocess
import sys

KINDS = ["n", "1", "sqrt", "log"]


def run(lcan, h, w):
    cmd = [lcan, "collective", "--ideal", str(h), "--w", w, "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("seed001_bcast: %s failed (exit %d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    d = json.loads(p.stdout)
    rows = {r["algo"]: r for r in d["rows"]}
    for r in d["rows"]:
        if not r["correct"] or r["capacity_violations"] != 0:
            sys.exit("seed001_bcast: %s: %s not correct: %s" % (" ".join(cmd), r["algo"], r["error"]))
    return {
        "log_n": h, "leaves": d["leaves"], "w": w,
        "binomial": rows["binomial"]["steps"], "recursive": rows["recursive"]["steps"],
        "pipelined": rows["pipelined"]["steps"], "prefix": rows["prefix"]["steps"],
        "recursive_rounds": rows["recursive"]["rounds"], "pipelined_phases": rows["pipelined"]["pipelined_phases"],
        "rec2_S": d["recurrence_2_S"], "rec3_T": d["recurrence_3_T"], "rec4_Tpipe": d["recurrence_4_Tpipe"],
        "bound8": d["lower_bound"] if d["lower_bound"] is not None else "",
        "command": "build/lcan collective --ideal %d --w %s --json" % (h, w),
    }


def write_csv(rows, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        wr.writeheader()
        wr.writerows(rows)
    os.replace(tmp, path)


def plot(rows, png):
    os.makedirs(os.path.dirname(png) or ".", exist_ok=True)
    dat = png + ".dat.tmp"
    with open(dat, "w") as f:
        for w in ["n", "1"]:
            for r in rows:
                if r["w"] == w:
                    h = r["log_n"]
                    f.write("%d %g %g %g %g %s %g\n" % (h, r["binomial"] / h, r["recursive"] / h, r["pipelined"] / h,
                                                        r["rec3_T"] / h,
                                                        (r["bound8"] / h) if r["bound8"] != "" else "NaN",
                                                        r["prefix"] / h))
            f.write("\n\n")
    gp = ["set terminal pngcairo size 900,600 font ',11'", "set output '%s.tmp'" % png, "set grid",
          "set key top left", "set xlabel 'log2 N'", "set ylabel 'steps / log2 N'",
          "set title 'seed 001 broadcast and prefix on the ideal fat-tree (round model; schedules replayed by the model)'",
          "set xrange [1.5:%d.5]" % max(r["log_n"] for r in rows), "set yrange [0:*]",
          "plot '{0}' index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'binomial, any w: log N + 1',"
          " '{0}' index 0 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d62728' title 'recursive (Alg. 1-2), w(n) = n',"
          " '{0}' index 0 using 1:5 with lines lw 1 dt 2 lc rgb '#d62728' title 'recurrence (3), w(n) = n',"
          " '{0}' index 0 using 1:6 with lines lw 1 dt 3 lc rgb 'black' title 'Thm 3 bound (8), w(n) = n',"
          " '{0}' index 1 using 1:4 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title 'pipelined (sec. 3.3), w = 1',"
          " '{0}' index 0 using 1:7 with linespoints lw 1 pt 4 lc rgb '#9467bd' title 'prefix on the recursive broadcast, w(n) = n',"
          " 2 * x with lines lw 1 dt 4 lc rgb '#9467bd' title 'binomial prefix (up/down sweep): 2 log N',"
          " 2 + 2 * log(x) / log(2) with lines lw 1 lc rgb 'gray' title 'recursive, w(n) = n, log N = 2^j: 2 + 2 log log N'".format(dat)]
    p = subprocess.run(["gnuplot"], input="\n".join(gp) + "\n", text=True, stderr=subprocess.PIPE)
    os.unlink(dat)
    if p.returncode != 0:
        if os.path.exists(png + ".tmp"):
            os.unlink(png + ".tmp")
        sys.exit("seed001_bcast: gnuplot failed: %s" % p.stderr.strip())
    os.replace(png + ".tmp", png)


def table(rows):
    by = {(r["w"], r["log_n"]): r for r in rows}
    out = ["| log N | N | binomial | recursive (rounds) | prefix on it | binomial prefix 2 log^2 N | (2) S(N) | "
           "(3) T(N) | (4) T'(N) | Thm 3 (8) | recursive / binomial | w = 1: binomial = recursive | "
           "w = 1: pipelined | w = 1: (4) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for h in sorted({r["log_n"] for r in rows}):
        a, b = by[("n", h)], by[("1", h)]
        out.append("| %d | %d | %d | %d (%d) | %d | %d | %d | %d | %d | %s | %.2f | %d | %d | %d |" % (
            h, a["leaves"], a["binomial"], a["recursive"], a["recursive_rounds"], a["prefix"], 2 * h * h,
            a["rec2_S"], a["rec3_T"],
            a["rec4_Tpipe"], a["bound8"] if a["bound8"] != "" else "-", a["recursive"] / a["binomial"],
            b["recursive"], b["pipelined"], b["rec4_Tpipe"]))
    out.append("")
    out.append("| log N | w = sqrt: binomial / recursive / pipelined / (3) | w = log: binomial / recursive / pipelined / (3) |")
    out.append("|---|---|---|")
    for h in sorted({r["log_n"] for r in rows}):
        s, l = by[("sqrt", h)], by[("log", h)]
        out.append("| %d | %d / %d / %d / %d | %d / %d / %d / %d |" % (
            h, s["binomial"], s["recursive"], s["pipelined"], s["rec3_T"], l["binomial"], l["recursive"],
            l["pipelined"], l["rec3_T"]))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lcan", default="build/lcan")
    ap.add_argument("--max", type=int, default=20, help="largest log N (2..20)")
    ap.add_argument("--csv", default="docs/data/seed001_bcast.csv")
    ap.add_argument("--png", default="docs/img/seed001_bcast.png")
    a = ap.parse_args()
    if not 2 <= a.max <= 20:
        sys.exit("seed001_bcast: --max %d is outside 2..20 (the ideal tree of lcan collective --ideal)" % a.max)
    if not os.access(a.lcan, os.X_OK):
        sys.exit("seed001_bcast: %s is not an executable; build it with make build/lcan or pass --lcan" % a.lcan)
    rows = [run(a.lcan, h, w) for w in KINDS for h in range(2, a.max + 1)]
    write_csv(rows, a.csv)
    plot(rows, a.png)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
