/*
 * sw.h - pieces of one switch's tick shared by the tick-level model (net.c) and the event-driven
 * router (route_fast.c) (internal): LFSR offsets (spec 5), unicast requests (spec 4 + 6), and the
 * header step of circuit mode (spec 7.2 step 3, first bullet).
 */
#ifndef LCAN_SW_H
#define LCAN_SW_H

#include "alloc.h"
#include "geom.h"
#include "lfsr.h"

/* up_order: NULL = class UP scans cyclically from D + r_up (UP_CHOICE = rotate, or U_l <= 2 where
 * sigma = [r_up, 1 - r_up] gives the same scan, spec 5); else the U_l local ports D + sigma[k]. */
typedef struct { int r_in, r_up, r_dn; const uint8_t *up_order; } lcan_offsets;

/* Offsets from the LFSR value s before its step (spec 5), for UP_CHOICE = rotate. */
static inline lcan_offsets lcan_sw_offsets(const lcan_geom *g, int l, uint32_t s)
{
    lcan_offsets o;
    o.r_in = lcan_lfsr_offset(s & 0xFFu, g->in_mask[l], g->P[l]);
    o.r_up = lcan_lfsr_offset((s >> 8) & 0xFFu, g->up_mask[l], g->U[l]);
    o.r_dn = lcan_lfsr_offset((s >> 16) & 0xFFu, g->dn_mask[l], g->p[l]);
    o.up_order = NULL;
    return o;
}

/* Class UP's scan order under UP_CHOICE = uniform: buf[k] = D + sigma[k], k < U (spec 5-6). */
static inline const uint8_t *lcan_sw_up_order(const lcan_geom *g, int l, uint32_t s, uint8_t *buf)
{
    int k, D = g->D[l];
    lcan_lfsr_up_perm(s, g->U[l], buf);
    for (k = 0; k < g->U[l]; k++)
        buf[k] = (uint8_t)(D + buf[k]);
    return buf;
}

/* The offsets for the switch's UP_CHOICE (lcan_up_choice); buf: LCAN_MAX_PORTS bytes that hold
 * the up order when one is needed (uniform and U_l >= 3). */
static inline lcan_offsets lcan_sw_offsets_uc(const lcan_geom *g, int l, uint32_t s, int up_choice, uint8_t *buf)
{
    lcan_offsets o = lcan_sw_offsets(g, l, s);
    if (up_choice == LCAN_UP_UNIFORM && g->U[l] >= 3)
        o.up_order = lcan_sw_up_order(g, l, s, buf);
    return o;
}

/* Faults seen by one switch on one tick (spec 14.1-14.3). off: its local ports that are off;
 * rows: its U_l reach rows, rww words each, stored inverted (net_internal.h); NULL = all ones. */
typedef struct {
    lcan_pset off;
    const uint64_t *rows;
    uint32_t rww;
} lcan_sw_faults;

/* Bit dest of reach row j of f (1 when f holds no rows). */
static inline int lcan_sw_reach(const lcan_sw_faults *f, int j, uint32_t dest)
{
    return f->rows == NULL || !((f->rows[(size_t)j * f->rww + (dest >> 6)] >> (dest & 63u)) & 1u);
}

/* The masking of spec 14.3 (f may be NULL: no faults): the off ports leave want; for class UP
 * (up != 0) also every upper j whose reach row has bit dest = 0. */
static inline void lcan_sw_mask_want(const lcan_geom *g, int l, const lcan_sw_faults *f, int up, uint32_t dest,
                                     lcan_pset *want)
{
    int j;
    if (f == NULL)
        return;
    want->w[0] &= ~f->off.w[0];
    want->w[1] &= ~f->off.w[1];
    if (up && f->rows != NULL)
        for (j = 0; j < g->U[l]; j++)
            if (!lcan_sw_reach(f, j, dest)) {
                int o = g->D[l] + j;
                want->w[o >> 6] &= ~((uint64_t)1 << (o & 63));
            }
}

/* Request of a unicast of class cls (LCAN_CLASS_UP or DOWN(x) = x >= 0) at a level-l switch;
 * a dropped class (LCAN_CLASS_DROP) gives a valid ONE request with an empty want set. */
void lcan_sw_unicast_req(const lcan_geom *g, int l, int cls, const lcan_offsets *off, lcan_req *r);

/* Circuit mode (up_choice: the network's UP_CHOICE): headers on the inputs of switch (l, x): hv[i] != 0 when input i carries a valid
 * header with destination hdest[i]. set[o]: the set bits before the tick (avail = not set and not
 * off). flt: the switch's faults this tick (NULL = none): want sets masked as spec 14.3 says; a
 * header whose masked want is empty still requests (the LFSR steps) and gets no grant.
 * Writes out[i] = the granted output, or -1 (no header, or dropped). Steps *lfsr iff a header was
 * present. Returns the number of headers. set is not modified. */
int lcan_sw_circuit_headers(const lcan_geom *g, int l, uint32_t x, int up_choice, uint32_t *lfsr,
                            const uint8_t *hv, const uint32_t *hdest, const uint8_t *set,
                            const lcan_sw_faults *flt, int *out);

#endif
