/*
 * cmd_faults.c - `lcan faults SPEC --faults LIST [--seed S] [--json]`: a fault set (spec 14) and
 * what it does to the network: the elements that are off, the network ports that are off, the
 * pairs of leaves it cuts (spec 14.4) and whether seed 002's guarantee applies (fewer than w_1
 * elements: Theorem 2 / Corollary 1, no pair is cut, and Theorem 3, every tree broadcast arrives).
 * Also tool_faults, the --faults parser every subcommand uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan_faults.h"
#include "tool_util.h"

#define CUT_LIST_MAX 100

static const char usage[] =
    "usage: lcan faults SPEC --faults LIST [--seed S] [--json]\n"
    "Shows a fault set of the network SPEC (docs/spec.md 14): the elements that are off, the network\n"
    "ports that are off, the ordered pairs of leaves (s, d) it cuts (no port of s is usable for d,\n"
    "spec 14.4), the node connectivity w_1 and whether seed 002's guarantee applies (fewer than w_1\n"
    "elements: no pair is cut, Theorem 2 / Corollary 1; every tree broadcast arrives, Theorem 3).\n"
    "  --faults LIST   comma-separated elements: Ll:x (switch x of level l, the names of lcan paths),\n"
    "                  Ll:x/o (the link on downer o of that switch), random:K (K distinct elements\n"
    "                  drawn uniformly from all links and switches with the seed)\n"
    "  --seed S        seed of random:K, 0..2^64-1 (default 1)\n"
    "  --json          one JSON object: spec, seed, faults (count), elements (names), links_off,\n"
    "                  switches_off, off_ports, rows (reach rows to write), cut_pairs_total, cut_pairs\n"
    "                  (the first 100 [s, d], s first), node_connectivity, guaranteed\n";

int tool_faults(const char *cmd, const lcan_topo *t, const char *list, uint64_t seed, lcan_faults *f)
{
    char err[512];
    uint64_t b = lcan_reach_bytes(t);
    if (b > LCAN_REACH_MAX_BYTES) {
        tool_error("%s: --faults: the reach tables of %s need about %.1f GB (%llu rows of %llu bits, spec 14.2); "
                   "the model takes at most %.1f GB",
                   cmd, lcan_topo_canonical(t), (double)b / 1e9, (unsigned long long)lcan_topo_reach_rows(t),
                   (unsigned long long)lcan_topo_row_bits(t), (double)LCAN_REACH_MAX_BYTES / 1e9);
        return -1;
    }
    if (lcan_faults_init(t, f) != LCAN_OK) {
        tool_error("%s: out of memory", cmd);
        return -1;
    }
    if (lcan_faults_parse(t, list, seed, f, err, sizeof err) != LCAN_OK) {
        tool_error("%s: %s", cmd, err);
        lcan_faults_free(f);
        return -1;
    }
    return 0;
}

int cmd_faults(int argc, char **argv)
{
    const char *spec = NULL, *list = NULL, *seed_s = NULL;
    int json = 0, r, w1;
    uint64_t seed = 1, k, links = 0, sws = 0, shown = 0;
    lcan_topo *t;
    lcan_faults f;
    lcan_reach *reach = NULL;
    lcan_fault_sched sched = {NULL, 0};
    uint32_t N, s, d;
    char name[64];
    const tool_opt opts[] = {
        {"--json", &json, NULL},
        {"--faults", NULL, &list},
        {"--seed", NULL, &seed_s},
    };

    r = tool_parse_args("faults", argc, argv, usage, opts, sizeof opts / sizeof opts[0], &spec);
    if (r != 0)
        return r > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (spec == NULL) {
        tool_error("faults: missing SPEC (usage: lcan faults SPEC --faults LIST [--seed S] [--json])");
        return TOOL_EXIT_USAGE;
    }
    if (list == NULL) {
        tool_error("faults: missing --faults LIST (e.g. --faults L1:0,L2:3/1 or --faults random:2)");
        return TOOL_EXIT_USAGE;
    }
    if (seed_s != NULL && tool_parse_u64("faults", "--seed", seed_s, &seed) != 0)
        return TOOL_EXIT_USAGE;
    if ((t = tool_topo(spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if (tool_faults("faults", t, list, seed, &f) != 0) {
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (lcan_reach_new(t, &f, &reach) != LCAN_OK || lcan_fault_sched_rows(t, NULL, reach, &sched) != LCAN_OK) {
        tool_error("faults: out of memory");
        lcan_reach_free(reach);
        lcan_faults_free(&f);
        lcan_topo_free(t);
        return TOOL_EXIT_FAIL;
    }
    for (k = 0; k < f.nl; k++)
        links += f.link_off[k] != 0;
    for (k = 0; k < f.ns; k++)
        sws += f.sw_off[k] != 0;
    w1 = lcan_topo_w(t, 1);
    N = lcan_topo_leaves(t);
    if (json) {
        int first = 1;
        printf("{\"spec\": ");
        lcan_json_string(stdout, lcan_topo_canonical(t));
        printf(", \"seed\": %llu, \"faults\": %llu, \"elements\": [", (unsigned long long)seed,
               (unsigned long long)f.count);
        for (k = 0; k < f.nl + f.ns; k++)
            if (k < f.nl ? f.link_off[k] : f.sw_off[k - f.nl]) {
                lcan_faults_name(t, &f, k, name, sizeof name);
                printf("%s\"%s\"", first ? "" : ", ", name);
                first = 0;
            }
        printf("], \"links_off\": %llu, \"switches_off\": %llu, \"off_ports\": %llu, \"rows\": %llu, "
               "\"cut_pairs_total\": %llu, \"cut_pairs\": [",
               (unsigned long long)links, (unsigned long long)sws, (unsigned long long)lcan_reach_off_ports(reach),
               (unsigned long long)sched.nrows, (unsigned long long)lcan_reach_cut_pairs(reach));
    } else {
        printf("spec               %s\n", lcan_topo_canonical(t));
        printf("faults             %llu elements (%llu links, %llu switches):", (unsigned long long)f.count,
               (unsigned long long)links, (unsigned long long)sws);
        for (k = 0; k < f.nl + f.ns; k++)
            if (k < f.nl ? f.link_off[k] : f.sw_off[k - f.nl]) {
                lcan_faults_name(t, &f, k, name, sizeof name);
                printf(" %s", name);
            }
        printf("\n");
        printf("off_ports          %llu of %u network ports\n", (unsigned long long)lcan_reach_off_ports(reach),
               lcan_topo_ports(t));
        printf("rows               %llu reach rows to write (spec 14.2, of %llu)\n", (unsigned long long)sched.nrows,
               (unsigned long long)lcan_topo_reach_rows(t));
        printf("cut_pairs          %llu ordered pairs (s, d)%s", (unsigned long long)lcan_reach_cut_pairs(reach),
               lcan_reach_cut_pairs(reach) > CUT_LIST_MAX ? ", the first 100:" : lcan_reach_cut_pairs(reach) ? ":" : "");
    }
    for (s = 0; s < N && shown < CUT_LIST_MAX; s++) {
        if (lcan_reach_cut_from(reach, s) == 0)
            continue;
        for (d = 0; d < N && shown < CUT_LIST_MAX; d++)
            if (lcan_reach_cut(reach, s, d)) {
                if (json)
                    printf("%s[%u, %u]", shown ? ", " : "", s, d);
                else
                    printf(" (%u,%u)", s, d);
                shown++;
            }
    }
    if (json) {
        printf("], \"node_connectivity\": %d, \"guaranteed\": %s}\n", w1, f.count < (uint64_t)w1 ? "true" : "false");
    } else {
        printf("\n");
        printf("node_connectivity  %d (w_1, spec 2.5)\n", w1);
        printf("guaranteed         %s\n", f.count < (uint64_t)w1
                                              ? "yes: fewer than w_1 elements, no pair is cut (seed 002 Theorem 2, "
                                                "Corollary 1) and every tree broadcast arrives (Theorem 3)"
                                              : "no: at least w_1 elements (seed 002's guarantee is for w_1 - 1)");
    }
    lcan_fault_sched_free(&sched);
    lcan_reach_free(reach);
    lcan_faults_free(&f);
    lcan_topo_free(t);
    return TOOL_EXIT_OK;
}
