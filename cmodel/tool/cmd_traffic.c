/*
 * cmd_traffic.c - `lcan traffic SPEC --pattern P --load L | --sweep A:B:STEP [...]`: open-loop
 * traffic in packet mode, latency and throughput as BookSim reports them (lcan_traffic.h,
 * docs/traffic.md).
 *
 * Engine model: lcan_traffic_run_model per load point, timed here (wall clock) for cycles_per_s.
 * Engines rtl and icarus run tb/lcan-rtl with the same arguments (after they are checked), which
 * drives lcan_traffic_run through the RTL in lockstep with the model and prints with the same
 * printer (lcan_traffic_print).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lcan_faults.h"
#include "lcan_traffic.h"
#include "tool_util.h"

static const char usage[] =
    "usage: lcan traffic SPEC [--pattern P] (--load L | --sweep A:B:STEP) [options] [--json|--csv]\n"
    "Open-loop traffic on the network SPEC in packet mode (spec 8): every node creates single-flit\n"
    "packets at L flits/node/cycle into an unbounded source queue; reports offered and accepted\n"
    "load, latency (creation to ejection) avg/min/p50/p99/max and a histogram, network latency\n"
    "(injection to ejection) and source queueing separately, per-node accepted min/max, and the\n"
    "checks (lost, duplicated, misrouted packets). Zero-load latency of a unicast of LCA level L is\n"
    "2L-1 (spec 8.4). docs/traffic.md has the definitions and the BookSim2 comparison.\n"
    "  --pattern P     uniform (default), bitcomp, bitrev, transpose, shuffle, tornado, neighbor,\n"
    "                  hotspot:NODE:FRACTION, file:PATH (N destinations, or an N x N traffic matrix)\n"
    "  --load L        offered load in flits/node/cycle, 0 < L <= 1 (default 0.1)\n"
    "  --sweep A:B:STEP  loads A, A+STEP, .. B; prints every point and the saturation load: the\n"
    "                  first load with accepted < 0.99 offered or average latency > 3x zero-load\n"
    "  --warmup C      warm-up cycles (default 10000)\n"
    "  --measure C     measurement cycles (default 10000); packets created in them are measured\n"
    "  --drain         after the measured packets, stop creating and empty the network: every\n"
    "                  packet is accounted for (lost = created - delivered)\n"
    "  --drain-max C   bound on each drain phase (default max(10000, 10 (warmup + measure)))\n"
    "  --burst B       on/off injection, mean ON length B >= 1 cycles (one packet per ON cycle),\n"
    "                  same mean load (L < 1); default Bernoulli\n"
    "  --bcast F       fraction F of the packets are broadcasts (spec 8.5), 0..1 (default 0)\n"
    "  --seed S        driver seed, 0..2^32-1 (default 1); the network seed is derived from it\n"
    "  --depth D       DEPTH of the packet FIFOs, 1..255 (default 4)\n"
    "  --up-choice C   which upper a packet going up gets (spec 6): uniform (default) or rotate\n"
    "  --faults LIST   a fault set (docs/spec.md 14.5): Ll:x (switch), Ll:x/o (link on its downer o),\n"
    "                  random:K (drawn with --seed), comma-separated. Unicasts to cut pairs are not\n"
    "                  created (cut), packets use usable ports only; the run ends with an empty network\n"
    "                  and checks injected = delivered + dropped (cnt_drop); unicast traffic only\n"
    "  --fault-at T    apply the faults at tick T (rows written on T, T+1, ..; queued packets whose\n"
    "                  pair becomes cut are discarded) instead of before the first injection\n"
    "  --mode packet   the only mode (circuit mode has no open-loop traffic)\n"
    "  --engine E      model (default), rtl (Verilator) or icarus: the RTL in lockstep with the model\n"
    "  --json          one JSON object (a sweep: points, saturation); --csv one row per point\n"
    "  --check         check the arguments (spec, pattern, options) and exit: 0 or 2\n"
    "  --progress      progress and time left on stderr (default: only when stderr is a terminal)\n";

typedef struct {
    const char *spec, *engine, *pattern, *mode, *load_s, *sweep_s, *faults;
    double load, burst, bcast;
    uint64_t warmup, measure, drain_max, seed, fault_at;
    long depth;
    lcan_up_choice up_choice;
    int json, csv, drain, check, progress;
} traffic_args;

static int parse_args(int argc, char **argv, traffic_args *a)
{
    const char *warmup = NULL, *measure = NULL, *drain_max = NULL, *seed = NULL, *burst = NULL, *bcast = NULL,
               *depth = NULL, *uc = NULL, *fault_at = NULL;
    int r;
    memset(a, 0, sizeof *a);
    a->engine = "model";
    a->pattern = "uniform";
    a->mode = "packet";
    a->load = 0.1;
    a->warmup = 10000;
    a->measure = 10000;
    a->seed = 1;
    a->depth = 4;
    {
        const tool_opt opts[] = {
            {"--json", &a->json, NULL},        {"--csv", &a->csv, NULL},
            {"--drain", &a->drain, NULL},      {"--check", &a->check, NULL},
            {"--progress", &a->progress, NULL}, {"--pattern", NULL, &a->pattern},
            {"--load", NULL, &a->load_s},      {"--sweep", NULL, &a->sweep_s},
            {"--warmup", NULL, &warmup},       {"--measure", NULL, &measure},
            {"--drain-max", NULL, &drain_max}, {"--burst", NULL, &burst},
            {"--bcast", NULL, &bcast},         {"--seed", NULL, &seed},
            {"--depth", NULL, &depth},         {"--mode", NULL, &a->mode},
            {"--engine", NULL, &a->engine},    {"--up-choice", NULL, &uc},
            {"--faults", NULL, &a->faults},    {"--fault-at", NULL, &fault_at},
        };
        r = tool_parse_args("traffic", argc, argv, usage, opts, sizeof opts / sizeof opts[0], &a->spec);
        if (r != 0)
            return r;
    }
    if (a->spec == NULL) {
        tool_error("traffic: missing SPEC (usage: lcan traffic SPEC --pattern P --load L)");
        return -1;
    }
    if (a->load_s != NULL && a->sweep_s != NULL) {
        tool_error("traffic: --load and --sweep exclude each other");
        return -1;
    }
    if (a->json && a->csv) {
        tool_error("traffic: --json and --csv exclude each other");
        return -1;
    }
    if (strcmp(a->mode, "packet") != 0) {
        tool_error("traffic: --mode '%s': only packet mode carries open-loop traffic", a->mode);
        return -1;
    }
    if (strcmp(a->engine, "model") != 0 && strcmp(a->engine, "rtl") != 0 && strcmp(a->engine, "icarus") != 0) {
        tool_error("traffic: --engine '%s' is not one of model, rtl, icarus", a->engine);
        return -1;
    }
    a->up_choice = LCAN_UP_UNIFORM;
    if (uc != NULL && tool_parse_up_choice("traffic", uc, &a->up_choice) != 0)
        return -1;
    if (a->load_s != NULL && tool_parse_double("traffic", "--load", a->load_s, 0.0, 1.0, &a->load) != 0)
        return -1;
    if (a->load_s != NULL && !(a->load > 0)) {
        tool_error("traffic: --load '%s': must be > 0", a->load_s);
        return -1;
    }
    if (a->sweep_s != NULL && lcan_traffic_sweep_loads(a->sweep_s, NULL, 0) < 1) {
        tool_error("traffic: --sweep '%s': expected A:B:STEP with 0 < A <= B <= 1, STEP > 0 (at most 10001 points)",
                   a->sweep_s);
        return -1;
    }
    if (warmup != NULL && tool_parse_u64("traffic", "--warmup", warmup, &a->warmup) != 0)
        return -1;
    if (measure != NULL && tool_parse_u64("traffic", "--measure", measure, &a->measure) != 0)
        return -1;
    if (a->measure < 1 || a->measure > 1000000000ull || a->warmup > 1000000000ull) {
        tool_error("traffic: --measure must be 1..10^9 and --warmup 0..10^9 cycles");
        return -1;
    }
    if (drain_max != NULL && tool_parse_u64("traffic", "--drain-max", drain_max, &a->drain_max) != 0)
        return -1;
    if (seed != NULL) {
        long s;
        if (tool_parse_long("traffic", "--seed", seed, 0, 4294967295L, &s) != 0)
            return -1;
        a->seed = (uint64_t)s;
    }
    if (depth != NULL && tool_parse_long("traffic", "--depth", depth, 1, 255, &a->depth) != 0)
        return -1;
    if (bcast != NULL && tool_parse_double("traffic", "--bcast", bcast, 0.0, 1.0, &a->bcast) != 0)
        return -1;
    if (fault_at != NULL && a->faults == NULL) {
        tool_error("traffic: --fault-at needs --faults");
        return -1;
    }
    if (fault_at != NULL && tool_parse_u64("traffic", "--fault-at", fault_at, &a->fault_at) != 0)
        return -1;
    if (a->faults != NULL && a->bcast > 0) {
        tool_error("traffic: --bcast with --faults: broadcast traffic under faults is refused (spec 14.5; use "
                   "lcan collective SPEC --op bcast --faults LIST)");
        return -1;
    }
    if (burst != NULL) {
        if (tool_parse_double("traffic", "--burst", burst, 1.0, 1e9, &a->burst) != 0)
            return -1;
        if (a->sweep_s == NULL && a->load >= 1.0) {
            tool_error("traffic: --burst needs --load < 1 (the OFF periods must have a length)");
            return -1;
        }
    }
    return 0;
}

/* The whole file (malloc'd), or NULL after printing an error. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n = 0, cap = 4096, r;
    if (f == NULL) {
        tool_error("traffic: cannot read pattern file '%s'", path);
        return NULL;
    }
    buf = malloc(cap);
    while (buf != NULL && (r = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
        n += r;
        if (n == cap - 1) {
            char *nb = realloc(buf, 2 * cap);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf == NULL) {
        tool_error("traffic: out of memory reading '%s'", path);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: steadier than wall time on a shared machine */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* lcan_traffic_run_model (src/traffic.c) with the model's tick wrapped for the progress line: the
 * warm-up and measurement ticks of every load point are the work (a drain is not counted). */
typedef struct {
    tool_progress p;
    lcan_net *n;
    uint64_t ticks, window;
    double base, total;
} traffic_prog;

static lcan_status prog_tick(void *e, const lcan_in *in, lcan_out *out)
{
    traffic_prog *c = e;
    c->ticks++;
    if (c->p.on && (c->ticks & 1023u) == 0)
        tool_progress_show(&c->p, c->base + (double)(c->ticks < c->window ? c->ticks : c->window), c->total,
                           "cycles");
    return lcan_net_tick(c->n, in, out);
}

static lcan_status run_model(const lcan_topo *t, const lcan_traffic_pattern *pat, const lcan_traffic_opts *o,
                             lcan_traffic_result *res, traffic_prog *c)
{
    lcan_status st;
    if ((st = lcan_traffic_model_new(t, o, &c->n)) != LCAN_OK)
        return st;
    c->ticks = 0;
    c->window = o->warmup + o->measure;
    st = lcan_traffic_run(t, pat, o, prog_tick, c, res);
    lcan_net_free(c->n);
    c->n = NULL;
    return st;
}

int cmd_traffic(int argc, char **argv)
{
    traffic_prog prog;
    traffic_args a;
    lcan_topo *t;
    lcan_traffic_pattern *pat = NULL;
    lcan_traffic_opts o;
    lcan_faults faults;
    lcan_traffic_result *pts;
    lcan_status st = LCAN_OK;
    char err[512], *text = NULL;
    double loads_one[1];
    double *loads = loads_one;
    int r = parse_args(argc, argv, &a), n = 1, k, bad = 0;

    if (r != 0)
        return r > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if ((t = tool_topo(a.spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if (strncmp(a.pattern, "file:", 5) == 0 && (text = read_file(a.pattern + 5)) == NULL) {
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    st = lcan_traffic_pattern_new(t, a.pattern, text, &pat, err, sizeof err);
    free(text);
    if (st != LCAN_OK) {
        tool_error("traffic: %s", err);
        lcan_topo_free(t);
        return st == LCAN_ERR_NOMEM ? TOOL_EXIT_FAIL : TOOL_EXIT_USAGE;
    }
    if (a.sweep_s != NULL && a.burst > 0) {
        int m = lcan_traffic_sweep_loads(a.sweep_s, NULL, 0);
        double *tmp = malloc((size_t)m * sizeof *tmp);
        if (tmp != NULL) {
            lcan_traffic_sweep_loads(a.sweep_s, tmp, m);
            bad = tmp[m - 1] >= 1.0;
            free(tmp);
        }
        if (bad) {
            tool_error("traffic: --burst needs loads < 1 (the OFF periods must have a length)");
            lcan_traffic_pattern_free(pat);
            lcan_topo_free(t);
            return TOOL_EXIT_USAGE;
        }
    }
    memset(&faults, 0, sizeof faults);
    if (a.faults != NULL && tool_faults("traffic", t, a.faults, a.seed, &faults) != 0) {
        lcan_traffic_pattern_free(pat);
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (a.check || strcmp(a.engine, "model") != 0) {
        lcan_faults_free(&faults);
        lcan_traffic_pattern_free(pat);
        lcan_topo_free(t);
        return a.check ? TOOL_EXIT_OK : tool_exec_rtl(argc, argv);
    }
    if (a.sweep_s != NULL) {
        n = lcan_traffic_sweep_loads(a.sweep_s, NULL, 0);
        loads = malloc((size_t)n * sizeof *loads);
        if (loads == NULL) {
            tool_error("traffic: out of memory");
            lcan_faults_free(&faults);
            lcan_traffic_pattern_free(pat);
            lcan_topo_free(t);
            return TOOL_EXIT_FAIL;
        }
        lcan_traffic_sweep_loads(a.sweep_s, loads, n);
    } else {
        loads[0] = a.load;
    }
    pts = calloc((size_t)n, sizeof *pts);
    lcan_traffic_opts_default(&o);
    o.bcast = a.bcast;
    o.burst = a.burst;
    o.warmup = a.warmup;
    o.measure = a.measure;
    o.drain_max = a.drain_max;
    o.drain_all = a.drain;
    o.seed = a.seed;
    o.depth = (int)a.depth;
    o.up_choice = a.up_choice;
    if (a.faults != NULL) {
        o.faults = &faults;
        o.fault_at = a.fault_at;
    }
    tool_progress_init(&prog.p, "traffic", a.progress);
    prog.total = (double)n * (double)(o.warmup + o.measure);
    for (k = 0; pts != NULL && k < n; k++) {
        double t0 = wall(), dt;
        o.load = loads[k];
        prog.base = (double)k * (double)(o.warmup + o.measure);
        st = run_model(t, pat, &o, &pts[k], &prog);
        dt = wall() - t0;
        pts[k].cycles_per_s = dt > 0 ? (double)pts[k].cycles / dt : 0.0;
        if (st != LCAN_OK && st != LCAN_ERR_STALL)
            break;
        if (st == LCAN_ERR_STALL || pts[k].lost || pts[k].duplicated || pts[k].misrouted)
            bad = 1;
        if (pts[k].queue_overflow) { /* far above saturation: the sweep stops here (the RTL engine too) */
            n = k + 1;
            break;
        }
    }
    tool_progress_end(&prog.p);
    if (pts == NULL || (st != LCAN_OK && st != LCAN_ERR_STALL)) {
        tool_error("traffic: %s", pts == NULL ? "out of memory" : lcan_strerror(st));
        r = TOOL_EXIT_FAIL;
    } else {
        o.load = loads[0];
        lcan_traffic_print(stdout, t, pat, a.engine, &o, pts, n, a.sweep_s != NULL,
                           a.json ? LCAN_TRAFFIC_JSON : a.csv ? LCAN_TRAFFIC_CSV : LCAN_TRAFFIC_TEXT);
        if (bad && pts[n - 1].queue_overflow)
            fprintf(stderr, "lcan: traffic: at load %g the source queues exceeded 2^24 packets (far above saturation): "
                            "stopped; use a shorter --warmup / --measure\n", pts[n - 1].load);
        else if (bad)
            fprintf(stderr, "lcan: traffic: packets lost, duplicated or misrouted, or a drain did not finish\n");
        r = bad ? TOOL_EXIT_FAIL : TOOL_EXIT_OK;
    }
    if (loads != loads_one)
        free(loads);
    free(pts);
    lcan_faults_free(&faults);
    lcan_traffic_pattern_free(pat);
    lcan_topo_free(t);
    return r;
}
