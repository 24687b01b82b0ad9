/*
 * lcan_paths.h - node-disjoint paths and node connectivity of a network (spec 2.5, seed 002 §4.2,
 * Theorem 2 and Corollary 1).
 */
#ifndef LCAN_PATHS_H
#define LCAN_PATHS_H

#include "lcan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A node: level 0 is a leaf (index = leaf number), level l >= 1 the switch of that index (spec 2.2). */
typedef struct { int level; uint32_t index; } lcan_node;

/* The node connectivity between leaves (spec 2.5): w_1, the number of distinct level-1 parents of a
 * leaf (0 for a network of one leaf). */
int lcan_topo_node_connectivity(const lcan_topo *t);

/* The w_1 node-disjoint paths of spec 2.5 between leaves s != d. Path i (0 <= i < w_1) has
 * 2L + 1 nodes (L = the pair's LCA level): nodes[i*(2L+1) .. (i+1)*(2L+1) - 1], leaf s first,
 * leaf d last. nodes must hold w_1*(2L+1) entries (lcan_topo_paths_len). LCAN_ERR_ARG for a leaf
 * out of range or s == d. */
size_t lcan_topo_paths_len(const lcan_topo *t, uint32_t s, uint32_t d);
lcan_status lcan_topo_disjoint_paths(const lcan_topo *t, uint32_t s, uint32_t d, lcan_node *nodes);

#ifdef __cplusplus
}
#endif
#endif
