/*
 * rng.h - splitmix64, the driver's generator (pattern.c), inline for the traffic driver's hot loop
 * (internal). lcan_rng_next (include/lcan.h) is this function.
 */
#ifndef LCAN_RNG_H
#define LCAN_RNG_H

#include <stdint.h>

static inline uint64_t lcan_rng_next_inl(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif
