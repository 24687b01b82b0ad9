/*
 * cmd_collective.c - `lcan collective SPEC --op OP [...]`: run one collective operation in packet
 * mode (lcan_collective.h) and print the measured steps next to the papers' numbers;
 * `lcan collective --cbt H`: seed 003's algorithms on a complete binary tree of processors (a
 * round-model simulator, model only). docs/collectives.md lists the commands behind every number.
 *
 * Engine model: lcan_collective_run_model (packet mode, DEPTH 4, mnb min(255, max(4, N)), or
 * --depth if larger; FLOOD_Q --flood-queue, else mnb flooding min(255, max(4, N)), else 0; UP_CHOICE
 * --up-choice; mnb / bcast flooding unless --broadcast tree). Engines rtl and icarus run tb/lcan-rtl with the same arguments (after they
 * are checked), which drives lcan_collective_run through the RTL in lockstep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan_collective.h"
#include "lcan_faults.h"
#include "tool_util.h"

static const char usage[] =
    "usage: lcan collective SPEC --op OP [options] [--engine E] [--json]\n"
    "       lcan collective --cbt H [--sched farthest|oldest] [--json]\n"
    "       lcan collective --ideal H [--w n|1|sqrt|log] [--json]\n"
    "Runs a collective operation on the network SPEC in packet mode and prints the measured steps\n"
    "(tick of the last delivery, first injection on tick 1) next to the papers' count.\n"
    "  --op OP         bcast scatter gather mnb alltoall reduce prefix\n"
    "  --root R        root leaf of bcast / scatter / gather / reduce (default 0)\n"
    "  --flits K       bcast: K flits (default 1)\n"
    "  --trees T       bcast: spread the flits over T edge-disjoint trees, 1..w1 (default 1)\n"
    "  --broadcast B   mnb / bcast --algo hw: flood (default; spec 8.6, seed 000 section 4: every\n"
    "                  switch forwards to every other direction of the tree, every leaf but the\n"
    "                  source gets it, n - 1 copies) or tree (spec 8.5: up to the top, then down to\n"
    "                  every leaf, the source included, n copies)\n"
    "  --up-choice C   which upper a unicast going up gets (spec 6, UP_CHOICE): uniform (default)\n"
    "                  or rotate\n"
    "  --algo A        bcast: hw (broadcast trees, default), binomial (= leaves: leaves forward along\n"
    "                  a binomial tree, seed 001's O(log^2 N) round program) or recursive (seed 001's\n"
    "                  Broadcast / Sparse-Broadcast, Algorithms 1-2, round model, O(log N loglog N)\n"
    "                  when w(n) = n); reduce: binomial (default) or recursive (its time reverse,\n"
    "                  Theorem 6); prefix: binomial (up/down sweep, default) or recursive (up- and\n"
    "                  down-sweep over the recursive Broadcast); recursive needs a binary tree,\n"
    "                  e.g. bft(h;c1,..,ch)\n"
    "  --phased        alltoall: phases in sequence (seed 000 formula 1) instead of pipelined (2)\n"
    "  --combine C     reduce / prefix: sum (default) or max\n"
    "  --compact K     reduce: after K binomial rounds move the partials into one subtree in one\n"
    "                  round (needs channel capacity; a violation is refused, seed 001)\n"
    "  --depth D       DEPTH of the packet FIFOs, 1..255 (default 4; mnb min(255, max(4, N)))\n"
    "  --flood-queue Q FLOOD_Q, 0..255: a queue of Q flits per outgoing link for flooding broadcasts\n"
    "                  (spec 8.7, seed 000 section 4); 0 = none, floods wait in the input FIFOs\n"
    "                  (spec 8.6). Default: mnb with --broadcast flood min(255, max(4, N)), else 0\n"
    "  --seed S        network seed on the reset tick, 0..2^32-1 (default 1)\n"
    "  --engine E      model (default), rtl (Verilator) or icarus; rtl/icarus run tb/lcan-rtl;\n"
    "                  paper: --op mnb as seed 000 states it (flooding with a queue per outgoing\n"
    "                  link, the paper's step model on this network's graph; trees only, MODEL ONLY)\n"
    "  --cbt H         seed 003: a complete binary tree of 2^(H+1)-1 processors, H = 1..8 (MODEL\n"
    "                  ONLY - our networks have no processors at inner nodes)\n"
    "  --ideal H       seed 001's ideal fat-tree of N = 2^H leaves, H = 1..20 (MODEL ONLY, no network):\n"
    "                  binomial, recursive and pipelined broadcast, each replayed period by period\n"
    "                  (capacity, one delivery per leaf), the prefix on the recursive broadcast\n"
    "                  (checked against a direct computation), recurrences (2)-(4), Thm 3 (8)\n"
    "  --w W           --ideal: channel capacity w(n) above a subtree of n leaves: n (default,\n"
    "                  EBFT-like), 1 (CBFT), sqrt (2^ceil(log n / 2)) or log (log n + 1)\n"
    "  --sched S       --cbt: relaying order farthest (most hops left first, the paper's; default)\n"
    "                  or oldest (first arrived first, the earlier schedule)\n"
    "  --faults LIST   --op bcast (hw, one flit) under a fault set (docs/spec.md 14.5): Ll:x (switch),\n"
    "                  Ll:x/o (link on its downer o), random:K (drawn with --seed), comma-separated; the\n"
    "                  root sends on every tree whose leaf port is not off (seed 002 Thm 3); reports the\n"
    "                  leaves reached / unreached and those cut from the root (correct: every leaf not\n"
    "                  cut is reached). --fault-at is lcan traffic's (here the rows go first)\n"
    "  --mem-limit GB  refuse an operation whose memory estimate exceeds GB (default: MemAvailable)\n"
    "  --check         check the arguments (spec, options, memory) and exit: 0 or 2\n"
    "  --progress      progress on stderr (default: only when stderr is a terminal); mnb and\n"
    "                  alltoall show the time left from the deliveries so far\n"
    "  --json          one JSON object: op, spec, engine, steps, paper_steps, paper_ref, max_queue,\n"
    "                  queue_peak (per level), messages, broadcast, up_choice, correct, and the\n"
    "                  details (--cbt, --ideal: one object with a rows array); with --faults also\n"
    "                  faults, fault_rows, trees_used, cut, reached, unreached\n";

typedef struct {
    const char *spec, *engine, *op_name, *algo, *combine, *mem_limit, *sched, *wname, *broadcast, *faults;
    lcan_coll_op op;
    lcan_up_choice up_choice;
    long root, flits, trees, compact, depth, flood_q, cbt, ideal;
    uint64_t seed;
    int json, phased, has_op, check, progress;
} coll_args;

static int parse_args(int argc, char **argv, coll_args *a)
{
    const char *root = NULL, *flits = NULL, *trees = NULL, *compact = NULL, *depth = NULL, *seed = NULL,
               *cbt = NULL, *ideal = NULL, *uc = NULL, *fault_at = NULL, *flood_q = NULL;
    int r;
    memset(a, 0, sizeof *a);
    a->engine = "model";
    a->combine = "sum";
    a->flits = 1;
    a->trees = 1;
    a->seed = 1;
    a->cbt = -1;
    a->ideal = -1;
    a->flood_q = -1;
    {
        const tool_opt opts[] = {
            {"--json", &a->json, NULL},         {"--check", &a->check, NULL},
            {"--phased", &a->phased, NULL},     {"--progress", &a->progress, NULL},
            {"--op", NULL, &a->op_name},        {"--root", NULL, &root},
            {"--flits", NULL, &flits},          {"--trees", NULL, &trees},
            {"--algo", NULL, &a->algo},         {"--combine", NULL, &a->combine},
            {"--compact", NULL, &compact},      {"--depth", NULL, &depth},
            {"--seed", NULL, &seed},            {"--engine", NULL, &a->engine},
            {"--cbt", NULL, &cbt},              {"--sched", NULL, &a->sched},
            {"--mem-limit", NULL, &a->mem_limit}, {"--ideal", NULL, &ideal},
            {"--w", NULL, &a->wname},           {"--broadcast", NULL, &a->broadcast},
            {"--up-choice", NULL, &uc},         {"--faults", NULL, &a->faults},
            {"--fault-at", NULL, &fault_at},    {"--flood-queue", NULL, &flood_q},
        };
        r = tool_parse_args("collective", argc, argv, usage, opts, sizeof opts / sizeof opts[0], &a->spec);
        if (r != 0)
            return r;
    }
    if (fault_at != NULL) {
        tool_error(a->faults == NULL ? "collective: --fault-at needs --faults"
                                     : "collective: --fault-at applies to lcan traffic only (a broadcast under "
                                       "--faults writes the rows before its first injection)");
        return -1;
    }
    if (a->faults != NULL && (cbt != NULL || ideal != NULL)) {
        tool_error("collective: --faults applies to a network SPEC (--op bcast), not to --cbt or --ideal");
        return -1;
    }
    if (cbt != NULL && ideal != NULL) {
        tool_error("collective: --cbt and --ideal are two different runs; give one of them");
        return -1;
    }
    if (cbt != NULL) {
        if (a->spec != NULL || a->op_name != NULL) {
            tool_error("collective: --cbt H takes no SPEC and no --op (it runs every seed 003 algorithm)");
            return -1;
        }
        if (tool_parse_long("collective", "--cbt", cbt, 1, 8, &a->cbt) != 0)
            return -1;
        if (a->sched != NULL && strcmp(a->sched, "farthest") != 0 && strcmp(a->sched, "oldest") != 0) {
            tool_error("collective: --sched '%s' is not one of farthest, oldest", a->sched);
            return -1;
        }
        if (strcmp(a->engine, "model") != 0) {
            tool_error("collective: --cbt runs in the model only (seed 003 puts processors at inner nodes)");
            return -1;
        }
        return 0;
    }
    if (a->sched != NULL) {
        tool_error("collective: --sched applies to --cbt only");
        return -1;
    }
    if (ideal != NULL) {
        uint64_t w[32];
        if (a->spec != NULL || a->op_name != NULL || a->algo != NULL) {
            tool_error("collective: --ideal H takes no SPEC, --op or --algo (it runs every broadcast algorithm)");
            return -1;
        }
        if (tool_parse_long("collective", "--ideal", ideal, 1, 20, &a->ideal) != 0)
            return -1;
        if (a->wname == NULL)
            a->wname = "n";
        if (!lcan_ft_capacity(a->wname, (int)a->ideal, w)) {
            tool_error("collective: --w '%s' is not one of n, 1, sqrt, log", a->wname);
            return -1;
        }
        if (strcmp(a->engine, "model") != 0) {
            tool_error("collective: --ideal runs in the model only (the ideal fat-tree is not a network we build)");
            return -1;
        }
        return 0;
    }
    if (a->wname != NULL) {
        tool_error("collective: --w applies to --ideal only");
        return -1;
    }
    if (a->spec == NULL) {
        tool_error("collective: missing SPEC (usage: lcan collective SPEC --op OP [options])");
        return -1;
    }
    if (a->op_name == NULL) {
        tool_error("collective: missing --op (bcast scatter gather mnb alltoall reduce prefix)");
        return -1;
    }
    if (!lcan_coll_op_parse(a->op_name, &a->op)) {
        tool_error("collective: --op '%s' is not one of bcast scatter gather mnb alltoall reduce prefix", a->op_name);
        return -1;
    }
    if (a->broadcast != NULL && strcmp(a->broadcast, "flood") != 0 && strcmp(a->broadcast, "tree") != 0) {
        tool_error("collective: --broadcast '%s' is not one of flood, tree", a->broadcast);
        return -1;
    }
    if (a->broadcast != NULL && a->op != LCAN_COLL_MNB && a->op != LCAN_COLL_BCAST) {
        tool_error("collective: --broadcast applies to --op mnb and bcast");
        return -1;
    }
    if (a->broadcast == NULL)
        a->broadcast = "flood";
    a->up_choice = LCAN_UP_UNIFORM;
    if (uc != NULL && tool_parse_up_choice("collective", uc, &a->up_choice) != 0)
        return -1;
    if (root != NULL && tool_parse_long("collective", "--root", root, 0, (1L << 20) - 1, &a->root) != 0)
        return -1;
    if (flits != NULL && tool_parse_long("collective", "--flits", flits, 1, 1000000, &a->flits) != 0)
        return -1;
    if (trees != NULL && tool_parse_long("collective", "--trees", trees, 1, 64, &a->trees) != 0)
        return -1;
    if (compact != NULL && tool_parse_long("collective", "--compact", compact, 0, 20, &a->compact) != 0)
        return -1;
    if (depth != NULL && tool_parse_long("collective", "--depth", depth, 1, 255, &a->depth) != 0)
        return -1;
    if (flood_q != NULL && tool_parse_long("collective", "--flood-queue", flood_q, 0, 255, &a->flood_q) != 0)
        return -1;
    if (seed != NULL) {
        long s;
        if (tool_parse_long("collective", "--seed", seed, 0, 4294967295L, &s) != 0)
            return -1;
        a->seed = (uint64_t)s;
    }
    if (a->algo != NULL && strcmp(a->algo, "recursive") == 0 && compact != NULL) { /* (never the default) */
        tool_error("collective: --compact is the binomial reduce's option; drop it with --algo recursive");
        return -1;
    }
    if (a->algo == NULL) {
        a->algo = a->op == LCAN_COLL_BCAST ? "hw" : "binomial";
    } else if (strcmp(a->algo, "hw") != 0 && strcmp(a->algo, "leaves") != 0 && strcmp(a->algo, "binomial") != 0 &&
               strcmp(a->algo, "recursive") != 0) {
        tool_error("collective: --algo '%s' is not one of hw, leaves, binomial, recursive", a->algo);
        return -1;
    } else if (strcmp(a->algo, "recursive") == 0 && a->op != LCAN_COLL_BCAST && a->op != LCAN_COLL_REDUCE &&
               a->op != LCAN_COLL_PREFIX) {
        tool_error("collective: --algo recursive applies to --op bcast, reduce and prefix");
        return -1;
    } else if (strcmp(a->algo, "hw") == 0 && (a->op == LCAN_COLL_REDUCE || a->op == LCAN_COLL_PREFIX)) {
        tool_error("collective: --algo hw applies to bcast; reduce and prefix take binomial or recursive");
        return -1;
    }
    if (strcmp(a->combine, "sum") != 0 && strcmp(a->combine, "max") != 0) {
        tool_error("collective: --combine '%s' is not one of sum, max", a->combine);
        return -1;
    }
    if (strcmp(a->engine, "model") != 0 && strcmp(a->engine, "rtl") != 0 && strcmp(a->engine, "icarus") != 0 &&
        strcmp(a->engine, "paper") != 0) {
        tool_error("collective: --engine '%s' is not one of model, rtl, icarus, paper", a->engine);
        return -1;
    }
    if (a->faults != NULL && (a->op != LCAN_COLL_BCAST || strcmp(a->algo, "hw") != 0 || a->flits != 1 ||
                              strcmp(a->engine, "paper") == 0)) {
        tool_error("collective: --faults runs --op bcast with hardware trees (--algo hw) and one flit on the "
                   "model or RTL engines (spec 14.5, seed 002 Thm 3)");
        return -1;
    }
    if (strcmp(a->engine, "paper") == 0 && (a->op != LCAN_COLL_MNB || strcmp(a->broadcast, "flood") != 0)) {
        tool_error("collective: --engine paper runs seed 000's flooding multinode broadcast: use --op mnb "
                   "(--broadcast flood)");
        return -1;
    }
    return 0;
}

/* --engine paper: seed 000 §4's flooding in the paper's step model (output queues), model only. */
static int run_paper(const lcan_topo *t, const coll_args *a)
{
    lcan_flood000_result r;
    char err[256];
    int h = lcan_topo_levels(t), l, cbft = 1;
    uint32_t n = lcan_topo_leaves(t);
    lcan_status st = lcan_flood000_mnb(t, &r, err, sizeof err);
    if (st != LCAN_OK) {
        tool_error("collective: %s", err);
        return st == LCAN_ERR_ARG ? TOOL_EXIT_USAGE : TOOL_EXIT_FAIL;
    }
    for (l = 1; l <= h; l++)
        cbft &= lcan_topo_p(t, l) == 1;
    if (a->json) {
        printf("{\"op\": \"mnb\", \"spec\": ");
        lcan_json_string(stdout, lcan_topo_canonical(t));
        printf(", \"engine\": \"paper\", \"model_only\": true, \"broadcast\": \"flood\", \"leaves\": %u, "
               "\"steps\": %d, \"paper_steps\": %u, \"paper_ref\": \"seed 000 Theorem 2: n + 1\", "
               "\"deliveries\": %llu, \"queue_peak_up\": ", n, r.steps, n + 1, (unsigned long long)r.deliveries);
        lcan_json_ints(stdout, r.queue_peak_up, h + 1);
        printf(", \"queue_peak_down\": ");
        lcan_json_ints(stdout, r.queue_peak_down, h + 1);
        printf(", \"paper_queue\": ");
        if (cbft) { /* seed 000 §4.1: 2^(i-1) at a level-i node (i >= 1) of a CBFT */
            printf("[0");
            for (l = 1; l <= h; l++)
                printf(", %ld", l < h ? 1L << (l - 1) : 0L);
            printf("]");
        } else {
            printf("null");
        }
        printf("}\n");
    } else {
        printf("mnb on %s (%u leaves), seed 000's flooding in the paper's step model (output queues)\n"
               "MODEL ONLY: the paper's algorithm on this network's graph, not the packet switch of spec 8.\n",
               lcan_topo_canonical(t), n);
        printf("steps          %d (paper: n + 1 = %u)\n", r.steps, n + 1);
        printf("deliveries     %llu (n(n-1) = %llu)\n", (unsigned long long)r.deliveries,
               (unsigned long long)n * (n - 1));
        printf("level  queue up  queue down%s\n", cbft ? "  paper (CBFT: 2^(i-1) up)" : "");
        for (l = 0; l <= h; l++) {
            printf("%5d  %8d  %10d", l, r.queue_peak_up[l], r.queue_peak_down[l]);
            if (cbft && l >= 1 && l < h)
                printf("  %ld", 1L << (l - 1));
            printf("\n");
        }
    }
    return TOOL_EXIT_OK;
}

static int run_cbt(const coll_args *a)
{
    lcan_tree003_row rows[64];
    int sched = a->sched != NULL && strcmp(a->sched, "oldest") == 0 ? LCAN_T3_OLDEST : LCAN_T3_FARTHEST;
    int n = lcan_tree003_table_sched((int)a->cbt, sched, rows, 64), k, ok = 1;
    long procs = (1L << (a->cbt + 1)) - 1;
    if (n < 0) {
        tool_error("collective: --cbt %ld: out of memory", a->cbt);
        return TOOL_EXIT_FAIL;
    }
    for (k = 0; k < n; k++)
        ok &= rows[k].correct;
    if (a->json) {
        printf("{\"model_only\": true, \"tree\": \"complete binary tree of processors\", \"height\": %ld, "
               "\"processors\": %ld, \"sched\": \"%s\", \"rows\": [",
               a->cbt, procs, sched == LCAN_T3_OLDEST ? "oldest" : "farthest");
        for (k = 0; k < n; k++) {
            const lcan_tree003_row *r = &rows[k];
            printf("%s{\"op\": ", k ? ", " : "");
            lcan_json_string(stdout, r->op);
            printf(", \"algo\": ");
            lcan_json_string(stdout, r->algo);
            printf(", \"io\": ");
            lcan_json_string(stdout, r->io);
            printf(", \"source\": ");
            lcan_json_string(stdout, r->source);
            printf(", \"steps\": ");
            if (r->steps >= 0)
                printf("%ld", r->steps);
            else
                printf("null");
            printf(", \"paper_steps\": ");
            if (r->paper_claim >= 0)
                lcan_json_double(stdout, r->paper_claim);
            else
                printf("null");
            printf(", \"paper_ref\": ");
            lcan_json_string(stdout, r->claim_ref);
            printf(", \"lower_bound\": ");
            if (r->lower_bound >= 0)
                lcan_json_double(stdout, r->lower_bound);
            else
                printf("null");
            printf(", \"bound_ref\": ");
            lcan_json_string(stdout, r->bound_ref);
            printf(", \"lower_bound_ref\": ");
            lcan_json_string(stdout, r->bound_ref);
            printf(", \"correct\": %s}", r->correct ? "true" : "false");
        }
        printf("], \"correct\": %s}\n", ok ? "true" : "false");
        return ok ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
    }
    printf("seed 003 algorithms, complete binary tree of %ld processors (height %ld), relaying %s first\n", procs,
           a->cbt, sched == LCAN_T3_OLDEST ? "oldest" : "farthest");
    printf("MODEL ONLY: a round-model simulator; our networks have no processors at inner nodes.\n");
    printf("%-9s %-28s %-8s %-6s %8s %10s %10s  %s\n", "op", "algorithm", "I/O", "source", "steps", "paper", "bound",
           "paper result / bound");
    for (k = 0; k < n; k++) {
        const lcan_tree003_row *r = &rows[k];
        char steps[32], claim[32], bound[32];
        if (r->steps >= 0)
            snprintf(steps, sizeof steps, "%ld", r->steps);
        else
            snprintf(steps, sizeof steps, "%s", r->steps == -2 ? "(H>6)" : "FAIL");
        if (r->paper_claim >= 0)
            snprintf(claim, sizeof claim, "%.1f", r->paper_claim);
        else
            snprintf(claim, sizeof claim, "-");
        if (r->lower_bound >= 0)
            snprintf(bound, sizeof bound, "%.1f", r->lower_bound);
        else
            snprintf(bound, sizeof bound, "-");
        printf("%-9s %-28s %-8s %-6s %8s %10s %10s  %s; %s\n", r->op, r->algo, r->io, r->source, steps, claim,
               bound, r->claim_ref, r->bound_ref);
    }
    return ok ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
}

/* The prefix program of --ideal, run on pseudo-random inputs with sum and with max and compared
 * with a direct computation: *wrong = leaves with a wrong result (both runs). */
static lcan_status ideal_prefix(int h, const uint64_t *w, lcan_ft_prefix_prog *pf, lcan_ft_check_result *pc,
                                uint64_t *wrong)
{
    uint32_t N = 1u << h, x, *in, *out;
    uint64_t rng = 1;
    int mx;
    char err[256];
    lcan_status st = lcan_ft_prefix(h, w, pf, err, sizeof err);
    *wrong = 0;
    if (st != LCAN_OK)
        return st;
    in = malloc((size_t)N * sizeof *in);
    out = malloc((size_t)N * sizeof *out);
    if (in == NULL || out == NULL) {
        free(in);
        free(out);
        lcan_ft_prefix_free(pf);
        return LCAN_ERR_NOMEM;
    }
    for (x = 0; x < N; x++)
        in[x] = (uint32_t)lcan_rng_next(&rng);
    for (mx = 0; mx < 2 && st == LCAN_OK; mx++) {
        uint32_t ref = 0;
        lcan_ft_check_result r;
        st = lcan_ft_prefix_eval(pf, w, in, mx, out, &r);
        if (mx == 0 || !r.correct)
            *pc = r;
        for (x = 0; x < N; x++) {
            ref = x == 0 ? in[0] : mx ? (ref > in[x] ? ref : in[x]) : ref + in[x];
            *wrong += out[x] != ref;
        }
    }
    free(in);
    free(out);
    if (st != LCAN_OK)
        lcan_ft_prefix_free(pf);
    return st;
}

/* --ideal H: seed 001's three broadcasts on the ideal fat-tree of 2^H leaves, each schedule replayed
 * by lcan_ft_check (capacity per channel and period, one delivery per leaf), beside recurrences
 * (2)-(4) and Theorem 3's round-model bound (8). */
static int run_ideal(const coll_args *a)
{
    static const char *const names[] = {"binomial", "recursive", "pipelined"};
    int h = (int)a->ideal, k, l, ok = 1;
    uint64_t w[32];
    int64_t rec[3], bound;
    lcan_ft_sched s[3];
    lcan_ft_check_result c[3], pc;
    lcan_ft_prefix_prog pf;
    uint64_t pf_wrong = 0;
    char err[256];
    lcan_ft_capacity(a->wname, h, w);
    for (k = 0; k < 3; k++) {
        lcan_status st = lcan_ft_schedule(h, w, (lcan_ft_algo)k, &s[k], err, sizeof err);
        if (st == LCAN_OK && (st = lcan_ft_check(&s[k], w, &c[k])) != LCAN_OK)
            lcan_ft_sched_free(&s[k]);
        if (st != LCAN_OK) {
            while (--k >= 0)
                lcan_ft_sched_free(&s[k]);
            tool_error("collective: --ideal %d: %s", h, st == LCAN_ERR_NOMEM ? "out of memory" : err);
            return TOOL_EXIT_FAIL;
        }
        ok &= c[k].correct && c[k].steps == s[k].steps;
    }
    for (k = 0; k < 3; k++)
        rec[k] = lcan_ft_recurrence(h, w, k + 2);
    bound = lcan_ft_round_bound(h, w);
    if (ideal_prefix(h, w, &pf, &pc, &pf_wrong) != LCAN_OK) {
        for (k = 0; k < 3; k++)
            lcan_ft_sched_free(&s[k]);
        tool_error("collective: --ideal %d: out of memory", h);
        return TOOL_EXIT_FAIL;
    }
    ok &= pc.correct && pf_wrong == 0;
    if (a->json) {
        printf("{\"model_only\": true, \"tree\": \"ideal fat-tree (seed 001)\", \"log_n\": %d, \"leaves\": %u, "
               "\"w\": ",
               h, 1u << h);
        lcan_json_string(stdout, a->wname);
        printf(", \"capacities\": [");
        for (l = 0; l < h; l++)
            printf("%s%llu", l ? ", " : "", (unsigned long long)w[l]);
        printf("], \"rows\": [");
        for (k = 0; k < 3; k++) {
            printf("%s{\"algo\": \"%s\", \"steps\": %lld, \"rounds\": %d, \"pipelined_phases\": ", k ? ", " : "",
                   names[k], (long long)s[k].steps, s[k].nrounds);
            {
                int r, np = 0;
                for (r = 0; r < s[k].nrounds; r++)
                    np += s[k].burst[r] > 1;
                printf("%d", np);
            }
            printf(", \"messages\": %zu, \"capacity_violations\": %llu, \"bad_sends\": %llu, \"duplicates\": %llu, "
                   "\"missing\": %llu, \"error\": ",
                   s[k].nmsg, (unsigned long long)c[k].violations, (unsigned long long)c[k].bad_sends,
                   (unsigned long long)c[k].duplicates, (unsigned long long)c[k].missing);
            lcan_json_string(stdout, c[k].err);
            printf(", \"correct\": %s}", c[k].correct ? "true" : "false");
        }
        printf(", {\"algo\": \"prefix\", \"steps\": %lld, \"rounds\": %d, \"messages\": %zu, \"registers\": %u, "
               "\"capacity_violations\": %llu, \"bad_sends\": %llu, \"wrong_results\": %llu, \"error\": ",
               (long long)pf.steps, pf.nrounds, pf.nmsg, pf.nreg, (unsigned long long)pc.violations,
               (unsigned long long)pc.bad_sends, (unsigned long long)pf_wrong);
        lcan_json_string(stdout, pc.err);
        printf(", \"correct\": %s}", pc.correct && pf_wrong == 0 ? "true" : "false");
        printf("], \"recurrence_2_S\": ");
        lcan_json_i64(stdout, rec[0]);
        printf(", \"recurrence_3_T\": ");
        lcan_json_i64(stdout, rec[1]);
        printf(", \"recurrence_4_Tpipe\": ");
        lcan_json_i64(stdout, rec[2]);
        printf(", \"lower_bound\": ");
        lcan_json_i64(stdout, bound);
        printf(", \"lower_bound_ref\": \"seed 001 Thm 3 relation (8), round model\", \"correct\": %s}\n",
               ok ? "true" : "false");
    } else {
        printf("seed 001 ideal fat-tree, N = 2^%d = %u leaves, w = %s (capacities above subtrees of 1, 2, 4, ..: ", h,
               1u << h, a->wname);
        for (l = 0; l < h && l < 8; l++)
            printf("%s%llu", l ? "," : "", (unsigned long long)w[l]);
        printf("%s)\nMODEL ONLY: schedules replayed period by period on the ideal fat-tree, no network.\n",
               h > 8 ? ",.." : "");
        printf("%-10s %8s %7s %9s %11s %8s\n", "algorithm", "steps", "rounds", "messages", "violations", "correct");
        for (k = 0; k < 3; k++)
            printf("%-10s %8lld %7d %9zu %11llu %8s%s%s\n", names[k], (long long)s[k].steps, s[k].nrounds, s[k].nmsg,
                   (unsigned long long)c[k].violations, c[k].correct ? "yes" : "NO", c[k].err[0] ? "  " : "",
                   c[k].err);
        printf("%-10s %8lld %7d %9zu %11llu %8s%s%s\n", "prefix", (long long)pf.steps, pf.nrounds, pf.nmsg,
               (unsigned long long)pc.violations, pc.correct && pf_wrong == 0 ? "yes" : "NO", pc.err[0] ? "  " : "",
               pc.err);
        printf("(prefix: up- and down-sweep over the recursive Broadcast, sum and max checked against a direct "
               "computation; product = the recursive broadcast reversed, same steps)\n");
        printf("recurrence (2) S(N) = %lld, (3) T(N) = %lld, (4) T'(N) = %lld (gamma = 3); round-model lower bound "
               "(Thm 3, (8)) = ",
               (long long)rec[0], (long long)rec[1], (long long)rec[2]);
        if (bound >= 0)
            printf("%lld\n", (long long)bound);
        else
            printf("none (log N < 2)\n");
    }
    for (k = 0; k < 3; k++)
        lcan_ft_sched_free(&s[k]);
    lcan_ft_prefix_free(&pf);
    return ok ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
}

/* Memory of one operation, from peak RSS measurements of the model engine: alltoall keeps every
 * message (kary(16,3), N = 4096: 16.8M messages, 724 MB, about 43 bytes each); mnb a seen-bit
 * byte per (flit, leaf) pair (kary(16,3): 28 MB); bcast one per (flit, leaf); the network about
 * 40 bytes per link. Generous: 64 bytes per alltoall message, 2 per mnb pair, 48 per link. */
static double coll_bytes(const lcan_topo *t, const coll_args *a)
{
    double n = (double)lcan_topo_leaves(t), links = 0.0, b;
    int l;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        links += (double)lcan_topo_links(t, l);
    b = 48.0 * links + 256.0 * n + 8e6;
    if (a->op == LCAN_COLL_ALLTOALL)
        b += 64.0 * n * n;
    else if (a->op == LCAN_COLL_MNB)
        b += 2.0 * n * n;
    else if (a->op == LCAN_COLL_BCAST)
        b += 2.0 * n * (double)a->flits;
    return b;
}

/* lcan_collective_run_model (src/collective.c) with the model's tick wrapped for the progress line:
 * mnb and alltoall (the long ones, N^2 messages) count the deliveries against N(N-1) (alltoall) or
 * N^2 (mnb) for an estimate; the others show ticks only. */
typedef struct {
    lcan_net *n;
    tool_progress *p;
    uint64_t ticks, got, want;
    uint32_t np;
} coll_prog;

static lcan_status prog_tick(void *e, const lcan_in *in, lcan_out *out)
{
    coll_prog *c = e;
    lcan_status st = lcan_net_tick(c->n, in, out);
    uint32_t q;
    c->ticks++;
    if (!c->p->on)
        return st;
    for (q = 0; c->want > 0 && q < c->np; q++)
        c->got += out->ej_valid[q] != 0;
    if ((c->ticks & 255u) == 0) {
        if (c->want > 0)
            tool_progress_show(c->p, (double)c->got, (double)c->want, "deliveries");
        else
            tool_progress_show(c->p, (double)c->ticks, 0.0, "ticks");
    }
    return st;
}

static size_t prog_debug(void *e, uint8_t *buf, size_t len)
{
    return lcan_net_debug_dump(((coll_prog *)e)->n, buf, len);
}

static lcan_status run_model(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o, lcan_coll_result *res,
                             int progress)
{
    lcan_cfg cfg;
    lcan_coll_opts oo;
    tool_progress p;
    coll_prog c;
    lcan_status st;
    double n = (double)lcan_topo_leaves(t);
    lcan_collective_model_cfg(t, op, o, &cfg, &oo);
    oo.debug = prog_debug;
    memset(&c, 0, sizeof c);
    c.p = &p;
    c.np = lcan_topo_ports(t);
    c.want = op == LCAN_COLL_ALLTOALL ? (uint64_t)(n * (n - 1))
             : op == LCAN_COLL_MNB   ? (uint64_t)(o->flood ? n * (n - 1) : n * n)
                                     : 0;
    memset(res, 0, sizeof *res);
    if ((st = lcan_net_new(t, &cfg, &c.n)) != LCAN_OK)
        return st;
    tool_progress_init(&p, "collective", progress);
    st = lcan_collective_run(t, op, &oo, prog_tick, &c, res);
    tool_progress_end(&p);
    lcan_net_free(c.n);
    return st;
}

int cmd_collective(int argc, char **argv)
{
    coll_args a;
    lcan_topo *t;
    lcan_faults faults;
    lcan_coll_opts o;
    lcan_coll_result res;
    lcan_status st;
    int r = parse_args(argc, argv, &a), pw, depth;

    if (r != 0)
        return r > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (a.cbt > 0)
        return a.check ? TOOL_EXIT_OK : run_cbt(&a);
    if (a.ideal > 0) {
        /* peak RSS of --ideal 20 (measured, docs/collectives.md): about 320 bytes per leaf */
        if (tool_mem_check("collective", "--ideal", 400.0 * (double)(1L << a.ideal) + 8e6, a.mem_limit) != 0)
            return TOOL_EXIT_USAGE;
        return a.check ? TOOL_EXIT_OK : run_ideal(&a);
    }
    if ((t = tool_topo(a.spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if ((uint32_t)a.root >= lcan_topo_leaves(t)) {
        tool_error("collective: --root %ld is not a leaf of %s (0..%u)", a.root, lcan_topo_canonical(t),
                   lcan_topo_leaves(t) - 1);
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (a.flood_q > 0 && a.flood_q < lcan_net_flood_q_min(t)) {
        tool_error("collective: --flood-queue %ld is below %s's largest m_l = %d: the floods of a switch's children "
                   "could never all be accepted (spec 8.7); use 0 or %d..255",
                   a.flood_q, lcan_topo_canonical(t), lcan_net_flood_q_min(t), lcan_net_flood_q_min(t));
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (tool_mem_check("collective", a.op_name, coll_bytes(t, &a), a.mem_limit) != 0) {
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    memset(&faults, 0, sizeof faults);
    if (a.faults != NULL && tool_faults("collective", t, a.faults, a.seed, &faults) != 0) {
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (a.check || strcmp(a.engine, "model") != 0)
        lcan_faults_free(&faults);
    if (a.check) {
        lcan_topo_free(t);
        return TOOL_EXIT_OK;
    }
    if (strcmp(a.engine, "paper") == 0) {
        r = run_paper(t, &a);
        lcan_topo_free(t);
        return r;
    }
    if (strcmp(a.engine, "model") != 0) {
        lcan_topo_free(t);
        return tool_exec_rtl(argc, argv);
    }
    lcan_coll_opts_default(&o);
    o.root = (uint32_t)a.root;
    o.flits = (int)a.flits;
    o.trees = (int)a.trees;
    o.sw_bcast = a.op == LCAN_COLL_BCAST && strcmp(a.algo, "hw") != 0;
    o.recursive = strcmp(a.algo, "recursive") == 0;
    o.phased = a.phased;
    o.combine = strcmp(a.combine, "max") == 0 ? LCAN_COMB_MAX : LCAN_COMB_SUM;
    o.compact = (int)a.compact;
    o.depth = (int)a.depth;
    o.net_seed = (uint32_t)a.seed;
    o.flood = strcmp(a.broadcast, "flood") == 0;
    o.up_choice = a.up_choice;
    o.flood_q = (int)a.flood_q;
    if (a.faults != NULL)
        o.faults = &faults;
    st = run_model(t, a.op, &o, &res, a.progress);
    lcan_collective_engine_cfg(t, a.op, &o, &pw, &depth, &o.flood_q);
    o.payload_w = pw;
    o.depth = a.depth > depth ? (int)a.depth : depth;
    if (st == LCAN_ERR_PATTERN) {
        tool_error("collective: %s", res.err[0] ? res.err : lcan_strerror(st));
        lcan_faults_free(&faults);
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (st != LCAN_OK) {
        tool_error("collective: %s%s%s", lcan_strerror(st), res.err[0] ? ": " : "", res.err);
        lcan_faults_free(&faults);
        lcan_topo_free(t);
        return TOOL_EXIT_FAIL;
    }
    lcan_collective_print(stdout, t, a.op, a.engine, &o, &res, a.json);
    lcan_faults_free(&faults);
    lcan_topo_free(t);
    return res.correct ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
}
