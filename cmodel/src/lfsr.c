/*
 * lfsr.c - seeding of the per-switch LFSRs (spec 5). The step itself is inline in lfsr.h.
 */
#include "lfsr.h"

uint32_t lcan_lfsr_salt(int level, uint32_t index)
{
    return (uint32_t)level * 0x9E3779B9u + index * 0x85EBCA6Bu + 0x6A09E667u;
}

uint32_t lcan_lfsr_seed(uint32_t seed, int level, uint32_t index)
{
    uint32_t s = seed ^ lcan_lfsr_salt(level, index);
    return s != 0 ? s : 1u;
}
