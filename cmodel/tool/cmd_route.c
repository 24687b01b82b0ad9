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

#include "lcan_study.h"
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

int cmd_route(int argc, char **argv)
{
    route_args a;
    lcan_study_route_stats s;
    lcan_topo *t;
    lcan_status st;
    char err[512];
    int r = parse_args(argc, argv, &a);

    if (r != 0)
        return r > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if ((t = tool_topo(a.spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if (strcmp(a.engine, "model") != 0) {
        lcan_topo_free(t);
        return tool_exec_rtl(argc, argv);
    }
    /* the trial loop shared with the RTL engine (src/study.c); no tick function = the model's
     * event-driven router */
    st = lcan_study_route(t, 16, a.pattern, a.trials, a.seed, (int)a.max_passes, NULL, NULL, &s,
                          err, sizeof err);
    if (st == LCAN_OK) {
        lcan_study_route_print(stdout, t, a.pattern, a.engine, &s, a.json);
        r = TOOL_EXIT_OK;
    } else {
        /* an unknown or inapplicable pattern or an unreadable file is bad input (exit 2); a
         * stall, data errors or no memory are run-time failures (exit 1) */
        tool_error("route: %s", err[0] ? err : lcan_strerror(st));
        r = (st == LCAN_ERR_PATTERN || st == LCAN_ERR_IO) ? TOOL_EXIT_USAGE : TOOL_EXIT_FAIL;
    }
    lcan_study_route_free(&s);
    lcan_topo_free(t);
    return r;
}
