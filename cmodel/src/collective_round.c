/*
 * collective_round.c - round programs for seed 001's operations on our networks: reduce (product),
 * prefix, and the leaf broadcast. Our switches do not combine, so leaves do: every round is a set
 * of leaf-to-leaf packets injected on one tick (the round model of seed 001 section 4.2: each leaf
 * sends at most one and receives at most one packet per round, the next round starts when all have
 * arrived), and a leaf combines what it receives.
 *
 * reduce (root R): binomial tree over virtual leaf numbers v = x - R digit by digit (mod m_i, which
 * keeps every LCA level): round k, v = 0 mod 2^k receives from v + 2^(k-1). With compact = k0 > 0,
 * after k0 rounds the partials (at v = j 2^k0) move in one round to v = j, then the binomial tree
 * continues on [0, ceil(N / 2^k0)): one tall round that uses channel capacity, then short rounds -
 * the "make copies in a small subtree / spread them over a wide channel" trade-off of seed 001's
 * Sparse-Broadcast, reversed.
 * prefix (inclusive, leaf order): up-sweep (round k: the right end of the left half of each 2^k
 * block sends the half's total to the block's right end), then down-sweep (round k = K-1..1: the
 * right end of each block with B > 0 sends the block's exclusive prefix to the right end of its
 * left half; right ends update their own exclusive prefix locally).
 * leaf broadcast: the binomial tree from the root, rounds k = K..1 (seed 001's "obvious algorithm
 * using only one unit of capacity per channel").
 * recursive (o->recursive, binary trees): the leaf broadcast is seed 001's Broadcast /
 * Sparse-Broadcast (collective_seed001.c builds its rounds, spec 10.3), the reduce its time
 * reverse (Theorem 6: every leaf sends its partial to the leaf it got the broadcast from), the
 * prefix lcan_ft_prefix's register program (messages copy registers, local steps between rounds).
 *
 * Capacity (seed 001 section 2: "if capacity is exceeded, the system halts"): before anything is
 * injected every round's packets are counted per channel - the up and the down channel between
 * each level-l subtree and level l+1 - and compared with that channel's capacity in links,
 * w_1..w_(l+1) p_(l+1); any excess is refused with LCAN_ERR_PATTERN and a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective_internal.h"

enum { RK_COMBINE = 0, RK_REPLACE, RK_UP, RK_DOWN, RK_REG };

struct coll_round {
    const lcan_topo *t;
    lcan_coll_op op;
    int sw_bcast, combine, K, h;
    uint32_t N, root, vmask;
    int nrounds, cap_rounds;
    size_t *rfirst;           /* nrounds + 1 */
    int *rlevel;              /* prefix: the block level of each round (up k or down k) */
    uint8_t *rkind;           /* per round */
    uint8_t *mkind;           /* per message */
    int32_t *mlevel;          /* per message: block level (prefix) */
    uint32_t *a, *acc;        /* inputs, running value */
    uint32_t *tl;             /* prefix: tl[x * (K + 1) + k] = total of the left half received in up round k */
    uint32_t *E;              /* prefix: exclusive prefix of the current block (right ends) */
    uint8_t *hasE;
    int dlevel;               /* prefix: local down-sweep updates applied for levels >= dlevel */
    int last_round;
    /* prefix --algo recursive: seed 001's register program (collective_seed001.c); message i of
     * the program is mbase[i]; local steps are applied up to round pf_next - 1 */
    int use_pf, pf_next;
    lcan_ft_prefix_prog pf;
    uint32_t *reg;
    const coll_msg *mbase;
};

static uint32_t comb(const coll_round *r, uint32_t x, uint32_t y)
{
    if (r->combine == LCAN_COMB_MAX)
        return x > y ? x : y;
    return (x + y) & r->vmask;
}

uint64_t coll_capacity(const lcan_topo *t, int l)
{
    uint64_t c = 1;
    int j;
    for (j = 1; j <= l + 1; j++)
        c *= (uint64_t)lcan_topo_w(t, j);
    return c * (uint64_t)lcan_topo_p(t, l + 1);
}

/* Seed 001's w(2^l), l = 0..h-1, of a binary tree; 0 when t is not binary. */
static int binary_capacities(const lcan_topo *t, uint64_t *w)
{
    int h = lcan_topo_levels(t), l;
    for (l = 1; l <= h; l++)
        if (lcan_topo_m(t, l) != 2)
            return 0;
    for (l = 0; l < h; l++)
        w[l] = coll_capacity(t, l); /* the channel above a subtree of height l */
    return 1;
}

int64_t coll_seed001_bound(const lcan_topo *t)
{
    uint64_t w[LCAN_MAX_LEVELS + 1];
    if (!binary_capacities(t, w))
        return -1;
    return lcan_ft_round_bound(lcan_topo_levels(t), w);
}

/* Digits of leaf x (a_1 first). */
static void digits(const lcan_topo *t, uint32_t x, int *dg)
{
    int l, h = lcan_topo_levels(t);
    for (l = 1; l <= h; l++) {
        dg[l] = (int)(x % (uint32_t)lcan_topo_m(t, l));
        x /= (uint32_t)lcan_topo_m(t, l);
    }
}

static uint32_t undigits(const lcan_topo *t, const int *dg)
{
    int l, h = lcan_topo_levels(t);
    uint32_t x = 0;
    for (l = h; l >= 1; l--)
        x = x * (uint32_t)lcan_topo_m(t, l) + (uint32_t)dg[l];
    return x;
}

/* Physical leaf of virtual v when the root is R: digit-wise (v + R) mod m. */
static uint32_t phys(const lcan_topo *t, uint32_t R, uint32_t v)
{
    int dv[LCAN_MAX_LEVELS + 1], dr[LCAN_MAX_LEVELS + 1], l;
    digits(t, v, dv);
    digits(t, R, dr);
    for (l = 1; l <= lcan_topo_levels(t); l++)
        dv[l] = (dv[l] + dr[l]) % lcan_topo_m(t, l);
    return undigits(t, dv);
}

typedef struct {
    coll_round *r;
    coll_msgs *ms;
    int rk;
    int64_t steps;
    int height;
} builder;

static lcan_status begin_round(builder *b, int kind, int level)
{
    coll_round *r = b->r;
    if (r->nrounds + 2 > r->cap_rounds) {
        int nc = r->cap_rounds ? 2 * r->cap_rounds : 64;
        size_t *nf = realloc(r->rfirst, (size_t)nc * sizeof *nf);
        int *nl;
        uint8_t *nk;
        if (nf == NULL)
            return LCAN_ERR_NOMEM;
        r->rfirst = nf;
        nl = realloc(r->rlevel, (size_t)nc * sizeof *nl);
        if (nl == NULL)
            return LCAN_ERR_NOMEM;
        r->rlevel = nl;
        nk = realloc(r->rkind, (size_t)nc);
        if (nk == NULL)
            return LCAN_ERR_NOMEM;
        r->rkind = nk;
        r->cap_rounds = nc;
    }
    r->rfirst[r->nrounds] = b->ms->n;
    r->rlevel[r->nrounds] = level;
    r->rkind[r->nrounds] = (uint8_t)kind;
    b->height = 0;
    return LCAN_OK;
}

/* Close the current round; empty rounds are dropped. */
static void end_round(builder *b)
{
    coll_round *r = b->r;
    if (b->ms->n == r->rfirst[r->nrounds])
        return;
    b->steps += 2 * b->height;
    r->nrounds++;
    r->rfirst[r->nrounds] = b->ms->n;
}

static lcan_status add_msg(builder *b, uint32_t src, uint32_t dst)
{
    coll_msg *m = coll_add(b->ms, src, dst, COLL_NOT_RELEASED, -1);
    int L;
    if (m == NULL)
        return LCAN_ERR_NOMEM;
    m->round = b->r->nrounds;
    L = lcan_topo_lca_level(b->r->t, src, dst);
    if (L > b->height)
        b->height = L;
    return LCAN_OK;
}

/* Capacity check of every round; 0 ok, else err filled. */
static int check_capacity(const coll_round *r, const coll_msgs *ms, char *err, size_t errlen)
{
    const lcan_topo *t = r->t;
    int h = lcan_topo_levels(t), l, k;
    uint32_t *up = calloc(r->N, sizeof *up), *dn = calloc(r->N, sizeof *dn), *sends = calloc(r->N, sizeof *sends),
             *recvs = calloc(r->N, sizeof *recvs);
    int bad = 0;
    if (up == NULL || dn == NULL || sends == NULL || recvs == NULL) {
        snprintf(err, errlen, "out of memory");
        bad = 1;
        goto out;
    }
    for (k = 0; k < r->nrounds && !bad; k++) {
        size_t i;
        uint64_t radix = 1;
        memset(sends, 0, r->N * sizeof *sends);
        memset(recvs, 0, r->N * sizeof *recvs);
        for (i = r->rfirst[k]; i < r->rfirst[k + 1]; i++)
            if (++sends[ms->m[i].src] > 1 || ++recvs[ms->m[i].dst] > 1) {
                snprintf(err, errlen, "round %d: a leaf sends or receives two packets (not a round-model program)", k + 1);
                bad = 1;
                break;
            }
        for (l = 0; l < h && !bad; l++) {
            uint64_t cap = coll_capacity(t, l);
            uint32_t groups = (uint32_t)(r->N / radix), g;
            memset(up, 0, groups * sizeof *up);
            memset(dn, 0, groups * sizeof *dn);
            for (i = r->rfirst[k]; i < r->rfirst[k + 1]; i++) {
                const coll_msg *m = &ms->m[i];
                if (lcan_topo_lca_level(t, m->src, m->dst) > l) {
                    up[m->src / radix]++;
                    dn[m->dst / radix]++;
                }
            }
            for (g = 0; g < groups && !bad; g++) {
                int dir;
                for (dir = 0; dir < 2 && !bad; dir++) {
                    uint32_t load = dir ? dn[g] : up[g];
                    if (load > cap) {
                        snprintf(err, errlen,
                                 "capacity violation in round %d of %d: the %s channel between the level-%d subtree "
                                 "of leaves %llu..%llu and level %d carries %u packets, capacity w = %llu links "
                                 "(seed 001: the system halts)",
                                 k + 1, r->nrounds, dir ? "down" : "up", l, (unsigned long long)(g * radix),
                                 (unsigned long long)((g + 1) * radix - 1), l + 1, load, (unsigned long long)cap);
                        bad = 1;
                    }
                }
            }
            radix *= (uint64_t)lcan_topo_m(t, l + 1);
        }
    }
out:
    free(up);
    free(dn);
    free(sends);
    free(recvs);
    return bad;
}

static int clog2u(uint32_t x)
{
    int b = 0;
    while (((uint64_t)1 << b) < x)
        b++;
    return b;
}

static lcan_status binomial_reduce(builder *b, uint32_t n, int kind)
{
    coll_round *r = b->r;
    int k, K = clog2u(n);
    lcan_status st;
    for (k = 1; k <= K; k++) {
        uint32_t v, half = 1u << (k - 1);
        if ((st = begin_round(b, kind, k)) != LCAN_OK)
            return st;
        for (v = 0; v < n; v += 2 * half)
            if (v + half < n && (st = add_msg(b, phys(r->t, r->root, v + half), phys(r->t, r->root, v))) != LCAN_OK)
                return st;
        end_round(b);
    }
    return LCAN_OK;
}

/* binary_capacities, or 0 with err saying why --algo recursive does not apply. */
static int recursive_capacities(const lcan_topo *t, uint64_t *w, char *err, size_t errlen)
{
    if (binary_capacities(t, w))
        return 1;
    snprintf(err, errlen, "--algo recursive needs a binary tree (every m_i = 2, e.g. bft(h;c1,..,ch)); %s is not one",
             lcan_topo_canonical(t));
    return 0;
}

/* Seed 001's recursive Broadcast (Algorithms 1-2, collective_seed001.c) on this binary tree with
 * root r->root (virtual leaf v is physical v XOR root, which keeps every LCA level). reverse = 1:
 * its time reverse, the product of Theorem 6 / section 5 item 3: rounds in reverse order, every
 * leaf sends its partial to the leaf it got the broadcast from (needs a commutative operation;
 * sum and max are). */
static lcan_status recursive_rounds(builder *b, int reverse, char *err, size_t errlen)
{
    coll_round *r = b->r;
    uint64_t w[LCAN_MAX_LEVELS + 1];
    lcan_ft_sched s;
    lcan_status st;
    int k;
    size_t i;
    if (!recursive_capacities(r->t, w, err, errlen))
        return LCAN_ERR_PATTERN;
    if ((st = lcan_ft_schedule(r->h, w, LCAN_FT_RECURSIVE, &s, err, errlen)) != LCAN_OK)
        return st;
    for (k = 0; k < s.nrounds && st == LCAN_OK; k++) {
        int kk = reverse ? s.nrounds - 1 - k : k;
        if ((st = begin_round(b, reverse ? RK_COMBINE : RK_REPLACE, kk + 1)) != LCAN_OK)
            break;
        for (i = s.first[kk]; i < s.first[kk + 1] && st == LCAN_OK; i++) {
            uint32_t x = s.src[i] ^ r->root, y = s.dst[i] ^ r->root;
            st = reverse ? add_msg(b, y, x) : add_msg(b, x, y);
        }
        end_round(b);
    }
    lcan_ft_sched_free(&s);
    return st;
}

/* Prefix on the recursive Broadcast (Theorem 6, spec 10.3): the rounds of lcan_ft_prefix's
 * register program, in leaf order (no root). */
static lcan_status recursive_prefix_rounds(builder *b, char *err, size_t errlen)
{
    coll_round *r = b->r;
    uint64_t w[LCAN_MAX_LEVELS + 1];
    lcan_status st;
    uint32_t x;
    int k;
    size_t i;
    if (!recursive_capacities(r->t, w, err, errlen))
        return LCAN_ERR_PATTERN;
    if ((st = lcan_ft_prefix(r->h, w, &r->pf, err, errlen)) != LCAN_OK)
        return st;
    r->use_pf = 1;
    r->reg = malloc(((size_t)r->pf.nreg + 1) * sizeof *r->reg);
    if (r->reg == NULL)
        return LCAN_ERR_NOMEM;
    for (x = 0; x < r->pf.nreg; x++)
        r->reg[x] = r->pf.reg_input[x] == LCAN_FT_NOREG ? 0 : r->a[r->pf.reg_input[x]];
    for (k = 0; k < r->pf.nrounds && st == LCAN_OK; k++) {
        if ((st = begin_round(b, RK_REG, k + 1)) != LCAN_OK)
            break;
        for (i = r->pf.first[k]; i < r->pf.first[k + 1] && st == LCAN_OK; i++)
            st = add_msg(b, r->pf.src[i], r->pf.dst[i]);
        end_round(b);
    }
    return st;
}

/* The program's local steps before round k (k = nrounds: after the last), once each, in order. */
static void pf_local_until(coll_round *r, int k)
{
    for (; r->pf_next <= k && r->pf_next <= r->pf.nrounds; r->pf_next++) {
        size_t i;
        for (i = r->pf.lfirst[r->pf_next]; i < r->pf.lfirst[r->pf_next + 1]; i++)
            r->reg[r->pf.ld[i]] = r->pf.lb[i] == LCAN_FT_NOREG ? r->reg[r->pf.la[i]]
                                                                : comb(r, r->reg[r->pf.la[i]], r->reg[r->pf.lb[i]]);
    }
}

lcan_status coll_round_build(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o, int payload_w,
                             coll_msgs *ms, coll_round **out, int64_t *model_steps, char *err, size_t errlen)
{
    coll_round *r = calloc(1, sizeof *r);
    builder b;
    lcan_status st = LCAN_OK;
    uint64_t rng = o->value_seed;
    uint32_t x;
    int k;
    size_t i;

    *out = NULL;
    if (r == NULL)
        return LCAN_ERR_NOMEM;
    r->t = t;
    r->op = op;
    r->sw_bcast = op == LCAN_COLL_BCAST;
    r->combine = o->combine;
    r->N = lcan_topo_leaves(t);
    r->h = lcan_topo_levels(t);
    r->K = clog2u(r->N);
    r->root = op == LCAN_COLL_PREFIX ? 0 : o->root;
    r->vmask = payload_w >= 32 ? 0xFFFFFFFFu : ((1u << payload_w) - 1u);
    r->last_round = -1;
    r->dlevel = r->K + 1;
    r->a = malloc(r->N * sizeof *r->a);
    r->acc = malloc(r->N * sizeof *r->acc);
    r->E = calloc(r->N, sizeof *r->E);
    r->hasE = calloc(r->N, 1);
    r->tl = calloc((size_t)r->N * (size_t)(r->K + 1), sizeof *r->tl);
    if (!r->a || !r->acc || !r->E || !r->hasE || !r->tl) {
        coll_round_free(r);
        return LCAN_ERR_NOMEM;
    }
    for (x = 0; x < r->N; x++) {
        r->a[x] = (uint32_t)lcan_rng_next(&rng) & r->vmask;
        r->acc[x] = r->a[x];
    }
    memset(&b, 0, sizeof b);
    b.r = r;
    b.ms = ms;

    if ((op == LCAN_COLL_REDUCE || op == LCAN_COLL_BCAST) && o->recursive) {
        st = recursive_rounds(&b, op == LCAN_COLL_REDUCE, err, errlen);
    } else if (op == LCAN_COLL_PREFIX && o->recursive) {
        st = recursive_prefix_rounds(&b, err, errlen);
    } else if (op == LCAN_COLL_REDUCE) {
        int k0 = o->compact;
        if (k0 <= 0 || k0 >= r->K) {
            st = binomial_reduce(&b, r->N, RK_COMBINE);
        } else {
            uint32_t M = (r->N + (1u << k0) - 1) >> k0, j;
            for (k = 1; k <= k0 && st == LCAN_OK; k++) {
                uint32_t v, half = 1u << (k - 1);
                if ((st = begin_round(&b, RK_COMBINE, k)) != LCAN_OK)
                    break;
                for (v = 0; v < r->N && st == LCAN_OK; v += 2 * half)
                    if (v + half < r->N)
                        st = add_msg(&b, phys(t, r->root, v + half), phys(t, r->root, v));
                end_round(&b);
            }
            if (st == LCAN_OK && (st = begin_round(&b, RK_REPLACE, 0)) == LCAN_OK) {
                for (j = 1; j < M && st == LCAN_OK; j++)
                    st = add_msg(&b, phys(t, r->root, j << k0), phys(t, r->root, j));
                end_round(&b);
            }
            if (st == LCAN_OK)
                st = binomial_reduce(&b, M, RK_COMBINE);
        }
    } else if (op == LCAN_COLL_BCAST) {
        for (k = r->K; k >= 1 && st == LCAN_OK; k--) {
            uint32_t v, half = 1u << (k - 1);
            if ((st = begin_round(&b, RK_REPLACE, k)) != LCAN_OK)
                break;
            for (v = 0; v < r->N && st == LCAN_OK; v += 2 * half)
                if (v + half < r->N)
                    st = add_msg(&b, phys(t, r->root, v), phys(t, r->root, v + half));
            end_round(&b);
        }
    } else if (op == LCAN_COLL_PREFIX) {
        for (k = 1; k <= r->K && st == LCAN_OK; k++) { /* up-sweep */
            uint32_t B, half = 1u << (k - 1);
            if ((st = begin_round(&b, RK_UP, k)) != LCAN_OK)
                break;
            for (B = 0; B < r->N && st == LCAN_OK; B += 2 * half)
                if (B + half < r->N) {
                    uint32_t xr = (B + 2 * half < r->N ? B + 2 * half : r->N) - 1;
                    st = add_msg(&b, B + half - 1, xr);
                }
            end_round(&b);
        }
        for (k = r->K; k >= 1 && st == LCAN_OK; k--) { /* down-sweep */
            uint32_t B, half = 1u << (k - 1);
            if ((st = begin_round(&b, RK_DOWN, k)) != LCAN_OK)
                break;
            for (B = 2 * half; B < r->N && st == LCAN_OK; B += 2 * half)
                if (B + half < r->N) {
                    uint32_t xr = (B + 2 * half < r->N ? B + 2 * half : r->N) - 1;
                    st = add_msg(&b, xr, B + half - 1);
                }
            end_round(&b);
        }
    } else {
        st = LCAN_ERR_ARG;
    }
    if (st != LCAN_OK) {
        coll_round_free(r);
        return st;
    }
    r->mkind = malloc(ms->n + 1);
    r->mlevel = malloc((ms->n + 1) * sizeof *r->mlevel);
    if (r->mkind == NULL || r->mlevel == NULL) {
        coll_round_free(r);
        return LCAN_ERR_NOMEM;
    }
    for (k = 0; k < r->nrounds; k++)
        for (i = r->rfirst[k]; i < r->rfirst[k + 1]; i++) {
            r->mkind[i] = r->rkind[k];
            r->mlevel[i] = r->rlevel[k];
        }
    *model_steps = b.steps;
    r->mbase = ms->m; /* the driver adds no message after the build */
    if (check_capacity(r, ms, err, errlen)) {
        coll_round_free(r);
        return LCAN_ERR_PATTERN;
    }
    *out = r;
    return LCAN_OK;
}

int coll_round_count(const coll_round *r) { return r->nrounds; }

void coll_round_range(const coll_round *r, int k, size_t *first, size_t *end)
{
    *first = r->rfirst[k];
    *end = r->rfirst[k + 1];
}

/* Prefix down-sweep: the local step of block level lev - every right end x of a level-lev block
 * with a right half: E(right half) = E(block) * total(left half). */
static void prefix_local(coll_round *r, int lev)
{
    uint32_t B, half = 1u << (lev - 1);
    for (B = 0; B < r->N; B += 2 * half)
        if (B + half < r->N) {
            uint32_t xr = (B + 2 * half < r->N ? B + 2 * half : r->N) - 1;
            uint32_t tlv = r->tl[(size_t)xr * (size_t)(r->K + 1) + (size_t)lev];
            r->E[xr] = r->hasE[xr] ? comb(r, r->E[xr], tlv) : tlv;
            r->hasE[xr] = 1;
        }
}

static void prefix_local_down_to(coll_round *r, int lev)
{
    while (r->dlevel - 1 >= lev && r->dlevel - 1 >= 1) {
        r->dlevel--;
        prefix_local(r, r->dlevel);
    }
}

uint32_t coll_round_payload(const coll_round *rc, const coll_msg *m)
{
    coll_round *r = (coll_round *)rc; /* the round hook updates leaf state */
    if (r->use_pf) {
        pf_local_until(r, m->round);
        return r->reg[r->pf.rs[m - r->mbase]];
    }
    if (m->round != r->last_round) {
        r->last_round = m->round;
        if (r->op == LCAN_COLL_PREFIX && r->rkind[m->round] == RK_DOWN)
            prefix_local_down_to(r, r->rlevel[m->round] + 1);
    }
    if (r->op == LCAN_COLL_PREFIX) {
        if (r->rkind[m->round] == RK_UP)
            return r->acc[m->src];
        return r->E[m->src]; /* B > 0: the block's exclusive prefix is known */
    }
    return r->acc[m->src];
}

void coll_round_deliver(coll_round *r, const coll_msg *m, uint32_t v)
{
    int kind = r->rkind[m->round];
    v &= r->vmask;
    switch (kind) {
    case RK_COMBINE: r->acc[m->dst] = comb(r, r->acc[m->dst], v); break;
    case RK_REPLACE: r->acc[m->dst] = v; break;
    case RK_UP:
        r->tl[(size_t)m->dst * (size_t)(r->K + 1) + (size_t)r->rlevel[m->round]] = v;
        r->acc[m->dst] = comb(r, v, r->acc[m->dst]);
        break;
    case RK_DOWN:
        r->E[m->dst] = v;
        r->hasE[m->dst] = 1;
        break;
    case RK_REG: r->reg[r->pf.rd[m - r->mbase]] = v; break;
    default: break;
    }
}

uint64_t coll_round_verify(const coll_round *rc)
{
    coll_round *r = (coll_round *)rc;
    uint64_t bad = 0;
    uint32_t x, ref;
    if (r->op == LCAN_COLL_REDUCE) {
        ref = r->a[0];
        for (x = 1; x < r->N; x++)
            ref = comb(r, ref, r->a[x]);
        return r->acc[r->root] != ref;
    }
    if (r->op == LCAN_COLL_BCAST) {
        for (x = 0; x < r->N; x++)
            bad += r->acc[x] != r->a[r->root];
        return bad;
    }
    if (r->use_pf) {
        pf_local_until(r, r->pf.nrounds);
        for (x = 0; x < r->N; x++) {
            ref = x == 0 ? r->a[0] : comb(r, ref, r->a[x]);
            bad += r->reg[r->pf.result[x]] != ref;
        }
        return bad;
    }
    prefix_local_down_to(r, 1);
    ref = 0;
    for (x = 0; x < r->N; x++) {
        uint32_t got = r->hasE[x] ? comb(r, r->E[x], r->a[x]) : r->a[x];
        ref = x == 0 ? r->a[0] : comb(r, ref, r->a[x]);
        bad += got != ref;
    }
    return bad;
}

void coll_round_free(coll_round *r)
{
    if (r == NULL)
        return;
    free(r->rfirst);
    free(r->rlevel);
    free(r->rkind);
    free(r->mkind);
    free(r->mlevel);
    free(r->a);
    free(r->acc);
    free(r->tl);
    free(r->E);
    free(r->hasE);
    free(r->reg);
    lcan_ft_prefix_free(&r->pf);
    free(r);
}
