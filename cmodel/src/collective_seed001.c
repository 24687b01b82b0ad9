/*
 * collective_seed001.c - seed 001 (Bilardi et al., "Broadcast, product and prefix on the ideal
 * fat-tree") section 3 as written: Broadcast (Algorithm 1) on Sparse-Broadcast (Algorithm 2) in the
 * round model, the pipelined variant of section 3.3, the binomial tree, a period-by-period replay
 * that checks the model's rules, the recurrences (2)-(4), Theorem 3's bound (8), and the prefix of
 * Theorem 6 built on the recursive broadcast (at the end of the file). docs/spec.md 10.3 is the
 * specification.
 *
 * Sparse-Broadcast(f, n = 2^k): r = max(w(n), 2), rho = log r rounded down (copies must be equally
 * spaced in a binary tree, so r is rounded down to a power of two; never above n):
 *   r = 2:  P[f] -> P[f + n/2]                                      (lines 2-3, one round)
 *   else:   m = w^-1(sqrt r) = 2^mu, the smallest subtree with w(m)^2 >= r          (line 5)
 *           Sparse-Broadcast(f, m) -> 2^rho1 copies in [f, f + m)                      (line 6)
 *           s = 2^sigma = sqrt r rounded UP to a power of two (at most 2^rho1) copies move,
 *           P[f + i m/s] -> P[f + i n/s], i < s: one copy per block of n/s leaves   (lines 7-8)
 *           Sparse-Broadcast(f + i n/s, m2) in every block, m2 = min(m, n/s)        (lines 9-10)
 *           t = r/s copies per block (at most what line 10 made):
 *           P[b + j m2/t] -> P[b + j n/r], j < t, b = f + i n/s                     (lines 11-13)
 * When r is a perfect square and w a power of two these are the paper's lines exactly (s = sqrt r,
 * m2 = m); the rounding only matters for odd log r. Broadcast(f, n): Sparse-Broadcast, then
 * Broadcast on each of the r blocks of n/r leaves, in parallel (lines 3-5).
 *
 * Messages that carry nothing new are not sent: self-sends (line 8 with i = 0, lines 11-13 when
 * m2/t = n/r) and the phase-2 call in block 0, which repeats phase 1 on the same subtree. Every
 * leaf then receives the message exactly once; no round disappears (blocks 1.. still need it),
 * so the time is the paper's. Parallel calls (pardo) are structurally identical, so their rounds
 * coincide; rounds are numbered from the caller's first round and merged.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan_collective.h"

typedef struct {
    uint32_t *src, *dst;
    size_t n, cap;
    uint32_t burst;
} ft_round;

typedef struct {
    int h;
    uint64_t w[32]; /* w[0..h], w[h] of the whole tree */
    ft_round *r;
    int nr, cap;
    uint8_t *has; /* generation-time holder map: drops messages that carry nothing new */
    lcan_status st;
} ft_gen;

static int floor_log2(uint64_t x)
{
    int b = -1;
    while (x) {
        x >>= 1;
        b++;
    }
    return b;
}

static int ft_round_at(ft_gen *g, int R)
{
    while (g->nr <= R) {
        if (g->nr == g->cap) {
            int nc = g->cap ? 2 * g->cap : 64;
            ft_round *nrr = realloc(g->r, (size_t)nc * sizeof *nrr);
            if (nrr == NULL) {
                g->st = LCAN_ERR_NOMEM;
                return 0;
            }
            g->r = nrr;
            g->cap = nc;
        }
        memset(&g->r[g->nr], 0, sizeof g->r[g->nr]);
        g->r[g->nr].burst = 1;
        g->nr++;
    }
    return 1;
}

/* P[src] -> P[dst] in round R (dropped when it carries nothing new). */
static void emit(ft_gen *g, int R, uint32_t src, uint32_t dst)
{
    ft_round *r;
    if (g->st != LCAN_OK || src == dst || g->has[dst] || !ft_round_at(g, R))
        return;
    r = &g->r[R];
    if (r->n == r->cap) {
        size_t nc = r->cap ? 2 * r->cap : 16;
        uint32_t *ns = realloc(r->src, nc * sizeof *ns), *nd;
        if (ns == NULL) {
            g->st = LCAN_ERR_NOMEM;
            return;
        }
        r->src = ns;
        nd = realloc(r->dst, nc * sizeof *nd);
        if (nd == NULL) {
            g->st = LCAN_ERR_NOMEM;
            return;
        }
        r->dst = nd;
        r->cap = nc;
    }
    r->src[r->n] = src;
    r->dst[r->n] = dst;
    r->n++;
    g->has[dst] = 1;
}

/* log2 of the copies Sparse-Broadcast makes on a subtree of 2^k leaves: r = max(w, 2) rounded down
 * to a power of two, at most 2^k. */
static int copies_log(const uint64_t *w, int k)
{
    int rho = floor_log2(w[k] > 2 ? w[k] : 2);
    return rho < k ? rho : k;
}

/* m = w^-1(sqrt r): the smallest mu (1 <= mu < k) with w[mu]^2 >= 2^rho. */
static int sqrt_subtree(const uint64_t *w, int k, int rho)
{
    int mu;
    for (mu = 1; mu < k - 1; mu++)
        if (w[mu] >= ((uint64_t)1 << 32) || w[mu] * w[mu] >= ((uint64_t)1 << rho))
            break;
    return mu;
}

/* The structure of Sparse-Broadcast on 2^k leaves (it depends on k only): the parameters of the
 * header comment and the rounds of each part. Base case (r = 2): rho = 1, one round. */
typedef struct {
    int rho;          /* log2 of the copies made */
    int mu, sigma, mu2, t;
    int n1, n2, n3;   /* rounds of phase 1, phase 2, lines 11-13 (0 or 1) */
    int rounds;
} sb_shape;

static void sb_shape_of(const uint64_t *w, int k, sb_shape *sh)
{
    int rho = copies_log(w, k);
    sb_shape p1, p2;
    memset(sh, 0, sizeof *sh);
    if (rho <= 1) {
        sh->rho = 1;
        sh->rounds = 1;
        return;
    }
    sh->mu = sqrt_subtree(w, k, rho);                          /* line 5 */
    sb_shape_of(w, sh->mu, &p1);
    sh->n1 = p1.rounds;
    sh->sigma = (rho + 1) / 2 < p1.rho ? (rho + 1) / 2 : p1.rho;
    sh->mu2 = sh->mu < k - sh->sigma ? sh->mu : k - sh->sigma;
    sb_shape_of(w, sh->mu2, &p2);
    sh->n2 = p2.rounds;
    sh->t = rho - sh->sigma < p2.rho ? rho - sh->sigma : p2.rho;
    sh->n3 = sh->t > 0 && sh->mu2 != k - sh->sigma ? 1 : 0; /* else every line-13 message is a self-send */
    sh->rho = sh->sigma + sh->t;
    sh->rounds = sh->n1 + 1 + sh->n2 + sh->n3;
}

/* Algorithm 2 on the subtree [f, f + 2^k) from round R; returns log2 of the copies made (at
 * f + i 2^(k - rho)); *nrounds = rounds used. */
static int sparse_bcast(ft_gen *g, uint32_t f, int k, int R, int *nrounds)
{
    sb_shape sh;
    uint32_t i, j;
    int n;
    sb_shape_of(g->w, k, &sh);
    *nrounds = sh.rounds;
    if (sh.mu == 0) { /* lines 2-3 */
        emit(g, R, f, f + (1u << (k - 1)));
        return 1;
    }
    sparse_bcast(g, f, sh.mu, R, &n);                                  /* line 6 */
    for (i = 0; i < (1u << sh.sigma); i++)                             /* lines 7-8 */
        emit(g, R + sh.n1, f + (i << (sh.mu - sh.sigma)), f + (i << (k - sh.sigma)));
    for (i = 0; i < (1u << sh.sigma); i++)                             /* lines 9-10 */
        sparse_bcast(g, f + (i << (k - sh.sigma)), sh.mu2, R + sh.n1 + 1, &n);
    for (i = 0; sh.n3 && i < (1u << sh.sigma); i++)                    /* lines 11-13 */
        for (j = 0; j < (1u << sh.t); j++) {
            uint32_t b = f + (i << (k - sh.sigma));
            emit(g, R + sh.n1 + 1 + sh.n2, b + (j << (sh.mu2 - sh.t)), b + (j << (k - sh.sigma - sh.t)));
        }
    return sh.rho;
}

/* Algorithm 1 (pipelined = 0) or section 3.3 (pipelined = 1) on [f, f + 2^k) from round R;
 * returns the rounds used. */
static int broadcast(ft_gen *g, uint32_t f, int k, int R, int pipelined)
{
    int rho, n, b, lam, nsub = 0;
    uint32_t i, j;
    if (k == 0)
        return 0;
    rho = sparse_bcast(g, f, k, R, &n); /* line 3 */
    b = k - rho;                         /* blocks of 2^b leaves hold one copy each */
    if (b == 0)
        return n;
    lam = pipelined ? floor_log2((uint64_t)k) : 0; /* log N copies per block, rounded down */
    if (lam > b)
        lam = b;
    if (lam > 0) { /* each holder sends 2^lam - 1 copies in pipeline, farthest first */
        if (!ft_round_at(g, R + n))
            return n;
        g->r[R + n].burst = (1u << lam) - 1;
        for (i = 0; i < (1u << rho); i++)
            for (j = (1u << lam) - 1; j >= 1; j--)
                emit(g, R + n, f + (i << b), f + (i << b) + (j << (b - lam)));
        n++;
    }
    for (i = 0; i < (1u << (rho + lam)); i++) /* lines 4-5 */
        nsub = broadcast(g, f + (i << (b - lam)), b - lam, R + n, pipelined);
    return n + nsub;
}

static void binomial(ft_gen *g)
{
    int k, R = 0;
    uint32_t v;
    for (k = g->h; k >= 1; k--, R++)
        for (v = 0; v < (1u << g->h); v += 1u << k)
            emit(g, R, v, v + (1u << (k - 1)));
}

static int lca_height(uint32_t a, uint32_t b) { return floor_log2((uint64_t)(a ^ b)) + 1; }

static int fill_w(int h, const uint64_t *w, uint64_t *ww, char *err, size_t errlen)
{
    int l;
    if (h < 1 || h > 24 || w == NULL) {
        snprintf(err, errlen, "the ideal fat-tree needs 1 <= log N <= 24 (got %d)", h);
        return 0;
    }
    for (l = 0; l < h; l++) {
        if (w[l] < 1) {
            snprintf(err, errlen, "capacity w(2^%d) = 0: every channel needs capacity >= 1", l);
            return 0;
        }
        ww[l] = w[l];
    }
    ww[h] = 2 * w[h - 1] < ((uint64_t)1 << h) ? 2 * w[h - 1] : ((uint64_t)1 << h);
    return 1;
}

lcan_status lcan_ft_schedule(int h, const uint64_t *w, lcan_ft_algo algo, lcan_ft_sched *s, char *err, size_t errlen)
{
    ft_gen g;
    int k;
    size_t i, n = 0;
    if (s == NULL)
        return LCAN_ERR_ARG;
    memset(s, 0, sizeof *s);
    if (err != NULL && errlen > 0)
        err[0] = 0;
    memset(&g, 0, sizeof g);
    if (!fill_w(h, w, g.w, err, errlen) || algo < LCAN_FT_BINOMIAL || algo > LCAN_FT_PIPELINED)
        return LCAN_ERR_ARG;
    g.h = h;
    g.st = LCAN_OK;
    g.has = calloc((size_t)1 << h, 1);
    if (g.has == NULL)
        return LCAN_ERR_NOMEM;
    g.has[0] = 1;
    if (algo == LCAN_FT_BINOMIAL)
        binomial(&g);
    else
        broadcast(&g, 0, h, 0, algo == LCAN_FT_PIPELINED);
    free(g.has);
    s->h = h;
    s->N = 1u << h;
    for (k = 0; k < g.nr; k++)
        n += g.r[k].n;
    if (g.st == LCAN_OK) {
        s->first = malloc(((size_t)g.nr + 1) * sizeof *s->first);
        s->burst = malloc(((size_t)g.nr + 1) * sizeof *s->burst);
        s->src = malloc((n + 1) * sizeof *s->src);
        s->dst = malloc((n + 1) * sizeof *s->dst);
        if (!s->first || !s->burst || !s->src || !s->dst)
            g.st = LCAN_ERR_NOMEM;
    }
    for (k = 0; k < g.nr; k++) {
        ft_round *r = &g.r[k];
        if (g.st == LCAN_OK && r->n > 0) { /* empty rounds (none expected) are dropped */
            int64_t time = 0;
            uint32_t sent = 0;
            s->first[s->nrounds] = s->nmsg;
            s->burst[s->nrounds] = r->burst;
            for (i = 0; i < r->n; i++) {
                int64_t at;
                sent = i > 0 && r->src[i] == r->src[i - 1] ? sent + 1 : 0; /* index in the sender's sequence */
                at = (int64_t)sent + 2 * lca_height(r->src[i], r->dst[i]);
                if (at > time)
                    time = at;
                s->src[s->nmsg] = r->src[i];
                s->dst[s->nmsg] = r->dst[i];
                s->nmsg++;
            }
            s->steps += time;
            s->nrounds++;
        }
        free(r->src);
        free(r->dst);
    }
    free(g.r);
    if (g.st != LCAN_OK) {
        lcan_ft_sched_free(s);
        return g.st;
    }
    s->first[s->nrounds] = s->nmsg;
    return LCAN_OK;
}

void lcan_ft_sched_free(lcan_ft_sched *s)
{
    if (s == NULL)
        return;
    free(s->first);
    free(s->burst);
    free(s->src);
    free(s->dst);
    memset(s, 0, sizeof *s);
}

/* The replay. Per round: each message's index in its sender's sequence (messages of one sender
 * are consecutive), then period by period every message is on exactly one channel - up above
 * level p - idx while p - idx < H, then down above level 2H - 1 - (p - idx) - and the messages on
 * each (channel, direction) are counted against w. */
lcan_status lcan_ft_check(const lcan_ft_sched *s, const uint64_t *w, lcan_ft_check_result *res)
{
    uint32_t N, *idx = NULL, *cnt = NULL, *touched = NULL;
    uint8_t *has = NULL, *sends = NULL, *recvs = NULL;
    size_t i, nt = 0;
    int k, h, l;
    size_t off[26];
    if (s == NULL || w == NULL || res == NULL)
        return LCAN_ERR_ARG;
    memset(res, 0, sizeof *res);
    h = s->h;
    N = s->N;
    if (h < 1 || h > 24)
        return LCAN_ERR_ARG;
    /* counters: level l has 2 * (N >> l) channels (up, down) at off[l] */
    off[0] = 0;
    for (l = 0; l < h; l++)
        off[l + 1] = off[l] + 2 * ((size_t)N >> l);
    idx = malloc((s->nmsg + 1) * sizeof *idx);
    cnt = calloc(off[h] + 1, sizeof *cnt);
    touched = malloc((s->nmsg + 1) * sizeof *touched);
    has = calloc(N, 1);
    sends = calloc(N, 1);
    recvs = calloc(N, 1);
    if (!idx || !cnt || !touched || !has || !sends || !recvs) {
        free(idx);
        free(cnt);
        free(touched);
        free(has);
        free(sends);
        free(recvs);
        return LCAN_ERR_NOMEM;
    }
    has[0] = 1;
    for (k = 0; k < s->nrounds; k++) {
        size_t a = s->first[k], e = s->first[k + 1];
        int64_t time = 0, p, last = 0;
        for (i = a; i < e; i++) {
            uint32_t x = s->src[i], y = s->dst[i];
            int H = lca_height(x, y);
            idx[i] = i > a && s->src[i - 1] == x ? idx[i - 1] + 1 : 0;
            if (idx[i] + 2 * H > last)
                last = idx[i] + 2 * H;
            if (!has[x] || (s->burst[k] == 1 && sends[x]) || recvs[y] || idx[i] >= s->burst[k]) {
                if (res->bad_sends++ == 0)
                    snprintf(res->err, sizeof res->err,
                             "round %d: leaf %u sends to %u but %s", k + 1, x, y,
                             !has[x] ? "does not hold the message" : recvs[y] ? "the receiver gets two messages"
                                                                              : "it already sent its share of the round");
            }
            sends[x] = 1;
            recvs[y] = 1;
        }
        time = last;
        for (p = 0; p < time; p++) {
            nt = 0;
            for (i = a; i < e; i++) {
                int H = lca_height(s->src[i], s->dst[i]);
                int64_t q = p - (int64_t)idx[i];
                size_t c;
                if (q < 0 || q >= 2 * H)
                    continue;
                if (q < H)
                    c = off[q] + 2 * (size_t)(s->src[i] >> q);
                else
                    c = off[2 * H - 1 - q] + 2 * (size_t)(s->dst[i] >> (2 * H - 1 - q)) + 1;
                if (cnt[c]++ == 0)
                    touched[nt++] = (uint32_t)c;
            }
            for (i = 0; i < nt; i++) {
                size_t c = touched[i];
                for (l = 0; l < h && c >= off[l + 1]; l++)
                    ;
                if (cnt[c] > w[l]) {
                    if (res->violations++ == 0 && res->bad_sends == 0)
                        snprintf(res->err, sizeof res->err,
                                 "capacity violation in round %d, period %lld: the %s channel above leaves %llu..%llu "
                                 "carries %u messages, w = %llu (seed 001: the system halts)",
                                 k + 1, (long long)p + 1, (c - off[l]) % 2 ? "down" : "up",
                                 (unsigned long long)(((c - off[l]) / 2) << l),
                                 (unsigned long long)((((c - off[l]) / 2 + 1) << l) - 1), cnt[c],
                                 (unsigned long long)w[l]);
                }
                cnt[c] = 0;
            }
        }
        res->steps += time;
        for (i = a; i < e; i++) {
            if (has[s->dst[i]] && res->duplicates++ == 0 && res->err[0] == 0)
                snprintf(res->err, sizeof res->err, "round %d: leaf %u receives the message a second time", k + 1,
                         s->dst[i]);
            has[s->dst[i]] = 1;
            sends[s->src[i]] = 0;
            recvs[s->dst[i]] = 0;
        }
    }
    for (i = 0; i < N; i++)
        if (!has[i] && res->missing++ == 0 && res->err[0] == 0)
            snprintf(res->err, sizeof res->err, "leaf %zu never receives the message", i);
    res->correct = res->violations == 0 && res->bad_sends == 0 && res->duplicates == 0 && res->missing == 0;
    free(idx);
    free(cnt);
    free(touched);
    free(has);
    free(sends);
    free(recvs);
    return LCAN_OK;
}

/* (2): S(2^k) = 2 S(m) + 4k, S = 2k when r = 2. */
static int64_t rec_S(const uint64_t *w, int k)
{
    int rho = copies_log(w, k);
    if (rho <= 1)
        return 2 * k;
    return 2 * rec_S(w, sqrt_subtree(w, k, rho)) + 4 * k;
}

static int64_t rec_T(const uint64_t *w, int k, int pipelined)
{
    int rho, lam;
    if (k <= 0)
        return 0;
    rho = copies_log(w, k);
    lam = pipelined ? floor_log2((uint64_t)k) : 0;
    if (!pipelined)
        return rec_S(w, k) + rec_T(w, k - rho, 0);
    return rec_S(w, k) + rec_T(w, k - rho - lam, 1) + 3 * k; /* (4), gamma = 3 */
}

int64_t lcan_ft_recurrence(int h, const uint64_t *w, int which)
{
    uint64_t ww[32];
    char err[128];
    if (!fill_w(h, w, ww, err, sizeof err))
        return -1;
    switch (which) {
    case 2: return rec_S(ww, h);
    case 3: return rec_T(ww, h, 0);
    case 4: return rec_T(ww, h, 1);
    default: return -1;
    }
}

int64_t lcan_ft_round_bound(int h, const uint64_t *w)
{
    int i, H = 1;
    int64_t lb = 0;
    if (h < 2 || w == NULL)
        return -1;
    while (H * 2 < h)
        H *= 2; /* the largest power of two smaller than log N */
    for (i = 1; i <= H; i *= 2) {
        double g = (double)(h - i) / log2((double)w[i] + 1.0);
        lb += (int64_t)i * (int64_t)ceil(g - 1e-9);
    }
    return lb;
}

int lcan_ft_capacity(const char *name, int h, uint64_t *w)
{
    int l;
    if (name == NULL || h < 1 || h > 24)
        return 0;
    for (l = 0; l < h; l++) {
        if (strcmp(name, "n") == 0)
            w[l] = (uint64_t)1 << l;
        else if (strcmp(name, "1") == 0)
            w[l] = 1;
        else if (strcmp(name, "sqrt") == 0)
            w[l] = (uint64_t)1 << ((l + 1) / 2);
        else if (strcmp(name, "log") == 0)
            w[l] = (uint64_t)l + 1;
        else
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ prefix (Theorem 6)
 * Blelloch's up-sweep / down-sweep over the recursion of Broadcast and Sparse-Broadcast (spec
 * 10.3). Up = the time reverse of the broadcast: every call returns the total of its items at its
 * first leaf; Down = the broadcast itself: the call's first leaf holds the exclusive prefix E of
 * its items, each item ends with its own. A leaf plays several items (one per call it takes part
 * in), so values live in registers; a copy to the same leaf is an alias, never a message.
 *   Sparse-Broadcast, base (items f, f + n/2): up f + n/2 -> f, f adds; down f sends E + v_f.
 *   otherwise: up: lines 11-13 reversed (the t items of block i to the phase-2 call's items), the
 *   phase-2 calls, lines 7-8 reversed (block totals to the phase-1 call's items), the phase-1 call;
 *   down: the phase-1 call with E, lines 7-8 (block i gets its exclusive prefix), the phase-2
 *   calls, lines 11-13. Items of a call that no copy reaches start with the identity.
 *   Broadcast(f, n): up: the r blocks (recursively), then its Sparse-Broadcast on the block totals;
 *   down: the Sparse-Broadcast, then the blocks. A single leaf: prefix = E + a. */
typedef struct {
    uint32_t rs, rd;
} pf_msg;

typedef struct {
    uint32_t d, a, b;
} pf_lop;

typedef struct {
    pf_msg *m;
    size_t n, cap;
    pf_lop *l;
    size_t nl, capl;
} pf_slot;

typedef struct {
    uint64_t w[32];
    pf_slot *s;
    int ns, caps;
    uint32_t *leaf, *input, *alias;
    uint32_t nreg, capreg;
    uint32_t *result;
    lcan_status st;
} pf_gen;

static uint32_t pf_reg(pf_gen *g, uint32_t leaf, uint32_t input)
{
    if (g->st != LCAN_OK)
        return 0;
    if (g->nreg == g->capreg) {
        uint32_t nc = g->capreg ? 2 * g->capreg : 1024, *a, *b, *c;
        a = realloc(g->leaf, nc * sizeof *a);
        if (a != NULL)
            g->leaf = a;
        b = realloc(g->input, nc * sizeof *b);
        if (b != NULL)
            g->input = b;
        c = realloc(g->alias, nc * sizeof *c);
        if (c != NULL)
            g->alias = c;
        if (a == NULL || b == NULL || c == NULL) {
            g->st = LCAN_ERR_NOMEM;
            return 0;
        }
        g->capreg = nc;
    }
    g->leaf[g->nreg] = leaf;
    g->input[g->nreg] = input;
    g->alias[g->nreg] = LCAN_FT_NOREG;
    return g->nreg++;
}

static pf_slot *pf_slot_at(pf_gen *g, int R)
{
    while (g->st == LCAN_OK && g->ns <= R) {
        if (g->ns == g->caps) {
            int nc = g->caps ? 2 * g->caps : 64;
            pf_slot *ns = realloc(g->s, (size_t)nc * sizeof *ns);
            if (ns == NULL) {
                g->st = LCAN_ERR_NOMEM;
                return NULL;
            }
            g->s = ns;
            g->caps = nc;
        }
        memset(&g->s[g->ns], 0, sizeof g->s[g->ns]);
        g->ns++;
    }
    return g->st == LCAN_OK ? &g->s[R] : NULL;
}

/* The array arr of n elements of `size` bytes (capacity *cap) with room for one more: arr itself or
 * its reallocation (capacity doubled); NULL and g->st = LCAN_ERR_NOMEM when memory runs out (arr is
 * then still valid and owned by the caller). */
static void *pf_grow(pf_gen *g, void *arr, size_t *cap, size_t n, size_t size)
{
    if (n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        void *na = realloc(arr, nc * size);
        if (na == NULL) {
            g->st = LCAN_ERR_NOMEM;
            return NULL;
        }
        *cap = nc;
        return na;
    }
    return arr;
}

static void pf_msg_add(pf_gen *g, int R, uint32_t rs, uint32_t rd)
{
    pf_slot *s = pf_slot_at(g, R);
    pf_msg *m = s ? pf_grow(g, s->m, &s->cap, s->n, sizeof *s->m) : NULL;
    if (m == NULL)
        return;
    s->m = m;
    s->m[s->n].rs = rs;
    s->m[s->n].rd = rd;
    s->n++;
}

/* Before round R (after round R-1): register d = a, or a (+) b. */
static void pf_lop_add(pf_gen *g, int R, uint32_t d, uint32_t a, uint32_t b)
{
    pf_slot *s = pf_slot_at(g, R);
    pf_lop *l = s ? pf_grow(g, s->l, &s->capl, s->nl, sizeof *s->l) : NULL;
    if (l == NULL)
        return;
    s->l = l;
    s->l[s->nl].d = d;
    s->l[s->nl].a = a;
    s->l[s->nl].b = b;
    s->nl++;
}

/* Move register rs to a register on leaf `to` in round R: an alias on the same leaf. */
static uint32_t pf_move(pf_gen *g, int R, uint32_t rs, uint32_t to)
{
    uint32_t rd;
    if (g->st != LCAN_OK || g->leaf[rs] == to)
        return rs;
    rd = pf_reg(g, to, LCAN_FT_NOREG);
    pf_msg_add(g, R, rs, rd);
    return rd;
}

static int bc_rounds(const uint64_t *w, int k)
{
    sb_shape sh;
    if (k == 0)
        return 0;
    sb_shape_of(w, k, &sh);
    return sh.rounds + bc_rounds(w, k - sh.rho);
}

/* Sparse-Broadcast's scan on [f, f + 2^k): in[] the 2^rho item values, E (on f) the exclusive
 * prefix the down-sweep starts with; fills exc[] (2^rho registers); returns the total (on f). */
static uint32_t pf_sparse(pf_gen *g, uint32_t f, int k, const uint32_t *in, int Rup, int Rdown, uint32_t E,
                          uint32_t *exc)
{
    sb_shape sh, p1, p2;
    uint32_t i, j, nb, n1i, n2i, tot = 0, *sub_in = NULL, *sub_exc = NULL, *g_in = NULL, *g_exc = NULL, *X = NULL;
    int kb;
    sb_shape_of(g->w, k, &sh);
    if (g->st != LCAN_OK)
        return 0;
    if (sh.mu == 0) {
        uint32_t recv = pf_move(g, Rup, in[1], f), tmp;
        tot = pf_reg(g, f, LCAN_FT_NOREG);
        pf_lop_add(g, Rup + 1, tot, in[0], recv);
        tmp = pf_reg(g, f, LCAN_FT_NOREG);
        pf_lop_add(g, Rdown, tmp, E, in[0]);
        exc[0] = E;
        exc[1] = pf_move(g, Rdown, tmp, f + (1u << (k - 1)));
        return tot;
    }
    sb_shape_of(g->w, sh.mu, &p1);
    sb_shape_of(g->w, sh.mu2, &p2);
    nb = 1u << sh.sigma;
    kb = k - sh.sigma;     /* log2 of a block */
    n1i = 1u << p1.rho;    /* items of the phase-1 call */
    n2i = 1u << p2.rho;    /* items of a phase-2 call */
    sub_in = malloc(n2i * sizeof *sub_in);
    sub_exc = malloc(n2i * sizeof *sub_exc);
    g_in = malloc(n1i * sizeof *g_in);
    g_exc = malloc(n1i * sizeof *g_exc);
    X = malloc(nb * sizeof *X);
    if (!sub_in || !sub_exc || !g_in || !g_exc || !X) {
        g->st = LCAN_ERR_NOMEM;
        goto out;
    }
    for (j = 0; j < n1i; j++)
        g_in[j] = pf_reg(g, f + (j << (sh.mu - p1.rho)), LCAN_FT_NOREG);
    for (i = 0; i < nb && g->st == LCAN_OK; i++) {
        uint32_t b = f + (i << kb), step = 1u << (p2.rho - sh.t), btot;
        for (j = 0; j < n2i; j++) { /* lines 11-13 reversed */
            uint32_t at = b + (j << (sh.mu2 - p2.rho));
            sub_in[j] = j % step == 0 ? pf_move(g, Rup, in[(i << sh.t) + j / step], at) : pf_reg(g, at, LCAN_FT_NOREG);
        }
        X[i] = pf_reg(g, b, LCAN_FT_NOREG); /* the block's exclusive prefix: set below */
        btot = pf_sparse(g, b, sh.mu2, sub_in, Rup + sh.n3, Rdown + sh.n1 + 1, X[i], sub_exc);
        if (i == 0)
            g_in[0] = btot; /* lines 7-8 reversed: block i's total to the phase-1 item i s' */
        else
            pf_msg_add(g, Rup + sh.n3 + sh.n2, btot, g_in[i << (p1.rho - sh.sigma)]);
        for (j = 0; j < (1u << sh.t); j++) /* lines 11-13 */
            exc[(i << sh.t) + j] = pf_move(g, Rdown + sh.n1 + 1 + sh.n2, sub_exc[j * step], b + (j << (kb - sh.t)));
    }
    tot = pf_sparse(g, f, sh.mu, g_in, Rup + sh.n3 + sh.n2 + 1, Rdown, E, g_exc);
    for (i = 0; i < nb && g->st == LCAN_OK; i++) { /* lines 7-8 */
        uint32_t src = g_exc[i << (p1.rho - sh.sigma)];
        if (g->leaf[src] == g->leaf[X[i]])
            g->alias[X[i]] = src;
        else
            pf_msg_add(g, Rdown + sh.n1, src, X[i]);
    }
out:
    free(sub_in);
    free(sub_exc);
    free(g_in);
    free(g_exc);
    free(X);
    return tot;
}

/* Broadcast's scan on [f, f + 2^k): up from Rup, down from Rdown with E (on f); returns the total
 * (on f). */
static uint32_t pf_bcast(pf_gen *g, uint32_t f, int k, int Rup, int Rdown, uint32_t E)
{
    sb_shape sh;
    uint32_t i, nb, *in, *exc, *Eb, tot;
    int b, sub;
    if (g->st != LCAN_OK)
        return 0;
    if (k == 0) {
        uint32_t a = pf_reg(g, f, f), res = pf_reg(g, f, LCAN_FT_NOREG);
        pf_lop_add(g, Rdown, res, E, a);
        g->result[f] = res;
        return a;
    }
    sb_shape_of(g->w, k, &sh);
    b = k - sh.rho;
    sub = bc_rounds(g->w, b);
    nb = 1u << sh.rho;
    in = malloc(nb * sizeof *in);
    exc = malloc(nb * sizeof *exc);
    Eb = malloc(nb * sizeof *Eb);
    if (!in || !exc || !Eb) {
        free(in);
        free(exc);
        free(Eb);
        g->st = LCAN_ERR_NOMEM;
        return 0;
    }
    for (i = 0; i < nb; i++) {
        Eb[i] = pf_reg(g, f + (i << b), LCAN_FT_NOREG);
        in[i] = pf_bcast(g, f + (i << b), b, Rup, Rdown + sh.rounds, Eb[i]);
    }
    tot = pf_sparse(g, f, k, in, Rup + sub, Rdown, E, exc);
    for (i = 0; i < nb && g->st == LCAN_OK; i++)
        g->alias[Eb[i]] = exc[i];
    free(in);
    free(exc);
    free(Eb);
    return tot;
}

static uint32_t pf_resolve(const pf_gen *g, uint32_t r)
{
    while (g->alias[r] != LCAN_FT_NOREG)
        r = g->alias[r];
    return r;
}

void lcan_ft_prefix_free(lcan_ft_prefix_prog *p)
{
    if (p == NULL)
        return;
    free(p->first);
    free(p->src);
    free(p->dst);
    free(p->rs);
    free(p->rd);
    free(p->lfirst);
    free(p->ld);
    free(p->la);
    free(p->lb);
    free(p->reg_leaf);
    free(p->reg_input);
    free(p->result);
    memset(p, 0, sizeof *p);
}

lcan_status lcan_ft_prefix(int h, const uint64_t *w, lcan_ft_prefix_prog *p, char *err, size_t errlen)
{
    pf_gen g;
    int B, k, nr = 0;
    size_t nm = 0, nl = 0, i;
    uint32_t x;
    if (p == NULL)
        return LCAN_ERR_ARG;
    memset(p, 0, sizeof *p);
    if (err != NULL && errlen > 0)
        err[0] = 0;
    memset(&g, 0, sizeof g);
    if (!fill_w(h, w, g.w, err, errlen))
        return LCAN_ERR_ARG;
    g.st = LCAN_OK;
    g.result = malloc(((size_t)1 << h) * sizeof *g.result);
    if (g.result == NULL)
        return LCAN_ERR_NOMEM;
    B = bc_rounds(g.w, h);
    pf_slot_at(&g, 2 * B);
    pf_bcast(&g, 0, h, 0, B, pf_reg(&g, 0, LCAN_FT_NOREG));
    for (k = 0; k < g.ns; k++) {
        nm += g.s[k].n;
        nl += g.s[k].nl;
        nr += g.s[k].n > 0;
    }
    p->h = h;
    p->N = 1u << h;
    if (g.st == LCAN_OK) {
        p->first = malloc(((size_t)nr + 1) * sizeof *p->first);
        p->lfirst = malloc(((size_t)nr + 2) * sizeof *p->lfirst);
        p->src = malloc((nm + 1) * sizeof *p->src);
        p->dst = malloc((nm + 1) * sizeof *p->dst);
        p->rs = malloc((nm + 1) * sizeof *p->rs);
        p->rd = malloc((nm + 1) * sizeof *p->rd);
        p->ld = malloc((nl + 1) * sizeof *p->ld);
        p->la = malloc((nl + 1) * sizeof *p->la);
        p->lb = malloc((nl + 1) * sizeof *p->lb);
        if (!p->first || !p->lfirst || !p->src || !p->dst || !p->rs || !p->rd || !p->ld || !p->la || !p->lb)
            g.st = LCAN_ERR_NOMEM;
    }
    if (g.st == LCAN_OK) {
        p->lfirst[0] = 0;
        for (k = 0; k < g.ns; k++) {
            pf_slot *s = &g.s[k];
            for (i = 0; i < s->nl; i++) { /* before the next round that has messages */
                p->ld[p->nloc] = pf_resolve(&g, s->l[i].d);
                p->la[p->nloc] = pf_resolve(&g, s->l[i].a);
                p->lb[p->nloc] = s->l[i].b == LCAN_FT_NOREG ? LCAN_FT_NOREG : pf_resolve(&g, s->l[i].b);
                p->nloc++;
            }
            if (s->n > 0) {
                int height = 0;
                p->first[p->nrounds] = p->nmsg;
                for (i = 0; i < s->n; i++) {
                    uint32_t rs = pf_resolve(&g, s->m[i].rs), rd = pf_resolve(&g, s->m[i].rd);
                    int H;
                    p->rs[p->nmsg] = rs;
                    p->rd[p->nmsg] = rd;
                    p->src[p->nmsg] = g.leaf[rs];
                    p->dst[p->nmsg] = g.leaf[rd];
                    H = lca_height(g.leaf[rs], g.leaf[rd]);
                    if (H > height)
                        height = H;
                    p->nmsg++;
                }
                p->steps += 2 * height;
                p->nrounds++;
                p->lfirst[p->nrounds] = p->nloc;
            }
        }
        p->first[p->nrounds] = p->nmsg;
        p->lfirst[p->nrounds + 1] = p->nloc;
        p->nreg = g.nreg;
        p->reg_leaf = g.leaf;
        p->reg_input = g.input;
        p->result = g.result;
        for (x = 0; x < p->N; x++)
            p->result[x] = pf_resolve(&g, p->result[x]);
        g.leaf = g.input = g.result = NULL;
    }
    for (k = 0; k < g.ns; k++) {
        free(g.s[k].m);
        free(g.s[k].l);
    }
    free(g.s);
    free(g.leaf);
    free(g.input);
    free(g.alias);
    free(g.result);
    if (g.st != LCAN_OK) {
        lcan_ft_prefix_free(p);
        return g.st;
    }
    return LCAN_OK;
}

/* Run p on inputs a[] (sum mod 2^32, or max): out[x] = leaf x's result register. Checks the round
 * model on the way: registers on the right leaves, each leaf sends and receives at most one message
 * per round, and every channel's load over the whole round within w. */
lcan_status lcan_ft_prefix_eval(const lcan_ft_prefix_prog *p, const uint64_t *w, const uint32_t *a, int use_max,
                                uint32_t *out, lcan_ft_check_result *res)
{
    uint32_t *val, *tmp, *up = NULL, *dn = NULL, x;
    uint8_t *snd, *rcv;
    size_t i;
    int k, l;
    if (p == NULL || w == NULL || a == NULL || out == NULL || res == NULL)
        return LCAN_ERR_ARG;
    memset(res, 0, sizeof *res);
    val = malloc(((size_t)p->nreg + 1) * sizeof *val);
    tmp = malloc((p->nmsg + 1) * sizeof *tmp);
    snd = calloc(p->N, 1);
    rcv = calloc(p->N, 1);
    up = calloc(p->N, sizeof *up);
    dn = calloc(p->N, sizeof *dn);
    if (!val || !tmp || !snd || !rcv || !up || !dn) {
        free(val);
        free(tmp);
        free(snd);
        free(rcv);
        free(up);
        free(dn);
        return LCAN_ERR_NOMEM;
    }
    for (x = 0; x < p->nreg; x++)
        val[x] = p->reg_input[x] == LCAN_FT_NOREG ? 0 : a[p->reg_input[x]];
    for (k = 0; k <= p->nrounds; k++) {
        for (i = p->lfirst[k]; i < p->lfirst[k + 1]; i++) {
            uint32_t d = p->ld[i], s1 = p->la[i], s2 = p->lb[i], v = val[s1];
            if (p->reg_leaf[s1] != p->reg_leaf[d] || (s2 != LCAN_FT_NOREG && p->reg_leaf[s2] != p->reg_leaf[d])) {
                if (res->bad_sends++ == 0)
                    snprintf(res->err, sizeof res->err, "a local step mixes registers of two leaves");
            }
            if (s2 != LCAN_FT_NOREG)
                v = use_max ? (v > val[s2] ? v : val[s2]) : v + val[s2];
            val[d] = v;
        }
        if (k == p->nrounds)
            break;
        for (i = p->first[k]; i < p->first[k + 1]; i++) {
            if (snd[p->src[i]]++ || rcv[p->dst[i]]++) {
                if (res->bad_sends++ == 0)
                    snprintf(res->err, sizeof res->err, "round %d: a leaf sends or receives twice", k + 1);
            }
            tmp[i] = val[p->rs[i]];
        }
        for (l = 0; l < p->h; l++) { /* whole-round channel loads: count, check, clear */
            int pass;
            for (pass = 0; pass < 3; pass++)
                for (i = p->first[k]; i < p->first[k + 1]; i++) {
                    uint32_t su = p->src[i] >> l, sd = p->dst[i] >> l;
                    if (lca_height(p->src[i], p->dst[i]) <= l)
                        continue;
                    if (pass == 0) {
                        up[su]++;
                        dn[sd]++;
                    } else if (pass == 2) {
                        up[su] = dn[sd] = 0;
                    } else if ((up[su] > w[l] || dn[sd] > w[l]) && res->violations++ == 0 && res->bad_sends == 0) {
                        snprintf(res->err, sizeof res->err,
                                 "capacity violation in round %d: a channel above a level-%d subtree carries %u "
                                 "messages, w = %llu",
                                 k + 1, l, up[su] > dn[sd] ? up[su] : dn[sd], (unsigned long long)w[l]);
                    }
                }
        }
        for (i = p->first[k]; i < p->first[k + 1]; i++) {
            val[p->rd[i]] = tmp[i];
            snd[p->src[i]] = rcv[p->dst[i]] = 0;
        }
    }
    res->steps = p->steps;
    for (x = 0; x < p->N; x++)
        out[x] = val[p->result[x]];
    res->correct = res->bad_sends == 0 && res->violations == 0;
    free(val);
    free(tmp);
    free(snd);
    free(rcv);
    free(up);
    free(dn);
    return LCAN_OK;
}
