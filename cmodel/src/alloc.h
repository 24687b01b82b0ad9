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
static inline uint64_t lcan_low_mask(int n) /* bits 0..n-1, 0 <= n <= 64 */
{
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1u);
}

/* Ports lo..hi-1 (0 <= lo <= hi <= 128). */
static inline lcan_pset lcan_pset_range(int lo, int hi)
{
    lcan_pset s;
    int k;
    for (k = 0; k < 2; k++) {
        int a = lo - 64 * k, b = hi - 64 * k;
        a = a < 0 ? 0 : (a > 64 ? 64 : a);
        b = b < 0 ? 0 : (b > 64 ? 64 : b);
        s.w[k] = b > a ? (lcan_low_mask(b) & ~lcan_low_mask(a)) : 0;
    }
    return s;
}

/* Lowest member >= from (0 <= from <= 128), or -1. */
static inline int lcan_pset_next(const lcan_pset *s, int from)
{
    int k;
    for (k = from >> 6; k < 2; k++) {
        int base = 64 * k;
        uint64_t v = s->w[k];
        if (from > base)
            v &= ~lcan_low_mask(from - base);
        if (v)
            return base + lcan_ctz64(v);
    }
    return -1;
}

/* Run the allocator (spec 6) for a switch with P local ports.
 * req[0..P-1]: requests per input (a ONE request scans cyclically from start, or its order list); avail: outputs available this tick; r_in: requester rotation.
 * grant[0..P-1] receives grant_i (empty for inputs without a request). */
void lcan_alloc(int P, int r_in, const lcan_req *req, const lcan_pset *avail, lcan_pset *grant);

/* The same allocator for P <= 64 on 64-bit port masks (the speed path of the header step, sw.c):
 * reqm: the inputs with a request; allm: those whose request is ALL; ordm: the ONE requests that
 * scan order[0..n_order-1] (one list for all of them: class UP's up order) instead of cyclically
 * from start[i]. want[i], start[i] are read for the inputs of reqm only; grant[i] is written for
 * them only. Returns the inputs granted something. Used by the circuit header step (sw.h) and the
 * event-driven packet tick (net_packet.c). tests/test_alloc.c holds it to the same independent
 * expectations as lcan_alloc on random ONE requests; ALL requests are covered by the event-driven
 * packet tick's equality with the full scan (tests/test_traffic_fast.c, test_net_packet.c). */
static inline uint64_t lcan_alloc64(int P, int r_in, uint64_t reqm, uint64_t allm, uint64_t ordm, const uint64_t *want,
                                    const int *start, const uint8_t *order, int n_order, uint64_t avail, uint64_t *grant)
{
    /* inputs in the order r_in, .., P-1, 0, .., r_in-1: the bits of reqm rotated right by r_in.
     * Written for a branch predictor (the event-driven packet tick runs it on random traffic):
     * the choices are made by selecting values, not by branches. */
    uint64_t taken = 0, got = 0, rot = ((reqm >> r_in) | ((reqm << 1) << (P - 1 - r_in))) & lcan_low_mask(P);
    for (; rot; rot &= rot - 1u) {
        int i = lcan_ctz64(rot) + r_in, j;
        uint64_t fr, hi, first, all, g;
        i -= P & -(int)(i >= P);
        fr = want[i] & avail & ~taken;
        hi = fr & ~(((uint64_t)1 << start[i]) - 1u); /* start[i] < P <= 64 */
        first = hi ? hi : fr; /* cyclic scan */
        all = (uint64_t)0 - ((allm >> i) & 1u);
        g = (fr & all) | (first & (0u - first) & ~all);
        if ((ordm >> i) & 1u) { /* the first free port of the order list */
            g = 0;
            for (j = 0; j < n_order && fr; j++)
                if ((fr >> order[j]) & 1u) {
                    g = (uint64_t)1 << order[j];
                    break;
                }
        }
        grant[i] = g;
        taken |= g;
        got |= (uint64_t)(g != 0) << i;
    }
    return got;
}

#endif
