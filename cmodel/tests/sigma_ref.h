/*
 * sigma_ref.h - the upper permutation sigma of spec 5 (UP_CHOICE = uniform), written for the tests
 * straight from the spec's text, bit by bit, without the model's code: stream bit b is z[b mod 32]
 * with z[7:0] = s[15:8], z[15:8] = s[31:24], z[23:16] = s[7:0], z[31:24] = s[23:16].
 */
#ifndef LCAN_TEST_SIGMA_REF_H
#define LCAN_TEST_SIGMA_REF_H

#include <stdint.h>

static inline int ref_z_bit(uint32_t s, int b)
{
    static const int src[4] = {8, 24, 0, 16}; /* byte k of z comes from s[src[k]+7 : src[k]] */
    b %= 32;
    return (int)((s >> (src[b / 8] + b % 8)) & 1u);
}

static inline int ref_clog2(int x)
{
    int b = 0;
    while ((1 << b) < x)
        b++;
    return b;
}

/* Fills sigma[0..U-1]; returns the number of stream bits used. */
static inline int ref_sigma(uint32_t s, int U, int *sigma)
{
    int k, b = 0;
    for (k = 0; k < U; k++)
        sigma[k] = k;
    for (k = 0; k <= U - 2; k++) {
        int n = U - k, w = (n & (n - 1)) == 0 ? ref_clog2(n) : ref_clog2(n) + 2, e, j, t;
        long v = 0;
        for (e = 0; e < w; e++)
            v |= (long)ref_z_bit(s, b + e) << e;
        b += w;
        j = k + (int)(v % n);
        t = sigma[k];
        sigma[k] = sigma[j];
        sigma[j] = t;
    }
    return b;
}

#endif
