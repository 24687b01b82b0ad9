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

/* The network's three seed hashes of spec 5: h[0] = mix(seed), h[1] = mix(h[0]), h[2] = mix(h[1]). */
void lcan_lfsr_seed_hashes(uint32_t seed, uint32_t h[3]);

/* The seed input lcan_network gives the switch with this salt (spec 5, 13.1), from the network's
 * seed hashes: rotl(h[0], salt[4:0]) ^ rotl(h[1], salt[9:5]) ^ rotl(h[2], salt[14:10]). */
uint32_t lcan_lfsr_seed_input(const uint32_t h[3], uint32_t salt);

/* What a switch loads on a reset tick from its seed input (spec 13.1): seed_input ^ salt, or 1 if
 * that is 0. */
uint32_t lcan_lfsr_load(uint32_t seed_input, uint32_t salt);

/* The value the switch (level, index) of a network loads on a reset tick (spec 5):
 * lcan_lfsr_load(lcan_lfsr_seed_input(h, salt), salt). */
uint32_t lcan_lfsr_seed_from(const uint32_t h[3], int level, uint32_t index);

/* red(r, n) = r >= n ? r - n : r applied to (field & (2^clog2(n) - 1)); spec 5's offsets.
 * mask must be 2^clog2(n) - 1. */
static inline int lcan_lfsr_offset(uint32_t field, uint32_t mask, int n)
{
    uint32_t r = field & mask;
    return (int)(r >= (uint32_t)n ? r - (uint32_t)n : r);
}

/* The bit stream of the upper permutation (spec 5): z = {s[23:16], s[7:0], s[31:24], s[15:8]}. */
static inline uint32_t lcan_lfsr_up_z(uint32_t s)
{
    return ((s >> 8) & 0xFFu) | ((s >> 24) << 8) | ((s & 0xFFu) << 16) | (((s >> 16) & 0xFFu) << 24);
}

/* The upper permutation sigma of spec 5 (UP_CHOICE = uniform): Fisher-Yates over the bit stream
 * z = lcan_lfsr_up_z(s), read from bit 0 upwards cyclically, with w = clog2(n) bits per draw when n
 * is a power of two, else clog2(n) + 2, and j = k + (v mod n). s is the LFSR value before the step.
 * Fills sigma[0..U-1] (U <= 128; sigma = [0] when U <= 1). */
void lcan_lfsr_up_perm(uint32_t s, int U, uint8_t *sigma);

/* The same permutation from the bit stream z itself: lcan_lfsr_up_perm(s) = lcan_lfsr_up_perm_z(z(s)). */
void lcan_lfsr_up_perm_z(uint32_t z, int U, uint8_t *sigma);

/* The number of bits of z that sigma reads for U uppers (the sum of the draws' widths: 7 for U = 4,
 * 12 for U = 5). When it is below 32, sigma depends on z's low bits only, so a table indexed by
 * them holds every sigma (net.c's fast path keeps one for small U). */
int lcan_lfsr_up_bits(int U);

#endif
