/*
 * cmd_paths.c - `lcan paths SPEC SRC DST [--json]`: the w_1 node-disjoint paths between two leaves
 * and the node connectivity (spec 2.5, seed 002 §4.2, Theorem 2).
 */
#include <stdio.h>
#include <stdlib.h>

#include "lcan_paths.h"
#include "tool_util.h"

static const char usage[] =
    "usage: lcan paths SPEC SRC DST [--json]\n"
    "Lists the w_1 node-disjoint paths between leaves SRC and DST (leaf numbers 0..N-1, SRC != DST;\n"
    "docs/spec.md 2.5, seed 002 Theorem 2): path i climbs through level-1 parent i, then parent 0,\n"
    "to the pair's LCA level and descends. A node is named Ll:x (level l, index x of docs/spec.md\n"
    "2.2; L0:x is leaf x), followed by its label (a_h..a_l+1; b_l..b_1).\n"
    "  --json   {\"spec\", \"src\", \"dst\", \"lca_level\", \"node_connectivity\", \"paths\": [[names from\n"
    "           SRC to DST], ..], \"labels\": [[labels], ..]}\n";

static void node_name(const lcan_node *v, char *buf, size_t len)
{
    snprintf(buf, len, "L%d:%lu", v->level, (unsigned long)v->index);
}

/* (a_h,..,a_{l+1}; b_l,..,b_1): the label of spec 2.2; a leaf has no b part, a top switch no a part */
static void node_label(const lcan_topo *t, const lcan_node *v, char *buf, size_t len)
{
    int dg[LCAN_MAX_LEVELS + 1];
    int h = lcan_topo_levels(t), j;
    size_t n = 1;
    lcan_topo_switch_label(t, v->level, v->index, dg);
    buf[0] = '(';
    buf[1] = '\0';
    for (j = h; j >= 1 && n < len; j--) {
        const char *sep = j == h ? "" : ",";
        if (v->level > 0 && j == v->level)
            sep = "; ";
        n += (size_t)snprintf(buf + n, len - n, "%s%d", sep, dg[j]);
    }
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

int cmd_paths(int argc, char **argv)
{
    const char *pos[3];
    int json = 0, npos = 0, i, r, opts = 1, L, w1, k;
    long src, dst;
    lcan_topo *t;
    lcan_node *nodes;
    size_t len, per;
    char name[32], label[LCAN_MAX_LEVELS * 12 + 8];

    for (i = 1; i < tool_end_of_options(argc, argv); i++)
        if (tool_is_help(argv[i])) {
            fputs(usage, stdout);
            return TOOL_EXIT_OK;
        }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts && a[0] == '-' && a[1] == '-' && a[2] == '\0') {
            opts = 0;
        } else if (opts && tool_is_option(a)) {
            if ((r = tool_opt_flag("paths", a, "--json")) < 0)
                return TOOL_EXIT_USAGE;
            if (r == 0) {
                tool_error("paths: unknown option '%s' (try 'lcan paths --help')", a);
                return TOOL_EXIT_USAGE;
            }
            json = 1;
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            tool_error("paths: unexpected argument '%s' (usage: lcan paths SPEC SRC DST [--json])", a);
            return TOOL_EXIT_USAGE;
        }
    }
    if (npos < 3) {
        tool_error("paths: missing %s (usage: lcan paths SPEC SRC DST [--json])",
                   npos == 0 ? "SPEC" : npos == 1 ? "SRC" : "DST");
        return TOOL_EXIT_USAGE;
    }
    if ((t = tool_topo(pos[0])) == NULL)
        return TOOL_EXIT_USAGE;
    if (tool_parse_long("paths", "SRC", pos[1], 0, (long)lcan_topo_leaves(t) - 1, &src) != 0 ||
        tool_parse_long("paths", "DST", pos[2], 0, (long)lcan_topo_leaves(t) - 1, &dst) != 0) {
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    if (src == dst) {
        tool_error("paths: SRC and DST are the same leaf %ld (give two different leaves)", src);
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    len = lcan_topo_paths_len(t, (uint32_t)src, (uint32_t)dst);
    nodes = malloc(len * sizeof *nodes);
    if (nodes == NULL) {
        tool_error("paths: out of memory");
        lcan_topo_free(t);
        return TOOL_EXIT_FAIL;
    }
    lcan_topo_disjoint_paths(t, (uint32_t)src, (uint32_t)dst, nodes);
    L = lcan_topo_lca_level(t, (uint32_t)src, (uint32_t)dst);
    w1 = lcan_topo_node_connectivity(t);
    per = (size_t)(2 * L + 1);
    if (json) {
        int pass;
        printf("{\"spec\": ");
        lcan_json_string(stdout, lcan_topo_canonical(t));
        printf(", \"src\": %ld, \"dst\": %ld, \"lca_level\": %d, \"node_connectivity\": %d", src, dst, L, w1);
        for (pass = 0; pass < 2; pass++) {
            printf(", \"%s\": [", pass == 0 ? "paths" : "labels");
            for (k = 0; k < w1; k++) {
                size_t j;
                printf("%s[", k ? ", " : "");
                for (j = 0; j < per; j++) {
                    const lcan_node *v = &nodes[(size_t)k * per + j];
                    if (pass == 0)
                        node_name(v, label, sizeof label);
                    else
                        node_label(t, v, label, sizeof label);
                    printf("%s", j ? ", " : "");
                    lcan_json_string(stdout, label);
                }
                printf("]");
            }
            printf("]");
        }
        printf("}\n");
    } else {
        printf("%s: leaves %ld and %ld, LCA level %d, %d node-disjoint paths (node connectivity %d)\n",
               lcan_topo_canonical(t), src, dst, L, w1, w1);
        for (k = 0; k < w1; k++) {
            size_t j;
            printf("path %d:", k);
            for (j = 0; j < per; j++) {
                const lcan_node *v = &nodes[(size_t)k * per + j];
                node_name(v, name, sizeof name);
                node_label(t, v, label, sizeof label);
                printf("%s %s %s", j ? " ->" : "", name, label);
            }
            printf("\n");
        }
    }
    free(nodes);
    lcan_topo_free(t);
    return TOOL_EXIT_OK;
}
