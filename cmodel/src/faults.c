/*
 * faults.c - fault sets and the drivers' view of them (spec 14; lcan_faults.h): parsing the
 * --faults list, the reach rows of spec 14.4, usable leaf ports, cut pairs, the rows a driver
 * writes.
 *
 * How the rows are computed (spec 14.4), without visiting a (switch, leaf) pair twice:
 *   - the subtree of a level-k switch (a_h..a_{k+1}; b_k..b_1) is one aligned block of 2^O_{k+1}
 *     packed addresses (its a digits fixed, the low O_{k+1} bits free). dn(x, .) is kept as that
 *     block of bits, level 1 first: a level-k block is the m_k sub-blocks of its children (the
 *     child towards digit a when one of its p_k downers to a is not off, else zeros);
 *   - top down, the row of upper j of a level-l switch x with parent q is: 0 if the upper is off;
 *     else up(q, .) (the OR of q's rows, kept per switch as RW bits) with q's block replaced by
 *     dn(q, .); then x's own block and every address that is no leaf are set to 1 (never read;
 *     the value after reset, so an empty fault set gives all-ones rows).
 *   Cost: O(NR * RW / 64) word operations, the size of the rows themselves.
 * Switch indices (spec 2.2): a level-l switch is x = B + W_l * A, W_l = w_1..w_l, B its b digits
 * (mixed radix, b_1 lowest) and A the number of its a digits (a_{l+1} lowest, radix m), which is
 * also the leaf number of its first leaf divided by m_1..m_l. Its parent through upper y*p+k is
 * (B + W_l * y) + W_{l+1} * (A / m_{l+1}) on downer (A mod m_{l+1})*p + k; its child towards digit
 * a is (B mod W_{l-1}) + W_{l-1} * (A * m_l + a). test_faults.c checks this against
 * lcan_topo_neighbor.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan_faults.h"
#include "status.h"
#include "topo_internal.h"

/* ------------------------------------------------------------------ fault sets */

lcan_status lcan_faults_init(const lcan_topo *t, lcan_faults *f)
{
    if (f == NULL)
        return LCAN_ERR_ARG;
    memset(f, 0, sizeof *f);
    if (t == NULL)
        return LCAN_ERR_ARG;
    f->nl = lcan_topo_link_count(t);
    f->ns = lcan_topo_switch_count(t);
    f->link_off = calloc(f->nl ? f->nl : 1, 1);
    f->sw_off = calloc(f->ns ? f->ns : 1, 1);
    if (f->link_off == NULL || f->sw_off == NULL) {
        lcan_faults_free(f);
        return LCAN_ERR_NOMEM;
    }
    return LCAN_OK;
}

void lcan_faults_free(lcan_faults *f)
{
    if (f == NULL)
        return;
    free(f->link_off);
    free(f->sw_off);
    memset(f, 0, sizeof *f);
}

static void recount(lcan_faults *f)
{
    uint64_t i, c = 0;
    for (i = 0; i < f->nl; i++)
        c += f->link_off[i] != 0;
    for (i = 0; i < f->ns; i++)
        c += f->sw_off[i] != 0;
    f->count = c;
}

/* Exactly uniform in 0..n-1 (spec 10.1's uniform(n), 64-bit n >= 1). */
static uint64_t uniform64(uint64_t *st, uint64_t n)
{
    uint64_t lim = UINT64_MAX - (((UINT64_MAX % n) + 1u) % n), r;
    do
        r = lcan_rng_next(st);
    while (r > lim);
    return r % n;
}

/* Decimal digits only, value <= max; advances *s. 0 ok, -1 malformed, -2 too large. */
static int read_num(const char **s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = *s;
    if (!isdigit((unsigned char)*p))
        return -1;
    while (isdigit((unsigned char)*p)) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (max - d) / 10u) {
            while (isdigit((unsigned char)*p))
                p++;
            *s = p;
            return -2;
        }
        v = v * 10u + d;
        p++;
    }
    *s = p;
    *out = v;
    return 0;
}

#define FAULT_RULE "expected Ll:x (switch x of level l), Ll:x/o (the link on its downer o) or random:K"

/* One element into f: lo = its text without blanks in lower case, el = as typed (messages). */
static lcan_status parse_one(const lcan_topo *t, const char *lo, const char *el, uint64_t *rng, lcan_faults *f,
                             uint8_t *picked, char *err, size_t errlen)
{
    const char *s = lo;
    uint64_t l, x, o, k, total = f->nl + f->ns, i;
    int r;
    if (strncmp(s, "random:", 7) == 0) {
        s += 7;
        r = read_num(&s, UINT64_MAX, &k);
        if (r == -1 || *s != '\0')
            return lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault '%s': random:K needs a count K (decimal digits)", el);
        if (r == -2 || k > total)
            return lcan_fail(err, errlen, LCAN_ERR_PARAM,
                             "bad fault '%s': K is more than the %llu links and %llu switches (%llu elements)", el,
                             (unsigned long long)f->nl, (unsigned long long)f->ns, (unsigned long long)total);
        /* K distinct elements: links 0..NL-1, then switches NL..NL+NS-1 */
        for (i = 0; i < k; i++) {
            uint64_t e;
            do
                e = uniform64(rng, total);
            while (picked[e]);
            picked[e] = 1;
            if (e < f->nl)
                f->link_off[e] = 1;
            else
                f->sw_off[e - f->nl] = 1;
        }
        return LCAN_OK;
    }
    if (*s != 'l')
        return lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault '%s': %s", el, FAULT_RULE);
    s++;
    r = read_num(&s, 1000, &l);
    if (r == -1 || *s != ':')
        return lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault '%s': %s", el, FAULT_RULE);
    if (l == 0)
        return lcan_fail(err, errlen, LCAN_ERR_PARAM,
                         "bad fault '%s': level 0 holds the leaves, which are never faulty (switch levels 1..%d)", el,
                         t->h);
    if (r == -2 || l > (uint64_t)t->h)
        return lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault '%s': the network has switch levels 1..%d", el,
                         t->h);
    s++;
    r = read_num(&s, UINT32_MAX, &x);
    if (r == -1 || (*s != '\0' && *s != '/'))
        return lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault '%s': %s", el, FAULT_RULE);
    if (r == -2 || x >= t->S[l])
        return lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault '%s': level %d has %u switches (0..%u)", el, (int)l,
                         t->S[l], t->S[l] - 1u);
    if (*s == '\0') {
        f->sw_off[lcan_topo_switch_offset(t, (int)l) + x] = 1;
        return LCAN_OK;
    }
    s++;
    r = read_num(&s, 100000, &o);
    if (r == -1 || *s != '\0')
        return lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault '%s': %s", el, FAULT_RULE);
    if (r == -2 || o >= (uint64_t)t->D[l])
        return lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault '%s': a level-%d switch has %d downers (0..%d)", el,
                         (int)l, t->D[l], t->D[l] - 1);
    f->link_off[lcan_topo_link_offset(t, (int)l) + x * (uint64_t)t->D[l] + o] = 1;
    return LCAN_OK;
}

lcan_status lcan_faults_parse(const lcan_topo *t, const char *text, uint64_t seed, lcan_faults *f, char *err,
                              size_t errlen)
{
    uint64_t rng = seed;
    uint8_t *picked = NULL;
    char el[128], lo[128];
    const char *p;
    lcan_status st = LCAN_OK;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (t == NULL || text == NULL || f == NULL || f->link_off == NULL || f->sw_off == NULL ||
        f->nl != lcan_topo_link_count(t) || f->ns != lcan_topo_switch_count(t))
        return lcan_fail(err, errlen, LCAN_ERR_ARG, "no network or fault set");
    p = text;
    for (;;) {
        size_t n = 0;
        int blank_only = 1;
        const char *q = p;
        while (*q != '\0' && *q != ',') {
            if (!isspace((unsigned char)*q)) {
                blank_only = 0;
                if (n + 1 < sizeof el) {
                    el[n] = *q;
                    lo[n] = (char)tolower((unsigned char)*q);
                }
                n++;
            }
            q++;
        }
        if (blank_only) {
            st = lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault list '%s': empty element (%s)", text, FAULT_RULE);
            break;
        }
        if (n + 1 > sizeof el) {
            st = lcan_fail(err, errlen, LCAN_ERR_PARAM, "bad fault list '%s': element of %zu characters (%s)", text,
                           n, FAULT_RULE);
            break;
        }
        el[n] = '\0';
        lo[n] = '\0';
        if (strncmp(lo, "random:", 7) == 0 && picked == NULL) {
            picked = calloc((size_t)(f->nl + f->ns) + 1u, 1);
            if (picked == NULL) {
                st = lcan_fail(err, errlen, LCAN_ERR_NOMEM, "out of memory");
                break;
            }
        }
        st = parse_one(t, lo, el, &rng, f, picked, err, errlen);
        if (st != LCAN_OK || *q == '\0')
            break;
        p = q + 1;
    }
    free(picked);
    recount(f);
    return st;
}

/* ------------------------------------------------------------------ bit sets */

static int bit_get(const uint64_t *w, uint64_t i) { return (int)((w[i >> 6] >> (i & 63u)) & 1u); }
static void bit_set(uint64_t *w, uint64_t i) { w[i >> 6] |= (uint64_t)1 << (i & 63u); }

/* Copy n bits (n a power of two; offsets multiples of n) from src at soff to dst at doff. */
static void bits_copy(uint64_t *dst, uint64_t doff, const uint64_t *src, uint64_t soff, uint64_t n)
{
    uint64_t i;
    if (n >= 64) {
        memcpy(dst + (doff >> 6), src + (soff >> 6), (size_t)(n >> 6) * sizeof *dst);
        return;
    }
    {
        uint64_t mask = ((uint64_t)1 << n) - 1u, v = (src[soff >> 6] >> (soff & 63u)) & mask;
        i = doff >> 6;
        dst[i] = (dst[i] & ~(mask << (doff & 63u))) | (v << (doff & 63u));
    }
}

/* Set n bits (n a power of two; off a multiple of n) to 1. */
static void bits_ones(uint64_t *dst, uint64_t off, uint64_t n)
{
    if (n >= 64) {
        memset(dst + (off >> 6), 0xff, (size_t)(n >> 6) * sizeof *dst);
        return;
    }
    dst[off >> 6] |= (((uint64_t)1 << n) - 1u) << (off & 63u);
}

static uint64_t words_of(uint64_t bits) { return (bits + 63u) / 64u; }

/* ------------------------------------------------------------------ the reach view */

struct lcan_reach {
    const lcan_topo *t;
    int h, U0;
    uint32_t N, NP;
    uint64_t RW, rw, NR;             /* row bits, row words, rows */
    uint64_t W[LCAN_MAX_LEVELS + 2];  /* W[l] = w_1..w_l */
    uint64_t dnw[LCAN_MAX_LEVELS + 1]; /* words per dn block of a level-k switch */
    uint64_t *dn[LCAN_MAX_LEVELS + 1]; /* S_k blocks of 2^O_{k+1} bits */
    uint64_t *up1;                   /* up(x, .) of the level-1 switches, RW bits each (h > 1) */
    uint64_t *rows;                  /* NR rows */
    uint64_t *valid;                 /* RW bits: 1 at the packed address of a leaf */
    uint8_t *port_off;               /* NP network ports */
    uint32_t *cut_of;                /* per source: destinations cut */
    uint64_t cut_total;
    uint32_t *packed;
};

uint64_t lcan_reach_bytes(const lcan_topo *t)
{
    uint64_t rw, b = 0;
    int l;
    if (t == NULL)
        return 0;
    rw = words_of(lcan_topo_row_bits(t));
    b += lcan_topo_reach_rows(t) * rw;                       /* rows */
    for (l = 1; l <= t->h; l++) {
        b += (uint64_t)t->S[l] * words_of((uint64_t)1 << (l < t->h ? t->O[l + 1] : t->ADDR_W)); /* dn */
        if (l < t->h)
            b += (uint64_t)t->S[l] * rw;                     /* up(x, .), one level at a time */
    }
    b += rw;
    return 8u * b + (uint64_t)t->NP + 8u * (uint64_t)t->N;
}

static uint64_t block_bits(const lcan_topo *t, int k) /* 2^O_{k+1}: addresses under a level-k switch */
{
    return (uint64_t)1 << (k < t->h ? t->O[k + 1] : t->ADDR_W);
}

/* Packed address of the first leaf under a level-k switch whose a-digit number is A. */
static uint64_t block_base(const lcan_topo *t, int k, uint64_t A)
{
    uint64_t a = 0;
    int i;
    for (i = k + 1; i <= t->h; i++) {
        a |= (A % (uint64_t)t->m[i]) << t->O[i];
        A /= (uint64_t)t->m[i];
    }
    return a;
}

static int sw_is_off(const lcan_topo *t, const lcan_faults *f, int l, uint64_t x)
{
    return f != NULL && f->sw_off[lcan_topo_switch_offset(t, l) + x] != 0;
}

static int link_is_off(const lcan_topo *t, const lcan_faults *f, int l, uint64_t x, int o)
{
    return f != NULL && f->link_off[lcan_topo_link_offset(t, l) + x * (uint64_t)t->D[l] + (uint64_t)o] != 0;
}

void lcan_reach_free(lcan_reach *r)
{
    int l;
    if (r == NULL)
        return;
    for (l = 0; l <= LCAN_MAX_LEVELS; l++)
        free(r->dn[l]);
    free(r->up1);
    free(r->rows);
    free(r->valid);
    free(r->port_off);
    free(r->cut_of);
    free(r->packed);
    free(r);
}

/* dn blocks, level 1 first. */
static void compute_dn(lcan_reach *r, const lcan_faults *f)
{
    const lcan_topo *t = r->t;
    int k;
    for (k = 1; k <= r->h; k++) {
        uint64_t S = t->S[k], x, sb = k > 1 ? block_bits(t, k - 1) : 1;
        int pk = t->p[k], a, i;
        for (x = 0; x < S; x++) {
            uint64_t *blk = r->dn[k] + x * r->dnw[k], B = x % r->W[k], A = x / r->W[k];
            int xoff = sw_is_off(t, f, k, x);
            if (xoff)
                continue;
            for (a = 0; a < t->m[k]; a++) {
                uint64_t child = k > 1 ? B % r->W[k - 1] + r->W[k - 1] * (A * (uint64_t)t->m[k] + (uint64_t)a) : 0;
                int ok = 0;
                if (k > 1 && sw_is_off(t, f, k - 1, child))
                    continue;
                for (i = 0; i < pk && !ok; i++)
                    ok = !link_is_off(t, f, k, x, a * pk + i);
                if (!ok)
                    continue;
                if (k == 1)
                    bit_set(blk, (uint64_t)a);
                else
                    bits_copy(blk, (uint64_t)a * sb, r->dn[k - 1] + child * r->dnw[k - 1], 0, sb);
            }
        }
    }
}

/* Rows, top down; the OR of each level's rows per switch (up) feeds the level below. */
static lcan_status compute_rows(lcan_reach *r, const lcan_faults *f)
{
    const lcan_topo *t = r->t;
    uint64_t rw = r->rw, *upq = NULL, *upx = NULL;
    int l;
    for (l = r->h - 1; l >= 1; l--) {
        uint64_t S = t->S[l], x, row0 = lcan_topo_row_offset(t, l), qb = block_bits(t, l + 1),
                 xb = block_bits(t, l);
        int pp = t->p[l + 1], U = t->U[l], j;
        upx = calloc((size_t)(S * rw), sizeof *upx);
        if (upx == NULL) {
            free(upq);
            return LCAN_ERR_NOMEM;
        }
        for (x = 0; x < S; x++) {
            uint64_t B = x % r->W[l], A = x / r->W[l], Aq = A / (uint64_t)t->m[l + 1];
            uint64_t xbase = block_base(t, l, A), qbase = block_base(t, l + 1, Aq), w;
            int xoff = sw_is_off(t, f, l, x), child_digit = (int)(A % (uint64_t)t->m[l + 1]);
            uint64_t *ux = upx + x * rw;
            for (j = 0; j < U; j++) {
                int y = j / pp, kk = j % pp;
                uint64_t q = B + r->W[l] * (uint64_t)y + r->W[l + 1] * Aq;
                uint64_t *row = r->rows + (row0 + x * (uint64_t)U + (uint64_t)j) * rw;
                int off = xoff || sw_is_off(t, f, l + 1, q) || link_is_off(t, f, l + 1, q, child_digit * pp + kk);
                if (!off) {
                    if (upq != NULL)
                        memcpy(row, upq + q * rw, (size_t)rw * sizeof *row);
                    bits_copy(row, qbase, r->dn[l + 1] + q * r->dnw[l + 1], 0, qb);
                }
                bits_ones(row, xbase, xb);
                for (w = 0; w < rw; w++) {
                    row[w] |= ~r->valid[w];
                    ux[w] |= row[w];
                }
            }
        }
        free(upq);
        upq = upx;
    }
    r->up1 = upq; /* level 1's (NULL when h = 1) */
    return LCAN_OK;
}

/* Is local port `port` of node (level, x) off (spec 14.1)? level 0: leaf x's port; the link is named
 * by its upper end, the far end found on the wiring. f = NULL: nothing is off. */
int lcan_faults_port_off(const lcan_topo *t, const lcan_faults *f, int level, uint32_t x, int port)
{
    lcan_end me = { level, x, port }, far;
    int lu;        /* the link, named by its upper end: downer ou of the level-lu switch xu */
    uint32_t xu;
    int ou;
    if (lcan_topo_neighbor(t, me, &far) != LCAN_OK)
        return 1;
    if (level == 0 || port >= lcan_topo_downers(t, level)) { /* going up: the far end is the upper end */
        lu = far.level; xu = far.node; ou = far.port;
    } else {
        lu = level; xu = x; ou = port;
    }
    return link_is_off(t, f, lu, xu, ou) || (level >= 1 && sw_is_off(t, f, level, x)) ||
           (far.level >= 1 && sw_is_off(t, f, far.level, far.node));
}

static int port_off_calc(const lcan_reach *r, const lcan_faults *f, uint32_t q)
{
    return lcan_faults_port_off(r->t, f, 0, q / (uint32_t)r->U0, (int)(q % (uint32_t)r->U0));
}

static uint64_t popcount64(uint64_t v)
{
    uint64_t c = 0;
    while (v) {
        v &= v - 1u;
        c++;
    }
    return c;
}

/* Destinations reachable from s (over all its usable ports) into acc (rw words); returns the
 * number of leaves NOT reachable. */
static uint32_t cut_count_of(const lcan_reach *r, uint32_t s, uint64_t *acc)
{
    const lcan_topo *t = r->t;
    uint64_t bb = block_bits(t, 1), base = block_base(t, 1, s / (uint32_t)t->m[1]), w, blk = 0, cnt = 0;
    uint32_t m1 = (uint32_t)t->m[1];
    int port;
    memset(acc, 0, (size_t)r->rw * sizeof *acc);
    for (port = 0; port < r->U0; port++) {
        uint64_t x1;
        if (r->port_off[(uint64_t)s * (uint64_t)r->U0 + (uint64_t)port])
            continue;
        x1 = (uint64_t)(port / t->p[1]) + r->W[1] * (uint64_t)(s / m1);
        if (r->up1 != NULL)
            for (w = 0; w < r->rw; w++)
                acc[w] |= r->up1[x1 * r->rw + w];
        blk |= r->dn[1][x1]; /* m_1 <= 64: a level-1 block is one word (bits above it are 0) */
    }
    bits_copy(acc, base, &blk, 0, bb);
    for (w = 0; w < r->rw; w++)
        cnt += popcount64(acc[w] & r->valid[w]);
    return r->N - (uint32_t)cnt;
}

lcan_status lcan_reach_new(const lcan_topo *t, const lcan_faults *f, lcan_reach **out)
{
    lcan_reach *r;
    lcan_status st;
    uint64_t *acc;
    uint32_t s, q;
    int l;
    if (out == NULL)
        return LCAN_ERR_ARG;
    *out = NULL;
    if (t == NULL)
        return LCAN_ERR_ARG;
    if (f != NULL && (f->nl != lcan_topo_link_count(t) || f->ns != lcan_topo_switch_count(t) ||
                      f->link_off == NULL || f->sw_off == NULL))
        return LCAN_ERR_ARG;
    if (lcan_reach_bytes(t) > LCAN_REACH_MAX_BYTES)
        return LCAN_ERR_PARAM;
    r = calloc(1, sizeof *r);
    if (r == NULL)
        return LCAN_ERR_NOMEM;
    r->t = t;
    r->h = t->h;
    r->U0 = t->U0;
    r->N = t->N;
    r->NP = t->NP;
    r->RW = lcan_topo_row_bits(t);
    r->rw = words_of(r->RW);
    r->NR = lcan_topo_reach_rows(t);
    r->W[0] = 1;
    for (l = 1; l <= t->h; l++)
        r->W[l] = r->W[l - 1] * (uint64_t)t->w[l];
    st = LCAN_ERR_NOMEM;
    for (l = 1; l <= t->h; l++) {
        r->dnw[l] = words_of(block_bits(t, l));
        if ((r->dn[l] = calloc((size_t)(t->S[l] * r->dnw[l]), sizeof(uint64_t))) == NULL)
            goto fail;
    }
    r->rows = calloc((size_t)(r->NR * r->rw) + 1u, sizeof *r->rows);
    r->valid = calloc((size_t)r->rw, sizeof *r->valid);
    r->port_off = calloc(r->NP, 1);
    r->cut_of = calloc(r->N, sizeof *r->cut_of);
    r->packed = malloc((size_t)r->N * sizeof *r->packed);
    acc = malloc((size_t)r->rw * sizeof *acc);
    if (r->rows == NULL || r->valid == NULL || r->port_off == NULL || r->cut_of == NULL || r->packed == NULL ||
        acc == NULL) {
        free(acc);
        goto fail;
    }
    for (s = 0; s < r->N; s++) {
        r->packed[s] = lcan_topo_pack(t, s);
        bit_set(r->valid, r->packed[s]);
    }
    compute_dn(r, f);
    if ((st = compute_rows(r, f)) != LCAN_OK) {
        free(acc);
        goto fail;
    }
    for (q = 0; q < r->NP; q++)
        r->port_off[q] = (uint8_t)port_off_calc(r, f, q);
    for (s = 0; s < r->N; s++) {
        r->cut_of[s] = cut_count_of(r, s, acc);
        r->cut_total += r->cut_of[s];
    }
    free(acc);
    *out = r;
    return LCAN_OK;
fail:
    lcan_reach_free(r);
    return st;
}

const uint64_t *lcan_reach_row(const lcan_reach *r, uint64_t row)
{
    if (r == NULL || row >= r->NR)
        return NULL;
    return r->rows + row * r->rw;
}

int lcan_reach_port_off(const lcan_reach *r, uint32_t q)
{
    return r != NULL && q < r->NP && r->port_off[q] != 0;
}

int lcan_reach_port_usable(const lcan_reach *r, uint32_t s, int port, uint32_t b)
{
    const lcan_topo *t;
    uint32_t m1;
    uint64_t x1;
    if (r == NULL || s >= r->N || b >= r->N || port < 0 || port >= r->U0)
        return 0;
    if (r->port_off[(uint64_t)s * (uint64_t)r->U0 + (uint64_t)port])
        return 0;
    t = r->t;
    m1 = (uint32_t)t->m[1];
    x1 = (uint64_t)(port / t->p[1]) + r->W[1] * (uint64_t)(s / m1);
    if (s / m1 == b / m1)
        return bit_get(r->dn[1] + x1 * r->dnw[1], b % m1);
    return bit_get(r->up1 + x1 * r->rw, r->packed[b]);
}

int lcan_reach_usable_count(const lcan_reach *r, uint32_t s, uint32_t b)
{
    int port, c = 0;
    if (r == NULL)
        return 0;
    for (port = 0; port < r->U0; port++)
        c += lcan_reach_port_usable(r, s, port, b);
    return c;
}

int lcan_reach_usable_port(const lcan_reach *r, uint32_t s, uint32_t b, int k)
{
    int port;
    if (r == NULL || k < 0)
        return -1;
    for (port = 0; port < r->U0; port++)
        if (lcan_reach_port_usable(r, s, port, b) && k-- == 0)
            return port;
    return -1;
}

int lcan_reach_cut(const lcan_reach *r, uint32_t s, uint32_t b)
{
    if (r == NULL || s >= r->N || b >= r->N)
        return 0;
    if (r->cut_of[s] == 0)
        return 0;
    return lcan_reach_usable_count(r, s, b) == 0;
}

uint64_t lcan_reach_cut_pairs(const lcan_reach *r) { return r == NULL ? 0 : r->cut_total; }

uint32_t lcan_reach_cut_from(const lcan_reach *r, uint32_t s)
{
    return r == NULL || s >= r->N ? 0 : r->cut_of[s];
}

uint64_t lcan_reach_off_ports(const lcan_reach *r)
{
    uint64_t c = 0;
    uint32_t q;
    if (r == NULL)
        return 0;
    for (q = 0; q < r->NP; q++)
        c += r->port_off[q] != 0;
    return c;
}

/* ------------------------------------------------------------------ schedules */

lcan_status lcan_fault_sched_rows(const lcan_topo *t, const lcan_reach *from, const lcan_reach *to,
                                  lcan_fault_sched *out)
{
    uint64_t NR, rw, i, w, n = 0;
    if (out == NULL)
        return LCAN_ERR_ARG;
    out->rows = NULL;
    out->nrows = 0;
    if (t == NULL || to == NULL || to->t != t || (from != NULL && from->t != t))
        return LCAN_ERR_ARG;
    NR = to->NR;
    rw = to->rw;
    out->rows = malloc((size_t)(NR ? NR : 1) * sizeof *out->rows);
    if (out->rows == NULL)
        return LCAN_ERR_NOMEM;
    for (i = 0; i < NR; i++) {
        const uint64_t *b = to->rows + i * rw;
        int differ = 0;
        for (w = 0; w < rw && !differ; w++) {
            uint64_t a = from != NULL ? from->rows[i * rw + w] : ~(uint64_t)0;
            uint64_t mask = (w + 1 == rw && to->RW % 64u) ? (((uint64_t)1 << (to->RW % 64u)) - 1u) : ~(uint64_t)0;
            differ = ((a ^ b[w]) & mask) != 0;
        }
        if (differ)
            out->rows[n++] = i;
    }
    out->nrows = n;
    return LCAN_OK;
}

void lcan_fault_sched_free(lcan_fault_sched *s)
{
    if (s == NULL)
        return;
    free(s->rows);
    s->rows = NULL;
    s->nrows = 0;
}

/* ------------------------------------------------------------------ names */

int lcan_faults_name(const lcan_topo *t, const lcan_faults *f, uint64_t k, char *buf, size_t len)
{
    int l;
    if (t == NULL || f == NULL || buf == NULL || len == 0)
        return -1;
    if (k < f->nl) {
        for (l = t->h; l >= 1; l--) {
            uint64_t off = lcan_topo_link_offset(t, l);
            if (k >= off) {
                uint64_t i = k - off;
                snprintf(buf, len, "L%d:%llu/%llu", l, (unsigned long long)(i / (uint64_t)t->D[l]),
                         (unsigned long long)(i % (uint64_t)t->D[l]));
                return 0;
            }
        }
    } else if (k < f->nl + f->ns) {
        k -= f->nl;
        for (l = t->h; l >= 1; l--) {
            uint64_t off = lcan_topo_switch_offset(t, l);
            if (k >= off) {
                snprintf(buf, len, "L%d:%llu", l, (unsigned long long)(k - off));
                return 0;
            }
        }
    }
    return -1;
}
