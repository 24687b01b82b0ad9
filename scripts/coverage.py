#!/usr/bin/env python3
"""coverage.py - line and toggle coverage of rtl/ from Verilator coverage files (issue 16).

  scripts/coverage.py [--md FILE] [--min-line PCT] [--min-toggle PCT] DAT...

Reads the coverage files written by coverage builds of tb/lcan-rtl (LCAN_RTL_COVERAGE=1), keeps the
points of rtl/*.v and rtl/*.vh and merges them over runs (a point counts as covered when any run hit it).
Points are Verilator's:
  line    a statement block or one side of a branch (pages v_line and v_branch), by file:line:column,
          merged over every instance and parameterization (the source line was executed)
  toggle  one bit of one signal changing 0->1 and 1->0 (page v_toggle), per module parameterization
          (Verilator merges the instances of one parameterization): every bit of every switch type
          that the runs built is a point of its own
Prints one row per file and a total; --md writes the same as a markdown report with the uncovered
toggle points grouped by signal and every uncovered line; exits 1 when a total is below --min-line /
--min-toggle, 2 on bad input.
"""
import fnmatch
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def die(msg, code=2):
    sys.stderr.write("coverage: %s\n" % msg)
    sys.exit(code)


def parse_key(key):
    """Verilator's key: fields \\x01NAME\\x02VALUE."""
    out = {}
    for part in key.split("\x01")[1:]:
        name, _, value = part.partition("\x02")
        out[name] = value
    return out


def read_points(paths):
    """{(kind, file, where): count} merged over the files; kind 'line' or 'toggle'."""
    points = {}
    line_re = re.compile(r"^C '(.*)' (\d+)$")
    for path in paths:
        try:
            f = open(path, encoding="latin-1")
        except OSError as e:
            die("cannot read %s: %s" % (path, e.strerror))
        with f:
            first = f.readline()
            if not first.startswith("# SystemC::Coverage"):
                die("%s is not a Verilator coverage file" % path)
            for raw in f:
                m = line_re.match(raw.rstrip("\n"))
                if not m:
                    continue
                k = parse_key(m.group(1))
                src = k.get("f", "")
                if not (src.startswith("rtl/") and src.endswith((".v", ".vh"))):
                    continue
                page = k.get("page", "").split("/")[0]
                if page == "v_toggle":
                    # the parameterization (page suffix, e.g. lcan_alloc__M2_P1_U3_S3) and the bit
                    where = "%s:%s" % (k.get("page", "").partition("/")[2], k.get("o", ""))
                    kind = "toggle"
                elif page in ("v_line", "v_branch"):
                    where = "%s:%s:%s" % (k.get("l", "0"), k.get("n", "0"), k.get("o", ""))
                    kind = "line"
                else:
                    continue
                key = (kind, src, where)
                points[key] = points.get(key, 0) + int(m.group(2))
    return points


def function_ranges(src):
    """Line ranges of function ... endfunction in a source file. Every function of rtl/ is a constant
    function (widths, geometry, masks), run by Verilator while it elaborates, never by the simulation:
    their line points cannot be hit by any run and are counted apart ("elaboration")."""
    ranges, start = [], None
    try:
        with open(os.path.join(ROOT, src)) as f:
            for n, text in enumerate(f, 1):
                t = text.split("//")[0]
                if re.search(r"\bendfunction\b", t):
                    if start is not None:
                        ranges.append((start, n))
                    start = None
                elif re.search(r"\bfunction\b", t):
                    start = n
    except OSError:
        pass
    return ranges


def source_line(src, line):
    try:
        with open(os.path.join(ROOT, src)) as f:
            for n, text in enumerate(f, 1):
                if n == line:
                    return text.strip()
    except OSError:
        pass
    return ""


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def main(argv):
    md = None
    mins = {"line": 0.0, "toggle": 0.0}
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--md", "--min-line", "--min-toggle"):
            if i + 1 >= len(argv):
                die("%s needs a value" % a)
            v = argv[i + 1]
            if a == "--md":
                md = v
            else:
                try:
                    mins[a[6:]] = float(v)
                except ValueError:
                    die("%s wants a percentage, not '%s'" % (a, v))
            i += 2
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif a.startswith("-"):
            die("unknown option '%s' (try --help)" % a)
        else:
            files.append(a)
            i += 1
    if not files:
        die("no coverage files given (make coverage writes them)")
    points = read_points(files)
    if not points:
        die("no rtl/ points in %s (not a coverage build?)" % " ".join(files))

    # per file and kind: [covered, total]
    table = {}
    missed = []
    elab = 0
    franges = {}
    for (kind, src, where), count in sorted(points.items()):
        row = table.setdefault(src, {"line": [0, 0], "toggle": [0, 0]})[kind]
        if kind == "line":
            if src not in franges:
                franges[src] = function_ranges(src)
            ln = int(where.split(":")[0])
            if any(a <= ln <= b for a, b in franges[src]):
                elab += 1
                continue
        if count > 0:
            row[0] += 1
            row[1] += 1
            continue
        row[1] += 1
        missed.append((kind, src, where))

    tot = {"line": [0, 0], "toggle": [0, 0]}
    lines_out = ["%-28s %18s %18s" % ("file", "lines", "toggles")]
    for src in sorted(table):
        cells = []
        for kind in ("line", "toggle"):
            c, t = table[src][kind]
            tot[kind][0] += c
            tot[kind][1] += t
            cells.append("%6d/%-6d %5.1f%%" % (c, t, pct(c, t)))
        lines_out.append("%-28s %18s %18s" % (src, cells[0], cells[1]))
    cells = ["%6d/%-6d %5.1f%%" % (tot[k][0], tot[k][1], pct(tot[k][0], tot[k][1])) for k in ("line", "toggle")]
    lines_out.append("%-28s %18s %18s" % ("total", cells[0], cells[1]))
    print("\n".join(lines_out))
    print("coverage: lines %.1f%%, toggles %.1f%% of rtl/ (%d runs; %d uncovered points; %d line points in "
          "constant functions, run only at elaboration, not counted)"
          % (pct(tot["line"][0], tot["line"][1]), pct(tot["toggle"][0], tot["toggle"][1]), len(files),
             len(missed), elab))

    if md:
        out = ["| file | lines | line % | toggles | toggle % |", "|---|---|---|---|---|"]
        for src in sorted(table) + ["total"]:
            r = tot if src == "total" else table[src]
            out.append("| %s | %d/%d | %.1f | %d/%d | %.1f |" % (
                src, r["line"][0], r["line"][1], pct(r["line"][0], r["line"][1]),
                r["toggle"][0], r["toggle"][1], pct(r["toggle"][0], r["toggle"][1])))
        out += ["", "%d line points lie in constant functions (widths, geometry), which Verilator runs "
                "while elaborating, never during simulation: not counted." % elab]
        out += ["", "Uncovered lines:", ""]
        lines_missed = [(src, where) for kind, src, where in missed if kind == "line"]
        if not lines_missed:
            out.append("none")
        for src, where in lines_missed:
            ln = int(where.split(":")[0])
            out.append("- %s:%d `%s`" % (src, ln, source_line(src, ln)[:90]))
        # toggles: per file and signal, how many bits (over all parameterizations) never toggled
        fam = {}
        for kind, src, where in missed:
            if kind == "toggle":
                sig = re.sub(r"\[\d+\]", "", where.partition(":")[2])
                fam[(src, sig)] = fam.get((src, sig), 0) + 1
        out += ["", "Uncovered toggle points by signal (bits summed over parameterizations):", "",
                "| file | signal | bits |", "|---|---|---|"]
        for (src, sig), n in sorted(fam.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append("| %s | `%s` | %d |" % (src, sig, n))
        tmp = md + ".tmp"
        with open(tmp, "w") as f:
            f.write("\n".join(out) + "\n")
        os.replace(tmp, md)

    rc = 0
    for kind in ("line", "toggle"):
        p = pct(tot[kind][0], tot[kind][1])
        if p < mins[kind]:
            print("coverage: FAIL %s coverage %.1f%% < %.1f%%" % (kind, p, mins[kind]))
            rc = 1
    return rc


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        sys.exit(1)
