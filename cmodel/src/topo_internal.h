/*
 * topo_internal.h - the fields of struct lcan_topo, shared by the library's sources (not public).
 *
 * Built once by lcan_topo_parse (topo.c) and never changed afterwards. Per-level arrays are
 * indexed by level l = 1..h (index 0 is the leaf level where that makes sense, else unused);
 * every value obeys the limits of spec 1.1, so the 32-bit counts below cannot overflow.
 */
#ifndef LCAN_TOPO_INTERNAL_H
#define LCAN_TOPO_INTERNAL_H

#include <stdint.h>
#include "lcan.h"

/* Family the user wrote (for the canonical form, spec 1.3). */
typedef enum {
    LCAN_FAM_CM5 = 0,
    LCAN_FAM_LCAN,
    LCAN_FAM_GFT,
    LCAN_FAM_KARY,
    LCAN_FAM_XGFT,
    LCAN_FAM_BFT,
    LCAN_FAM_PGFT
} lcan_family;

#define LCAN_SPEC_MAX 1024 /* canonical / pgft strings: 16 levels x 3 lists x "64," fits easily */

struct lcan_topo {
    int h;                               /* levels, 1..16 */
    int m[LCAN_MAX_LEVELS + 1];          /* m_l, l = 1..h (m[0] unused) */
    int w[LCAN_MAX_LEVELS + 1];          /* w_l */
    int p[LCAN_MAX_LEVELS + 1];          /* p_l */
    uint32_t N;                          /* leaves, = S[0] */
    int U0;                              /* w_1 * p_1: ports per leaf */
    uint32_t NP;                         /* N * U0: network ports */
    uint32_t S[LCAN_MAX_LEVELS + 1];     /* S[0] = N, S[l] switches of level l */
    uint64_t L[LCAN_MAX_LEVELS + 1];     /* L[l] = S[l-1] * w_l * p_l links (L[0] = 0) */
    int D[LCAN_MAX_LEVELS + 1];          /* D[l] = m_l * p_l downers (D[0] = 0) */
    int U[LCAN_MAX_LEVELS + 1];          /* U[l] = w_{l+1} * p_{l+1} uppers, U[h] = 0, U[0] = U0 */
    int ADDR_W;                          /* sum of B[l] */
    int O[LCAN_MAX_LEVELS + 1];          /* field offset O_l of digit a_l in a packed address */
    int B[LCAN_MAX_LEVELS + 1];          /* field width B_l = clog2(m_l) */
    uint32_t leaf_radix[LCAN_MAX_LEVELS + 2]; /* m_1*..*m_{l-1}: leaf-number weight of digit l */
    lcan_family family;                  /* what the user wrote */
    int fam_a, fam_b, fam_c;             /* lcan: d,u,n; gft: h,m,w; kary: k,n (others unused) */
    char canonical[LCAN_SPEC_MAX];       /* spec 1.3 canonical form */
    char pgft[LCAN_SPEC_MAX];            /* spec 1.3 PGFT form */
};

/* Fill the derived fields (N, S, L, D, U, B, O, ...) from h, m, w, p (topo.c). The values must
 * already satisfy the limits of spec 1.1 (parse.c checks them first). */
void lcan_topo_derive(struct lcan_topo *t);

/* Small helpers shared with the network code. */
static inline int lcan_clog2(uint32_t x) /* bits to hold 0..x-1: clog2(1) = 0, clog2(2) = 1 */
{
    int b = 0;
    while (b < 32 && ((uint64_t)1 << b) < x)
        b++;
    return b;
}

/* Digit a_l (1-based level) of leaf number s. */
static inline int lcan_leaf_digit(const struct lcan_topo *t, uint32_t s, int l)
{
    return (int)((s / t->leaf_radix[l]) % (uint32_t)t->m[l]);
}

#endif
