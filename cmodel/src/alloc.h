/*
 * alloc.h - the switch allocator of spec 6, shared by circuit and packet mode (internal).
 *
 * Port sets hold up to 128 local ports (spec 1.1: D_l + U_l <= 128), bit o = local port o.
 */
#ifndef LCAN_ALLOC_H
#define LCAN_ALLOC_H

#include <stdint.h>

#define LCAN_MAX_PORTS 128

typedef struct { uint64_t w[2]; } lcan_pset;

enum { LCAN_REQ_ONE = 0, LCAN_REQ_ALL = 1 };

typedef struct {
    int valid;      /* a request is present on this input */
    int kind;       /* LCAN_REQ_ONE or LCAN_REQ_ALL */
    int start;      /* ONE: first port of the cyclic scan (the class start of spec 6) */
    lcan_pset want;
    const uint8_t *order; /* ONE, optional: if not NULL, scan the ports order[0..n_order-1] in that
                             order instead of cyclically from start (class UP under UP_CHOICE =
                             uniform: D + sigma[k], spec 5-6) */
    int n_order;
} lcan_req;

/* Index of the lowest set bit of v != 0. */
static inline int lcan_ctz64(uint64_t v)
{
#if defined(__GNUC__)
    return __builtin_ctzll(v);
#else
    int n = 0;
    while (!(v & 1u)) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}

static inline void lcan_pset_clear(lcan_pset *s) { s->w[0] = 0; s->w[1] = 0; }
static inline int lcan_pset_has(const lcan_pset *s, int o) { return (int)((s->w[o >> 6] >> (o & 63)) & 1u); }
static inline void lcan_pset_add(lcan_pset *s, int o) { s->w[o >> 6] |= (uint64_t)1 << (o & 63); }
static inline int lcan_pset_empty(const lcan_pset *s) { return (s->w[0] | s->w[1]) == 0; }
/* Ports lo..hi-1 (0 <= lo <= hi <= 128). */
lcan_pset lcan_pset_range(int lo, int hi);
/* Lowest member >= from (0 <= from <= 128), or -1. */
int lcan_pset_next(const lcan_pset *s, int from);

/* Run the allocator (spec 6) for a switch with P local ports.
 * req[0..P-1]: requests per input (a ONE request scans cyclically from start, or its order list); avail: outputs available this tick; r_in: requester rotation.
 * grant[0..P-1] receives grant_i (empty for inputs without a request). */
void lcan_alloc(int P, int r_in, const lcan_req *req, const lcan_pset *avail, lcan_pset *grant);

#endif
