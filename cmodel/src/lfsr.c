/*
 * lfsr.c - seeding of the per-switch LFSRs (spec 5). The step itself is inline in lfsr.h.
 */
#include "lfsr.h"

uint32_t lcan_lfsr_salt(int level, uint32_t index)
{
    return (uint32_t)level * 0x9E3779B9u + index * 0x85EBCA6Bu + 0x6A09E667u;
}

static uint32_t rotl32(uint32_t x, unsigned r)
{
    r &= 31u;
    return r == 0 ? x : (x << r) | (x >> (32u - r));
}

/* spec 5's mix: two add-rotate-xor rounds and a final xorshift */
static uint32_t seed_mix(uint32_t x)
{
    uint32_t t = x + (rotl32(x, 7) ^ rotl32(x, 19));
    uint32_t y = t + (rotl32(t, 13) ^ rotl32(t, 27));
    return y ^ (y >> 16);
}

void lcan_lfsr_seed_hashes(uint32_t seed, uint32_t h[3])
{
    h[0] = seed_mix(seed);
    h[1] = seed_mix(h[0]);
    h[2] = seed_mix(h[1]);
}

uint32_t lcan_lfsr_seed_input(const uint32_t h[3], uint32_t salt)
{
    return rotl32(h[0], salt) ^ rotl32(h[1], salt >> 5) ^ rotl32(h[2], salt >> 10);
}

uint32_t lcan_lfsr_load(uint32_t seed_input, uint32_t salt)
{
    uint32_t s = seed_input ^ salt;
    return s != 0 ? s : 1u;
}

uint32_t lcan_lfsr_seed_from(const uint32_t h[3], int level, uint32_t index)
{
    uint32_t salt = lcan_lfsr_salt(level, index);
    return lcan_lfsr_load(lcan_lfsr_seed_input(h, salt), salt);
}

/* The width of the draw for n candidates (spec 5): clog2(n), + 2 when n is not a power of two. */
static int draw_width(uint32_t n)
{
    int w = 0;
    while ((1u << w) < n)
        w++;
    return (n & (n - 1u)) != 0 ? w + 2 : w;
}

void lcan_lfsr_up_perm_z(uint32_t z, int U, uint8_t *sigma)
{
    int k, b = 0;
    for (k = 0; k < U; k++)
        sigma[k] = (uint8_t)k;
    for (k = 0; k + 1 < U; k++) {
        uint32_t n = (uint32_t)(U - k), rot, v;
        int w = draw_width(n), j;
        uint8_t t;
        rot = b == 0 ? z : (z >> b) | (z << (32 - b));
        v = rot & ((1u << w) - 1u);
        b = (b + w) & 31;
        j = k + (int)(v % n);
        t = sigma[k];
        sigma[k] = sigma[j];
        sigma[j] = t;
    }
}

void lcan_lfsr_up_perm(uint32_t s, int U, uint8_t *sigma)
{
    lcan_lfsr_up_perm_z(lcan_lfsr_up_z(s), U, sigma);
}

int lcan_lfsr_up_bits(int U)
{
    int k, bits = 0;
    for (k = 0; k + 1 < U; k++)
        bits += draw_width((uint32_t)(U - k));
    return bits;
}
