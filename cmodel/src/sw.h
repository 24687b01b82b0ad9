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

typedef struct { int r_in, r_up, r_dn; } lcan_offsets;

/* Offsets from the LFSR value s before its step (spec 5). */
static inline lcan_offsets lcan_sw_offsets(const lcan_geom *g, int l, uint32_t s)
{
    lcan_offsets o;
    o.r_in = lcan_lfsr_offset(s & 0xFFu, g->in_mask[l], g->P[l]);
    o.r_up = lcan_lfsr_offset((s >> 8) & 0xFFu, g->up_mask[l], g->U[l]);
    o.r_dn = lcan_lfsr_offset((s >> 16) & 0xFFu, g->dn_mask[l], g->p[l]);
    return o;
}

/* Request of a unicast of class cls (LCAN_CLASS_UP or DOWN(x) = x >= 0) at a level-l switch;
 * a dropped class (LCAN_CLASS_DROP) gives a valid ONE request with an empty want set. */
void lcan_sw_unicast_req(const lcan_geom *g, int l, int cls, const lcan_offsets *off, lcan_req *r);

/* Circuit mode: headers on the inputs of switch (l, x): hv[i] != 0 when input i carries a valid
 * header with destination hdest[i]. set[o]: the set bits before the tick (avail = not set).
 * Writes out[i] = the granted output, or -1 (no header, or dropped). Steps *lfsr iff a header was
 * present. Returns the number of headers. set is not modified. */
int lcan_sw_circuit_headers(const lcan_geom *g, int l, uint32_t x, uint32_t *lfsr, const uint8_t *hv,
                            const uint32_t *hdest, const uint8_t *set, int *out);

#endif
