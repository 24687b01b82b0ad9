/*
 * paths.c - the w_1 node-disjoint leaf-to-leaf paths of seed 002 §4.2 (spec 2.5).
 *
 * Path i climbs from the source leaf to its level-1 parent i (b_1 = i), then through parent
 * choice 0 (b_j = 0 for 2 <= j <= l) up to the pair's LCA level L, and descends to the
 * destination through the switches with the same b digits. Two paths differ in b_1 at every
 * switch, so they share only their end leaves; a path's up and down switches below L differ in
 * digit L. Seed 002 climbs to level h; stopping at L gives the shortest such paths (2L links).
 */
#include "lcan_paths.h"
#include "topo_internal.h"

int lcan_topo_node_connectivity(const lcan_topo *t)
{
    if (t == NULL || t->N < 2)
        return 0;
    return t->w[1];
}

size_t lcan_topo_paths_len(const lcan_topo *t, uint32_t s, uint32_t d)
{
    if (t == NULL || s >= t->N || d >= t->N || s == d)
        return 0;
    return (size_t)t->w[1] * (size_t)(2 * lcan_topo_lca_level(t, s, d) + 1);
}

/* The switch of level l on path i above leaf `leaf` (digits a_j of the leaf for j > l). */
static uint32_t path_switch(const lcan_topo *t, uint32_t leaf, int l, int i)
{
    int dg[LCAN_MAX_LEVELS + 1];
    int j;
    lcan_topo_switch_label(t, 0, leaf, dg); /* leaf digits a_1..a_h */
    for (j = 1; j <= l; j++)
        dg[j] = 0;
    dg[1] = i;
    return lcan_topo_switch_index(t, l, dg);
}

lcan_status lcan_topo_disjoint_paths(const lcan_topo *t, uint32_t s, uint32_t d, lcan_node *nodes)
{
    int L, i, l, len;
    if (t == NULL || nodes == NULL || s >= t->N || d >= t->N || s == d)
        return LCAN_ERR_ARG;
    L = lcan_topo_lca_level(t, s, d);
    len = 2 * L + 1;
    for (i = 0; i < t->w[1]; i++) {
        lcan_node *p = nodes + (size_t)i * (size_t)len;
        p[0].level = 0;
        p[0].index = s;
        for (l = 1; l <= L; l++) {
            p[l].level = l;
            p[l].index = path_switch(t, s, l, i);
        }
        for (l = L - 1; l >= 1; l--) {
            p[2 * L - l].level = l;
            p[2 * L - l].index = path_switch(t, d, l, i);
        }
        p[2 * L].level = 0;
        p[2 * L].index = d;
    }
    return LCAN_OK;
}
