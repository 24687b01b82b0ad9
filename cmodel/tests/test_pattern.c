/*
 * test_pattern.c - the driver's generator and the permutation patterns of spec 10.1.
 *   - splitmix64 against the published reference outputs (Vigna's splitmix64.c: seed 0 and
 *     seed 1234567 sequences);
 *   - the trial seeds against the formula documented in pattern.c, evaluated here;
 *   - every pattern yields a permutation; identity, bitrev, transpose, shuffle against bit
 *     formulas written here; worst has every pair's LCA level = h (top digit computed here);
 *   - random is reproducible, advances the generator, and is roughly uniform on N = 4;
 *   - errors: unknown names, bitrev/shuffle on N not a power of two, transpose on N not a power of
 *     four, malformed and missing pattern files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lcan.h"

typedef struct {
    int pass, fail;
} tally;

#define CHECK(tl, cond, ...)                                                    \
    do {                                                                        \
        if (cond) {                                                             \
            (tl)->pass++;                                                       \
        } else {                                                                \
            (tl)->fail++;                                                       \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                         \
            printf(__VA_ARGS__);                                                \
            printf("\n");                                                       \
        }                                                                       \
    } while (0)

static int is_perm(const uint32_t *p, uint32_t n)
{
    char *seen = calloc(n, 1);
    uint32_t i;
    int ok = seen != NULL;
    for (i = 0; ok && i < n; i++) {
        if (p[i] >= n || seen[p[i]])
            ok = 0;
        else
            seen[p[i]] = 1;
    }
    free(seen);
    return ok;
}

static void check_rng(tally *tl)
{
    static const uint64_t ref0[4] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL,
                                     0xf88bb8a8724c81ecULL};
    static const uint64_t ref1[5] = {6457827717110365317ULL, 3203168211198807973ULL, 9817491932198370423ULL,
                                     4593380528125082431ULL, 16408922859458223821ULL};
    uint64_t s = 0;
    int i;
    uint32_t k;
    for (i = 0; i < 4; i++) {
        uint64_t r = lcan_rng_next(&s);
        CHECK(tl, r == ref0[i], "splitmix64(0) output %d = %016llx, reference %016llx", i, (unsigned long long)r,
              (unsigned long long)ref0[i]);
    }
    s = 1234567;
    for (i = 0; i < 5; i++) {
        uint64_t r = lcan_rng_next(&s);
        CHECK(tl, r == ref1[i], "splitmix64(1234567) output %d = %llu", i, (unsigned long long)r);
    }
    /* documented trial seeds: rng = mix(seed ^ (k+1) * 0xD1B54A32D192ED03);
     * net = high half of the next output from rng ^ 0x6A09E667F3BCC909 */
    for (k = 0; k < 5; k++) {
        uint64_t seed = k == 4 ? UINT64_MAX : 7 + k;
        uint64_t st = seed ^ ((uint64_t)(k + 1) * 0xD1B54A32D192ED03ULL), rng, st2;
        uint64_t z = (st += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        rng = z ^ (z >> 31);
        CHECK(tl, lcan_trial_rng(seed, k) == rng, "lcan_trial_rng(%llu, %u)", (unsigned long long)seed, k);
        st2 = rng ^ 0x6A09E667F3BCC909ULL;
        z = (st2 += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        CHECK(tl, lcan_trial_net_seed(seed, k) == (uint32_t)(z >> 32), "lcan_trial_net_seed(%llu, %u)",
              (unsigned long long)seed, k);
    }
    CHECK(tl, lcan_trial_rng(1, 0) != lcan_trial_rng(1, 1) && lcan_trial_rng(1, 0) != lcan_trial_rng(2, 0) &&
              lcan_trial_net_seed(1, 0) != lcan_trial_net_seed(1, 1),
          "trial seeds must differ between trials and seeds");
}

static lcan_topo *topo(const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK)
        printf("cannot parse %s: %s\n", spec, err);
    return t;
}

static void check_bit_patterns(tally *tl)
{
    static const char *const specs[] = {"lcan(4,4,256)", "lcan(2,3,16)", "kary(2,5)", "cm5", "bft(4;1,2,4,8)",
                                        "xgft(3;2,4,8;1,2,2)", "gft(1,2,1)"};
    size_t k;
    for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        lcan_topo *t = topo(specs[k]);
        uint32_t n, s, *p, *q;
        int bits = 0, bad_b = 0, bad_t = 0, bad_s = 0, bad_i = 0;
        char err[256];
        if (t == NULL) {
            CHECK(tl, 0, "%s", specs[k]);
            continue;
        }
        n = lcan_topo_leaves(t);
        while ((1u << bits) < n)
            bits++;
        p = malloc(n * sizeof *p);
        q = malloc(n * sizeof *q);
        CHECK(tl, lcan_pattern(t, "identity", NULL, p, err, sizeof err) == LCAN_OK, "%s identity: %s", specs[k], err);
        for (s = 0; s < n; s++)
            bad_i += p[s] != s;
        CHECK(tl, bad_i == 0, "%s identity", specs[k]);

        CHECK(tl, lcan_pattern(t, "bitrev", NULL, p, err, sizeof err) == LCAN_OK && is_perm(p, n), "%s bitrev: %s",
              specs[k], err);
        for (s = 0; s < n; s++) { /* reverse by reading bits from both ends */
            uint32_t r = 0, v = s;
            int b;
            for (b = 0; b < bits; b++, v /= 2)
                r = r * 2 + v % 2;
            bad_b += p[s] != r;
        }
        CHECK(tl, bad_b == 0, "%s bitrev: %d entries differ", specs[k], bad_b);

        CHECK(tl, lcan_pattern(t, "shuffle", NULL, p, err, sizeof err) == LCAN_OK && is_perm(p, n), "%s shuffle: %s",
              specs[k], err);
        for (s = 0; s < n; s++) /* rotate left: 2s mod N plus the bit that falls off */
            bad_s += p[s] != (2 * s) % n + (2 * s) / n;
        CHECK(tl, bad_s == 0, "%s shuffle: %d entries differ", specs[k], bad_s);

        if (bits % 2 == 0) {
            uint32_t half = 1u << (bits / 2);
            CHECK(tl, lcan_pattern(t, "transpose", NULL, p, err, sizeof err) == LCAN_OK && is_perm(p, n),
                  "%s transpose: %s", specs[k], err);
            for (s = 0; s < n; s++) /* (row, col) = (s / half, s mod half) -> (col, row) */
                bad_t += p[s] != (s % half) * half + s / half;
            CHECK(tl, bad_t == 0, "%s transpose: %d entries differ", specs[k], bad_t);
            /* a transpose applied twice is the identity */
            for (s = 0; s < n; s++)
                q[p[s]] = s;
            for (s = 0, bad_t = 0; s < n; s++)
                bad_t += q[s] != p[s];
            CHECK(tl, bad_t == 0, "%s transpose is not an involution", specs[k]);
        } else {
            CHECK(tl, lcan_pattern(t, "transpose", NULL, p, err, sizeof err) == LCAN_ERR_PATTERN &&
                      strstr(err, "power of four") != NULL,
                  "%s transpose (log2 N odd) must fail: '%s'", specs[k], err);
        }
        free(p);
        free(q);
        lcan_topo_free(t);
    }
}

/* worst: every s sends to a leaf with another top digit (LCA level h). */
static void check_worst(tally *tl)
{
    static const char *const specs[] = {"lcan(4,4,256)", "lcan(2,3,16)", "cm5", "gft(2,3,2)", "gft(1,2,1)",
                                        "xgft(3;4,3,2;1,2,2)", "lcan(3,3,81)", "kary(8,2)"};
    size_t k;
    int trial;
    for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        lcan_topo *t = topo(specs[k]);
        uint32_t n, s, top, *p;
        int h, bad = 0, perm_ok = 1, badlca = 0;
        char err[256];
        if (t == NULL) {
            CHECK(tl, 0, "%s", specs[k]);
            continue;
        }
        n = lcan_topo_leaves(t);
        h = lcan_topo_levels(t);
        top = n / (uint32_t)lcan_topo_m(t, h); /* leaves per top-digit subtree */
        p = malloc(n * sizeof *p);
        for (trial = 0; trial < 20; trial++) {
            uint64_t rng = lcan_trial_rng(99, (uint32_t)trial);
            if (lcan_pattern(t, "worst", &rng, p, err, sizeof err) != LCAN_OK || !is_perm(p, n)) {
                perm_ok = 0;
                continue;
            }
            for (s = 0; s < n; s++) {
                bad += p[s] / top == s / top;
                badlca += lcan_topo_lca_level(t, s, p[s]) != h;
            }
        }
        CHECK(tl, perm_ok, "%s worst: not a permutation (%s)", specs[k], err);
        CHECK(tl, bad == 0, "%s worst: %d sources stay in their top subtree", specs[k], bad);
        CHECK(tl, badlca == 0, "%s worst: %d pairs with LCA level != h", specs[k], badlca);
        free(p);
        lcan_topo_free(t);
    }
}

static void check_random(tally *tl)
{
    lcan_topo *t = topo("lcan(4,4,256)"), *t4 = topo("gft(2,2,1)");
    uint32_t p[256], q[256];
    uint64_t a = 5, b = 5;
    long counts[256] = {0};
    int i, trials = 24000, distinct = 0;
    double chi = 0.0;
    char err[256];

    if (t == NULL || t4 == NULL) {
        CHECK(tl, 0, "parse");
        return;
    }
    CHECK(tl, lcan_pattern(t, "random", &a, p, err, sizeof err) == LCAN_OK && is_perm(p, 256), "random: %s", err);
    CHECK(tl, lcan_pattern(t, "RANDOM", &b, q, err, sizeof err) == LCAN_OK && memcmp(p, q, sizeof p) == 0 && a == b,
          "random must be reproducible from the same state (names case-insensitive)");
    CHECK(tl, a != 5, "random must advance the generator");
    CHECK(tl, lcan_pattern(t, "random", &a, q, err, sizeof err) == LCAN_OK && memcmp(p, q, sizeof p) != 0,
          "two draws gave the same permutation");
    CHECK(tl, lcan_pattern(t, "random", NULL, q, err, sizeof err) == LCAN_ERR_ARG, "random without a state");
    /* N = 4: the 24 permutations should each come up about 1000 times */
    a = 1;
    for (i = 0; i < trials; i++) {
        uint32_t code;
        lcan_pattern(t4, "random", &a, p, err, sizeof err);
        code = ((p[0] * 4 + p[1]) * 4 + p[2]) * 4 + p[3];
        counts[code]++;
    }
    for (i = 0; i < 256; i++)
        if (counts[i] > 0) {
            double e = trials / 24.0;
            distinct++;
            chi += (counts[i] - e) * (counts[i] - e) / e;
        }
    /* chi-square with 23 degrees of freedom: 99.99th percentile is about 56 */
    CHECK(tl, distinct == 24 && chi < 56.0, "random on N=4: %d distinct permutations, chi^2 = %.1f", distinct, chi);
    lcan_topo_free(t);
    lcan_topo_free(t4);
}

static int write_file(char *path, const char *text)
{
    int fd;
    FILE *f;
    strcpy(path, "/tmp/lcan_test_pattern_XXXXXX");
    fd = mkstemp(path);
    if (fd < 0)
        return -1;
    f = fdopen(fd, "w");
    if (f == NULL) {
        close(fd);
        return -1;
    }
    fputs(text, f);
    fclose(f);
    return 0;
}

static void check_files_and_errors(tally *tl)
{
    static const struct {
        const char *text;
        lcan_status st;
        const char *fragment;
    } files[] = {
        {"7 6 5 4 3 2 1 0\n", LCAN_OK, ""},
        {"  7\t6\n5 4\r\n3 2 1 0", LCAN_OK, ""},
        {"7 6 5 4 3 2 1", LCAN_ERR_PATTERN, "7 entries, need N=8"},
        {"7 6 5 4 3 2 1 0 0", LCAN_ERR_PATTERN, "more than N=8 entries"},
        {"7 6 5 4 3 2 1 1", LCAN_ERR_PATTERN, "value 1 appears twice"},
        {"7 6 5 4 3 2 1 8", LCAN_ERR_PATTERN, "entry 8 is out of range 0..7"},
        {"7 6 5 4 3 2 1 99999999999999999999", LCAN_ERR_PATTERN, "out of range"},
        {"7 6 5 4 x 2 1 0", LCAN_ERR_PATTERN, "entry 5 is not a non-negative integer"},
        {"7 6 5 4 -3 2 1 0", LCAN_ERR_PATTERN, "entry 5 is not a non-negative integer"},
        {"7 6 5 4 3 2 1 0x", LCAN_ERR_PATTERN, "entry 8 is not"},
        {"", LCAN_ERR_PATTERN, "0 entries, need N=8"},
    };
    lcan_topo *t = topo("gft(3,2,1)"), *t9 = topo("gft(2,3,1)");
    uint32_t p[9];
    char err[512], path[64], pat[96];
    size_t k;

    if (t == NULL || t9 == NULL) {
        CHECK(tl, 0, "parse");
        return;
    }
    for (k = 0; k < sizeof files / sizeof files[0]; k++) {
        lcan_status st;
        if (write_file(path, files[k].text) != 0) {
            CHECK(tl, 0, "cannot write a temporary file");
            continue;
        }
        snprintf(pat, sizeof pat, "file:%s", path);
        st = lcan_pattern(t, pat, NULL, p, err, sizeof err);
        CHECK(tl, st == files[k].st && strstr(err, files[k].fragment) != NULL && strchr(err, '\n') == NULL,
              "file '%s': status %d message '%s', expected %d '%s'", files[k].text, (int)st, err, (int)files[k].st,
              files[k].fragment);
        if (files[k].st == LCAN_OK)
            CHECK(tl, p[0] == 7 && p[7] == 0 && is_perm(p, 8), "file pattern content");
        unlink(path);
    }
    CHECK(tl, lcan_pattern(t, "file:/nonexistent/lcan/pattern", NULL, p, err, sizeof err) == LCAN_ERR_IO &&
              strstr(err, "/nonexistent/lcan/pattern") != NULL,
          "missing file: '%s'", err);
    CHECK(tl, lcan_pattern(t, "zigzag", NULL, p, err, sizeof err) == LCAN_ERR_PATTERN && strstr(err, "zigzag") != NULL,
          "unknown pattern: '%s'", err);
    CHECK(tl, lcan_pattern(t, "", NULL, p, err, sizeof err) == LCAN_ERR_PATTERN, "empty pattern name");
    CHECK(tl, lcan_pattern(t, "identityx", NULL, p, err, sizeof err) == LCAN_ERR_PATTERN, "identityx accepted");
    CHECK(tl, lcan_pattern(t9, "bitrev", NULL, p, err, sizeof err) == LCAN_ERR_PATTERN &&
              strstr(err, "power of two") != NULL,
          "bitrev on N=9: '%s'", err);
    CHECK(tl, lcan_pattern(t9, "shuffle", NULL, p, err, sizeof err) == LCAN_ERR_PATTERN, "shuffle on N=9");
    CHECK(tl, lcan_pattern(t9, "transpose", NULL, p, err, sizeof err) == LCAN_ERR_PATTERN, "transpose on N=9");
    CHECK(tl, lcan_pattern(t, "transpose", NULL, p, err, sizeof err) == LCAN_ERR_PATTERN, "transpose on N=8");
    CHECK(tl, lcan_pattern(NULL, "identity", NULL, p, err, sizeof err) == LCAN_ERR_ARG, "NULL topology");
    lcan_topo_free(t);
    lcan_topo_free(t9);
}

int main(void)
{
    tally tl = {0, 0};
    check_rng(&tl);
    check_bit_patterns(&tl);
    check_worst(&tl);
    check_random(&tl);
    check_files_and_errors(&tl);
    printf("test_pattern: %d passed, %d failed\n", tl.pass, tl.fail);
    return tl.fail != 0;
}
