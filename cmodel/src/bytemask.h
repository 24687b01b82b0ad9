/*
 * bytemask.h - which of up to 64 bytes are non-zero, as a bit mask (internal). The leaf boundary
 * of the packet-mode tick (net.c) and the traffic driver (traffic.c) scan their per-port valid
 * bytes with it: most ports are idle, and a loop over the set bits of one mask costs no
 * mispredicted branch per idle port. Also the flags of the non-zero 16-bit counters (inj_ready), and
 * the same as a bit mask (a switch's outputs that hold credits).
 */
#ifndef LCAN_BYTEMASK_H
#define LCAN_BYTEMASK_H

#include <stdint.h>
#include <string.h>

#include "alloc.h" /* lcan_ctz64: the callers walk the mask's set bits with it */

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bit k = (p[k] != 0) for 0 <= k < n <= 64. */
static inline uint64_t lcan_nonzero_bytes(const uint8_t *p, uint32_t n)
{
    static const union { uint16_t u; uint8_t c[2]; } endian = {1};
    uint64_t m = 0;
    uint32_t k = 0;
#if defined(__SSE2__) /* (every x86-64): sixteen bytes by one compare and its movemask */
    for (; k + 16 <= n; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + k));
        uint32_t zero = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
        m |= (uint64_t)(~zero & 0xFFFFu) << k;
    }
#endif
    if (endian.c[0]) /* little-endian: eight bytes at a time */
        for (; k + 8 <= n; k += 8) {
            uint64_t w, hi = 0x8080808080808080ULL, lo = 0x7F7F7F7F7F7F7F7FULL;
            memcpy(&w, p + k, 8);
            w = (w | ((w & lo) + lo)) & hi;                         /* bit 8j+7: byte j != 0 */
            m |= (((w >> 7) * 0x0102040810204080ULL) >> 56) << k; /* gathered into bits 0..7 */
        }
    for (; k < n; k++)
        m |= (uint64_t)(p[k] != 0) << k;
    return m;
}

/* dst[k] = (src[k] != 0) for 0 <= k < n: the packet-mode tick's inj_ready from the network ports'
 * credit counters, every tick (eight counters by one compare, and sixteen flags by one pack). */
static inline void lcan_nonzero_u16_flags(uint8_t *dst, const uint16_t *src, uint32_t n)
{
    uint32_t k = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    for (; k + 16 <= n; k += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + k));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + k + 8));
        __m128i z = _mm_packs_epi16(_mm_cmpeq_epi16(a, zero), _mm_cmpeq_epi16(b, zero)); /* 0xFF: zero */
        _mm_storeu_si128((__m128i *)(void *)(dst + k), _mm_andnot_si128(z, one));
    }
#endif
    for (; k < n; k++)
        dst[k] = (uint8_t)(src[k] != 0);
}

/* Bit k = (p[k] != 0) for 0 <= k < n <= 64, and bits n.. of the last group of eight: the counters are
 * read eight at a time, p[0 .. 8 ceil(n / 8) - 1], so the caller's array must extend that far (its
 * entries past n may be anything: their bits are set or not). The packet-mode tick's free outputs
 * of a switch from their credit counters (net_packet.c). */
#if defined(__SSE2__) /* eight counters by one compare, their eight flags by one pack and movemask */
static inline uint64_t lcan_nonzero_u16_8(const uint16_t *p)
{
    __m128i z = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(const void *)p), _mm_setzero_si128());
    return ~(uint32_t)_mm_movemask_epi8(_mm_packs_epi16(z, _mm_setzero_si128())) & 0xFFu; /* bits 0..7 */
}
#endif

static inline uint64_t lcan_nonzero_u16_mask(const uint16_t *p, uint32_t n)
{
    uint64_t m = 0;
    uint32_t k;
#if defined(__SSE2__)
    m = lcan_nonzero_u16_8(p); /* (n >= 1: the first eight unconditionally, the common P <= 8 in one) */
    for (k = 8; k < n; k += 8)
        m |= lcan_nonzero_u16_8(p + k) << k;
#else
    for (k = 0; k < n; k++)
        m |= (uint64_t)(p[k] != 0) << k;
#endif
    return m;
}

#endif
