#!/usr/bin/env python3
"""traffic_study.py - latency-load curves of several networks (docs/traffic.md, `make traffic-study`).

  traffic_study.py [--quick] [--no-rtl] [--out docs/img] [--data build/traffic] [--md docs/traffic.md]

Runs `build/lcan traffic SPEC --load L --json` (model) for every network at increasing loads until
two points in a row are saturated (accepted < 0.99 offered or latency > 3x zero-load, the rule of
`lcan traffic --sweep`), and `--engine rtl` (the RTL in lockstep with the model) at a few loads of a
small network, whose points must equal the model's (same seed: same statistics). Writes
DATA/<name>.csv, OUT/traffic_latency.png (latency against offered load, log scale) and
OUT/traffic_accepted.png (accepted against offered), and replaces the block between
"<!-- traffic-study:begin -->" and "<!-- traffic-study:end -->" in the markdown file with the tables.
Python standard library and gnuplot only.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
LCAN = os.path.join(ROOT, "build", "lcan")

# name, spec, loads; the model's curves
NETWORKS = [
    ("kary(4,3)", "kary(4,3)", [x / 100 for x in range(5, 101, 5)]),
    ("cm5", "cm5", [x / 100 for x in range(5, 101, 5)]),
    ("lcan(4,4,256)", "lcan(4,4,256)", [x / 100 for x in range(5, 101, 5)]),
    ("EBFT bft(6;1,2,4,8,16,32)", "bft(6;1,2,4,8,16,32)", [x / 100 for x in range(5, 101, 5)]),
    ("CBFT bft(6;1,1,1,1,1,1)", "bft(6;1,1,1,1,1,1)", [x / 1000 for x in range(5, 101, 5)]),
]
RTL_SPEC, RTL_LOADS = "lcan(2,2,8)", [0.1, 0.3, 0.5, 0.7]
RTL_MODEL_LOADS = [x / 100 for x in range(5, 101, 5)]


def run(spec, load, warmup, measure, engine="model"):
    args = [LCAN, "traffic", spec, "--pattern", "uniform", "--load", repr(load), "--warmup", str(warmup),
            "--measure", str(measure), "--seed", "1", "--json"]
    if engine != "model":
        args += ["--engine", engine]
    p = subprocess.run(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        sys.exit("traffic_study: %s failed: %s" % (" ".join(args), p.stderr.strip()))
    return json.loads(p.stdout)


def saturated(pt):
    return pt["accepted"] < 0.99 * pt["offered"] or pt["latency_avg"] > 3 * pt["zero_load"]


def curve(spec, loads, warmup, measure):
    pts, sat = [], 0
    for load in loads:
        pt = run(spec, load, warmup, measure)
        pts.append(pt)
        sys.stderr.write("traffic_study: %s load %g: accepted %.4f latency %.2f\n"
                         % (spec, load, pt["accepted"], pt["latency_avg"]))
        sat = sat + 1 if saturated(pt) else 0
        if sat >= 2:
            break
    return pts


COLS = ["load", "offered", "accepted", "accepted_min", "accepted_max", "latency_avg", "latency_p50", "latency_p99",
        "latency_max", "net_latency_avg", "queue_avg", "zero_load", "packets", "lost", "duplicated", "cycles_per_s"]


def write_atomic(path, text):
    """NAME.tmp, then renamed: a killed run or a full disk never leaves a partial file under NAME."""
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_csv(path, pts):
    write_atomic(path, ",".join(COLS) + "\n" + "".join(
        ",".join(repr(p[c]) if isinstance(p[c], float) else str(p[c]) for c in COLS) + "\n" for p in pts))


def main(argv):
    quick = "--quick" in argv
    rtl = "--no-rtl" not in argv
    def opt(name, default):
        return argv[argv.index(name) + 1] if name in argv else default
    out = os.path.join(ROOT, opt("--out", "docs/img"))
    data = os.path.join(ROOT, opt("--data", "build/traffic"))
    md = os.path.join(ROOT, opt("--md", "docs/traffic.md"))
    warmup, measure = (1000, 3000) if quick else (3000, 10000)
    os.makedirs(out, exist_ok=True)
    os.makedirs(data, exist_ok=True)
    results = []
    for k, (name, spec, loads) in enumerate(NETWORKS):
        pts = curve(spec, loads, warmup, measure)
        path = os.path.join(data, "net%d.csv" % k)
        write_csv(path, pts)
        results.append((name, spec, pts, path))
    small = curve(RTL_SPEC, RTL_MODEL_LOADS, warmup, measure)
    write_csv(os.path.join(data, "small.csv"), small)
    rtl_pts, same = [], []
    if rtl:
        for load in RTL_LOADS:
            r = run(RTL_SPEC, load, warmup, measure, engine="rtl")
            m = run(RTL_SPEC, load, warmup, measure)
            a, b = dict(r), dict(m)
            for d in (a, b):
                d.pop("engine")
                d.pop("cycles_per_s")
            same.append(a == b)
            rtl_pts.append(r)
            sys.stderr.write("traffic_study: RTL %s load %g: latency %.3f, %s the model\n"
                             % (RTL_SPEC, load, r["latency_avg"], "equal to" if a == b else "DIFFERENT from"))
        write_csv(os.path.join(data, "rtl.csv"), rtl_pts)
    # plots
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#ff7f0e"]
    def plot(png, ycol, ylabel, logy):
        gp = ["set terminal pngcairo size 900,600 font ',11'", "set output '%s.tmp'" % png,
              "set datafile separator ','", "set key top left", "set grid",
              "set xlabel 'offered load (flits/node/cycle)'", "set ylabel '%s'" % ylabel, "set xrange [0:1]"]
        if logy:
            gp.append("set logscale y")
            gp.append("set yrange [1:1000]")
        else:
            gp.append("set yrange [0:1]")
        col = COLS.index(ycol) + 1
        series = []
        for k, (name, spec, pts, path) in enumerate(results):
            series.append("'%s' every ::1 using 2:%d with linespoints lw 2 pt 7 ps 0.6 lc rgb '%s' title '%s'"
                          % (path, col, colors[k % len(colors)], name))
        series.append("'%s' every ::1 using 2:%d with linespoints lw 2 dt 2 pt 6 ps 0.6 lc rgb '%s' title '%s model'"
                      % (os.path.join(data, "small.csv"), col, colors[5], RTL_SPEC))
        if rtl_pts:
            series.append("'%s' every ::1 using 2:%d with points pt 4 ps 2 lw 2 lc rgb 'black' title '%s RTL (Verilator, lockstep)'"
                          % (os.path.join(data, "rtl.csv"), col, RTL_SPEC))
        gp.append("plot " + ", ".join(series))
        p = subprocess.run(["gnuplot"], input="\n".join(gp) + "\n", text=True, stderr=subprocess.PIPE)
        if p.returncode != 0:
            if os.path.exists(png + ".tmp"):
                os.unlink(png + ".tmp")
            sys.exit("traffic_study: gnuplot failed: %s" % p.stderr)
        os.replace(png + ".tmp", png)
    plot(os.path.join(out, "traffic_latency.png"), "latency_avg", "average latency (cycles, creation to ejection)", True)
    plot(os.path.join(out, "traffic_accepted.png"), "accepted", "accepted load (flits/node/cycle)", False)
    # tables
    lines = ["<!-- traffic-study:begin -->",
             "Generated by `make traffic-study` (`python3 scripts/traffic_study.py`): uniform traffic, seed 1, "
             "warm-up %d, measure %d cycles per point; each point is `build/lcan traffic SPEC --pattern uniform "
             "--load L --warmup %d --measure %d --seed 1 --json`. Saturation: the first load with accepted < 0.99 "
             "offered or latency > 3x zero-load." % (warmup, measure, warmup, measure), ""]
    lines.append("| network | zero-load latency (2L-1) | latency at 0.1 | saturation load | best accepted |")
    lines.append("|---|---|---|---|---|")
    for name, spec, pts, path in results:
        sat = next((p["load"] for p in pts if saturated(p)), None)
        at01 = next((p["latency_avg"] for p in pts if abs(p["load"] - 0.1) < 1e-9), None)
        lines.append("| %s | %.3f | %s | %s | %.4f |" % (
            name, pts[0]["zero_load"], "%.3f" % at01 if at01 is not None else "-",
            "%g" % sat if sat is not None else "none <= %g" % pts[-1]["load"], max(p["accepted"] for p in pts)))
    lines.append("")
    for name, spec, pts, path in results:
        lines.append("`%s`:" % spec)
        lines.append("")
        lines.append("| load | offered | accepted | min/max per node | latency avg | p50 | p99 | max | network | queueing |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|")
        for p in pts:
            lines.append("| %g | %.4f | %.4f | %.3f / %.3f | %.2f | %d | %d | %d | %.2f | %.2f |" % (
                p["load"], p["offered"], p["accepted"], p["accepted_min"], p["accepted_max"], p["latency_avg"],
                p["latency_p50"], p["latency_p99"], p["latency_max"], p["net_latency_avg"], p["queue_avg"]))
        lines.append("")
    if rtl_pts:
        lines.append("RTL points (`build/lcan traffic '%s' --engine rtl --load L ...`, Verilator, in lockstep with the "
                     "model) against the model's line:" % RTL_SPEC)
        lines.append("")
        lines.append("| load | RTL accepted | RTL latency | model latency | all statistics equal |")
        lines.append("|---|---|---|---|---|")
        for r, eq in zip(rtl_pts, same):
            m = next((p for p in small if abs(p["load"] - r["load"]) < 1e-9), None)
            lines.append("| %g | %.4f | %.4f | %s | %s |" % (r["load"], r["accepted"], r["latency_avg"],
                                                           "%.4f" % m["latency_avg"] if m else "-", "yes" if eq else "NO"))
        lines.append("")
    lines.append("<!-- traffic-study:end -->")
    if os.path.exists(md):
        text = open(md).read()
        b, e = text.find("<!-- traffic-study:begin -->"), text.find("<!-- traffic-study:end -->")
        if b >= 0 and e > b:
            text = text[:b] + "\n".join(lines) + text[e + len("<!-- traffic-study:end -->"):]
            write_atomic(md, text)
        else:
            sys.stderr.write("traffic_study: no traffic-study markers in %s; tables not written\n" % md)
    if rtl_pts and not all(same):
        sys.exit("traffic_study: RTL and model differ")
    return 0


if __name__ == "__main__":
    try:
        rc = main(sys.argv[1:])
        sys.stdout.flush()
    except KeyboardInterrupt:
        rc = 130
    except OSError as e:  # an unwritable or full output: one line, exit 1, not a traceback
        sys.stderr.write("traffic_study: %s%s\n" % (e.strerror or e, ": %s" % e.filename if e.filename else ""))
        rc = 1
    sys.exit(rc)
