/*
 * embed_print.c - the result of `lcan embed` as text or JSON. One printer for every engine of the
 * exchange (the model in the tool, the RTL in the lockstep harness), so that their outputs can be
 * compared byte for byte.
 */
#include "lcan_embed.h"
#include "json.h"

#include <stdio.h>

static int meets(const lcan_embed_result *r)
{
    const lcan_embed_paper *p = &r->paper;
    return (int64_t)r->load <= p->load && r->dilation <= p->dilation && (int64_t)r->congestion <= p->congestion &&
           r->expansion <= p->expansion * (1 + 1e-12);
}

static void print_json(FILE *f, const lcan_topo *t, const lcan_guest *g, const char *map, const char *map_ref,
                       const lcan_embed_result *r, const lcan_embed_exchange_result *x, const char *inject,
                       const char *engine)
{
    int l, h = lcan_topo_levels(t);
    fprintf(f, "{\"host\": ");
    lcan_json_string(f, lcan_topo_canonical(t));
    fprintf(f, ", \"guest\": ");
    lcan_json_string(f, lcan_guest_name(g));
    fprintf(f, ", \"map\": ");
    lcan_json_string(f, map);
    fprintf(f, ", \"map_ref\": ");
    lcan_json_string(f, map_ref);
    fprintf(f, ", \"routing\": \"least-congested up-down path, lower LCA levels first\"");
    fprintf(f, ", \"nodes\": %lu, \"edges\": %lu, \"leaves\": %lu, \"load\": %lu, \"dilation\": %d, \"avg_dilation\": ",
            (unsigned long)r->nodes, (unsigned long)r->edges, (unsigned long)r->leaves, (unsigned long)r->load,
            r->dilation);
    lcan_json_double(f, r->avg_dilation);
    fprintf(f, ", \"congestion\": %lu, \"congestion_per_level\": [", (unsigned long)r->congestion);
    for (l = 1; l <= h; l++)
        fprintf(f, "%s%lu", l > 1 ? ", " : "", (unsigned long)r->congestion_level[l]);
    fprintf(f, "], \"expansion\": ");
    lcan_json_double(f, r->expansion);
    fprintf(f, ", \"paper_bound\": ");
    if (r->paper.congestion >= 0) {
        fprintf(f, "{\"load\": %lld, \"dilation\": %lld, \"congestion\": %lld, \"expansion\": ",
                (long long)r->paper.load, (long long)r->paper.dilation, (long long)r->paper.congestion);
        lcan_json_double(f, r->paper.expansion);
        fprintf(f, "}");
    } else {
        fprintf(f, "null");
    }
    fprintf(f, ", \"paper_ref\": ");
    lcan_json_string(f, r->paper.ref);
    fprintf(f, ", \"meets_paper_bound\": %s", r->paper.congestion < 0 ? "null" : meets(r) ? "true" : "false");
    fprintf(f, ", \"bisection\": ");
    lcan_json_i64(f, r->bisection);
    fprintf(f, ", \"lower_bound\": ");
    if (r->lower_bound >= 0)
        lcan_json_double(f, r->lower_bound);
    else
        fprintf(f, "null");
    fprintf(f, ", \"lower_bound_ref\": ");
    lcan_json_string(f, r->bisection >= 0 ? "seed 002 Thm 10: 2b / (links between levels h-1 and h)"
                                          : "none: the guest's edge bisection b is not derived");
    fprintf(f, ", \"path_choice\": ");
    lcan_json_string(f, r->greedy_levels ? "some LCA levels level by level (paths or search budget)" : "exhaustive");
    fprintf(f, ", \"exchange\": ");
    if (x != NULL) {
        fprintf(f, "{\"engine\": ");
        lcan_json_string(f, engine);
        fprintf(f, ", \"inject\": ");
        lcan_json_string(f, inject);
        fprintf(f, ", \"packets\": %llu, \"steps\": %llu, \"errors\": %llu, \"backlog\": %llu}",
                (unsigned long long)x->packets, (unsigned long long)x->steps, (unsigned long long)x->errors,
                (unsigned long long)x->backlog);
    } else {
        fprintf(f, "null");
    }
    fprintf(f, "}\n");
}

static void print_text(FILE *f, const lcan_topo *t, const lcan_guest *g, const char *map, const char *map_ref,
                       const lcan_embed_result *r, const lcan_embed_exchange_result *x, const char *engine)
{
    int l, h = lcan_topo_levels(t);
    const lcan_embed_paper *p = &r->paper;
    fprintf(f, "host        %s (%lu leaves)\n", lcan_topo_canonical(t), (unsigned long)r->leaves);
    fprintf(f, "guest       %s (%lu nodes, %lu edges)\n", lcan_guest_name(g), (unsigned long)r->nodes,
            (unsigned long)r->edges);
    fprintf(f, "map         %s: %s\n", map, map_ref);
    fprintf(f, "metric      measured  paper (%s)\n", p->ref);
    if (p->congestion >= 0) {
        fprintf(f, "load        %8lu  %lld\n", (unsigned long)r->load, (long long)p->load);
        fprintf(f, "dilation    %8d  %lld\n", r->dilation, (long long)p->dilation);
        fprintf(f, "congestion  %8lu  %lld\n", (unsigned long)r->congestion, (long long)p->congestion);
        fprintf(f, "expansion   %8.4f  %.4f\n", r->expansion, p->expansion);
        fprintf(f, "meets the paper's bound: %s\n", meets(r) ? "yes" : "no");
    } else {
        fprintf(f, "load        %8lu\ndilation    %8d\ncongestion  %8lu\nexpansion   %8.4f\n", (unsigned long)r->load,
                r->dilation, (unsigned long)r->congestion, r->expansion);
    }
    fprintf(f, "congestion per level (1..%d):", h);
    for (l = 1; l <= h; l++)
        fprintf(f, " %lu", (unsigned long)r->congestion_level[l]);
    fprintf(f, "\n");
    if (r->lower_bound >= 0)
        fprintf(f, "Thm 10 lower bound 2b/L_h = %.4g (guest bisection b = %lld)\n", r->lower_bound,
                (long long)r->bisection);
    if (x != NULL)
        fprintf(f, "exchange    %llu packets, %llu steps on the packet-mode network (engine %s), %llu errors\n",
                (unsigned long long)x->packets, (unsigned long long)x->steps, engine, (unsigned long long)x->errors);
    fprintf(f, "            (congestion + dilation - 1 = %lu)\n",
            (unsigned long)(r->congestion + (uint32_t)r->dilation - 1));
}

void lcan_embed_print(FILE *f, const lcan_topo *t, const lcan_guest *g, const char *map, const char *map_ref,
                      const lcan_embed_result *r, const lcan_embed_exchange_result *x, const char *inject,
                      const char *engine, int json)
{
    if (json)
        print_json(f, t, g, map, map_ref, r, x, inject, engine);
    else
        print_text(f, t, g, map, map_ref, r, x, engine);
}
