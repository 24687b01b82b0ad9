/*
 * cmd_info.c - `lcan info SPEC [--json]`: the properties of spec 2.4 for one network.
 */
#include <stdio.h>

#include "lcan_paths.h"
#include "tool_util.h"

static const char usage[] =
    "usage: lcan info SPEC [--json]\n"
    "Prints the network's canonical spec and PGFT form, leaves N, levels h, switches and links per\n"
    "level (1..h), diameter 2h, average leaf-to-leaf distance, root_cut (docs/spec.md 2.4) and\n"
    "node_connectivity (2.5).\n"
    "  --json   one JSON object: spec, pgft, leaves, levels, switches_per_level, links_per_level,\n"
    "           diameter, avg_distance, root_cut, node_connectivity, m, w, p (per level, 1..h) and parameters:\n"
    "           lcan_network's H, M, W, P as Verilog literals (packed 32-bit fields, level 1 in\n"
    "           the low bits; docs/spec.md 13)\n";

/* "key": [v_1, .., v_h] of one per-level list */
static void json_levels(const lcan_topo *t, const char *key, int (*get)(const lcan_topo *, int))
{
    int l;
    printf(", \"%s\": [", key);
    for (l = 1; l <= lcan_topo_levels(t); l++)
        printf("%s%d", l > 1 ? ", " : "", get(t, l));
    putchar(']');
}

/* "key": "<32h>'h<v_h>..<v_1>": a per-level list as lcan_network's packed parameter (spec 13) */
static void json_packed(const lcan_topo *t, const char *key, int (*get)(const lcan_topo *, int))
{
    int h = lcan_topo_levels(t), l;
    printf(", \"%s\": \"%d'h", key, 32 * h);
    for (l = h; l >= 1; l--)
        printf("%08x", (unsigned)get(t, l));
    putchar('"');
}

static void print_json(const lcan_topo *t)
{
    int h = lcan_topo_levels(t), l;
    printf("{\"spec\": ");
    lcan_json_string(stdout, lcan_topo_canonical(t));
    printf(", \"pgft\": ");
    lcan_json_string(stdout, lcan_topo_pgft(t));
    printf(", \"leaves\": %lu, \"levels\": %d, \"switches_per_level\": [",
           (unsigned long)lcan_topo_leaves(t), h);
    for (l = 1; l <= h; l++)
        printf("%s%lu", l > 1 ? ", " : "", (unsigned long)lcan_topo_switches(t, l));
    printf("], \"links_per_level\": [");
    for (l = 1; l <= h; l++)
        printf("%s%llu", l > 1 ? ", " : "", (unsigned long long)lcan_topo_links(t, l));
    printf("], \"diameter\": %d, \"avg_distance\": ", lcan_topo_diameter(t));
    lcan_json_double(stdout, lcan_topo_avg_distance(t));
    printf(", \"root_cut\": %llu", (unsigned long long)lcan_topo_root_cut(t));
    printf(", \"node_connectivity\": %d", lcan_topo_node_connectivity(t));
    json_levels(t, "m", lcan_topo_m);
    json_levels(t, "w", lcan_topo_w);
    json_levels(t, "p", lcan_topo_p);
    printf(", \"parameters\": {\"H\": %d", h);
    json_packed(t, "M", lcan_topo_m);
    json_packed(t, "W", lcan_topo_w);
    json_packed(t, "P", lcan_topo_p);
    printf("}}\n");
}

static void print_text(const lcan_topo *t)
{
    int h = lcan_topo_levels(t), l;
    printf("spec          %s\n", lcan_topo_canonical(t));
    printf("pgft          %s\n", lcan_topo_pgft(t));
    printf("leaves        %lu\n", (unsigned long)lcan_topo_leaves(t));
    printf("levels        %d\n", h);
    printf("level  switches  links  downers  uppers\n");
    for (l = 1; l <= h; l++)
        printf("%5d  %8lu  %5llu  %7d  %6d\n", l, (unsigned long)lcan_topo_switches(t, l),
               (unsigned long long)lcan_topo_links(t, l), lcan_topo_downers(t, l), lcan_topo_uppers(t, l));
    printf("diameter      %d\n", lcan_topo_diameter(t));
    printf("avg_distance  %.6f\n", lcan_topo_avg_distance(t));
    printf("root_cut      %llu\n", (unsigned long long)lcan_topo_root_cut(t));
    printf("node_connectivity %d\n", lcan_topo_node_connectivity(t));
}

int cmd_info(int argc, char **argv)
{
    const char *spec = NULL;
    int json = 0, i, r, opts = 1;
    lcan_topo *t;

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
            if ((r = tool_opt_flag("info", a, "--json")) < 0)
                return TOOL_EXIT_USAGE;
            if (r == 0) {
                tool_error("info: unknown option '%s' (try 'lcan info --help')", a);
                return TOOL_EXIT_USAGE;
            }
            json = 1;
        } else if (spec == NULL) {
            spec = a;
        } else {
            tool_error("info: unexpected argument '%s' (one SPEC only)", a);
            return TOOL_EXIT_USAGE;
        }
    }
    if (spec == NULL) {
        tool_error("info: missing SPEC (usage: lcan info SPEC [--json])");
        return TOOL_EXIT_USAGE;
    }
    if ((t = tool_topo(spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if (json)
        print_json(t);
    else
        print_text(t);
    lcan_topo_free(t);
    return TOOL_EXIT_OK;
}
