#!/usr/bin/env python3
"""Permutation-throughput study (issue 5): seed 004's recurrence against measurement.

Runs `build/lcan route ... --json` on the model and on the RTL (Verilator, the model checking it in
lockstep), and sets the first-pass throughput and the per-stage occupancy next to

  * the paper's recurrence p(i+1) = 1 - (1 - p(i)/d)^u  (computed here, independently of cmodel/),
  * a refined model (see docs/results.md): destinations of the headers meeting at a switch are
    distinct leaves of its subtree (a permutation), so collisions follow sampling without
    replacement instead of independent uniform choices.

Subcommands:
  run    [--quick]            the short table `make run` prints (RTL and model, a few minutes)
  sweep  --csv F --plots DIR  the full study: every point to CSV, one PNG per paper figure
  check                       the test of issue 5: RTL == model, recurrence == formula

Only the Python standard library and gnuplot (for plots) are used.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LCAN = os.path.join(ROOT, "build", "lcan")


def die(msg):
    print("study: " + msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- analysis (independent of C)

def recurrence(d, u, stages, p0=None):
    """Seed 004 section 5: p(0) = 1 if d >= u else (d/u)^stages; p(i+1) = 1-(1-p(i)/d)^u."""
    p = [1.0 if p0 is None and d >= u else (d / u) ** stages if p0 is None else p0]
    for _ in range(stages):
        p.append(1.0 - (1.0 - p[-1] / d) ** u)
    return p


def _binom_pmf(n, p):
    return [math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def _miss(K, d, k):
    """P(a given child of a switch with K leaves below, d children, gets none of k distinct
    destinations drawn without replacement from the K leaves)."""
    k = min(k, K)
    return math.comb(K - K // d, k) / math.comb(K, k)


def refined(d, u, h):
    """Refined model for worst-case permutations on lcan(d,u,d^h). Returns occupancy of the
    downers of level h..1 (top first), like `lcan route`'s stage_occupancy.
    Top switch: its d downer inputs each carry a header with probability q = min(1,(d/u))^(h-1)
    (upward drops when d > u keep every upper busy; when d < u only d of u uppers are used).
    Below: k ~ Binomial(u, p) headers arrive from the uppers. At a switch with K = d^l leaves
    below, the k destinations are distinct leaves; a child is missed with C(K-K/d,k)/C(K,k)."""
    q = 1.0 if d >= u else (d / u) ** (h - 1)
    occ = []
    K = d ** h
    dist = _binom_pmf(d, q)
    p = 1.0 - sum(pk * _miss(K, d, k) for k, pk in enumerate(dist))
    occ.append(p)
    for level in range(h - 1, 0, -1):
        K = d ** level
        dist = _binom_pmf(u, p)
        p = 1.0 - sum(pk * _miss(K, d, k) for k, pk in enumerate(dist))
        occ.append(p)
    return occ


# ---------------------------------------------------------------- measurement

def route(spec, pattern, trials, seed, engine, up_choice="uniform"):
    cmd = [LCAN, "route", spec, "--pattern", pattern, "--trials", str(trials), "--seed", str(seed),
           "--engine", engine] + (["--up-choice", up_choice] if up_choice != "uniform" else []) + ["--json"]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die("'%s' failed: %s" % (" ".join(cmd), (r.stderr.strip().splitlines() or ["?"])[-1]))
    out = json.loads(r.stdout)
    out["seconds"] = time.time() - t0
    out["command"] = " ".join(cmd[1:]).replace(spec, "'%s'" % spec)
    if engine == "rtl" and os.environ.get("LCAN_RTL_UNROLL"):  # (the binary it ran: tb/lcan-rtl)
        out["command"] = "LCAN_RTL_UNROLL=%s %s" % (os.environ["LCAN_RTL_UNROLL"], out["command"])
    return out


def lcan_dims(spec):
    """(d, u, h) of an lcan(d,u,n) spec string."""
    inner = spec[spec.index("(") + 1:spec.index(")")]
    d, u, n = (int(x) for x in inner.split(","))
    h = round(math.log(n, d))
    return d, u, h


# ---------------------------------------------------------------- make run

RUN_CONFIGS = [  # (spec, pattern) on the RTL and the model: d = u, d > u, d < u (small networks:
    ("lcan(2,2,16)", "worst"),     # each Verilator build takes a minute or more; the test matrix
    ("lcan(4,4,16)", "worst"),     # builds most of them already)
    ("lcan(4,2,16)", "worst"),
    ("lcan(2,3,8)", "worst"),
    ("lcan(2,2,16)", "random"),
]
SCALE_CONFIGS = ["lcan(2,2,65536)", "lcan(4,4,65536)", "lcan(16,16,65536)", "lcan(4,2,4096)",
                 "lcan(2,4,512)"]  # the paper's sizes, model only (d < u: switch count limits n)


def cmd_run(args):
    rows = []
    t_start = time.time()
    for i, (spec, pattern) in enumerate(RUN_CONFIGS):
        d, u, h = lcan_dims(spec)
        print("[%d/%d] %s %s: RTL (%d trials, builds the simulator on first use) ..."
              % (i + 1, len(RUN_CONFIGS), spec, pattern, args.rtl_trials), file=sys.stderr, flush=True)
        rtl = route(spec, pattern, args.rtl_trials, args.seed, "rtl")
        print("      model (%d trials) ..." % args.model_trials, file=sys.stderr, flush=True)
        mod = route(spec, pattern, args.model_trials, args.seed, "model")
        same = route(spec, pattern, args.rtl_trials, args.seed, "model")
        agree = all(same[k] == rtl[k] for k in ("first_pass_mean", "passes_mean", "passes_max",
                                                  "stage_occupancy"))
        rows.append((spec, pattern, recurrence(d, u, h)[-1], refined(d, u, h)[-1], rtl, mod, agree))
    print()
    print("%-14s %-7s %8s %8s %16s %16s %7s %6s" % ("config", "pattern", "recur.", "refined",
          "RTL (mean±sem)", "model (mean±sem)", "passes", "RTL=model"))
    for spec, pattern, rec, ref, rtl, mod, agree in rows:
        print("%-14s %-7s %8.4f %8.4f %9.4f±%.4f %9.4f±%.4f %7.2f %6s" % (
            spec, pattern, rec, ref, rtl["first_pass_mean"], rtl["first_pass_sem"],
            mod["first_pass_mean"], mod["first_pass_sem"], mod["passes_mean"],
            "yes" if agree else "NO"))
    print("\nthe paper's sizes, model only (%d trials each):" % args.scale_trials)
    print("%-17s %-7s %8s %8s %16s %7s" % ("config", "pattern", "recur.", "refined", "model (mean±sem)", "passes"))
    for spec in SCALE_CONFIGS:
        d, u, h = lcan_dims(spec)
        print("[model] %s ..." % spec, file=sys.stderr, flush=True)
        m = route(spec, "worst", args.scale_trials, args.seed, "model")
        print("%-17s %-7s %8.4f %8.4f %9.4f±%.4f %7.2f" % (spec, "worst", recurrence(d, u, h)[-1],
              refined(d, u, h)[-1], m["first_pass_mean"], m["first_pass_sem"], m["passes_mean"]))
    print("\nrecur. = seed 004's p(log_d n) (worst-case permutations); refined = docs/results.md §3;"
          "\nRTL: %d trials on Verilator with the model checking every cycle; model: %d trials;"
          "\nRTL=model: the RTL's numbers equal the model's for the same seed and trials. %.0f s."
          % (args.rtl_trials, args.model_trials, time.time() - t_start))
    return 0 if all(r[-1] for r in rows) else 1


# ---------------------------------------------------------------- sweep

def sweep_points(quick, rtl_specs):
    """The paper's figures: (figure, spec, pattern, engine, trials, up_choice). Every figure uses the
    default upper choice (uniform, seed 004's random upper); figure "upchoice" measures the d < u
    networks, where the two choices differ, with both (docs/spec.md 5-6)."""
    pts = []
    maxn = 4096 if quick else 65536
    t_model = 20 if quick else 100
    def lcans(d, u):
        n = d
        while n <= maxn:
            yield "lcan(%d,%d,%d)" % (d, u, n)
            n *= d
    for d in (2, 3, 4, 8, 16):                       # Figure 10: d = u
        for s in lcans(d, d):
            pts.append(("fig10", s, "worst", "model", t_model, "uniform"))
    for d in (3, 4, 8, 16):                          # Figure 11: d > u, u = 2
        for s in lcans(d, 2):                        # (first pass < 1% beyond 4096 PEs: the
            if lcan_dims(s)[2] and d ** lcan_dims(s)[2] <= 4096:  # route needs 1000s of passes)
                pts.append(("fig11", s, "worst", "model", t_model, "uniform"))
    for u in (3, 4, 8):                              # Figures 12/13: d < u, d = 2
        for s in lcans(2, u):
            d_, u_, h = lcan_dims(s)
            if (2 ** h) * (u / 2) ** (h - 1) <= (2 ** 18 if not quick else 2 ** 14):  # top switches
                pts.append(("fig13", s, "worst", "model", t_model, "uniform"))
                pts.append(("upchoice", s, "worst", "model", t_model, "rotate"))
    for d in (2, 4, 16):                             # uniformly random permutations
        for s in lcans(d, d):
            pts.append(("random", s, "random", "model", t_model, "uniform"))
    for s in ("lcan(2,3,8)", "lcan(2,3,64)", "lcan(2,3,512)", "lcan(2,4,16)", "lcan(2,4,64)", "lcan(2,4,256)",
              "lcan(2,8,64)", "lcan(4,4,256)", "lcan(3,3,243)"):  # random permutations, both choices
        for uc in ("uniform", "rotate"):
            pts.append(("upchoice", s, "random", "model", 200 if quick else 2000, uc))
    for s in ("lcan(4,4,256)", "lcan(3,3,243)"):     # u <= d + 1: the choices agree (worst case)
        pts.append(("upchoice", s, "worst", "model", t_model, "rotate"))
    for s in rtl_specs:                              # RTL points (model checks every cycle)
        for pat in ("worst", "random"):
            pts.append(("rtl", s, pat, "rtl", 10 if quick else 50, "uniform"))
            pts.append(("rtl", s, pat, "model", 10 if quick else 50, "uniform"))
    for s in ("lcan(2,2,256)", "lcan(4,4,256)", "lcan(2,2,4096)"):
        for pat in ("identity", "bitrev", "transpose", "shuffle", "random", "worst"):
            pts.append(("passes", s, pat, "model", t_model, "uniform"))
    return pts


CSV_FIELDS = ["figure", "spec", "pattern", "engine", "trials", "up_choice", "seed", "d", "u", "h",
              "first_pass_mean", "first_pass_sem", "passes_mean", "passes_max", "recurrence",
              "refined", "stage_occupancy", "passes_hist", "seconds", "command"]


def cmd_sweep(args):
    pts = sweep_points(args.quick, [x for x in args.rtl.split("|") if x] if args.rtl else [])
    if args.figures:
        keep = set(args.figures.split(","))
        pts = [p for p in pts if p[0] in keep]
    os.makedirs(os.path.dirname(os.path.abspath(args.csv)), exist_ok=True)
    tmp = args.csv + ".tmp"
    rows = []
    done = {}
    if args.resume and os.path.exists(args.resume):   # points measured by an interrupted run
        with open(args.resume, newline="") as f:
            for r in csv.DictReader(f):
                # the last row of a killed run may be cut off: it is measured again
                if any(r.get(k) in (None, "") for k in CSV_FIELDS) or not r["trials"].isdigit():
                    print("study: %s: an incomplete row (an interrupted write?): measuring it again"
                          % args.resume, file=sys.stderr)
                    continue
                if not r.get("up_choice"):
                    # a CSV from before UP_CHOICE and spec 5's hashed seeding: other LFSR states
                    continue
                done[(r["figure"], r["spec"], r["pattern"], r["engine"], int(r["trials"]), r["up_choice"])] = r
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for i, (fig, spec, pat, eng, trials, uc) in enumerate(pts):
            if (fig, spec, pat, eng, trials, uc) in done:
                row = done[(fig, spec, pat, eng, trials, uc)]
                for k in ("d", "u", "h", "trials"):
                    row[k] = int(row[k])
                w.writerow(row)
                rows.append(row)
                continue
            d, u, h = lcan_dims(spec)
            r = route(spec, pat, trials, args.seed, eng, uc)
            row = {"figure": fig, "spec": spec, "pattern": pat, "engine": eng, "trials": trials,
                   "up_choice": uc, "seed": args.seed, "d": d, "u": u, "h": h,
                   "first_pass_mean": r["first_pass_mean"], "first_pass_sem": r["first_pass_sem"],
                   "passes_mean": r["passes_mean"], "passes_max": r["passes_max"],
                   "recurrence": recurrence(d, u, h)[-1], "refined": refined(d, u, h)[-1],
                   "stage_occupancy": " ".join("%.6f" % x for x in r["stage_occupancy"]),
                   "passes_hist": json.dumps(r.get("passes_hist")), "seconds": "%.2f" % r["seconds"],
                   "command": "build/lcan " + r["command"]}
            w.writerow(row)
            f.flush()
            rows.append(row)
            print("[%d/%d] %-6s %-16s %-8s %-5s %-7s first pass %.4f ± %.4f (recurrence %.4f) %.1fs"
                  % (i + 1, len(pts), fig, spec, pat, eng, uc, r["first_pass_mean"],
                     r["first_pass_sem"], row["recurrence"], r["seconds"]), file=sys.stderr, flush=True)
    os.replace(tmp, args.csv)
    if args.plots:
        plot(rows, args.plots)
    return 0


def _gp(script, out_png):
    tmp = out_png + ".tmp.png"
    r = subprocess.run(["gnuplot"], input=script.replace("@OUT@", tmp), text=True,
                       capture_output=True)
    if r.returncode != 0:
        if os.path.exists(tmp):
            os.unlink(tmp)
        die("gnuplot failed for %s: %s" % (out_png, r.stderr.strip()))
    os.replace(tmp, out_png)


def plot(rows, outdir):
    os.makedirs(outdir, exist_ok=True)
    head = ("set terminal pngcairo size 900,600 font 'sans,10'\nset output '@OUT@'\n"
            "set grid\nset key outside right\nset yrange [0:1.02]\n")
    def series(fig_rows, d, u, key="d"):
        return [r for r in fig_rows if r["d"] == d and r["u"] == u]
    figs = {
        "fig10": ("Figure 10: d = u, worst-case permutations", [(d, d) for d in (2, 3, 4, 8, 16)]),
        "fig11": ("Figure 11: d > u (u = 2), worst-case permutations", [(d, 2) for d in (3, 4, 8, 16)]),
        "fig13": ("Figure 13: d < u (d = 2), true throughput for n = 2^i", [(2, u) for u in (3, 4, 8)]),
        "random": ("Uniformly random permutations, d = u", [(d, d) for d in (2, 4, 16)]),
    }
    for fig, (title, pairs) in figs.items():
        fig_rows = [r for r in rows if r["figure"] == fig]
        if not fig_rows:
            continue
        data, plots = [], []
        for idx, (d, u) in enumerate(pairs):
            pts = sorted(series(fig_rows, d, u), key=lambda r: r["h"])
            rot = sorted([r for r in rows if r["figure"] == "upchoice" and r["pattern"] == "worst" and
                          r["d"] == d and r["u"] == u and r.get("up_choice") == "rotate"], key=lambda r: r["h"])
            if not pts:
                continue
            hmax = max(r["h"] for r in pts)
            # recurrence curve for this (d,u): p(h) at every stage count (true throughput)
            rec = "\n".join("%d %.6f" % (h, recurrence(d, u, h)[-1]) for h in range(1, hmax + 1))
            ref = "\n".join("%d %.6f" % (h, refined(d, u, h)[-1]) for h in range(1, hmax + 1))
            meas = "\n".join("%d %s %s" % (r["h"], r["first_pass_mean"], r["first_pass_sem"])
                             for r in pts)
            data.append("$rec%d << EOD\n%s\nEOD\n$ref%d << EOD\n%s\nEOD\n$meas%d << EOD\n%s\nEOD\n"
                        % (idx, rec, idx, ref, idx, meas))
            c = idx + 1
            plots.append("$rec%d with lines lc %d dt 1 title 'recurrence d=%d u=%d'" % (idx, c, d, u))
            plots.append("$ref%d with lines lc %d dt 2 title 'refined'" % (idx, c))
            plots.append("$meas%d with yerrorbars lc %d pt 7 ps 0.8 title '%s'" % (
                idx, c, "measured, uniform uppers" if fig == "fig13" else "measured (model)"))
            # the RTL's own points (Verilator, the model checking every cycle: equal to the model's
            # point of the same seed and trials) at the sizes it was run
            rtl = sorted([r for r in rows if r["figure"] == "rtl" and r["engine"] == "rtl" and
                          r["pattern"] == ("random" if fig == "random" else "worst") and
                          r["d"] == d and r["u"] == u], key=lambda r: r["h"])
            if rtl:
                data.append("$rtl%d << EOD\n%s\nEOD\n" % (idx, "\n".join(
                    "%d %s %s" % (r["h"], r["first_pass_mean"], r["first_pass_sem"]) for r in rtl)))
                plots.append("$rtl%d with yerrorbars lc %d pt 6 ps 1.6 title 'RTL (Verilator), %d trials'"
                             % (idx, c, rtl[0]["trials"]))
            if fig == "fig13" and rot:
                data.append("$rot%d << EOD\n%s\nEOD\n" % (idx, "\n".join(
                    "%d %s %s" % (r["h"], r["first_pass_mean"], r["first_pass_sem"]) for r in rot)))
                plots.append("$rot%d with yerrorbars lc %d pt 4 ps 0.8 title 'measured, rotated uppers'" % (idx, c))
        _gp(head + "".join(data) + "set title '%s'\nset xlabel 'stages h = log_d n'\n"
            "set ylabel 'fraction of PEs routed in the first pass'\nplot %s\n"
            % (title, ", \\\n  ".join(plots)), os.path.join(outdir, fig + ".png"))
    # Figure 12: the recurrence's behaviour per stage (p0 = 1) with measured per-stage occupancy
    occ = [r for r in rows if r["figure"] == "fig13"]
    data, plots = [], []
    for idx, u in enumerate((3, 4, 8)):
        rec = "\n".join("%d %.6f" % (i, p) for i, p in enumerate(recurrence(2, u, 16, 1.0)))
        data.append("$r%d << EOD\n%s\nEOD\n" % (idx, rec))
        plots.append("$r%d with linespoints lc %d title 'recurrence d=2 u=%d, p(0)=1'" % (idx, idx + 1, u))
        big = sorted([r for r in occ if r["u"] == u], key=lambda r: r["h"])
        if big:
            b = big[-1]
            vals = [float(x) for x in b["stage_occupancy"].split()]
            rec0 = recurrence(2, u, b["h"])
            m = "\n".join("%d %.6f" % (i + 1, v) for i, v in enumerate(vals))
            r0 = "\n".join("%d %.6f" % (i, v) for i, v in enumerate(rec0))
            data.append("$m%d << EOD\n%s\nEOD\n$q%d << EOD\n%s\nEOD\n" % (idx, m, idx, r0))
            plots.append("$q%d with lines lc %d dt 3 title 'recurrence from (d/u)^h, %s'" % (idx, idx + 1, b["spec"]))
            plots.append("$m%d with points lc %d pt 5 title 'measured stage occupancy, %s'" % (idx, idx + 1, b["spec"]))
    _gp(head + "".join(data) + "set title 'Figure 12: d < u (d = 2): the recurrence stage by stage'\n"
        "set xlabel 'stage i from the top'\nset ylabel 'p(i)'\nplot %s\n" % ", \\\n  ".join(plots),
        os.path.join(outdir, "fig12.png"))


# ---------------------------------------------------------------- check (a test of issue 5)

def cmd_check(args):
    passed = failed = 0
    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL: " + what)
    # the recurrence column: the C tool's `recurrence` against the formula computed here
    for d, u, h in ((2, 2, 16), (3, 3, 4), (4, 2, 4), (2, 4, 4), (16, 16, 4), (8, 2, 3)):
        r = subprocess.run([LCAN, "recurrence", str(d), str(u), str(h), "--json"],
                           capture_output=True, text=True)
        got = json.loads(r.stdout)["p"] if r.returncode == 0 else None
        want = recurrence(d, u, h)
        check(got is not None and len(got) == len(want) and
              all(abs(a - b) < 1e-12 for a, b in zip(got, want)),
              "recurrence %d %d %d: got %s want %s" % (d, u, h, got, want))
        rr = route("lcan(%d,%d,%d)" % (d, u, d ** min(h, 3)), "worst", 2, 1, "model")
        want_h = recurrence(d, u, min(h, 3))[-1]
        check(abs(rr["recurrence"] - want_h) < 1e-12,
              "route recurrence for lcan(%d,%d,%d): got %s want %s" % (d, u, d ** min(h, 3),
                                                                      rr["recurrence"], want_h))
    # the hand value of seed 004: d = u = 2 from load 1: p1 = 1 - (1/2)^2 = 0.75
    check(abs(recurrence(2, 2, 1)[1] - 0.75) < 1e-15, "p1(2,2) = 0.75")
    # seed 004's random upper (UP_CHOICE = uniform, the default) against an independent simulation
    # of independent uniformly random upper choices (issue 12: lcan(2,4,16), 4,000 permutations:
    # first pass 0.892 +- 0.001 random, 0.861 +- 0.001 worst case), within 3 standard errors
    for pat, ref in (("random", 0.892), ("worst", 0.861)):
        r = route("lcan(2,4,16)", pat, 4000, 1, "model")
        tol = 3 * math.hypot(r["first_pass_sem"], 0.001)
        check(abs(r["first_pass_mean"] - ref) <= tol, "lcan(2,4,16) %s uniform: first pass %.4f, independent "
              "simulation %.3f (tolerance %.4f)" % (pat, r["first_pass_mean"], ref, tol))
    # RTL and model agree exactly for the same seed on small configs
    for spec, pat in (("lcan(2,2,16)", "worst"), ("lcan(4,2,16)", "random"), ("lcan(2,3,8)", "worst")):
        rtl = route(spec, pat, 4, 7, "rtl")
        mod = route(spec, pat, 4, 7, "model")
        for k in ("first_pass_mean", "first_pass_sem", "passes_mean", "passes_max", "stage_occupancy"):
            check(rtl[k] == mod[k], "%s %s: %s rtl %s != model %s" % (spec, pat, k, rtl[k], mod[k]))
    print("study: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


# ---------------------------------------------------------------- report (docs/results.md)

RESULTS_HEAD = """# Permutation throughput: RTL and model against seed 004's recurrence

Generated by `python3 scripts/study.py report --csv %(csv)s --out docs/results.md` from the sweep
`%(sweep_cmd)s`; every row below also names the exact `build/lcan route` command that produced it.
Plots: `docs/img/fig10.png` .. `fig13.png`, `random.png` (recurrence lines, refined-model dashed
lines, measured points with standard-error bars).

![Figure 10](img/fig10.png)
![Figure 11](img/fig11.png)
![Figure 12](img/fig12.png)
![Figure 13](img/fig13.png)
![Uniformly random permutations](img/random.png)

## 1. What is measured
`lcan route SPEC --pattern worst --trials T --seed S --json` routes T worst-case permutations (every
pair's LCA level is the top, seed 004 §5) with the pass driver of docs/spec.md §7.5: random uppers
(by default a uniformly random assignment of the headers to the free uppers, seed 004 §4's random
upper, docs/spec.md §5-6; `--up-choice rotate` gives the random rotation of earlier versions, section
6), drop on conflict, acknowledge, data, release, repeat. `first_pass_mean`
is the fraction of the n PEs routed in the first pass (mean ± standard error over the trials), the
measured counterpart of the recurrence's p(log_d n). The model's event-driven router is tested
equal to its cycle-level driver (cmodel/tests/test_route.c), and on the RTL (`--engine rtl`,
Verilator, the model checking every output and crosspoint on every cycle) the numbers are identical
to the model's for the same seed (`make test-study`; table 4).

## 2. Finding: the recurrence underestimates the first-pass throughput
Every measured point lies **above** the recurrence (tables 1-3): e.g. lcan(2,2,65536) routes
%(m2216)s of a worst-case permutation in the first pass against the recurrence's %(r2216)s. The
recurrence assumes the headers that meet at a switch pick their downers independently and uniformly.
In a permutation they cannot: the headers that reach one switch have **distinct destinations**
inside its subtree, so they collide less. At the bottom stage the effect is extreme — two headers
can never want the same leaf — so the last stage drops nothing, while the recurrence still applies
1-(1-p/d)^u there. A second, smaller effect works the other way for d > u: the upward stages keep
every upper busy (load 1 at the top, as the paper assumes) but the headers arriving at a top switch
are d, not u.

## 3. A refined model
`refined()` in scripts/study.py replaces the recurrence's independence by sampling without
replacement: a switch with K = d^l leaves below receives k headers with distinct destinations,
uniformly among those leaves; a child (K/d leaves) is missed with probability
C(K-K/d, k)/C(K, k); k ~ Binomial(u, p) below the top and k = d headers (each present with
probability min(1, d/u)^(h-1)) at the top. It has the recurrence as its K -> infinity limit and
reproduces the no-drop bottom stage exactly. How much of the gap between the recurrence and the
measurement it closes ((refined - recurrence) / (measured - recurrence), worst case, model):

| network | measured | recurrence | refined | gap closed |
|---|---|---|---|---|
%(gaps)s

For d = u the refined model is almost exact for large switches (d = 8, 16: 97-99%%) and explains
half of the excess for d = 2, where 16 stages compound the correlations it still ignores. For d < u
it explains less, and less as u grows: a switch puts its <= d upward headers on distinct uppers, i.e.
on distinct parents, so the headers meeting at a switch on the way down are spread more evenly than
any random model assumes — the "spreading out" seed 004 §5 mentions and then sets aside ("for the
purposes of analysis, it is assumed that the packets are distributed randomly"). Section 6 separates
this from what the rotation of earlier versions added.

## 4. Turnaround and load at the top
The recurrence starts at the top stage's unconnected uppers with load p(0) (1 for d >= u,
(d/u)^(log_d n) for d < u); our top level has no uppers and every header turns there
(docs/spec.md §11.3). For d < u the measured per-stage occupancy (`stage_occupancy`, top level
first) starts at the top downers, which carry min(1,(d/u)^(h-1)) of their capacity in headers — one
factor d/u more than the recurrence's p(0) — and the first downward stage then loses less.

## 5. Sizes on the RTL
Table 4 has the RTL at 16 and 64 PEs and at the papers' sizes: 256 PEs (lcan(2,2,256), lcan(4,4,256),
lcan(4,2,256)) and 1,024 PEs (lcan(4,4,1024), lcan(2,2,1024)), 50 worst-case and 50 random
permutations each on Verilator with the model checking every cycle; every RTL row equals the model's
row of the same seed and trials exactly, and figures 10, 11 and the random-permutation figure show
the RTL's points (circles) on the model's. Builds (docs/verification.md 6, loaded 2-core machine):
lcan(4,2,256) about 40 s, lcan(4,4,256) and lcan(2,2,256) 2-6 minutes, lcan(4,4,1024) (1,280
switches) 12-14 minutes wall, 12-13 CPU minutes and 11.8 GB for Verilator; the route runs themselves
take seconds (50 trials of lcan(4,4,1024) in 5.5 s). lcan(2,2,1024) (5,120 switches) does not build
by default on this 24 GB machine - Verilator's front end was killed by the OOM killer at 20.3 GB
(stop 30) - and is built with `LCAN_RTL_UNROLL=1` (loops left rolled: about half the front end's
memory, a simulation about 1.8x slower): `LCAN_RTL_UNROLL=1 /usr/bin/time -v tb/lcan-rtl build
'lcan(2,2,1024)' --mode circuit` took 16 min 38 s wall, 1,570 s CPU, 13.3 GB peak (145 MB of C++),
and its 50 trials 69-71 s each. Not built: lcan(2,4,256) - u > d widens every level, 32,640
switches (16,384 at the top, beyond Verilator's generate-loop limit); the model's rows up to 2^16
PEs stand for that size and beyond. `make sweep` measures the RTL rows of `STUDY_RTL`, and those of
`STUDY_RTL_LOWMEM` with `LCAN_RTL_UNROLL=1` (scripts/study.mk).

## 6. The paper's random upper against the rotation (UP_CHOICE)
Seed 004 §4 sends a header up "through a randomly chosen upper". Earlier versions of the switch took
one random rotation and gave the headers of a tick consecutive free uppers from it; the default now
(docs/spec.md §5-6, `UP_CHOICE` = uniform) gives them a uniformly random injection into the free
uppers (a Fisher-Yates permutation drawn from the LFSR). For u = 2 the two are the same allocator;
they differ once more than one header meets more than two free uppers, i.e. for d < u below the top.
Table 8 lists both on the same permutations and network seeds (rotate - uniform in standard errors
of the difference):

| network | pattern | trials | uniform | rotate | rotate - uniform | recurrence | refined |
|---|---|---|---|---|---|---|---|
%(upchoice)s

%(upchoice_text)s
"""


# What table 8 shows; written from the measured rows of docs/data/sweep-model.csv (check it against
# the table when the sweep is rerun).
UPCHOICE_TEXT = """What the table shows, against the numbers of earlier versions (rotation, and switches seeded with
seed ^ salt, docs/spec.md 5):

- **The rotation adds nothing measurable for u = 4 and u = 8**: uniform and rotate agree within
  1.4 standard errors on every d = 2, u = 4 / 8 network, worst case and random. With independent
  random choices, the whole excess of the measurement over the recurrence for d < u (tables 3 and
  8, section 3) is what the paper's analysis misses: distinct destinations and the "spreading out"
  of headers that a switch always puts on distinct uppers — which uniform choice does as well.
- **For u = 3 the rotation costs throughput**, growing with n: lcan(2,3,2048) worst case 0.6579
  uniform against 0.6321 rotate (-22.8 se), random permutations of lcan(2,3,512) 0.6759 against
  0.6557. The rotation's start r_up is red(s[9:8], 3) (spec 5), which is 0 with probability 1/2, so
  the first header of a tick takes upper 0 half of the time and the uppers are loaded unevenly;
  σ's first draw uses 4 bits (probabilities 6/16, 5/16, 5/16).
- **What earlier versions reported as the rotation's advantage was the seeding.** With every switch
  seeded by seed ^ salt, the switches' first decisions came from the same few seed bits; measured on
  lcan(2,4,16), random permutations, 4,000 trials, seed 1: 0.9004 +- 0.0011 (uniform) and 0.9036 +-
  0.0011 (rotate) with that seeding, 0.8918 +- 0.0012 (uniform) with spec 5's hashed seeding,
  against 0.892 +- 0.001 from an independent simulation of independent uniform choices (worst
  case: 0.8629 +- 0.0013 against 0.861 +- 0.001; `make test-study` checks both within 3 standard
  errors). The earlier d < u rows (e.g. lcan(2,3,2048) 0.6304, lcan(2,8,64) 0.9405) were measured
  with correlated switches and the rotation; the rows above replace them."""


def _fmt(x, nd=4):
    return ("%%.%df" % nd) % float(x)


def read_rows(paths):
    """The rows of sweep CSVs, their integer columns as ints (report and plot)."""
    rows = []
    for name in paths:
        with open(name, newline="") as f:
            rows += list(csv.DictReader(f))
    for r in rows:
        for k in ("d", "u", "h", "trials"):
            r[k] = int(r[k])
    return rows


def cmd_report(args):
    rows = read_rows(args.csv)
    def find(spec, pat="worst", eng="model", uc="uniform", fig=None):
        for r in rows:
            if (r["spec"] == spec and r["pattern"] == pat and r["engine"] == eng and
                    (r.get("up_choice") or "rotate") == uc and (fig is None or r["figure"] == fig)):
                return r
        return None
    pairs = []
    for r in rows:
        if r["figure"] == "upchoice" and r.get("up_choice") == "rotate":
            uni = find(r["spec"], r["pattern"], "model", "uniform")
            if uni:
                a, b = float(uni["first_pass_mean"]), float(r["first_pass_mean"])
                se = math.hypot(float(uni["first_pass_sem"]), float(r["first_pass_sem"]))
                pairs.append("| %s | %s | %d | %.4f ± %.4f | %.4f ± %.4f | %+.4f (%+.1f se) | %.4f | %.4f |" % (
                    r["spec"], r["pattern"], r["trials"], a, float(uni["first_pass_sem"]), b,
                    float(r["first_pass_sem"]), b - a, (b - a) / se if se else 0.0,
                    float(r["recurrence"]), float(r["refined"])))
    big = find("lcan(2,2,65536)") or find("lcan(2,2,4096)")
    gaps = []
    for spec in ("lcan(2,2,65536)", "lcan(3,3,59049)", "lcan(4,4,65536)", "lcan(8,8,32768)",
                 "lcan(16,16,65536)", "lcan(4,2,4096)", "lcan(2,3,2048)", "lcan(2,4,512)", "lcan(2,8,64)"):
        r = find(spec)
        if r:
            m, rec, ref = float(r["first_pass_mean"]), float(r["recurrence"]), float(r["refined"])
            gaps.append("| %s | %.4f | %.4f | %.4f | %.0f%% |" % (spec, m, rec, ref,
                        100.0 * (ref - rec) / (m - rec) if m != rec else 100.0))
    out = [RESULTS_HEAD % {
        "gaps": "\n".join(gaps), "upchoice": "\n".join(pairs), "upchoice_text": UPCHOICE_TEXT,
        "csv": " --csv ".join(args.csv), "sweep_cmd": "make sweep",
        "m2216": _fmt(big["first_pass_mean"]) if big else "?",
        "r2216": _fmt(big["recurrence"]) if big else "?"}]
    def table(title, sel):
        sub = [r for r in rows if sel(r)]
        if not sub:
            return
        out.append("\n## %s\n" % title)
        out.append("| spec | pattern | engine | uppers | trials | first pass (mean ± sem) | recurrence | refined | passes mean / max | command |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for r in sub:
            out.append("| %s | %s | %s | %s | %d | %s ± %s | %s | %s | %s / %s | `%s` |" % (
                r["spec"], r["pattern"], r["engine"], r.get("up_choice") or "rotate", r["trials"], _fmt(r["first_pass_mean"]),
                _fmt(r["first_pass_sem"]), _fmt(r["recurrence"]), _fmt(r["refined"]),
                _fmt(r["passes_mean"], 2), r["passes_max"], r["command"]))
    table("Table 1 — Figure 10: d = u, worst-case permutations", lambda r: r["figure"] == "fig10")
    table("Table 2 — Figure 11: d > u (u = 2), worst-case permutations", lambda r: r["figure"] == "fig11")
    table("Table 3 — Figures 12/13: d < u (d = 2), worst-case permutations", lambda r: r["figure"] == "fig13")
    table("Table 4 — RTL (Verilator, lockstep with the model) and model, same seeds", lambda r: r["figure"] == "rtl")
    table("Table 5 — uniformly random permutations", lambda r: r["figure"] == "random")
    table("Table 8 — the two upper choices (docs/spec.md 6), d < u and controls", lambda r: r["figure"] == "upchoice")
    sub = [r for r in rows if r["figure"] == "passes"]
    if sub:
        out.append("\n## Table 6 — passes to complete (distribution over the trials)\n")
        out.append("| spec | pattern | trials | first pass | passes mean | max | histogram {passes: trials} |")
        out.append("|---|---|---|---|---|---|---|")
        for r in sub:
            out.append("| %s | %s | %d | %s | %s | %s | %s |" % (r["spec"], r["pattern"], r["trials"],
                       _fmt(r["first_pass_mean"]), _fmt(r["passes_mean"], 2), r["passes_max"], r["passes_hist"]))
    occ = [r for r in rows if r["figure"] in ("fig10", "fig13") and r["h"] >= 8]
    if occ:
        out.append("\n## Table 7 — per-stage occupancy (measured p(i), top level first) vs the recurrence\n")
        for r in occ[:6]:
            rec = recurrence(r["d"], r["u"], r["h"])[1:]
            out.append("- %s: measured %s; recurrence %s" % (r["spec"], r["stage_occupancy"],
                       " ".join("%.4f" % x for x in rec)))
    tmp = args.out + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write("\n".join(out) + "\n")
        os.replace(tmp, args.out)
    except OSError:  # a full disk: the old report stays, no partial one under its name
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return 0


def cmd_plot(args):
    """The figures from sweep CSVs (model and RTL points on one figure), without measuring."""
    plot(read_rows(args.csv), args.plots)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("run", help="the short table of `make run`")
    a.add_argument("--rtl-trials", type=int, default=20)
    a.add_argument("--model-trials", type=int, default=200)
    a.add_argument("--scale-trials", type=int, default=10)
    a.add_argument("--seed", type=int, default=1)
    a = sub.add_parser("sweep", help="the full study: CSV and plots")
    a.add_argument("--csv", required=True)
    a.add_argument("--plots")
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--quick", action="store_true")
    a.add_argument("--resume", help="a CSV of an interrupted run: its points are not measured again")
    a.add_argument("--figures", default="", help="only these figures: fig10,fig11,fig13,random,rtl,passes")
    a.add_argument("--rtl", default="", help="lcan specs also measured on the RTL, separated by '|': 'lcan(2,2,64)|lcan(4,4,64)'")
    a = sub.add_parser("plot", help="the figures from sweep CSVs (model and RTL points)")
    a.add_argument("--csv", required=True, action="append")
    a.add_argument("--plots", default=os.path.join(ROOT, "docs", "img"))
    sub.add_parser("check", help="RTL == model and recurrence == formula (a test)")
    a = sub.add_parser("report", help="write docs/results.md from sweep CSVs")
    a.add_argument("--csv", required=True, action="append")
    a.add_argument("--out", default=os.path.join(ROOT, "docs", "results.md"))
    args = ap.parse_args()
    if not os.access(LCAN, os.X_OK):
        die("build/lcan not found: run make")
    return {"run": cmd_run, "sweep": cmd_sweep, "check": cmd_check, "report": cmd_report,
            "plot": cmd_plot}[args.cmd](args)


if __name__ == "__main__":
    # every output (CSV, PNG, docs/results.md) is written under NAME.tmp and renamed when complete; a
    # sweep's NAME.tmp is kept when it is interrupted (pass it to --resume). An unwritable or full
    # output is one line, exit 1, not a traceback.
    try:
        rc = main()
        sys.stdout.flush()
    except KeyboardInterrupt:
        rc = 130
    except OSError as e:
        print("study: %s%s" % (e.strerror or e, ": %s" % e.filename if e.filename else ""), file=sys.stderr)
        rc = 1
    sys.exit(rc)
