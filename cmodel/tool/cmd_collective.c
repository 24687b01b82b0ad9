/*
 * cmd_collective.c - `lcan collective SPEC --op OP [...]`: run one collective operation in packet
 * mode (lcan_collective.h) and print the measured steps next to the papers' numbers;
 * `lcan collective --cbt H`: seed 003's algorithms on a complete binary tree of processors (a
 * round-model simulator, model only). docs/collectives.md lists the commands behind every number.
 *
 * Engine model: lcan_collective_run_model (packet mode, DEPTH 4, mnb min(255, max(4, N)), or
 * --depth if larger). Engines rtl and icarus run tb/lcan-rtl with the same arguments (after they
 * are checked), which drives lcan_collective_run through the RTL in lockstep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan_collective.h"
#include "tool_util.h"

static const char usage[] =
    "usage: lcan collective SPEC --op OP [options] [--engine E] [--json]\n"
    "       lcan collective --cbt H [--json]\n"
    "Runs a collective operation on the network SPEC in packet mode and prints the measured steps\n"
    "(tick of the last delivery, first injection on tick 1) next to the papers' count.\n"
    "  --op OP         bcast scatter gather mnb alltoall reduce prefix\n"
    "  --root R        root leaf of bcast / scatter / gather / reduce (default 0)\n"
    "  --flits K       bcast: K flits (default 1)\n"
    "  --trees T       bcast: spread the flits over T edge-disjoint trees, 1..w1 (default 1)\n"
    "  --algo A        bcast: hw (broadcast trees, default) or leaves (binomial, leaves forward)\n"
    "  --phased        alltoall: phases in sequence (seed 000 formula 1) instead of pipelined (2)\n"
    "  --combine C     reduce / prefix: sum (default) or max\n"
    "  --compact K     reduce: after K binomial rounds move the partials into one subtree in one\n"
    "                  round (needs channel capacity; a violation is refused, seed 001)\n"
    "  --depth D       DEPTH of the packet FIFOs, 1..255 (default 4; mnb min(255, max(4, N)))\n"
    "  --seed S        network seed on the reset tick, 0..2^32-1 (default 1)\n"
    "  --engine E      model (default), rtl (Verilator) or icarus; rtl/icarus run tb/lcan-rtl\n"
    "  --cbt H         seed 003: a complete binary tree of 2^(H+1)-1 processors, H = 1..8 (MODEL\n"
    "                  ONLY - our networks have no processors at inner nodes)\n"
    "  --json          one JSON object: op, spec, engine, steps, paper_steps, paper_ref, max_queue,\n"
    "                  messages, correct, and the details (--cbt: one object with a rows array)\n";

typedef struct {
    const char *spec, *engine, *op_name, *algo, *combine;
    lcan_coll_op op;
    long root, flits, trees, compact, depth, cbt;
    uint64_t seed;
    int json, phased, has_op;
} coll_args;

static int parse_args(int argc, char **argv, coll_args *a)
{
    const char *root = NULL, *flits = NULL, *trees = NULL, *compact = NULL, *depth = NULL, *seed = NULL,
               *cbt = NULL, *v;
    int i, r, opts = 1;
    memset(a, 0, sizeof *a);
    a->engine = "model";
    a->algo = "hw";
    a->combine = "sum";
    a->flits = 1;
    a->trees = 1;
    a->seed = 1;
    a->cbt = -1;
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
                tool_error("collective: unexpected argument '%s' (one SPEC only)", arg);
                return -1;
            }
            a->spec = arg;
            continue;
        }
        if ((r = tool_opt_flag("collective", arg, "--json")) != 0) {
            if (r < 0)
                return -1;
            a->json = 1;
            continue;
        }
        if ((r = tool_opt_flag("collective", arg, "--phased")) != 0) {
            if (r < 0)
                return -1;
            a->phased = 1;
            continue;
        }
#define VALUE_OPT(name, dst)                                                      \
        if ((r = tool_opt_value("collective", argc, argv, &i, name, &v)) != 0) {  \
            if (r < 0)                                                            \
                return -1;                                                        \
            dst = v;                                                              \
            continue;                                                             \
        }
        VALUE_OPT("--op", a->op_name)
        VALUE_OPT("--root", root)
        VALUE_OPT("--flits", flits)
        VALUE_OPT("--trees", trees)
        VALUE_OPT("--algo", a->algo)
        VALUE_OPT("--combine", a->combine)
        VALUE_OPT("--compact", compact)
        VALUE_OPT("--depth", depth)
        VALUE_OPT("--seed", seed)
        VALUE_OPT("--engine", a->engine)
        VALUE_OPT("--cbt", cbt)
#undef VALUE_OPT
        tool_error("collective: unknown option '%s' (try 'lcan collective --help')", arg);
        return -1;
    }
    if (cbt != NULL) {
        if (a->spec != NULL || a->op_name != NULL) {
            tool_error("collective: --cbt H takes no SPEC and no --op (it runs every seed 003 algorithm)");
            return -1;
        }
        if (tool_parse_long("collective", "--cbt", cbt, 1, 8, &a->cbt) != 0)
            return -1;
        if (strcmp(a->engine, "model") != 0) {
            tool_error("collective: --cbt runs in the model only (seed 003 puts processors at inner nodes)");
            return -1;
        }
        return 0;
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
    if (seed != NULL) {
        long s;
        if (tool_parse_long("collective", "--seed", seed, 0, 4294967295L, &s) != 0)
            return -1;
        a->seed = (uint64_t)s;
    }
    if (strcmp(a->algo, "hw") != 0 && strcmp(a->algo, "leaves") != 0) {
        tool_error("collective: --algo '%s' is not one of hw, leaves", a->algo);
        return -1;
    }
    if (strcmp(a->combine, "sum") != 0 && strcmp(a->combine, "max") != 0) {
        tool_error("collective: --combine '%s' is not one of sum, max", a->combine);
        return -1;
    }
    if (strcmp(a->engine, "model") != 0 && strcmp(a->engine, "rtl") != 0 && strcmp(a->engine, "icarus") != 0) {
        tool_error("collective: --engine '%s' is not one of model, rtl, icarus", a->engine);
        return -1;
    }
    return 0;
}

static int run_cbt(const coll_args *a)
{
    lcan_tree003_row rows[64];
    int n = lcan_tree003_table((int)a->cbt, rows, 64), k, ok = 1;
    long procs = (1L << (a->cbt + 1)) - 1;
    if (n < 0) {
        tool_error("collective: --cbt %ld: out of memory", a->cbt);
        return TOOL_EXIT_FAIL;
    }
    for (k = 0; k < n; k++)
        ok &= rows[k].correct;
    if (a->json) {
        printf("{\"model_only\": true, \"tree\": \"complete binary tree of processors\", \"height\": %ld, "
               "\"processors\": %ld, \"rows\": [",
               a->cbt, procs);
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
            lcan_json_double(stdout, r->lower_bound);
            printf(", \"bound_ref\": ");
            lcan_json_string(stdout, r->bound_ref);
            printf(", \"correct\": %s}", r->correct ? "true" : "false");
        }
        printf("], \"correct\": %s}\n", ok ? "true" : "false");
        return ok ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
    }
    printf("seed 003 algorithms, complete binary tree of %ld processors (height %ld)\n", procs, a->cbt);
    printf("MODEL ONLY: a round-model simulator; our networks have no processors at inner nodes.\n");
    printf("%-9s %-28s %-8s %-6s %8s %10s %10s  %s\n", "op", "algorithm", "I/O", "source", "steps", "paper", "bound",
           "paper result / bound");
    for (k = 0; k < n; k++) {
        const lcan_tree003_row *r = &rows[k];
        char steps[32], claim[32];
        if (r->steps >= 0)
            snprintf(steps, sizeof steps, "%ld", r->steps);
        else
            snprintf(steps, sizeof steps, "%s", r->steps == -2 ? "(H>6)" : "FAIL");
        if (r->paper_claim >= 0)
            snprintf(claim, sizeof claim, "%.1f", r->paper_claim);
        else
            snprintf(claim, sizeof claim, "-");
        printf("%-9s %-28s %-8s %-6s %8s %10s %10.1f  %s; %s\n", r->op, r->algo, r->io, r->source, steps, claim,
               r->lower_bound, r->claim_ref, r->bound_ref);
    }
    return ok ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
}

int cmd_collective(int argc, char **argv)
{
    coll_args a;
    lcan_topo *t;
    lcan_coll_opts o;
    lcan_coll_result res;
    lcan_status st;
    int r = parse_args(argc, argv, &a), pw, depth;

    if (r != 0)
        return r > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (a.cbt > 0)
        return run_cbt(&a);
    if ((t = tool_topo(a.spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if ((uint32_t)a.root >= lcan_topo_leaves(t)) {
        tool_error("collective: --root %ld is not a leaf of %s (0..%u)", a.root, lcan_topo_canonical(t),
                   lcan_topo_leaves(t) - 1);
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(a.engine, "model") != 0) {
        lcan_topo_free(t);
        return tool_exec_rtl(argc, argv);
    }
    lcan_coll_opts_default(&o);
    o.root = (uint32_t)a.root;
    o.flits = (int)a.flits;
    o.trees = (int)a.trees;
    o.sw_bcast = strcmp(a.algo, "leaves") == 0;
    o.phased = a.phased;
    o.combine = strcmp(a.combine, "max") == 0 ? LCAN_COMB_MAX : LCAN_COMB_SUM;
    o.compact = (int)a.compact;
    o.depth = (int)a.depth;
    o.net_seed = (uint32_t)a.seed;
    st = lcan_collective_run_model(t, a.op, &o, &res);
    lcan_collective_engine_cfg(t, a.op, &o, &pw, &depth);
    o.payload_w = pw;
    o.depth = a.depth > depth ? (int)a.depth : depth;
    if (st == LCAN_ERR_PATTERN) {
        tool_error("collective: %s", res.err[0] ? res.err : lcan_strerror(st));
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (st != LCAN_OK) {
        tool_error("collective: %s%s%s", lcan_strerror(st), res.err[0] ? ": " : "", res.err);
        lcan_topo_free(t);
        return TOOL_EXIT_FAIL;
    }
    lcan_collective_print(stdout, t, a.op, a.engine, &o, &res, a.json);
    lcan_topo_free(t);
    return res.correct ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
}
