/*
 * sw.c - shared parts of one switch's tick (see sw.h).
 */
#include "lfsr.h"
#include "sw.h"

void lcan_sw_unicast_req(const lcan_geom *g, int l, int cls, const lcan_offsets *off, lcan_req *r)
{
    r->valid = 1;
    r->kind = LCAN_REQ_ONE;
    r->order = NULL;
    r->n_order = 0;
    if (cls == LCAN_CLASS_UP) {
        r->want = lcan_pset_range(g->D[l], g->P[l]);
        r->start = g->D[l] + off->r_up;
        r->order = off->up_order;
        r->n_order = g->U[l];
    } else if (cls >= 0) {
        r->want = lcan_pset_range(cls * g->p[l], (cls + 1) * g->p[l]);
        r->start = cls * g->p[l] + off->r_dn;
    } else {
        lcan_pset_clear(&r->want);
        r->start = 0;
    }
}

int lcan_sw_circuit_headers(const lcan_geom *g, int l, uint32_t x, int up_choice, uint32_t *lfsr,
                            const uint8_t *hv, const uint32_t *hdest, const uint8_t *set,
                            const lcan_sw_faults *flt, int *out)
{
    uint8_t order[LCAN_MAX_PORTS];
    lcan_req req[LCAN_MAX_PORTS];
    lcan_pset grant[LCAN_MAX_PORTS], avail;
    lcan_offsets off;
    uint32_t hi = g->hi[g->sw_base[l] + x];
    int P = g->P[l], i, n = 0;

    for (i = 0; i < P; i++)
        if (hv[i])
            n++;
    if (n == 0) {
        for (i = 0; i < P; i++)
            out[i] = -1;
        return 0;
    }
    off = lcan_sw_offsets_uc(g, l, *lfsr, up_choice, order);
    lcan_pset_clear(&avail);
    for (i = 0; i < P; i++) {
        if (!set[i])
            lcan_pset_add(&avail, i);
        if (hv[i])
            lcan_sw_unicast_req(g, l, lcan_route_decide(g, l, hi, i, hdest[i]), &off, &req[i]);
        else
            req[i].valid = 0;
    }
    if (flt != NULL) { /* faults (spec 14.3): off outputs not available, want sets masked */
        avail.w[0] &= ~flt->off.w[0];
        avail.w[1] &= ~flt->off.w[1];
        for (i = 0; i < P; i++)
            if (hv[i])
                lcan_sw_mask_want(g, l, flt, lcan_route_decide(g, l, hi, i, hdest[i]) == LCAN_CLASS_UP, hdest[i],
                                  &req[i].want);
    }
    lcan_alloc(P, off.r_in, req, &avail, grant);
    for (i = 0; i < P; i++)
        out[i] = hv[i] ? lcan_pset_next(&grant[i], 0) : -1;
    *lfsr = lcan_lfsr_step(*lfsr);
    return n;
}
