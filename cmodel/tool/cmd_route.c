/*
 * cmd_route.c - `lcan route SPEC [--pattern P] [--trials T] [--seed S] [--engine E] [--json]`:
 * route T permutations with the pass driver of spec 7.5 and report first-pass statistics.
 *
 * Trial k = 0..T-1: rng = lcan_trial_rng(seed, k); perm = lcan_pattern(P, &rng);
 * net seed = lcan_trial_net_seed(seed, k); engine model: lcan_route_perm_fast with --up-choice.
 * Engines rtl and icarus are run by tb/lcan-rtl with the same arguments (after they are checked).
 * --faults LIST (spec 14.5): the model engine runs the tick-level driver lcan_route_perm_faults on the
 * circuit-mode model (the event-driven router knows no faults); the JSON gains faults and cut.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lcan_faults.h"
#include "lcan_study.h"
#include "tool_util.h"

#define MAX_TRIALS 1000000L
#define MAX_PASSES 1000000L
#define DEFAULT_MAX_PASSES 10000L

static const char usage[] =
    "usage: lcan route SPEC [--pattern P] [--trials T] [--seed S] [--engine E] [--up-choice C]\n"
    "                  [--max-passes M] [--json]\n"
    "Routes T permutations of the network SPEC, pass by pass (docs/spec.md 7.5), and reports the\n"
    "fraction of sources satisfied in the first pass, the passes needed and the stage occupancy.\n"
    "  --pattern P     identity random worst bitrev transpose shuffle file:PATH (default random)\n"
    "  --trials T      number of permutations, 1..1000000 (default 10)\n"
    "  --seed S        driver seed, 0..2^64-1 (default 1); trial k uses lcan_trial_rng(S, k)\n"
    "  --engine E      model (default), rtl (Verilator) or icarus; rtl/icarus run tb/lcan-rtl\n"
    "  --up-choice C   which upper a header going up gets (spec 6, UP_CHOICE): uniform (default,\n"
    "                  a random permutation of the uppers) or rotate (a random rotation)\n"
    "  --max-passes M  give up after M passes, 1..1000000 (default 10000)\n"
    "  --mem-limit GB  refuse a network whose memory estimate exceeds GB (default: MemAvailable)\n"
    "  --faults LIST   a fault set (docs/spec.md 14.5): Ll:x (switch), Ll:x/o (link on its downer o),\n"
    "                  random:K (drawn with --seed), comma-separated; written before pass 0; a source\n"
    "                  whose pair is cut is never active (\"cut\": their number summed over the trials);\n"
    "                  the model engine then runs the tick-level driver (slower). 'lcan faults' shows a set\n"
    "  --fault-at T    (lcan traffic only: a route applies its faults before pass 0)\n"
    "  --check         check the arguments (spec, pattern of trial 0, memory) and exit: 0 or 2\n"
    "  --progress      progress and time left on stderr (default: only when stderr is a terminal)\n"
    "  --json          one JSON object: spec, pattern, engine, up_choice, trials, seed, first_pass_mean,\n"
    "                  first_pass_sem, passes_mean, passes_max, passes_hist, recurrence,\n"
    "                  stage_occupancy (levels h..1); with --faults also faults (count) and cut\n";

typedef struct {
    const char *spec, *pattern, *engine, *mem_limit, *faults, *fault_at;
    lcan_up_choice up_choice;
    long trials, max_passes;
    uint64_t seed;
    int json, check, progress;
} route_args;

/* Returns -1 (error printed) on bad input, 0 ok, 1 for --help. */
static int parse_args(int argc, char **argv, route_args *a)
{
    const char *trials = NULL, *seed = NULL, *maxp = NULL, *uc = NULL;
    int r;

    a->spec = NULL;
    a->pattern = "random";
    a->engine = "model";
    a->trials = 10;
    a->max_passes = DEFAULT_MAX_PASSES;
    a->seed = 1;
    a->json = 0;
    a->check = 0;
    a->progress = 0;
    a->mem_limit = NULL;
    a->faults = NULL;
    a->fault_at = NULL;
    {
        const tool_opt opts[] = {
            {"--json", &a->json, NULL},         {"--check", &a->check, NULL},
            {"--progress", &a->progress, NULL}, {"--pattern", NULL, &a->pattern},
            {"--trials", NULL, &trials},        {"--seed", NULL, &seed},
            {"--engine", NULL, &a->engine},     {"--max-passes", NULL, &maxp},
            {"--mem-limit", NULL, &a->mem_limit}, {"--up-choice", NULL, &uc},
            {"--faults", NULL, &a->faults},     {"--fault-at", NULL, &a->fault_at},
        };
        r = tool_parse_args("route", argc, argv, usage, opts, sizeof opts / sizeof opts[0], &a->spec);
        if (r != 0)
            return r;
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
    a->up_choice = LCAN_UP_UNIFORM;
    if (uc != NULL && tool_parse_up_choice("route", uc, &a->up_choice) != 0)
        return -1;
    if (strcmp(a->engine, "model") != 0 && strcmp(a->engine, "rtl") != 0 && strcmp(a->engine, "icarus") != 0) {
        tool_error("route: --engine '%s' is not one of model, rtl, icarus", a->engine);
        return -1;
    }
    if (a->fault_at != NULL) {
        tool_error(a->faults == NULL ? "route: --fault-at needs --faults"
                                     : "route: --fault-at applies to lcan traffic only (a route writes its faults before pass 0)");
        return -1;
    }
    if (a->pattern[0] == '\0') {
        tool_error("route: --pattern is empty (identity random worst bitrev transpose shuffle file:PATH)");
        return -1;
    }
    return 0;
}

/* Memory of one trial, measured (peak RSS of `lcan route SPEC --trials 1`): about 30-40 bytes per
 * link (gft(3,32,32): 3.1M links, 93 MB; lcan(2,2,65536): 1M links, 41 MB) plus the permutation
 * and the per-leaf state. The estimate is generous: 48 bytes per link, 64 per leaf, 8 MB. */
static double route_bytes(const lcan_topo *t)
{
    double links = 0.0;
    int l;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        links += (double)lcan_topo_links(t, l);
    return 48.0 * links + 64.0 * (double)lcan_topo_leaves(t) + 8e6;
}

/* The pattern of trial 0, before anything runs (bad name, inapplicable, unreadable or malformed
 * file: one line, exit 2). The RTL engines read a file pattern again in the simulation, so it
 * must be a regular file there (not stdin or a FIFO). Returns an exit status. */
static int check_pattern(const lcan_topo *t, const route_args *a)
{
    const char *p = a->pattern;
    uint32_t *perm;
    uint64_t rng = lcan_trial_rng(a->seed, 0);
    char err[512];
    lcan_status st;
    struct stat sb;

    if ((strncmp(p, "file:", 5) == 0 || strncmp(p, "FILE:", 5) == 0) && strcmp(a->engine, "model") != 0 &&
        stat(p + 5, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        tool_error("route: pattern file '%s' is not a regular file (the RTL engines read it again)", p + 5);
        return TOOL_EXIT_USAGE;
    }
    perm = malloc((size_t)lcan_topo_leaves(t) * sizeof *perm);
    if (perm == NULL) {
        tool_error("route: out of memory");
        return TOOL_EXIT_FAIL;
    }
    st = lcan_pattern(t, p, &rng, perm, err, sizeof err);
    free(perm);
    if (st != LCAN_OK) {
        tool_error("route: %s", err[0] ? err : lcan_strerror(st));
        return st == LCAN_ERR_NOMEM ? TOOL_EXIT_FAIL : TOOL_EXIT_USAGE;
    }
    return TOOL_EXIT_OK;
}

static void route_progress(void *ctx, long done, long total)
{
    tool_progress_show(ctx, (double)done, (double)total, "trials");
}

/* The trials of lcan_study_route on the circuit-mode model under a fault set (spec 14.5): the tick
 * driver (the event-driven router takes no faults); the printer adds the keys faults and cut. */
static int route_faults(const lcan_topo *t, const route_args *a, const lcan_faults *f, tool_progress *prog)
{
    lcan_study_route_stats s;
    lcan_cfg cfg;
    lcan_net *n = NULL;
    lcan_status st;
    char err[512];
    int status = TOOL_EXIT_OK;

    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_CIRCUIT;
    cfg.up_choice = a->up_choice;
    if (lcan_net_new(t, &cfg, &n) != LCAN_OK) {
        tool_error("route: out of memory");
        return TOOL_EXIT_FAIL;
    }
    st = lcan_study_route_faults(t, 16, a->pattern, a->trials, a->seed, (int)a->max_passes, a->up_choice, f,
                                 lcan_net_engine_tick, n, &s, err, sizeof err, route_progress, prog);
    tool_progress_end(prog);
    if (st != LCAN_OK) {
        tool_error("route: %s", err[0] ? err : lcan_strerror(st));
        status = (st == LCAN_ERR_PATTERN || st == LCAN_ERR_IO) ? TOOL_EXIT_USAGE : TOOL_EXIT_FAIL;
    } else {
        lcan_study_route_print(stdout, t, a->pattern, a->engine, &s, a->json);
    }
    lcan_study_route_free(&s);
    lcan_net_free(n);
    return status;
}

int cmd_route(int argc, char **argv)
{
    tool_progress prog;
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
    if (tool_mem_check("route", lcan_topo_canonical(t), route_bytes(t), a.mem_limit) != 0) {
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    /* the model engine reports a bad pattern itself (exit 2) and reads stdin / a FIFO only once */
    if ((a.check || strcmp(a.engine, "model") != 0) && (r = check_pattern(t, &a)) != TOOL_EXIT_OK) {
        lcan_topo_free(t);
        return r;
    }
    if (a.faults != NULL) {
        lcan_faults f;
        if (tool_faults("route", t, a.faults, a.seed, &f) != 0) {
            lcan_topo_free(t);
            return TOOL_EXIT_USAGE;
        }
        if (!a.check && strcmp(a.engine, "model") == 0) {
            tool_progress_init(&prog, "route", a.progress);
            r = route_faults(t, &a, &f, &prog);
            lcan_faults_free(&f);
            lcan_topo_free(t);
            return r;
        }
        lcan_faults_free(&f);
    }
    if (a.check) {
        lcan_topo_free(t);
        return TOOL_EXIT_OK;
    }
    if (strcmp(a.engine, "model") != 0) {
        lcan_topo_free(t);
        return tool_exec_rtl(argc, argv);
    }
    /* the trial loop shared with the RTL engine (src/study.c); no tick function = the model's
     * event-driven router */
    tool_progress_init(&prog, "route", a.progress);
    st = lcan_study_route_uc(t, 16, a.pattern, a.trials, a.seed, (int)a.max_passes, a.up_choice, NULL, NULL, &s,
                             err, sizeof err, route_progress, &prog);
    tool_progress_end(&prog);
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
