/*
 * route.h - constants of the pass driver (spec 7.5) shared by route.c and route_fast.c (internal).
 */
#ifndef LCAN_ROUTE_H
#define LCAN_ROUTE_H

#include <stdint.h>
#include "lcan.h"

#define LCAN_DATA_LEN 4

/* T_pass = 6h + DATA_LEN + 1 ticks. */
static inline int lcan_pass_ticks(int h) { return 6 * h + LCAN_DATA_LEN + 1; }

/* Ticks used by a run of `passes` passes: the reset tick plus the passes. */
static inline uint64_t lcan_route_ticks(int h, int passes)
{
    return 1u + (uint64_t)passes * (uint64_t)lcan_pass_ticks(h);
}

/* 1 if perm[0..N-1] is a permutation of 0..N-1 (scratch: N bytes). */
int lcan_route_check_perm(const uint32_t *perm, uint32_t N, uint8_t *scratch);

/* lcan_route_perm_fast that also reports, if pass_of != NULL, the pass in which each source was
 * satisfied (pass_of[s], -1 if never) - for tests comparing the two drivers source by source. */
lcan_status lcan_route_fast_trace(const lcan_topo *t, const uint32_t *perm, uint32_t net_seed,
                                  int max_passes, lcan_up_choice up_choice, lcan_route_result *res,
                                  int *pass_of);

#endif
