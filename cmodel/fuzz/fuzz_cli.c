/*
 * fuzz_cli.c - an in-process fuzzer of the `lcan` command line (issue 17), built with ASan/UBSan.
 *
 * The tool's own dispatch (lcan_main.c compiled with -Dmain=lcan_tool_main, tool_util.c with
 * -DLCAN_FUZZ: no exec of tb/lcan-rtl, stdout not closed) is called with generated argument
 * vectors. Input i is a pure function of (--seed, i): a grammar-aware generator (docs/spec.md 1.3
 * specs of every family, then mutated: digits, limits, separators, blanks, case, families; the
 * options of every subcommand - info, route, collective, traffic (its patterns, matrices, sweeps),
 * recurrence, lockstep - with boundary values and malformed numbers; small pattern files).
 *
 * Batches of inputs run in a forked child with stdout and stderr redirected to scratch files; the
 * child checks every input and stops at the first finding. A finding is a crash or sanitizer
 * report (the child dies), a hang (alarm), a status other than 0/1/2, or output that breaks the
 * tool's promises (tool_util.h): status 2 = exactly one line "lcan: ..." on stderr and nothing on
 * stdout; status 1 = at most one such line; status 0 = nothing on stderr. Leaks are reported by
 * LeakSanitizer when a batch child exits; the batch is then re-run one input per child.
 *
 * usage: fuzz_cli [--count N] [--time SECONDS] [--seed S] [--batch B] [--quiet]
 * Prints findings (with the argv, shell-quoted) and one line "fuzz: N inputs, N findings, ...".
 * Exit 0 with no findings, 1 with findings, 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int lcan_tool_main(int argc, char **argv);

const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "exitcode=86:abort_on_error=0:detect_leaks=1"; }

#define MAX_ARGS 24
#define ARG_LEN 160
#define HANG_SECONDS 30

typedef struct {
    int argc;
    char *argv[MAX_ARGS + 1];
    char buf[MAX_ARGS][ARG_LEN];
} input;

typedef struct { /* shared with the batch child */
    volatile uint64_t current; /* index being run */
    volatile int finding;      /* 1 when the child found a promise broken */
    char why[512];
} shared_state;

static char tmpdir[256];

/* ------------------------------------------------------------------ random */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned rnd(uint64_t *s, unsigned n) { return n ? (unsigned)(splitmix(s) % n) : 0; }
static int chance(uint64_t *s, unsigned pct) { return rnd(s, 100) < pct; }
static const char *pick(uint64_t *s, const char *const *v, unsigned n) { return v[rnd(s, n)]; }
#define PICK(s, arr) pick(s, arr, (unsigned)(sizeof arr / sizeof arr[0]))

/* ------------------------------------------------------------------ specs (spec 1.3) */

/* A number: mostly small legal values, sometimes limits and beyond. */
static void num(uint64_t *s, char *out, size_t len)
{
    static const char *const edge[] = {"0", "1", "2", "3", "4", "8", "16", "17", "32", "33", "64", "65",
                                       "255", "256", "4096", "65535", "65536", "16777216", "33554432",
                                       "2147483647", "4294967295", "4294967296", "99999999999",
                                       "18446744073709551615", "18446744073709551616",
                                       "999999999999999999999999", "-1", "+2", "0x10", "1e3", "007", ""};
    if (chance(s, 80))
        snprintf(out, len, "%u", 1u + rnd(s, chance(s, 70) ? 4 : 40));
    else
        snprintf(out, len, "%s", PICK(s, edge));
}

static void list(uint64_t *s, char *out, size_t len, int n)
{
    size_t k = 0;
    int i;
    out[0] = '\0';
    for (i = 0; i < n && k + 40 < len; i++) {
        char v[40];
        num(s, v, sizeof v);
        k += (size_t)snprintf(out + k, len - k, "%s%s", i ? "," : "", v);
    }
}

static void gen_spec(uint64_t *s, char *out, size_t len)
{
    static const char *const small[] = {"cm5", "lcan(2,2,4)", "lcan(2,2,16)", "lcan(4,4,16)", "lcan(4,2,64)",
                                        "lcan(2,4,16)", "gft(2,2,2)", "gft(2,4,2)", "kary(2,3)", "kary(4,2)",
                                        "xgft(2;2,2;1,2)", "bft(3;1,1,1)", "bft(2;1,2)", "pgft(2;2,2;1,2;1,2)",
                                        "xgft(4;4,4,4,4;2,2,2,4)", "bft(5;1,1,1,1,1)"};
    char a[200], b[200], c[200];
    int h = 1 + (int)rnd(s, chance(s, 90) ? 4 : 18);
    switch (rnd(s, 8)) {
    case 0:
        snprintf(out, len, "%s", PICK(s, small));
        break;
    case 1:
        num(s, a, 40);
        num(s, b, 40);
        num(s, c, 40);
        snprintf(out, len, "lcan(%s,%s,%s)", a, b, c);
        break;
    case 2:
        num(s, a, 40);
        num(s, b, 40);
        num(s, c, 40);
        snprintf(out, len, "%s(%s,%s,%s)", chance(s, 50) ? "gft" : "GFT", a, b, c);
        break;
    case 3:
        num(s, a, 40);
        num(s, b, 40);
        snprintf(out, len, "kary(%s,%s)", a, b);
        break;
    case 4:
        list(s, a, sizeof a, chance(s, 90) ? h : (int)rnd(s, 6));
        list(s, b, sizeof b, chance(s, 90) ? h : (int)rnd(s, 6));
        snprintf(out, len, "xgft(%d;%s;%s)", h, a, b);
        break;
    case 5:
        list(s, a, sizeof a, chance(s, 90) ? h : (int)rnd(s, 6));
        snprintf(out, len, "bft(%d;%s)", h, a);
        break;
    case 6:
        list(s, a, sizeof a, h);
        list(s, b, sizeof b, h);
        list(s, c, sizeof c, chance(s, 80) ? h : (int)rnd(s, 6));
        if (chance(s, 20))
            snprintf(out, len, "pgft(%d;%s;%s)", h, a, b);
        else
            snprintf(out, len, "pgft(%d;%s;%s;%s)", h, a, b, c);
        break;
    default:
        snprintf(out, len, "%s", chance(s, 50) ? "CM5" : " cm 5 ");
        break;
    }
    /* mutations: blanks, case, separators, truncation, a stray byte, a family swap */
    {
        int m, nm = chance(s, 60) ? 0 : 1 + (int)rnd(s, 3);
        static const char seps[] = ",;() \t0123456789-+xX\n\xff";
        static const char *const fam[] = {"lcan", "gft", "xgft", "pgft", "bft", "kary", "cm5", "foo", ""};
        for (m = 0; m < nm; m++) {
            size_t n = strlen(out), at = n ? rnd(s, (unsigned)n) : 0;
            switch (rnd(s, 6)) {
            case 0: /* delete */
                if (n)
                    memmove(out + at, out + at + 1, n - at);
                break;
            case 1: /* insert */
                if (n + 2 < len) {
                    memmove(out + at + 1, out + at, n - at + 1);
                    out[at] = seps[rnd(s, sizeof seps - 1)];
                }
                break;
            case 2: /* replace */
                if (n)
                    out[at] = seps[rnd(s, sizeof seps - 1)];
                break;
            case 3: /* truncate */
                out[at] = '\0';
                break;
            case 4: { /* family swap */
                char *p = strchr(out, '(');
                if (p != NULL) {
                    char tail[200];
                    snprintf(tail, sizeof tail, "%s", p);
                    snprintf(out, len, "%s%s", PICK(s, fam), tail);
                }
                break;
            }
            default: /* upper case */
                if (n && out[at] >= 'a' && out[at] <= 'z')
                    out[at] = (char)(out[at] - 32);
                break;
            }
        }
    }
}

/* ------------------------------------------------------------------ options */

typedef struct {
    const char *name; /* NULL: a flag table ends */
    long lo, hi;      /* numeric range; lo > hi: a word option */
    const char *const *words;
} opt_desc;

static const char *const w_pattern[] = {"identity", "random", "worst", "bitrev", "transpose", "shuffle", "WORST",
                                        "bogus", "", "file:", "file:/nonexistent", "file:/dev/null", "file:/",
                                        "P4", "P8", "P16", "PDUP", "PRANGE", "PJUNK", "PMANY", "PEMPTY", "P16B"};
static const char *const w_engine[] = {"model", "rtl", "icarus", "verilator", "", "MODEL"};
static const char *const w_op[] = {"bcast", "scatter", "gather", "mnb", "alltoall", "reduce", "prefix", "",
                                   "BCAST", "x"};
static const char *const w_algo[] = {"hw", "leaves", "binomial", "recursive", "RECURSIVE", "x", ""};
static const char *const w_wcap[] = {"n", "1", "sqrt", "log", "N", "2", ""};
static const char *const w_combine[] = {"sum", "max", "min", ""};
static const char *const w_mem[] = {"1", "0.5", "1e6", "0", "-1", "1e9", "nan", "inf", "", " 1", "+1", "0.001"};
static const char *const w_load[] = {"0", "1", "0.5", "1.0000001", "-0", "-0.1", "nan", "inf", "", " 0.5", "+0.5",
                                     "1e-400", "1e400", "0x1p-1", ".5", "5.", "e"};

static const opt_desc o_route[] = {{"--pattern", 1, 0, w_pattern}, {"--trials", 1, 1000000, NULL},
                                   {"--seed", 0, -2, NULL},       {"--engine", 1, 0, w_engine},
                                   {"--max-passes", 1, 1000000, NULL}, {"--mem-limit", 1, 0, w_mem},
                                   {"--json", 0, 0, NULL},        {"--check", 0, 0, NULL}};
static const opt_desc o_coll[] = {{"--op", 1, 0, w_op},          {"--root", 0, (1L << 20) - 1, NULL},
                                  {"--flits", 1, 1000000, NULL}, {"--trees", 1, 64, NULL},
                                  {"--algo", 1, 0, w_algo},      {"--combine", 1, 0, w_combine},
                                  {"--compact", 0, 20, NULL},    {"--depth", 1, 255, NULL},
                                  {"--seed", 0, 4294967295L, NULL}, {"--engine", 1, 0, w_engine},
                                  {"--cbt", 1, 8, NULL},         {"--mem-limit", 1, 0, w_mem},
                                  {"--ideal", 1, 20, NULL},      {"--w", 1, 0, w_wcap},
                                  {"--phased", 0, 0, NULL},      {"--json", 0, 0, NULL},
                                  {"--check", 0, 0, NULL}};
/* lcan traffic (cmd_traffic.c): its own pattern names, matrix files (M*), sweeps (the long one only
 * checked), bursts; --progress is left out (it writes to stderr on status 0 by design) */
static const char *const w_tpattern[] = {"uniform", "bitcomp", "bitrev", "transpose", "shuffle", "tornado",
                                         "neighbor", "hotspot:0:0.5", "hotspot:3:1", "hotspot:99:0.5", "hotspot:0:2",
                                         "hotspot::", "hotspot:0", "HOTSPOT:1:0.1", "random", "bogus", "", "file:",
                                         "file:/nonexistent", "P4", "P16", "PDUP", "PJUNK", "PEMPTY", "M4", "M16",
                                         "MBAD", "MZERO"};
static const char *const w_sweep[] = {"0.1:0.3:0.1", "0.5:0.5:0.1", "0.1:1:0.3", "1:0.1:0.1", "0:1:0.1", "a:b:c",
                                      "0.1:0.2", "", "0.1:1:0", "0.1:1:-0.1", "0.1:1:1e-9", "0.0001:1:0.0001",
                                      "0.2:0.4:0.1:0.1", " 0.1:0.2:0.1", "nan:1:0.1"};
static const char *const w_burst[] = {"1", "2", "10.5", "0", "0.5", "1e9", "1e10", "-1", "", "x", "inf"};
static const char *const w_tmode[] = {"packet", "circuit", "PACKET", ""};
static const opt_desc o_traffic[] = {{"--pattern", 1, 0, w_tpattern}, {"--load", 1, 0, w_load},
                                     {"--sweep", 1, 0, w_sweep},        {"--warmup", 0, -2, NULL},
                                     {"--measure", 0, -2, NULL},        {"--drain-max", 0, -2, NULL},
                                     {"--burst", 1, 0, w_burst},        {"--bcast", 1, 0, w_load},
                                     {"--seed", 0, 4294967295L, NULL},  {"--depth", 1, 255, NULL},
                                     {"--mode", 1, 0, w_tmode},         {"--engine", 1, 0, w_engine},
                                     {"--drain", 0, 0, NULL},           {"--json", 0, 0, NULL},
                                     {"--csv", 0, 0, NULL},             {"--check", 0, 0, NULL}};
/* lcan embed (cmd_embed.c): small guests only (the work grows with guest edges x paths), maps */
static const char *const w_guest[] = {"ring:16", "ring:3", "ring:2", "ring:64", "RING:9", "mesh:4x4", "mesh:2x2x2",
                                      "mesh:4x", "mesh:1x4", "torus:4x4", "torus:2x8", "hypercube:4", "hypercube:0",
                                      "hypercube:6", "cbt:3", "cbt:0", "pyramid:1:3", "pyramid:2", "pyramid:1:0",
                                      "ring", "tree:3", "", "ring:99999999999", "mesh:2x2x2x2x2x2x2x2x2"};
static const char *const w_map[] = {"default", "file:", "file:/nonexistent", "file:/dev/null", "file:/", "bogus",
                                    "", "P4", "P16", "PDUP", "PRANGE", "PJUNK", "PEMPTY"};
static const char *const w_inject[] = {"path", "any", "PATH", "", "x"};
/* --engine rtl|icarus: checked, then tool_exec_rtl, which the fuzz build (-DLCAN_FUZZ) makes a no-op */
static const opt_desc o_embed[] = {{"--guest", 1, 0, w_guest}, {"--map", 1, 0, w_map},
                                   {"--seed", 0, 4294967295L, NULL}, {"--no-exchange", 0, 0, NULL},
                                   {"--inject", 1, 0, w_inject},  {"--engine", 1, 0, w_engine},
                                   {"--check", 0, 0, NULL},       {"--json", 0, 0, NULL}};
static const opt_desc o_rec[] = {{"--load", 1, 0, w_load}, {"--json", 0, 0, NULL}};
static const opt_desc o_info[] = {{"--json", 0, 0, NULL}};
#define NOPT(a) (unsigned)(sizeof a / sizeof a[0])


/* A numeric value for a range [lo, hi] (hi = -2: 0..2^64-1): boundaries and malformed forms. */
static void numval(uint64_t *s, long lo, long hi, char *out, size_t len)
{
    static const char *const bad[] = {"", " 1", "1 ", "0x10", "+1", "-1", "-0", "1.5", "1e3", "abc", "18446744073709551616",
                                      "18446744073709551615", "99999999999999999999999", "9223372036854775807",
                                      "9223372036854775808", "4294967296", "\t2", "2\n", "00", "0001"};
    switch (rnd(s, 8)) {
    case 0:
        snprintf(out, len, "%ld", lo - 1);
        break;
    case 1:
        snprintf(out, len, "%ld", lo);
        break;
    case 2:
        if (hi == -2)
            snprintf(out, len, "18446744073709551615");
        else
            snprintf(out, len, "%ld", hi);
        break;
    case 3:
        if (hi == -2)
            snprintf(out, len, "18446744073709551616");
        else
            snprintf(out, len, "%ld", hi + 1);
        break;
    case 4:
        snprintf(out, len, "%s", PICK(s, bad));
        break;
    case 5: /* a digit above the maximum (the parse_digits wrap of issue 17) */
        snprintf(out, len, "%u%u", 1 + rnd(s, 9), rnd(s, 10));
        break;
    default:
        snprintf(out, len, "%u", rnd(s, 6));
        break;
    }
}

static const char *pattern_path(const char *w, char *buf, size_t len)
{
    if ((w[0] == 'P' || w[0] == 'M') && w[1] != '\0') {
        snprintf(buf, len, "file:%s/%s", tmpdir, w);
        return buf;
    }
    return w;
}

static void add(input *in, const char *a)
{
    if (in->argc < MAX_ARGS) {
        snprintf(in->buf[in->argc], ARG_LEN, "%s", a);
        in->argv[in->argc] = in->buf[in->argc];
        in->argc++;
    }
}

static void add_opts(uint64_t *s, input *in, const opt_desc *o, unsigned no, int nopts)
{
    int k;
    for (k = 0; k < nopts; k++) {
        const opt_desc *d = &o[rnd(s, no)];
        char val[ARG_LEN], arg[ARG_LEN + 40], pbuf[ARG_LEN];
        int is_flag = d->lo == 0 && d->hi == 0 && d->words == NULL;
        if (is_flag) {
            add(in, chance(s, 95) ? d->name : "--json=1");
            continue;
        }
        if (d->words != NULL) {
            unsigned n = 0;
            while (d->words == w_pattern ? n < sizeof w_pattern / sizeof *w_pattern
                   : d->words == w_engine ? n < sizeof w_engine / sizeof *w_engine
                   : d->words == w_op     ? n < sizeof w_op / sizeof *w_op
                   : d->words == w_algo   ? n < sizeof w_algo / sizeof *w_algo
                   : d->words == w_combine ? n < sizeof w_combine / sizeof *w_combine
                   : d->words == w_wcap   ? n < sizeof w_wcap / sizeof *w_wcap
                   : d->words == w_mem    ? n < sizeof w_mem / sizeof *w_mem
                   : d->words == w_load   ? n < sizeof w_load / sizeof *w_load
                   : d->words == w_tpattern ? n < sizeof w_tpattern / sizeof *w_tpattern
                   : d->words == w_sweep  ? n < sizeof w_sweep / sizeof *w_sweep
                   : d->words == w_burst  ? n < sizeof w_burst / sizeof *w_burst
                   : d->words == w_tmode  ? n < sizeof w_tmode / sizeof *w_tmode
                   : d->words == w_guest  ? n < sizeof w_guest / sizeof *w_guest
                   : d->words == w_map    ? n < sizeof w_map / sizeof *w_map
                   : d->words == w_inject ? n < sizeof w_inject / sizeof *w_inject
                                          : 0)
                n++;
            snprintf(val, sizeof val, "%s", pattern_path(d->words[rnd(s, n)], pbuf, sizeof pbuf));
        } else {
            numval(s, d->lo, d->hi, val, sizeof val);
        }
        if (chance(s, 3)) { /* a missing value at the end */
            add(in, d->name);
            continue;
        }
        if (chance(s, 30)) {
            snprintf(arg, sizeof arg, "%s=%s", d->name, val);
            add(in, arg);
        } else {
            add(in, d->name);
            add(in, val);
        }
    }
}

/* The input of index i: argv[0] = "lcan", then a command and its arguments. */
static void gen(uint64_t seed, uint64_t i, input *in)
{
    static const char *const junk[] = {"-x", "-", "--", "--bogus", "-h", "--help", "--json=", "-5", "-.5",
                                       "--=", "---", "--pattern", "help", "x", ""};
    uint64_t st = seed ^ (i * 0xd1342543de82ef95ull), *s = &st;
    char spec[ARG_LEN];
    unsigned cmd = rnd(s, 100);
    int small = 0, k, end = 0;
    splitmix(s);
    in->argc = 0;
    add(in, "lcan");
    gen_spec(s, spec, sizeof spec);
    /* networks small enough to really run (at most 64 leaves): exact names only */
    small = strcmp(spec, "cm5") == 0 || strcmp(spec, "lcan(2,2,4)") == 0 || strcmp(spec, "lcan(2,2,16)") == 0 ||
            strcmp(spec, "lcan(4,4,16)") == 0 || strcmp(spec, "kary(2,3)") == 0 || strcmp(spec, "gft(2,2,2)") == 0 ||
            strcmp(spec, "bft(3;1,1,1)") == 0 || strcmp(spec, "bft(2;1,2)") == 0 || strcmp(spec, "kary(4,2)") == 0;
    if (cmd < 25) {
        add(in, "info");
        add(in, spec);
        add_opts(s, in, o_info, NOPT(o_info), (int)rnd(s, 2));
    } else if (cmd < 55) {
        add(in, "route");
        add(in, spec);
        add_opts(s, in, o_route, NOPT(o_route), (int)rnd(s, 5));
        end = in->argc;
        /* bounded work: only small networks run, with few trials; the rest is checked only */
        if (small && chance(s, 30)) {
            add(in, "--trials");
            add(in, "2");
            add(in, "--max-passes");
            add(in, "100");
        } else {
            add(in, "--check");
        }
    } else if (cmd < 72) {
        add(in, "collective");
        if (chance(s, 10))
            small = 0; /* no SPEC: --cbt H may run seed 003's simulator (seconds under ASan): check only */
        else
            add(in, spec);
        add_opts(s, in, o_coll, NOPT(o_coll), 1 + (int)rnd(s, 4));
        end = in->argc;
        if (small && chance(s, 30)) {
            add(in, "--flits");
            add(in, "3");
        } else {
            add(in, "--check");
        }
    } else if (cmd < 80) {
        int long_sweep = 0;
        add(in, "traffic");
        add(in, spec);
        add_opts(s, in, o_traffic, NOPT(o_traffic), (int)rnd(s, 5));
        end = in->argc;
        for (k = 2; k < in->argc; k++)
            long_sweep |= strstr(in->argv[k], "0.0001:1") != NULL;
        /* bounded work: small networks run a few dozen cycles per load point (the last --warmup,
         * --measure, --drain-max win); the rest, and the 10000-point sweep, are checked only */
        if (small && !long_sweep && chance(s, 40)) {
            add(in, "--warmup");
            add(in, "20");
            add(in, "--measure");
            add(in, "20");
            add(in, "--drain-max");
            add(in, "200");
        } else {
            add(in, "--check");
        }
    } else if (cmd < 85) {
        add(in, "embed");
        add(in, spec);
        add_opts(s, in, o_embed, NOPT(o_embed), (int)rnd(s, 4));
        end = in->argc;
        /* bounded work: the exchange runs on small networks only */
        if (!small || chance(s, 50))
            add(in, "--no-exchange");
    } else if (cmd < 92) {
        char v[ARG_LEN];
        add(in, "recurrence");
        for (k = 0; k < 3; k++) {
            if (chance(s, 5))
                continue;
            if (chance(s, 80))
                snprintf(v, sizeof v, "%u", k == 2 ? rnd(s, 12) : 1 + rnd(s, 8));
            else
                numval(s, k == 2 ? 0 : 1, k == 2 ? 100000 : 1000000, v, sizeof v);
            add(in, v);
        }
        add_opts(s, in, o_rec, NOPT(o_rec), (int)rnd(s, 3));
    } else if (cmd < 95) {
        add(in, "lockstep"); /* exec of tb/lcan-rtl is a no-op in the fuzz build */
        add(in, spec);
    } else if (cmd < 97) {
        add(in, "help");
        add(in, chance(s, 50) ? "route" : spec);
    } else {
        add(in, PICK(s, junk));
    }
    /* structure mutations: a junk token, "--", a dropped argument (never the bounds added last) */
    if (strcmp(in->argv[1], "route") != 0 && strcmp(in->argv[1], "collective") != 0 &&
        strcmp(in->argv[1], "traffic") != 0 && strcmp(in->argv[1], "embed") != 0)
        end = in->argc;
    if (end > 2 && chance(s, 15)) {
        int at = 2 + (int)rnd(s, (unsigned)(end - 2));
        snprintf(in->buf[at], ARG_LEN, "%s", PICK(s, junk));
    }
    if (end > 2 && chance(s, 5)) {
        int at = 2 + (int)rnd(s, (unsigned)(end - 2));
        memmove(&in->argv[at], &in->argv[at + 1], (size_t)(in->argc - at) * sizeof in->argv[0]);
        in->argc--;
    }
    in->argv[in->argc] = NULL;
}

static void print_input(FILE *f, const input *in)
{
    int k;
    for (k = 0; k < in->argc; k++) {
        const char *a = in->argv[k];
        fputc('\'', f);
        for (; *a; a++)
            if (*a == '\'')
                fputs("'\\''", f);
            else if ((unsigned char)*a < 0x20 || (unsigned char)*a >= 0x7f)
                fprintf(f, "'$'\\x%02x''", (unsigned char)*a);
            else
                fputc(*a, f);
        fputs(k + 1 < in->argc ? "' " : "'", f);
    }
    fputc('\n', f);
}

/* ------------------------------------------------------------------ pattern files */

static void write_file(const char *name, const char *text)
{
    char path[400];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    f = fopen(path, "w");
    if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "fuzz: cannot write %s\n", path);
        exit(2);
    }
}

static void make_patterns(void)
{
    char big[2048];
    size_t k = 0;
    int v;
    write_file("P4", "3 2 1 0\n");
    write_file("P8", "0 1 2 3 4 5 6 7");
    write_file("P16", "15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0\n");
    write_file("P16B", "1\t0\r\n3 2\n5 4 7 6 9 8 11 10 13 12 15 14\f");
    write_file("PDUP", "0 0 1 2\n");
    write_file("PRANGE", "0 1 2 99999999999999999999\n");
    write_file("PJUNK", "0 1 x 3\n\xff\x00");
    write_file("PEMPTY", "");
    for (v = 0; v < 300; v++)
        k += (size_t)snprintf(big + k, sizeof big - k, "%d ", v % 17);
    write_file("PMANY", big);
    /* traffic matrices (cmd_traffic.c: an N x N matrix of rates) */
    write_file("M4", "0 1 0 0\n0 0 1 0\n0 0 0 1\n1 0 0 0\n");
    write_file("MBAD", "0 -1 0 0\n0 0 1 0\n0 0 0 1\n1 0 0 x\n");
    write_file("MZERO", "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n");
    k = 0;
    for (v = 0; v < 256; v++)
        k += (size_t)snprintf(big + k, sizeof big - k, "%d%c", (v % 16) == (v / 16 + 1) % 16 ? 3 : (v % 5 == 0),
                              v % 16 == 15 ? '\n' : ' ');
    write_file("M16", big);
}

/* ------------------------------------------------------------------ running */

static long file_read(int fd, char *buf, size_t cap)
{
    ssize_t n;
    if (lseek(fd, 0, SEEK_SET) < 0)
        return -1;
    n = read(fd, buf, cap - 1);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return n;
}

/* Checks one result against the tool's promises; returns NULL or a reason. */
static const char *judge(int rc, const char *err, long nerr, long nout)
{
    long lines = 0, k;
    for (k = 0; k < nerr; k++)
        lines += err[k] == '\n';
    if (nerr > 0 && err[nerr - 1] != '\n')
        return "stderr does not end with a newline";
    if (rc != 0 && rc != 1 && rc != 2)
        return "exit status other than 0, 1, 2";
    if (rc == 0 && nerr > 0)
        return "status 0 with output on stderr";
    if (rc == 2 && (lines != 1 || strncmp(err, "lcan: ", 6) != 0))
        return "status 2 without exactly one line 'lcan: ...' on stderr";
    if (rc == 2 && nout > 0)
        return "status 2 with output on stdout";
    if (rc == 1 && (lines > 1 || (lines == 1 && strncmp(err, "lcan: ", 6) != 0)))
        return "status 1 with more than one line, or not 'lcan: ...', on stderr";
    return NULL;
}

static int out_fd, err_fd;
static char errbuf[1 << 16];

static void run_batch(uint64_t seed, uint64_t first, uint64_t n, shared_state *sh)
{
    uint64_t i;
    input in;
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    for (i = first; i < first + n; i++) {
        int rc;
        long nerr, nout;
        const char *why;
        gen(seed, i, &in);
        sh->current = i;
        if (ftruncate(1, 0) != 0 || ftruncate(2, 0) != 0 || lseek(1, 0, SEEK_SET) < 0 || lseek(2, 0, SEEK_SET) < 0)
            _exit(4);
        alarm(HANG_SECONDS);
        rc = lcan_tool_main(in.argc, in.argv);
        alarm(0);
        fflush(stdout);
        fflush(stderr);
        nout = lseek(1, 0, SEEK_END);
        nerr = file_read(2, errbuf, sizeof errbuf);
        why = judge(rc, errbuf, nerr, nout);
        if (why != NULL) {
            snprintf(sh->why, sizeof sh->why, "%s (status %d)", why, rc);
            sh->finding = 1;
            _exit(3);
        }
    }
    fflush(NULL);
    _exit(0);
}

/* Runs inputs [first, first+n) in one child; returns the number passed and reports a finding. */
static uint64_t run(uint64_t seed, uint64_t first, uint64_t n, shared_state *sh, int *found, int quiet)
{
    pid_t pid;
    int status;
    input in;
    sh->current = first;
    sh->finding = 0;
    sh->why[0] = '\0';
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        perror("fuzz: fork");
        exit(2);
    }
    if (pid == 0)
        run_batch(seed, first, n, sh);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        *found = 0;
        return n;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 3 && n > 1 && sh->current == first + n - 1) {
        /* the batch ran to its end and died at exit (a leak report): find the input one by one */
        uint64_t i, ok = 0;
        int f = 0;
        for (i = first; i < first + n; i++) {
            int fi;
            ok += run(seed, i, 1, sh, &fi, quiet);
            f |= fi;
        }
        *found = f ? f : 1;
        if (!f)
            fprintf(stdout, "fuzz: FINDING batch %llu..%llu: the batch child exited %d, no single input does\n",
                    (unsigned long long)first, (unsigned long long)(first + n - 1), WEXITSTATUS(status));
        return ok;
    }
    *found = 1;
    gen(seed, sh->current, &in);
    fprintf(stdout, "fuzz: FINDING input %llu (seed %llu): ", (unsigned long long)sh->current,
            (unsigned long long)seed);
    if (sh->finding)
        fprintf(stdout, "%s\n", sh->why);
    else if (WIFSIGNALED(status))
        fprintf(stdout, "%s\n", WTERMSIG(status) == SIGALRM ? "hang (no answer in 30 s)" : strsignal(WTERMSIG(status)));
    else
        fprintf(stdout, "the child exited %d (sanitizer report?)\n", WEXITSTATUS(status));
    fprintf(stdout, "  argv: ");
    print_input(stdout, &in);
    if (!quiet) {
        long k = file_read(err_fd, errbuf, sizeof errbuf);
        if (k > 0)
            fprintf(stdout, "  stderr: %.2000s\n", errbuf);
    }
    return sh->current - first; /* the inputs before it passed */
}

int main(int argc, char **argv)
{
    uint64_t count = 100000, seed = 1, batch = 2000, done = 0, findings = 0;
    double limit = 0.0, t0, t;
    int quiet = 0, a;
    char path[400];
    shared_state *sh;
    struct timespec ts;

    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (a + 1 >= argc) {
            fprintf(stderr, "fuzz: usage: fuzz_cli [--count N] [--time S] [--seed S] [--batch B] [--quiet]\n");
            return 2;
        }
        if (strcmp(argv[a], "--count") == 0)
            count = strtoull(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--time") == 0)
            limit = strtod(argv[++a], NULL);
        else if (strcmp(argv[a], "--seed") == 0)
            seed = strtoull(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--batch") == 0)
            batch = strtoull(argv[++a], NULL, 10);
        else {
            fprintf(stderr, "fuzz: unknown option '%s'\n", argv[a]);
            return 2;
        }
    }
    if (batch < 1)
        batch = 1;
    if (limit > 0.0 && count == 100000)
        count = UINT64_MAX; /* --time alone: until the time is up */
    snprintf(tmpdir, sizeof tmpdir, "%s/lcan-fuzz-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(tmpdir) == NULL) {
        perror("fuzz: mkdtemp");
        return 2;
    }
    make_patterns();
    snprintf(path, sizeof path, "%s/out", tmpdir);
    out_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    snprintf(path, sizeof path, "%s/err", tmpdir);
    err_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (out_fd < 0 || err_fd < 0 || sh == MAP_FAILED) {
        perror("fuzz: setup");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t0 = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    t = t0;
    while (done < count && (limit <= 0.0 || t - t0 < limit)) {
        uint64_t n = count - done < batch ? count - done : batch;
        int found;
        uint64_t ok = run(seed, done, n, sh, &found, quiet);
        if (found) {
            findings++;
            n = ok + 1; /* skip the input that failed */
            if (findings >= 20) {
                fprintf(stdout, "fuzz: stopping after 20 findings\n");
                done += n;
                break;
            }
        }
        done += n;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        t = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    printf("fuzz: %llu inputs, %llu findings, %.1f s, %.0f inputs/s (seed %llu)\n", (unsigned long long)done,
           (unsigned long long)findings, t - t0, (double)done / (t - t0 > 0 ? t - t0 : 1), (unsigned long long)seed);
    printf("fuzz: %llu passed, %llu failed\n", (unsigned long long)(done - findings), (unsigned long long)findings);
    snprintf(path, sizeof path, "rm -rf '%s'", tmpdir);
    if (system(path) != 0)
        fprintf(stderr, "fuzz: cannot remove %s\n", tmpdir);
    return findings ? 1 : 0;
}
