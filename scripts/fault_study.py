#!/usr/bin/env python3
"""fault_study.py - the network under random faults (docs/faults.md, spec 14): for K random faulty
elements (links and switches, drawn uniformly by `--faults random:K`), per seed:

  - `lcan faults SPEC --faults random:K --seed S --json`: cut pairs;
  - `lcan traffic SPEC --load HIGH --faults random:K --seed S --json`: accepted throughput above
    saturation (the network's capacity under those faults), dropped packets (must be 0: the faults
    are static), lost / duplicated (must be 0);
  - `lcan traffic SPEC --load 0.1 ...`: average latency against the zero-load ideal;
  - `lcan route SPEC --pattern random --faults random:K --seed S --json` (circuit passes): first-pass
    fraction and passes.

Writes docs/data/faults-SPEC.csv (every run, with its command; NAME.tmp then renamed) and prints the
markdown table (means over the seeds, min / max of the accepted throughput) on stdout.
Python standard library only.

usage: python3 scripts/fault_study.py [--lcan build/lcan] [--spec cm5] [--faults 0,1,2,4,8,16,32]
                                      [--seeds 3] [--high 0.6] [--csv PATH]
"""
import argparse
import csv
import json
import os
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("fault_study: %s failed (exit %d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lcan", default="build/lcan")
    ap.add_argument("--spec", default="cm5")
    ap.add_argument("--faults", default="0,1,2,4,8,16,32")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--high", default="0.6")
    ap.add_argument("--csv", default=None)
    a = ap.parse_args()
    ks = [int(k) for k in a.faults.split(",")]
    out = a.csv or "docs/data/faults-%s.csv" % "".join(c if c.isalnum() else "-" for c in a.spec).strip("-")
    rows = []
    for k in ks:
        for s in range(1, a.seeds + 1):
            fl = ["--faults", "random:%d" % k] if k > 0 else []
            seed = ["--seed", str(s)]
            f = run([a.lcan, "faults", a.spec] + (fl or ["--faults", "random:0"]) + seed + ["--json"]) if k > 0 else None
            hi_cmd = [a.lcan, "traffic", a.spec, "--load", a.high, "--warmup", "2000", "--measure", "5000",
                      "--drain-max", "1000000"] + fl + seed + ["--json"]
            hi = run(hi_cmd)
            lo = run([a.lcan, "traffic", a.spec, "--load", "0.1", "--warmup", "2000", "--measure", "5000"] + fl + seed
                     + ["--json"])
            rt = run([a.lcan, "route", a.spec, "--pattern", "random", "--trials", "20"] + fl + seed + ["--json"])
            for d in (hi, lo):
                if d.get("lost", 0) or d.get("duplicated", 0) or d.get("dropped", 0):
                    sys.exit("fault_study: %s: lost %s, duplicated %s, dropped %s" %
                             (" ".join(hi_cmd), d.get("lost"), d.get("duplicated"), d.get("dropped")))
            rows.append({
                "spec": a.spec, "faults": k, "seed": s,
                "cut_pairs": f["cut_pairs_total"] if f else 0,
                "accepted_high": hi["accepted"], "accepted_min_node": hi["accepted_min"],
                "latency_0.1": lo["latency_avg"], "zero_load": lo["zero_load"],
                "first_pass": rt["first_pass_mean"] if "first_pass_mean" in rt else rt.get("first_pass"),
                "passes": rt.get("passes_mean", rt.get("passes")),
                "command": " ".join(hi_cmd),
            })
            print("fault_study: %s K=%d seed %d done" % (a.spec, k, s), file=sys.stderr)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out + ".tmp", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    os.replace(out + ".tmp", out)
    print("| faulty elements | cut pairs (mean) | accepted at load %s: mean (min..max) | latency at 0.1 (zero-load) "
          "| route first pass | passes |" % a.high)
    print("|---|---|---|---|---|---|")
    for k in ks:
        r = [x for x in rows if x["faults"] == k]
        n = len(r)
        acc = [x["accepted_high"] for x in r]
        print("| %d | %.1f | %.4f (%.4f..%.4f) | %.3f (%.3f) | %s | %s |" % (
            k, sum(x["cut_pairs"] for x in r) / n, sum(acc) / n, min(acc), max(acc),
            sum(x["latency_0.1"] for x in r) / n, sum(x["zero_load"] for x in r) / n,
            "%.4f" % (sum(x["first_pass"] for x in r) / n) if r[0]["first_pass"] is not None else "-",
            "%.2f" % (sum(x["passes"] for x in r) / n) if r[0]["passes"] is not None else "-"))


if __name__ == "__main__":
    main()
