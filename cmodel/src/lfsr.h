/*
 * lfsr.h - the per-switch 32-bit Galois LFSR of spec 5 (internal).
 *
 * Polynomial x^32 + x^22 + x^2 + x + 1, right-shifting Galois form: with bit i holding the
 * coefficient of x^i, one step multiplies the state by x^-1 = x^31 + x^21 + x + 1 (mask
 * 0x80200003). The RTL runs the same register bit for bit.
 */
#ifndef LCAN_LFSR_H
#define LCAN_LFSR_H

#include <stdint.h>

#define LCAN_LFSR_MASK 0x80200003u

static inline uint32_t lcan_lfsr_step(uint32_t s)
{
    return (s >> 1) ^ ((0u - (s & 1u)) & LCAN_LFSR_MASK);
}

/* Salt of the switch with level l and index x (spec 5). */
uint32_t lcan_lfsr_salt(int level, uint32_t index);

/* The value loaded on a reset tick: seed ^ salt, or 1 if that is 0. */
uint32_t lcan_lfsr_seed(uint32_t seed, int level, uint32_t index);

/* red(r, n) = r >= n ? r - n : r applied to (field & (2^clog2(n) - 1)); spec 5's offsets.
 * mask must be 2^clog2(n) - 1. */
static inline int lcan_lfsr_offset(uint32_t field, uint32_t mask, int n)
{
    uint32_t r = field & mask;
    return (int)(r >= (uint32_t)n ? r - (uint32_t)n : r);
}

#endif
