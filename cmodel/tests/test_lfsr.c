/*
 * test_lfsr.c - the switch LFSR of spec 5 against polynomial arithmetic done here.
 *
 * With bit i of the state = the coefficient of x^i, the right-shifting Galois step is
 * s -> s * x^-1 mod P(x), P = x^32 + x^22 + x^2 + x + 1. The test knows only P: it computes
 * x^-1 = x^(2^32 - 2) mod P by square-and-multiply (valid because P is primitive, also checked here:
 * x^(2^32-1) = 1 and x^((2^32-1)/q) != 1 for every prime q | 2^32-1 = 3*5*17*257*65537), then
 * s_n = s_0 * (x^-1)^n mod P, and compares with the model's step.
 *
 * The upper permutation sigma of spec 5 (UP_CHOICE = uniform): equal to the test's own bit-by-bit
 * reading of the spec (sigma_ref.h) for U = 1..128, always a permutation, the bit counts of the
 * spec's table, sigma = [r_up, 1 - r_up] for U = 2 (r_up = s[8] computed here), and for U = 3, 4, 5
 * the distribution over the states equals the exact probabilities implied by the residue rule
 * (P(v mod n = r) = #{v < 2^w : v mod n = r} / 2^w, draws on disjoint stream bits), computed here
 * by enumerating the draw sequences: exactly over all 2^16 values of the stream's first 16 bits
 * (s[15:8], s[31:24]; the rest of s is irrelevant for U <= 5), and within sampling error over 10^6
 * consecutive states of one LFSR run. lcan_lfsr_up_bits gives the table's bit counts, and sigma
 * for U <= 9 equals sigma of z's low lcan_lfsr_up_bits(U) bits alone (the fast path's tables).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "lfsr.h"
#include "sigma_ref.h"

static check_ctx C = {"test_lfsr", 0, 0};

#define POLY_LOW 0x00400007u /* P(x) - x^32 = x^22 + x^2 + x + 1 */

/* a * b mod P, bit by bit (shift-and-add, reducing x^32 as it appears). */
static uint32_t mulmod(uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    int i;
    for (i = 31; i >= 0; i--) {
        uint32_t carry = r >> 31;
        r <<= 1;
        if (carry)
            r ^= POLY_LOW;
        if ((b >> i) & 1u)
            r ^= a;
    }
    return r;
}

static uint32_t powmod(uint32_t a, uint64_t e)
{
    uint32_t r = 1;
    while (e) {
        if (e & 1u)
            r = mulmod(r, a);
        a = mulmod(a, a);
        e >>= 1;
    }
    return r;
}

/* Index of a permutation of 0..U-1 (U <= 5) in base U (a sparse code, U^U entries). */
static int perm_code(const int *p, int U)
{
    int c = 0, k;
    for (k = 0; k < U; k++)
        c = c * U + p[k];
    return c;
}

/* Exact probability of each permutation (by code) from the residue rule: every sequence of draws
 * j_k = k + r_k, r_k in 0..n-1 (n = U - k), has probability prod P(r_k | n). */
static void exact_probs(int U, double *prob)
{
    int r[8], k, nseq = 1, q;
    for (k = 0; k < 3125; k++)
        prob[k] = 0.0;
    for (k = 0; k < U; k++)
        nseq *= U - k;
    for (q = 0; q < nseq; q++) {
        int rem = q, perm[8], t;
        double pr = 1.0;
        for (k = 0; k < U; k++)
            perm[k] = k;
        for (k = 0; k + 1 < U; k++) {
            int n = U - k, w = 0, cnt = 0, v;
            r[k] = rem % n;
            rem /= n;
            while ((1 << w) < n)
                w++;
            if (n & (n - 1))
                w += 2;
            for (v = 0; v < (1 << w); v++)
                cnt += v % n == r[k];
            pr *= (double)cnt / (double)(1 << w);
            t = perm[k]; perm[k] = perm[k + r[k]]; perm[k + r[k]] = t;
        }
        prob[perm_code(perm, U)] += pr;
    }
}

static void sigma_tests(void)
{
    static const int bits_of[10] = {0, 0, 1, 5, 7, 12, 17, 22, 25, 31}; /* spec 5's table */
    unsigned long long rng = 2024;
    uint8_t sig[128];
    int ref[128], U, k, i;
    static double prob[3125], cnt[3125];

    for (U = 2; U <= 9; U++)
        check(&C, ref_sigma(0x12345678u, U, ref) == bits_of[U], "sigma bits for U = %d: %d", U, ref_sigma(0x12345678u, U, ref));
    /* lcan_lfsr_up_bits, and sigma read from z's low bits only (what the fast path's tables rely on) */
    for (U = 2; U <= 9; U++) {
        long differ = 0;
        uint32_t low = (1u << lcan_lfsr_up_bits(U)) - 1u;
        uint8_t sz[128];
        check(&C, lcan_lfsr_up_bits(U) == bits_of[U], "lcan_lfsr_up_bits(%d) = %d, not %d", U, lcan_lfsr_up_bits(U),
              bits_of[U]);
        for (k = 0; k < 3000; k++) {
            uint32_t s = (uint32_t)test_rng(&rng);
            lcan_lfsr_up_perm(s, U, sig);
            lcan_lfsr_up_perm_z(lcan_lfsr_up_z(s) & low, U, sz);
            for (i = 0; i < U; i++)
                differ += sig[i] != sz[i];
        }
        check(&C, differ == 0, "U = %d: sigma depends on more than the %d low bits of z (%ld)", U, bits_of[U], differ);
    }
    for (U = 1; U <= 128; U++) {
        long notperm = 0, differ = 0;
        for (k = 0; k < 3000; k++) {
            uint32_t s = (uint32_t)test_rng(&rng);
            uint8_t seen[128] = {0};
            lcan_lfsr_up_perm(s, U, sig);
            ref_sigma(s, U, ref);
            for (i = 0; i < U; i++) {
                notperm += sig[i] >= U || seen[sig[i]];
                if (sig[i] < U)
                    seen[sig[i]] = 1;
                differ += sig[i] != ref[i];
            }
        }
        check(&C, notperm == 0, "U = %d: sigma not a permutation (%ld)", U, notperm);
        check(&C, differ == 0, "U = %d: sigma differs from spec 5's reading (%ld entries)", U, differ);
    }
    for (k = 0; k < 100000; k++) {
        uint32_t s = (uint32_t)test_rng(&rng), r_up = (s >> 8) & 1u;
        lcan_lfsr_up_perm(s, 2, sig);
        check(&C, sig[0] == r_up && sig[1] == 1u - r_up, "U = 2, s %08x: sigma [%d %d], r_up %u", s, sig[0], sig[1], r_up);
        if (k < 1000) {
            lcan_lfsr_up_perm(s, 1, sig);
            check(&C, sig[0] == 0, "U = 1: sigma = [0]");
        }
    }
    for (U = 3; U <= 5; U++) {
        double maxdev = 0.0, tot = 0.0;
        long bad = 0, n = 1000000;
        uint32_t hi, s;
        exact_probs(U, prob);
        for (k = 0; k < 3125; k++)
            tot += prob[k];
        check(&C, tot > 1.0 - 1e-12 && tot < 1.0 + 1e-12, "U = %d: exact probabilities sum to %g", U, tot);
        /* exact: all 2^16 values of s[15:8] and s[31:24] (the other bits of s are set at random) */
        for (k = 0; k < 3125; k++)
            cnt[k] = 0.0;
        for (hi = 0; hi < 65536u; hi++) {
            s = ((hi & 0xFFu) << 8) | ((hi >> 8) << 24) | ((uint32_t)test_rng(&rng) & 0x00FF00FFu);
            lcan_lfsr_up_perm(s, U, sig);
            for (i = 0; i < U; i++)
                ref[i] = sig[i];
            cnt[perm_code(ref, U)] += 1.0;
        }
        for (k = 0; k < 3125; k++)
            bad += cnt[k] != prob[k] * 65536.0;
        check(&C, bad == 0, "U = %d: counts over the 2^16 stream prefixes differ from the exact probabilities (%ld)", U,
              bad);
        if (U == 3) { /* the spec's example: stage n = 3 uses 4 bits, residues 6/16, 5/16, 5/16 */
            int p0[3] = {0, 1, 2}, p1[3] = {1, 0, 2}, p2[3] = {2, 1, 0};
            double a = prob[perm_code(p0, 3)], b = prob[perm_code(p1, 3)], c = prob[perm_code(p2, 3)];
            /* sigma[0] = r with probability 6/16, 5/16, 5/16, then the n = 2 draw halves it */
            check(&C, a == 6.0 / 32.0 && b == 5.0 / 32.0 && c == 5.0 / 32.0,
                  "U = 3: P([0,1,2]), P([1,0,2]), P([2,1,0]) = 6/32, 5/32, 5/32 (%g %g %g)", a, b, c);
        }
        /* empirical: 10^6 consecutive states of one LFSR run */
        for (k = 0; k < 3125; k++)
            cnt[k] = 0.0;
        s = 0xA5A5F00Du;
        for (k = 0; k < n; k++) {
            lcan_lfsr_up_perm(s, U, sig);
            for (i = 0; i < U; i++)
                ref[i] = sig[i];
            cnt[perm_code(ref, U)] += 1.0;
            s = lcan_lfsr_step(s);
        }
        bad = 0;
        for (k = 0; k < 3125; k++) {
            double e = prob[k] * n, sd = sqrt(n * prob[k] * (1.0 - prob[k])) + 1e-9, dev = fabs(cnt[k] - e) / sd;
            if (prob[k] == 0.0)
                bad += cnt[k] != 0.0;
            else if (dev > 5.0)
                bad++;
            if (prob[k] > 0.0 && dev > maxdev)
                maxdev = dev;
        }
        check(&C, bad == 0, "U = %d: LFSR run's distribution off by more than 5 sd (max %.2f sd)", U, maxdev);
        printf("test_lfsr: U = %d: sigma over 10^6 LFSR states, largest deviation %.2f sd from the exact law\n", U,
               maxdev);
    }
}

/* spec 5's seeding, written here from the spec's text */
static uint32_t t_rotl(uint32_t x, unsigned r) { r &= 31u; return r ? (x << r) | (x >> (32u - r)) : x; }
static uint32_t t_mix(uint32_t x)
{
    uint32_t t = x + (t_rotl(x, 7) ^ t_rotl(x, 19));
    uint32_t y = t + (t_rotl(t, 13) ^ t_rotl(t, 27));
    return y ^ (y >> 16);
}

static void seeding_tests(check_ctx *c)
{
    static const uint32_t seeds[] = {0u, 1u, 0x80000000u, 0xDEADBEEFu, 0xFFFFFFFFu, 12345u};
    size_t k;
    long i, cell[16] = {0};
    double chi = 0.0;
    for (k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        uint32_t h[3], want[3], salt;
        int l;
        uint32_t x;
        lcan_lfsr_seed_hashes(seeds[k], h);
        want[0] = t_mix(seeds[k]);
        want[1] = t_mix(want[0]);
        want[2] = t_mix(want[1]);
        check(c, h[0] == want[0] && h[1] == want[1] && h[2] == want[2], "seed %08x: hashes", seeds[k]);
        for (l = 1; l <= 4; l++)
            for (x = 0; x < 40; x += 13) {
                uint32_t s;
                salt = lcan_lfsr_salt(l, x);
                s = t_rotl(want[0], salt & 31u) ^ t_rotl(want[1], (salt >> 5) & 31u) ^
                    t_rotl(want[2], (salt >> 10) & 31u) ^ salt;
                check(c, lcan_lfsr_seed_from(h, l, x) == (s ? s : 1u), "seed %08x switch (%d,%u)", seeds[k], l, x);
            }
    }
    {   /* a value of 0 loads 1 */
        uint32_t salt = lcan_lfsr_salt(2, 7), h[3];
        h[0] = t_rotl(salt, 32u - (salt & 31u));
        h[1] = 0;
        h[2] = 0;
        check(c, lcan_lfsr_seed_from(h, 2, 7) == 1u, "a seeded value of 0 loads 1");
    }
    /* two neighbouring switches draw independent-looking states: the joint distribution of their
     * state bits [9:8] (r_up for 4 uppers) over 2^16 seeds is uniform (chi-square, 15 degrees of
     * freedom, 37.7 at p = 0.001). Seeding with seed ^ salt fails this: the two differ by a constant. */
    for (i = 0; i < 65536; i++) {
        uint32_t h[3], a, b;
        lcan_lfsr_seed_hashes((uint32_t)i * 0x9E3779B1u, h);
        a = lcan_lfsr_seed_from(h, 1, 0);
        b = lcan_lfsr_seed_from(h, 1, 1);
        cell[((a >> 8) & 3u) * 4u + ((b >> 8) & 3u)]++;
    }
    for (i = 0; i < 16; i++)
        chi += (cell[i] - 4096.0) * (cell[i] - 4096.0) / 4096.0;
    check(c, chi < 37.7, "states of switches (1,0) and (1,1) correlated: chi-square %.1f", chi);
}

int main(void)
{
    const uint64_t order = 0xFFFFFFFFull;
    const uint64_t primes[] = {3, 5, 17, 257, 65537};
    uint32_t x = 2, xinv, s0, s, seeds[] = {1u, 0xDEADBEEFu, 0x80000000u, 0x12345678u};
    size_t i, k;
    long n;

    check(&C, mulmod(0x80000000u, x) == POLY_LOW, "x^31 * x = x^22 + x^2 + x + 1");
    check(&C, powmod(x, order) == 1u, "x^(2^32-1) = 1");
    for (i = 0; i < 5; i++)
        check(&C, powmod(x, order / primes[i]) != 1u, "x^((2^32-1)/%llu) != 1 (primitive)",
              (unsigned long long)primes[i]);
    xinv = powmod(x, order - 1);
    check(&C, mulmod(xinv, x) == 1u, "x * x^-1 = 1");

    for (k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        s0 = seeds[k];
        s = s0;
        for (n = 1; n <= 64; n++) {
            s = lcan_lfsr_step(s);
            check(&C, s == mulmod(s0, powmod(xinv, (uint64_t)n)), "seed %08x step %ld: %08x", s0, n, s);
        }
    }
    /* 10^6 steps: never 0, never back to the start (the step is a bijection, so the first repeat
     * of any value would be the start), and the 10^6-th value matches the algebra */
    s0 = 0xC0FFEE01u;
    s = s0;
    {
        long zeros = 0, back = 0;
        for (n = 1; n <= 1000000; n++) {
            s = lcan_lfsr_step(s);
            zeros += s == 0;
            back += s == s0;
        }
        check(&C, zeros == 0, "state 0 reached %ld times", zeros);
        check(&C, back == 0, "state repeated within 10^6 steps (%ld)", back);
        check(&C, s == mulmod(s0, powmod(xinv, 1000000u)), "10^6-th value %08x", s);
    }
    /* spec 5: salt and seeding */
    check(&C, lcan_lfsr_salt(0, 0) == 0x6A09E667u, "salt(0,0)");
    check(&C, lcan_lfsr_salt(1, 0) == (uint32_t)(0x9E3779B9ull + 0x6A09E667ull), "salt(1,0)");
    check(&C, lcan_lfsr_salt(3, 5) == (uint32_t)(3ull * 0x9E3779B9ull + 5ull * 0x85EBCA6Bull + 0x6A09E667ull),
          "salt(3,5)");
    check(&C, lcan_lfsr_salt(16, 4194303u) ==
                  (uint32_t)(16ull * 0x9E3779B9ull + 4194303ull * 0x85EBCA6Bull + 0x6A09E667ull),
          "salt(16,2^22-1) wraps mod 2^32");
    seeding_tests(&C);
    /* offsets: red(field & (2^clog2(n)-1), n) */
    check(&C, lcan_lfsr_offset(0xFFu, 7u, 6) == 1, "red(7,6) = 1");
    check(&C, lcan_lfsr_offset(0x05u, 7u, 6) == 5, "red(5,6) = 5");
    check(&C, lcan_lfsr_offset(0x06u, 7u, 6) == 0, "red(6,6) = 0");
    check(&C, lcan_lfsr_offset(0xABu, 0u, 1) == 0, "n = 1 gives 0");
    check(&C, lcan_lfsr_offset(0xABu, 0u, 0) == 0, "n = 0 gives 0");
    check(&C, lcan_lfsr_offset(0x83u, 127u, 128) == 3, "n = 128 keeps 7 bits");
    sigma_tests();
    return check_done(&C);
}
