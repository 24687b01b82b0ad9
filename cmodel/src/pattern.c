/*
 * pattern.c - the driver's random generator and the permutation patterns of spec 10.1.
 *
 * Generator: splitmix64 (state += 0x9E3779B97F4A7C15, then the standard output mix).
 * A bounded draw uniform(n) takes the next output r, rejects r >= 2^64 - (2^64 mod n) and
 * returns r mod n, so it is exactly uniform. Every engine uses these functions, so the same
 * seed and trial give the same permutation everywhere.
 *
 * Trial seeds (spec 10.1):
 *   lcan_trial_rng(seed, k)      = splitmix64 output of state seed ^ ((k+1) * 0xD1B54A32D192ED03)
 *   lcan_trial_net_seed(seed, k) = high 32 bits of the next splitmix64 output from state
 *                                  lcan_trial_rng(seed, k) ^ 0x6A09E667F3BCC909
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "status.h"
#include "topo_internal.h"

uint64_t lcan_rng_next(uint64_t *state)
{
    return lcan_rng_next_inl(state);
}

uint64_t lcan_trial_rng(uint64_t seed, uint32_t trial)
{
    uint64_t st = seed ^ (((uint64_t)trial + 1u) * 0xD1B54A32D192ED03ULL);
    return lcan_rng_next(&st);
}

uint32_t lcan_trial_net_seed(uint64_t seed, uint32_t trial)
{
    uint64_t st = lcan_trial_rng(seed, trial) ^ 0x6A09E667F3BCC909ULL;
    return (uint32_t)(lcan_rng_next(&st) >> 32);
}

/* Exactly uniform in 0..n-1 (n >= 1). */
static uint32_t uniform(uint64_t *st, uint32_t n)
{
    uint64_t lim = UINT64_MAX - (UINT64_MAX % n + 1u) % n; /* largest multiple of n, minus 1 */
    uint64_t r;
    do
        r = lcan_rng_next(st);
    while (r > lim);
    return (uint32_t)(r % n);
}

static void fisher_yates(uint32_t *perm, uint32_t n, uint64_t *st)
{
    uint32_t i, j, tmp;
    for (i = 0; i < n; i++)
        perm[i] = i;
    for (i = n - 1; i >= 1; i--) {
        j = uniform(st, i + 1);
        tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
}

/* log2(n) if n is a power of two, else -1. */
static int log2_exact(uint32_t n)
{
    int k = 0;
    if (n == 0 || (n & (n - 1)) != 0)
        return -1;
    while (((uint32_t)1 << k) != n)
        k++;
    return k;
}

static lcan_status from_file(const lcan_topo *t, const char *path, uint32_t *perm, char *err,
                             size_t errlen)
{
    FILE *f = fopen(path, "r");
    uint8_t *seen;
    uint32_t n = t->N, k = 0;
    lcan_status st = LCAN_OK;
    int c;

    if (f == NULL)
        return lcan_fail(err, errlen, LCAN_ERR_IO, "pattern file '%s' cannot be read", path);
    seen = calloc(n, 1);
    if (seen == NULL) {
        fclose(f);
        return LCAN_ERR_NOMEM;
    }
    for (;;) {
        uint64_t v = 0;
        int digits = 0;
        while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
            ;
        if (c == EOF)
            break;
        while (c >= '0' && c <= '9') {
            if (v <= 0xFFFFFFFFu)
                v = v * 10 + (uint64_t)(c - '0'); /* stays above N once too large */
            digits++;
            c = fgetc(f);
        }
        if (digits == 0 || (c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' &&
                            c != '\v')) {
            st = lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                      "pattern file '%s': entry %lu is not a non-negative integer", path,
                      (unsigned long)k + 1);
            break;
        }
        if (k >= n) {
            st = lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                      "pattern file '%s': more than N=%lu entries", path, (unsigned long)n);
            break;
        }
        if (v >= n) {
            st = lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                      "pattern file '%s': entry %lu is out of range 0..%lu", path,
                      (unsigned long)k + 1, (unsigned long)n - 1);
            break;
        }
        if (seen[v]) {
            st = lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                      "pattern file '%s': value %lu appears twice (entry %lu)", path, (unsigned long)v,
                      (unsigned long)k + 1);
            break;
        }
        seen[v] = 1;
        perm[k++] = (uint32_t)v;
        if (c == EOF)
            break;
    }
    if (st == LCAN_OK && ferror(f))
        st = lcan_fail(err, errlen, LCAN_ERR_IO, "pattern file '%s' cannot be read", path);
    if (st == LCAN_OK && k != n)
        st = lcan_fail(err, errlen, LCAN_ERR_PATTERN, "pattern file '%s': %lu entries, need N=%lu", path,
                  (unsigned long)k, (unsigned long)n);
    free(seen);
    fclose(f);
    return st;
}

static int same_word(const char *s, const char *word)
{
    for (; *s != '\0' && *word != '\0'; s++, word++) {
        char c = (*s >= 'A' && *s <= 'Z') ? (char)(*s - 'A' + 'a') : *s;
        if (c != *word)
            return 0;
    }
    return *s == '\0' && *word == '\0';
}

lcan_status lcan_pattern(const lcan_topo *t, const char *pattern, uint64_t *rng_state,
                         uint32_t *perm, char *err, size_t errlen)
{
    uint32_t n, s;
    int k;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (t == NULL || pattern == NULL || perm == NULL)
        return lcan_fail(err, errlen, LCAN_ERR_ARG, "pattern: missing argument");
    n = t->N;
    if (strncmp(pattern, "file:", 5) == 0 || strncmp(pattern, "FILE:", 5) == 0)
        return from_file(t, pattern + 5, perm, err, errlen);

    if (same_word(pattern, "identity")) {
        for (s = 0; s < n; s++)
            perm[s] = s;
        return LCAN_OK;
    }
    if (same_word(pattern, "random") || same_word(pattern, "worst")) {
        if (rng_state == NULL)
            return lcan_fail(err, errlen, LCAN_ERR_ARG, "pattern '%s' needs a generator state",
                        pattern);
        if (same_word(pattern, "worst") && t->m[t->h] < 2)
            return lcan_fail(err, errlen, LCAN_ERR_PATTERN, "pattern '%s' needs m_h >= 2 (m_h=%lu)",
                        pattern, (unsigned long)t->m[t->h]);
        fisher_yates(perm, n, rng_state);
        if (same_word(pattern, "worst")) {
            uint32_t top = t->leaf_radix[t->h]; /* top digit of x is x / top */
            for (s = 0; s < n; s++) {
                while (perm[s] / top == s / top) {
                    uint32_t u = uniform(rng_state, n), tmp;
                    if (perm[u] / top != s / top && perm[s] / top != u / top) {
                        tmp = perm[s];
                        perm[s] = perm[u];
                        perm[u] = tmp;
                    }
                }
            }
        }
        return LCAN_OK;
    }
    if (same_word(pattern, "bitrev") || same_word(pattern, "transpose") || same_word(pattern, "shuffle")) {
        int bits = log2_exact(n);
        uint32_t mask;
        if (bits < 0)
            return lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                        "pattern '%s' needs N a power of two (N=%lu)", pattern, (unsigned long)n);
        if (same_word(pattern, "transpose") && bits % 2 != 0)
            return lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                        "pattern '%s' needs N a power of four (N=%lu)", pattern, (unsigned long)n);
        mask = bits >= 32 ? UINT32_MAX : (((uint32_t)1 << bits) - 1u);
        for (s = 0; s < n; s++) {
            uint32_t r = 0;
            if (same_word(pattern, "bitrev")) {
                for (k = 0; k < bits; k++)
                    r |= ((s >> k) & 1u) << (bits - 1 - k);
            } else if (same_word(pattern, "transpose")) {
                int half = bits / 2;
                uint32_t lo = s & (((uint32_t)1 << half) - 1u);
                r = (lo << half) | (s >> half);
            } else {
                r = bits == 0 ? s : (((s << 1) | (s >> (bits - 1))) & mask);
            }
            perm[s] = r;
        }
        return LCAN_OK;
    }
    return lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                "unknown pattern '%s' (expected identity, random, worst, bitrev, transpose, shuffle or "
                "file:PATH)",
                pattern);
}
