/*
 * cmd_route.c - `lcan route SPEC [--pattern P] [--trials T] [--seed S] [--engine E] [--json]`:
 * route T permutations with the pass driver of spec 7.5 and report first-pass statistics.
 *
 * Trial k = 0..T-1: rng = lcan_trial_rng(seed, k); perm = lcan_pattern(P, &rng);
 * net seed = lcan_trial_net_seed(seed, k); engine model: lcan_route_perm_fast.
 * Engines rtl and icarus are run by tb/lcan-rtl with the same arguments (after they are checked).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

#define MAX_TRIALS 1000000L
#define MAX_PASSES 1000000L
#define DEFAULT_MAX_PASSES 10000L

static const char usage[] =
    "usage: lcan route SPEC [--pattern P] [--trials T] [--seed S] [--engine E] [--max-passes M] [--json]\n"
    "Routes T permutations of the network SPEC, pass by pass (docs/spec.md 7.5), and reports the\n"
    "fraction of sources satisfied in the first pass, the passes needed and the stage occupancy.\n"
    "  --pattern P     identity random worst bitrev transpose shuffle file:PATH (default random)\n"
    "  --trials T      number of permutations, 1..1000000 (default 10)\n"
    "  --seed S        driver seed, 0..2^64-1 (default 1); trial k uses lcan_trial_rng(S, k)\n"
    "  --engine E      model (default), rtl (Verilator) or icarus; rtl/icarus run tb/lcan-rtl\n"
    "  --max-passes M  give up after M passes, 1..1000000 (default 10000)\n"
    "  --json          one JSON object: spec, pattern, engine, trials, seed, first_pass_mean,\n"
    "                  first_pass_sem, passes_mean, passes_max, passes_hist, recurrence,\n"
    "                  stage_occupancy (levels h..1)\n";

typedef struct {
    const char *spec, *pattern, *engine;
    long trials, max_passes;
    uint64_t seed;
    int json;
} route_args;

typedef struct {
    double fp_mean, fp_sem, passes_mean, recurrence;
    int passes_max, has_recurrence;
    long *hist;      /* hist[p] = trials that needed p passes, p = 0..passes_max */
    double *occ;     /* h entries, top level first, mean over trials */
} route_stats;

/* Returns -1 (error printed) on bad input, 0 ok, 1 for --help. */
static int parse_args(int argc, char **argv, route_args *a)
{
    const char *trials = NULL, *seed = NULL, *maxp = NULL, *v;
    int i, r, opts = 1;

    a->spec = NULL;
    a->pattern = "random";
    a->engine = "model";
    a->trials = 10;
    a->max_passes = DEFAULT_MAX_PASSES;
    a->seed = 1;
    a->json = 0;
    for (i = 1; i < argc; i++)
        if (tool_is_help(argv[i])) {
            fputs(usage, stdout);
            return 1;
        }
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (opts && strcmp(arg, "--") == 0) {
            opts = 0;
            continue;
        }
        if (!opts || !tool_is_option(arg)) {
            if (a->spec != NULL) {
                tool_error("route: unexpected argument '%s' (one SPEC only)", arg);
                return -1;
            }
            a->spec = arg;
            continue;
        }
        if ((r = tool_opt_flag("route", arg, "--json")) != 0) {
            if (r < 0)
                return -1;
            a->json = 1;
            continue;
        }
#define VALUE_OPT(name, dst)                                                   \
        if ((r = tool_opt_value("route", argc, argv, &i, name, &v)) != 0) {    \
            if (r < 0)                                                         \
                return -1;                                                     \
            dst = v;                                                           \
            continue;                                                          \
        }
        VALUE_OPT("--pattern", a->pattern)
        VALUE_OPT("--trials", trials)
        VALUE_OPT("--seed", seed)
        VALUE_OPT("--engine", a->engine)
        VALUE_OPT("--max-passes", maxp)
#undef VALUE_OPT
        tool_error("route: unknown option '%s' (try 'lcan route --help')", arg);
        return -1;
    }
    if (a->spec == NULL) {
        tool_error("route: missing SPEC (usage: lcan route SPEC [--pattern P] [--trials T] ...)");
        return -1;
    }
    if (trials != NULL && tool_parse_long("route", "--trials", trials, 1, MAX_TRIALS, &a->trials) != 0)
        return -1;
    if (maxp != NULL && tool_parse_long("route", "--max-passes", maxp, 1, MAX_PASSES, &a->max_passes) != 0)
        return -1;
    if (seed != NULL && tool_parse_u64("route", "--seed", seed, &a->seed) != 0)
        return -1;
    if (strcmp(a->engine, "model") != 0 && strcmp(a->engine, "rtl") != 0 && strcmp(a->engine, "icarus") != 0) {
        tool_error("route: --engine '%s' is not one of model, rtl, icarus", a->engine);
        return -1;
    }
    if (a->pattern[0] == '\0') {
        tool_error("route: --pattern is empty (identity random worst bitrev transpose shuffle file:PATH)");
        return -1;
    }
    return 0;
}

/* Runs every trial on the model; returns an exit status (error printed). */
static int run_model(const lcan_topo *t, const route_args *a, route_stats *out)
{
    uint32_t n = lcan_topo_leaves(t);
    int h = lcan_topo_levels(t), l, d, u, status = TOOL_EXIT_OK;
    uint32_t *perm = malloc((size_t)n * sizeof *perm);
    double *occ = malloc((size_t)h * sizeof *occ);
    double *fp = malloc((size_t)a->trials * sizeof *fp);
    int *passes = malloc((size_t)a->trials * sizeof *passes);
    double sum = 0.0, ss = 0.0, psum = 0.0;
    char err[512];
    long k;

    out->hist = NULL;
    out->occ = calloc((size_t)h, sizeof *out->occ);
    out->passes_max = 0;
    if (perm == NULL || occ == NULL || fp == NULL || passes == NULL || out->occ == NULL) {
        tool_error("route: out of memory");
        status = TOOL_EXIT_FAIL;
        goto done;
    }
    for (k = 0; k < a->trials; k++) {
        uint64_t rng = lcan_trial_rng(a->seed, (uint32_t)k);
        lcan_route_result res;
        lcan_status st = lcan_pattern(t, a->pattern, &rng, perm, err, sizeof err);
        if (st != LCAN_OK) {
            /* unknown / inapplicable pattern, unreadable file: bad input (exit 2) */
            tool_error("route: %s", err[0] ? err : lcan_strerror(st));
            status = st == LCAN_ERR_NOMEM ? TOOL_EXIT_FAIL : TOOL_EXIT_USAGE;
            goto done;
        }
        memset(&res, 0, sizeof res);
        res.stage_occ = occ;
        st = lcan_route_perm_fast(t, perm, lcan_trial_net_seed(a->seed, (uint32_t)k), (int)a->max_passes, &res);
        if (st == LCAN_ERR_STALL) {
            tool_error("route: trial %ld did not finish within %ld passes", k, a->max_passes);
            status = TOOL_EXIT_FAIL;
            goto done;
        }
        if (st != LCAN_OK) {
            tool_error("route: trial %ld: %s", k, lcan_strerror(st));
            status = TOOL_EXIT_FAIL;
            goto done;
        }
        if (res.data_errors != 0) {
            tool_error("route: trial %ld: %llu data flits missing, misplaced or wrong", k,
                       (unsigned long long)res.data_errors);
            status = TOOL_EXIT_FAIL;
            goto done;
        }
        fp[k] = (double)res.first_pass / (double)n;
        passes[k] = res.passes;
        if (res.passes > out->passes_max)
            out->passes_max = res.passes;
        sum += fp[k];
        psum += res.passes;
        for (l = 0; l < h; l++)
            out->occ[l] += occ[l];
    }
    out->fp_mean = sum / (double)a->trials;
    for (k = 0; k < a->trials; k++)
        ss += (fp[k] - out->fp_mean) * (fp[k] - out->fp_mean);
    out->fp_sem = a->trials > 1 ? sqrt(ss / (double)(a->trials - 1)) / sqrt((double)a->trials) : 0.0;
    out->passes_mean = psum / (double)a->trials;
    for (l = 0; l < h; l++)
        out->occ[l] /= (double)a->trials;
    out->hist = calloc((size_t)out->passes_max + 1, sizeof *out->hist);
    if (out->hist == NULL) {
        tool_error("route: out of memory");
        status = TOOL_EXIT_FAIL;
        goto done;
    }
    for (k = 0; k < a->trials; k++)
        if (passes[k] >= 0)
            out->hist[passes[k]]++;
    out->has_recurrence = lcan_topo_is_lcan(t, &d, &u);
    if (out->has_recurrence) {
        double *p = malloc(((size_t)h + 1) * sizeof *p);
        if (p == NULL) {
            tool_error("route: out of memory");
            status = TOOL_EXIT_FAIL;
            goto done;
        }
        lcan_recurrence(d, u, h, -1.0, p);
        out->recurrence = p[h];
        free(p);
    }
done:
    free(perm);
    free(occ);
    free(fp);
    free(passes);
    return status;
}

static void print_json(const lcan_topo *t, const route_args *a, const route_stats *s)
{
    int h = lcan_topo_levels(t), l, p, first = 1;
    printf("{\"spec\": ");
    tool_json_string(stdout, lcan_topo_canonical(t));
    printf(", \"pattern\": ");
    tool_json_string(stdout, a->pattern);
    printf(", \"engine\": ");
    tool_json_string(stdout, a->engine);
    printf(", \"trials\": %ld, \"seed\": %llu, \"first_pass_mean\": ", a->trials, (unsigned long long)a->seed);
    tool_json_double(stdout, s->fp_mean);
    printf(", \"first_pass_sem\": ");
    tool_json_double(stdout, s->fp_sem);
    printf(", \"passes_mean\": ");
    tool_json_double(stdout, s->passes_mean);
    printf(", \"passes_max\": %d, \"passes_hist\": {", s->passes_max);
    for (p = 0; p <= s->passes_max; p++)
        if (s->hist[p] != 0) {
            printf("%s\"%d\": %ld", first ? "" : ", ", p, s->hist[p]);
            first = 0;
        }
    printf("}, \"recurrence\": ");
    if (s->has_recurrence)
        tool_json_double(stdout, s->recurrence);
    else
        printf("null");
    printf(", \"stage_occupancy\": [");
    for (l = 0; l < h; l++) {
        if (l > 0)
            printf(", ");
        tool_json_double(stdout, s->occ[l]);
    }
    printf("]}\n");
}

static void print_text(const lcan_topo *t, const route_args *a, const route_stats *s)
{
    int h = lcan_topo_levels(t), l, p;
    printf("spec             %s\n", lcan_topo_canonical(t));
    printf("pattern          %s\n", a->pattern);
    printf("engine           %s\n", a->engine);
    printf("trials           %ld\n", a->trials);
    printf("seed             %llu\n", (unsigned long long)a->seed);
    printf("first_pass_mean  %.6f (sem %.6f)\n", s->fp_mean, s->fp_sem);
    printf("passes_mean      %.3f\n", s->passes_mean);
    printf("passes_max       %d\n", s->passes_max);
    printf("passes_hist     ");
    for (p = 0; p <= s->passes_max; p++)
        if (s->hist[p] != 0)
            printf(" %d:%ld", p, s->hist[p]);
    printf("\n");
    if (s->has_recurrence)
        printf("recurrence       %.6f (p(h), seed 004)\n", s->recurrence);
    else
        printf("recurrence       n/a (not an LCAN)\n");
    printf("stage_occupancy ");
    for (l = 0; l < h; l++)
        printf(" %.6f", s->occ[l]);
    printf("  (levels %d..1)\n", h);
}

int cmd_route(int argc, char **argv)
{
    route_args a;
    route_stats s;
    lcan_topo *t;
    int r = parse_args(argc, argv, &a);

    if (r != 0)
        return r > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if ((t = tool_topo(a.spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if (strcmp(a.engine, "model") != 0) {
        lcan_topo_free(t);
        return tool_exec_rtl(argc, argv);
    }
    memset(&s, 0, sizeof s);
    r = run_model(t, &a, &s);
    if (r == TOOL_EXIT_OK) {
        if (a.json)
            print_json(t, &a, &s);
        else
            print_text(t, &a, &s);
    }
    free(s.hist);
    free(s.occ);
    lcan_topo_free(t);
    return r;
}
