/*
 * alloc.c - the greedy rotated allocator of spec 6 (both modes).
 *
 * Inputs are visited in the order r_in, r_in+1, .., P-1, 0, .., r_in-1. A ONE request takes the
 * first port of want that is available and not yet taken, scanning cyclically from its class start
 * (or in the order of its order list: class UP under UP_CHOICE = uniform); an ALL request takes
 * every such port.
 */
#include <stddef.h>

#include "alloc.h"

void lcan_alloc(int P, int r_in, const lcan_req *req, const lcan_pset *avail, lcan_pset *grant)
{
    lcan_pset taken;
    int k;

    lcan_pset_clear(&taken);
    for (k = 0; k < P; k++)
        lcan_pset_clear(&grant[k]);
    for (k = 0; k < P; k++) {
        int i = r_in + k < P ? r_in + k : r_in + k - P;
        const lcan_req *r = &req[i];
        lcan_pset fr;
        if (!r->valid)
            continue;
        fr.w[0] = r->want.w[0] & avail->w[0] & ~taken.w[0];
        fr.w[1] = r->want.w[1] & avail->w[1] & ~taken.w[1];
        if (r->kind == LCAN_REQ_ALL) {
            grant[i] = fr;
        } else if (r->order != NULL) {
            int j;
            for (j = 0; j < r->n_order; j++)
                if (lcan_pset_has(&fr, r->order[j])) {
                    lcan_pset_add(&grant[i], r->order[j]);
                    break;
                }
        } else {
            int o = lcan_pset_next(&fr, r->start);
            if (o < 0)
                o = lcan_pset_next(&fr, 0);
            if (o >= 0)
                lcan_pset_add(&grant[i], o);
        }
        taken.w[0] |= grant[i].w[0];
        taken.w[1] |= grant[i].w[1];
    }
}

