/*
 * geo.h - the traffic driver's geometric gaps (creation times, on/off lengths) by table (internal):
 * the same values as floor(log(u) * inv) from the same draws. Inline for the driver's hot loop
 * (traffic.c); tests/test_traffic.c compares it with the formula.
 */
#ifndef LCAN_GEO_H
#define LCAN_GEO_H

#include <math.h>
#include <stdint.h>

#include "rng.h"

#if defined(__GNUC__)
#define LCAN_GEO_INLINE __attribute__((always_inline))
#else
#define LCAN_GEO_INLINE
#endif

/* A draw r as a double in [0, 1): its top 53 bits times 2^-53 (exact). */
static inline double unit_of(uint64_t r) { return (double)(r >> 11) * (1.0 / 9007199254740992.0); }

/* Geometric on {k0, k0+1, ..}: trials until the first success of probability q (q in (0, 1]),
 * k0 = 1; with k0 = 0, failures before it: floor(log(u) * inv) + k0 for u = 1 - unit_of(r) in
 * (0, 1], inv = 1 / log1p(-q) (q < 1), one draw r (none when q >= 1).
 * The log is looked up, not computed, where that gives the same value (geo_init): the top GEO_BITS
 * bits of r fix u to an interval, and where floor(log(u) * inv) is one value k on all of it, far
 * from k's ends (the relative error of log and of the product, below 1e-15, cannot cross one),
 * t[r >> (64 - GEO_BITS)] holds k; elsewhere (an interval holding an end, u near 0) it holds
 * GEO_LOG and the log is computed. So the draws and values are those of the formula. */
#define GEO_BITS 12
#define GEO_LOG 0xFFFFu

typedef struct {
    double q, inv;
    int k0, certain; /* certain: q >= 1 (no draw), as a flag: one compare less per gap than the double */
    uint16_t t[1u << GEO_BITS];
} geo_tab;

static inline double geo_value(double u, double inv) { return log(u) * inv; }

static inline void geo_init(geo_tab *gt, double q, double inv, int k0)
{
    uint32_t i;
    double vmin = geo_value(1.0, inv);
    gt->q = q;
    gt->inv = inv;
    gt->k0 = k0;
    gt->certain = q >= 1.0;
    for (i = 0; i < (1u << GEO_BITS); i++) {
        /* r >> 11 in [i 2^41, (i+1) 2^41 - 1]: u in [1 - (i+1) 2^-GEO_BITS + 2^-53, 1 - i 2^-GEO_BITS], a part
         * of [1 - (i+1) 2^-GEO_BITS, 1 - i 2^-GEO_BITS], so the value is in [vmin, vmax] (log(u) * inv
         * falls as u grows; at i = 2^GEO_BITS - 1, u -> 0, vmax is infinite) */
        double vmax = geo_value(1.0 - (double)(i + 1u) * (1.0 / (double)(1u << GEO_BITS)), inv), k = floor(vmin);
        double margin = 1e-9 * (k + 1.0);
        gt->t[i] = GEO_LOG;
        if (q < 1.0 && k >= 0 && k < (double)GEO_LOG && vmax < k + 1.0 - margin && (k == 0 || vmin > k + margin))
            gt->t[i] = (uint16_t)k; /* (k = 0: the value is never below 0, log(u) <= 0 and inv < 0) */
        vmin = vmax;
    }
}

LCAN_GEO_INLINE static inline uint64_t geometric(uint64_t *rng, const geo_tab *gt)
{
    uint64_t r;
    double g;
    uint32_t e;
    if (gt->certain)
        return (uint64_t)gt->k0;
    r = lcan_rng_next_inl(rng);
    e = gt->t[r >> (64 - GEO_BITS)];
    if (e != GEO_LOG)
        return (uint64_t)e + (uint64_t)gt->k0;
    g = floor(geo_value(1.0 - unit_of(r), gt->inv)); /* u in (0, 1] */
    if (g > 1e15)
        g = 1e15;
    return (uint64_t)g + (uint64_t)gt->k0;
}

#endif
