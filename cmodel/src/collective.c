/*
 * collective.c - the collective-operation driver (lcan_collective.h) and the schedules of bcast,
 * scatter, gather, mnb and alltoall. reduce / prefix / leaf broadcast are round programs
 * (collective_round.c) run by the same driver.
 *
 * Ticks: tick 0 is the reset tick (rst = 1, seed = net_seed, no injection). On tick t >= 1 each
 * leaf injects the next packet of its list whose release tick is <= t on the lowest-numbered port
 * whose inj_ready (output of tick t-1) is 1 and that the packet may use; a due packet that finds no
 * ready port waits (counted in inj_stalls). steps = the last tick whose outputs carry a delivery.
 * After the last expected delivery the driver ticks 2h + 4 more idle ticks; a delivery then is an
 * error (duplicate / stray).
 *
 * max_queue - what is measured, exactly. The debug view (spec 9) gives cr_o of every switch output
 * o after each tick; level-1 downers (cr unused) are skipped. Let out(t) = DEPTH - cr_o(t): the
 * flits sent on o and not yet credited back. The FIFO fed by o holds
 *     occ(t) = out(t) - s(t) - c(t)
 * where s(t) = 1 if o sent a flit on tick t (still on the wire) and c(t) = 1 if the receiver
 * consumed one on tick t (its credit is on the wire). Since out(t) - out(t-1) = s(t) - c(t-1):
 *     out(t) - out(t-1) = +1 => s(t) = 1, c(t-1) = 0;   = -1 => s(t) = 0, c(t-1) = 1;
 *     = 0 => undetermined (both or neither).
 * max_queue is the largest lower bound: undetermined s(t) / c(t) are taken as 1. It is exact while
 * a channel streams at full rate or idles, and may be up to 2 low on a channel whose receiver is
 * stalled with a full-rate history; max_queue_ub takes undetermined ones as 0 (an upper bound).
 * Both are functions of the pins only, hence equal on every engine.
 *
 * Faults (o->faults, spec 14.4-14.5; bcast with hardware trees and one flit only): the fault pins
 * are presented from tick 1 on, the rows that differ from all ones are written on ticks
 * 1..fault_rows, and the root sends its flit on every tree t whose leaf port t*p_1 is not off,
 * released on tick fault_rows + 1. Copies may vanish (an off port is never granted, spec 14.3), so
 * a missing copy is no error: a leaf is reached when a copy of any tree arrives, and the op is
 * correct when no delivery is wrong or duplicated and exactly the leaves that some tree's intact
 * path leads to (tree_expect, walked on the wiring) are reached — with fewer than w_1 off elements
 * that is every leaf (seed 002 Theorem 3); `cut` still counts the leaves unicast cannot reach.
 * The run ends 2h + 4 ticks after the last of those leaves is reached, or 4h + 16 ticks after the
 * last injection or delivery.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective_internal.h"
#include "lcan_faults.h"

/* ------------------------------------------------------------------ small helpers */

void lcan_coll_opts_default(lcan_coll_opts *o)
{
    memset(o, 0, sizeof *o);
    o->flits = 1;
    o->trees = 1;
    o->combine = LCAN_COMB_SUM;
    o->depth = 4;
    o->payload_w = 16;
    o->net_seed = 1;
    o->value_seed = 1;
    o->flood = 1;
    o->up_choice = LCAN_UP_UNIFORM;
    o->flood_q = -1;
}

static const char *const op_names[] = {"bcast", "scatter", "gather", "mnb", "alltoall", "reduce", "prefix"};

const char *lcan_coll_op_name(lcan_coll_op op)
{
    if ((int)op < 0 || (size_t)op >= sizeof op_names / sizeof op_names[0])
        return "?";
    return op_names[op];
}

int lcan_coll_op_parse(const char *name, lcan_coll_op *op)
{
    size_t k;
    for (k = 0; k < sizeof op_names / sizeof op_names[0]; k++)
        if (strcmp(name, op_names[k]) == 0) {
            *op = (lcan_coll_op)k;
            return 1;
        }
    return 0;
}

coll_msg *coll_add(coll_msgs *ms, uint32_t src, uint32_t dst, uint32_t release, int port)
{
    coll_msg *m;
    if (ms->n == ms->cap) {
        size_t nc = ms->cap ? 2 * ms->cap : 256;
        coll_msg *nm = realloc(ms->m, nc * sizeof *nm);
        if (nm == NULL)
            return NULL;
        ms->m = nm;
        ms->cap = nc;
    }
    m = &ms->m[ms->n++];
    memset(m, 0, sizeof *m);
    m->src = src;
    m->dst = dst;
    m->release = release;
    m->round = -1;
    m->port = (int16_t)port;
    return m;
}

/* All m_i = 2 (a binary tree: seed 000 / 001's setting). */
static int is_binary(const lcan_topo *t)
{
    int l;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        if (lcan_topo_m(t, l) != 2)
            return 0;
    return 1;
}

/* Binary and w_i = 1: a BFT of seed 000, branch capacity c_i = p_i. */
static int is_bft(const lcan_topo *t)
{
    int l;
    if (!is_binary(t))
        return 0;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        if (lcan_topo_w(t, l) != 1)
            return 0;
    return 1;
}

static uint32_t bitrev(uint32_t x, int bits)
{
    uint32_t r = 0;
    int k;
    for (k = 0; k < bits; k++)
        r |= ((x >> k) & 1u) << (bits - 1 - k);
    return r;
}

static int64_t ceil_div64(int64_t a, int64_t b) { return (a + b - 1) / b; }

void lcan_collective_engine_cfg(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o,
                                int *payload_w, int *depth, int *flood_q)
{
    uint64_t N = lcan_topo_leaves(t), ids;
    int pw = 16, d = 4;
    switch (op) {
    case LCAN_COLL_ALLTOALL: ids = N * (N - 1) + N * N; break; /* phased schedules, fallback */
    case LCAN_COLL_BCAST: ids = (o != NULL && o->flits > 0) ? (uint64_t)o->flits : 1; break;
    case LCAN_COLL_REDUCE:
    case LCAN_COLL_PREFIX: ids = 0; pw = 32; break; /* values: wider is nicer; 16 would work */
    default: ids = 2 * N; break;
    }
    if (ids > 0xFFFFu)
        pw = 32;
    if (op == LCAN_COLL_MNB)
        d = N > 255 ? 255 : (N < 4 ? 4 : (int)N);
    if (payload_w != NULL)
        *payload_w = pw;
    if (depth != NULL)
        *depth = d;
    if (flood_q != NULL) {
        if (o != NULL && o->flood_q >= 0)
            *flood_q = o->flood_q;
        else /* seed 000 4: a queue per outgoing link; a CBFT's longest holds 2^(h-2) = N/4 */
            *flood_q = op == LCAN_COLL_MNB && (o == NULL || o->flood) ? d : 0;
    }
}

/* ------------------------------------------------------------------ schedules */

typedef struct {
    int64_t paper, expect;
    const char *paper_ref, *expect_ref;
    int paper_is_bound;
} sched_info;

static lcan_status sched_bcast(const lcan_topo *t, const lcan_coll_opts *o, coll_msgs *ms, sched_info *si,
                               char *err, size_t errlen)
{
    int h = lcan_topo_levels(t), w1 = lcan_topo_w(t, 1), p1 = lcan_topo_p(t, 1), j;
    int K = o->flits, T = o->trees;
    if (K < 1 || T < 1 || T > w1) {
        snprintf(err, errlen, "bcast: need flits >= 1 and 1 <= trees <= w1 = %d (edge-disjoint trees, spec 8.5)", w1);
        return LCAN_ERR_PATTERN;
    }
    for (j = 0; j < K; j++) {
        int tr = j % T;
        coll_msg *m = coll_add(ms, o->root, 0, 1, tr * p1);
        if (m == NULL)
            return LCAN_ERR_NOMEM;
        m->bcast = o->flood ? 2 : 1;
        m->tree = (uint16_t)tr;
    }
    si->expect = 2 * h + ceil_div64(K, T) - 1;
    si->expect_ref = o->flood ? "2h + ceil(K/T) - 1: flooding on T edge-disjoint trees, one flit per tick each; the "
                                "leaves at LCA level h get it last (2h ticks, spec 8.6)"
                              : "2h + ceil(K/T) - 1: the T trees are edge-disjoint, each carries one flit per tick";
    if (K == 1) {
        si->paper = 2 * h;
        si->paper_ref = is_binary(t) ? "seed 000 Table 1 / section 2.1: broadcasting in 2 log n steps"
                                     : "seed 002 section 5.2: broadcasting in at most 2h steps";
    } else {
        si->paper_ref = "seed 002 Thm 3: w1 edge-disjoint spanning trees (no step count for K flits)";
    }
    return LCAN_OK;
}

/* Farthest-first order from root: leaves by LCA level, highest first, then by number. Fills
 * order[0..N-2] and the dispatch tick a[] (1 + k / U0 for the k-th). Returns the scatter's
 * completion tick when nothing interferes: max(a + 2L - 1). */
static int64_t farthest_first(const lcan_topo *t, uint32_t root, uint32_t *order, uint32_t *a)
{
    uint32_t N = lcan_topo_leaves(t), d, k = 0;
    int h = lcan_topo_levels(t), U0 = lcan_topo_leaf_ports(t), L;
    int64_t T = 0;
    for (L = h; L >= 1; L--)
        for (d = 0; d < N; d++)
            if (d != root && lcan_topo_lca_level(t, root, d) == L) {
                int64_t e;
                order[k] = d;
                a[k] = 1 + k / (uint32_t)U0;
                e = (int64_t)a[k] + 2 * L - 1;
                if (e > T)
                    T = e;
                k++;
            }
    return T;
}

static lcan_status sched_scatter_gather(const lcan_topo *t, const lcan_coll_opts *o, int gather, coll_msgs *ms,
                                        sched_info *si)
{
    uint32_t N = lcan_topo_leaves(t), k;
    uint32_t *order = malloc((size_t)N * sizeof *order), *a = malloc((size_t)N * sizeof *a);
    int h = lcan_topo_levels(t);
    int64_t T;
    if (order == NULL || a == NULL) {
        free(order);
        free(a);
        return LCAN_ERR_NOMEM;
    }
    T = farthest_first(t, o->root, order, a);
    for (k = 0; k + 1 < N; k++) {
        uint32_t d = order[k];
        int L = lcan_topo_lca_level(t, o->root, d);
        /* the k-th scatter packet leaves on port k mod U0 (all ports ready); its reverse enters on the
         * same port number, which fixes the level-1 switch (b_1) it reaches the root through */
        int port = (int)(k % (uint32_t)lcan_topo_leaf_ports(t));
        coll_msg *m = gather ? coll_add(ms, d, o->root, (uint32_t)(T + 2 - (int64_t)a[k] - 2 * L), port)
                             : coll_add(ms, o->root, d, a[k], -1);
        if (m == NULL) {
            free(order);
            free(a);
            return LCAN_ERR_NOMEM;
        }
    }
    free(order);
    free(a);
    si->expect = T;
    si->expect_ref = gather ? "time-reversed farthest-first schedule: max over d of (a_d + 2 L_d - 1)"
                            : "farthest-first, U0 packets per tick: max over d of (a_d + 2 L_d - 1)";
    if (is_binary(t) && lcan_topo_leaf_ports(t) == 1) {
        /* seed 000 Thm 1: T = max_i (n - 2^(i-1) + 2i - 1), = n + 1 for n >= 4 */
        int64_t best = 0, i;
        for (i = 1; i <= h; i++) {
            int64_t Ti = (int64_t)N - ((int64_t)1 << (i - 1)) + 2 * i - 1;
            if (Ti > best)
                best = Ti;
        }
        si->paper = best;
        si->paper_ref = gather ? "seed 000 section 3 (gather = reversed scatter) / Thm 1: n + 1"
                               : "seed 000 Thm 1: farthest-first scattering in n + 1 steps";
    } else {
        si->paper_ref = "seed 000 Thm 1 covers binary trees with one port per leaf only";
    }
    return LCAN_OK;
}

static lcan_status sched_mnb(const lcan_topo *t, const lcan_coll_opts *o, coll_msgs *ms, sched_info *si)
{
    uint32_t N = lcan_topo_leaves(t), s;
    int h = lcan_topo_levels(t), w1 = lcan_topo_w(t, 1), p1 = lcan_topo_p(t, 1);
    for (s = 0; s < N; s++) {
        int tr = (int)(s % (uint32_t)w1);
        coll_msg *m = coll_add(ms, s, 0, 1, tr * p1);
        if (m == NULL)
            return LCAN_ERR_NOMEM;
        m->bcast = o->flood ? 2 : 1;
        m->tree = (uint16_t)tr;
    }
    if (o->flood) {
        /* every leaf sends and receives n - 1 flits over its one link; seed 000 section 2's
         * argument and Thm 2 give n + 1 on a CBFT. No count of our own beyond the paper's. */
        if (is_bft(t) && N >= 4) { /* (a flood uses parallel link 0 only: the tree is a CBFT) */
            si->expect = (int64_t)N + 1;
            si->expect_ref = "n + 1: seed 000 Thm 2's flooding (every switch forwards each flit to every other "
                             "direction of the tree at once, spec 8.6)";
        }
    } else {
        si->expect = ceil_div64(N, w1) + 2 * h - 1;
        si->expect_ref = "ceil(N/w1) + 2h - 1: the top switch of each tree forwards one broadcast per tick";
    }
    if (is_bft(t) && N >= 4) {
        si->paper = (int64_t)N + 1;
        si->paper_ref = o->flood ? "seed 000 Thm 2: flooding, n + 1 steps (CBFT); queues 2^(i-1) at level i (section 4.1)"
                                 : "seed 000 Thm 2: flooding, n + 1 steps (CBFT); this run uses tree broadcasts "
                                   "(spec 8.5), not flooding";
    } else {
        si->paper_ref = "seed 000 Thm 2 (flooding, n + 1) is stated for binary fat trees";
    }
    return LCAN_OK;
}

/* Total exchange. On a BFT (binary, w = 1): seed 000 section 5's phases, level H = h .. 1; in the
 * phase of level H every level-H subtree exchanges its s^2 messages each way (s = 2^(H-1)) between
 * its halves, c' per step per direction, c' = the largest power of two <= min(c_H, s). Message
 * q = 0..s^2-1 of a direction: r = q / s, a = q mod s, from half offset bitrev(a) to bitrev(a ^ r),
 * step q / c' of the phase: the c' messages of a step have distinct sources and destinations, one
 * per subtree of s/c' leaves (so a capacity c_j >= c' 2^(j-H) below suffices). Pipelined: the
 * next phase starts 2 ticks after this phase's last injection (formula 2); phased: when this
 * phase's last packet has arrived (formula 1). Other networks: every leaf k sends to k+1, k+2, ..
 * (mod N), one per tick, no paper count. */
static lcan_status sched_alltoall(const lcan_topo *t, const lcan_coll_opts *o, coll_msgs *ms, sched_info *si)
{
    uint32_t N = lcan_topo_leaves(t);
    int h = lcan_topo_levels(t), H;
    int64_t start = 1, sumK = 0, sumPaper = 0;
    if (!is_bft(t)) {
        uint32_t k, j;
        for (k = 0; k < N; k++)
            for (j = 1; j < N; j++)
                if (coll_add(ms, k, (k + j) % N, j, -1) == NULL)
                    return LCAN_ERR_NOMEM;
        si->paper_ref = "seed 000 section 5 covers binary fat trees only (shifted schedule used)";
        return LCAN_OK;
    }
    for (H = h; H >= 1; H--) {
        uint32_t s = 1u << (H - 1), lim = (uint32_t)lcan_topo_p(t, H), cp = 1, q, blk;
        int64_t K, c = lcan_topo_p(t, H);
        if (lim > s)
            lim = s;
        while (cp * 2 <= lim)
            cp *= 2;
        K = ((int64_t)s * s) / cp;
        for (blk = 0; blk < (N >> H); blk++) {
            uint32_t baseL = blk << H, baseR = baseL + s;
            for (q = 0; q < s * s; q++) {
                uint32_t r = q / s, a = q % s;
                uint32_t so = bitrev(a, H - 1), dof = bitrev(a ^ r, H - 1);
                uint32_t rel = (uint32_t)(start + q / cp);
                if (coll_add(ms, baseL + so, baseR + dof, rel, -1) == NULL ||
                    coll_add(ms, baseR + so, baseL + dof, rel, -1) == NULL)
                    return LCAN_ERR_NOMEM;
            }
        }
        sumK += K;
        sumPaper += ceil_div64((int64_t)1 << (2 * (H - 1)), c);
        start += o->phased ? K + 2 * H - 1 : K + 2;
    }
    if (o->phased) {
        si->expect = sumK + (int64_t)h * h;
        si->paper = sumPaper + (int64_t)h * h;
        si->paper_ref = "seed 000 formula (1): sum ceil(4^(i-1)/c_i) + (log n)^2 (phases in sequence)";
    } else {
        si->expect = sumK + 2 * h - 1;
        si->paper = sumPaper + 2 * h - 1;
        si->paper_ref = "seed 000 formula (2): sum ceil(4^(i-1)/c_i) + 2 log n - 1 (pipelined phases)";
    }
    si->expect_ref = "formula with c' = largest power of two <= min(c_i, 2^(i-1)) per step";
    return LCAN_OK;
}

/* ------------------------------------------------------------------ the driver */

typedef struct {
    const lcan_topo *t;
    uint32_t N, NP;
    int U0, h, pw, aw, p1;
    uint64_t pmask, amask;
    coll_msgs ms;
    uint32_t *lfirst, *lidx, *lhead; /* per-source lists (CSR) and next position */
    uint32_t *bidx;                  /* message -> broadcast number */
    uint8_t *bseen;                  /* broadcast number * N + leaf */
    uint32_t *expect;                /* round programs: leaf -> message expected this round */
    coll_round *rp;
    int cur_round;
    size_t round_left;
    uint8_t *inj_valid, *inj_ready, *inj_ack, *ej_valid, *ej_ack;
    uint64_t *inj_flit, *ej_flit;
    uint32_t cnt[3][LCAN_MAX_LEVELS];
    /* debug view */
    size_t ndbg, ncr;                /* the view's bytes; its first block (cr_o of every output) */
    uint8_t *dbg;                    /* ndbg = 2 ncr: the second block holds the flood queues' q_o */
    int16_t *o2, *o1; /* out(t-2), out(t-1) per byte */
    int ub_up[LCAN_MAX_LEVELS + 1], ub_down[LCAN_MAX_LEVELS + 1]; /* queue_up / queue_down's upper bounds */
    uint8_t *reached;                /* faults: per leaf, a copy arrived */
    uint8_t *tree_ok;                /* faults: per leaf, some tree's path to it is intact */
    uint32_t nreached;
    uint64_t last_event;             /* faults: last tick with an injection or a delivery */
} coll_drv;

static void drv_free(coll_drv *d)
{
    free(d->ms.m);
    free(d->lfirst); free(d->lidx); free(d->lhead); free(d->bidx); free(d->bseen); free(d->expect);
    free(d->inj_valid); free(d->inj_ready); free(d->inj_ack); free(d->ej_valid); free(d->ej_ack);
    free(d->inj_flit); free(d->ej_flit);
    free(d->dbg); free(d->o1); free(d->o2); free(d->reached); free(d->tree_ok);
    coll_round_free(d->rp);
}

typedef struct { uint32_t rel, idx; } sort_key;

static int key_cmp(const void *pa, const void *pb)
{
    const sort_key *a = pa, *b = pb;
    if (a->rel != b->rel)
        return a->rel < b->rel ? -1 : 1;
    return a->idx < b->idx ? -1 : (a->idx > b->idx ? 1 : 0);
}

/* Per-source lists sorted by (release, index). */
static lcan_status build_lists(coll_drv *d)
{
    size_t i, n = d->ms.n;
    uint32_t x;
    sort_key *keys;
    d->lfirst = calloc((size_t)d->N + 1, sizeof *d->lfirst);
    d->lidx = malloc((n ? n : 1) * sizeof *d->lidx);
    d->lhead = calloc(d->N, sizeof *d->lhead);
    keys = malloc((n ? n : 1) * sizeof *keys);
    if (d->lfirst == NULL || d->lidx == NULL || d->lhead == NULL || keys == NULL) {
        free(keys);
        return LCAN_ERR_NOMEM;
    }
    for (i = 0; i < n; i++)
        d->lfirst[d->ms.m[i].src + 1]++;
    for (x = 0; x < d->N; x++)
        d->lfirst[x + 1] += d->lfirst[x];
    for (x = 0; x < d->N; x++)
        d->lhead[x] = d->lfirst[x];
    for (i = 0; i < n; i++) {
        uint32_t s = d->ms.m[i].src;
        keys[d->lhead[s]].rel = d->ms.m[i].round >= 0 ? (uint32_t)d->ms.m[i].round : d->ms.m[i].release;
        keys[d->lhead[s]].idx = (uint32_t)i;
        d->lhead[s]++;
    }
    for (x = 0; x < d->N; x++) {
        qsort(keys + d->lfirst[x], d->lfirst[x + 1] - d->lfirst[x], sizeof *keys, key_cmp);
        d->lhead[x] = d->lfirst[x];
    }
    for (i = 0; i < n; i++)
        d->lidx[i] = keys[i].idx;
    free(keys);
    return LCAN_OK;
}

/* bcast: 0 unicast, 1 tree broadcast, 2 flooding broadcast (head = 1, spec 3 / 8.6). */
static uint64_t mkflit(const coll_drv *d, int bcast, uint32_t dest, uint32_t payload)
{
    return ((uint64_t)payload & d->pmask) | ((uint64_t)dest << d->pw) | ((uint64_t)(bcast != 0) << (d->pw + d->aw)) |
           ((uint64_t)(bcast == 2) << (d->pw + d->aw + 1));
}

/* Release round k of a round program at tick `at`. */
static void release_round(coll_drv *d, int k, uint32_t at, lcan_coll_result *res)
{
    size_t i, first, end;
    coll_round_range(d->rp, k, &first, &end);
    d->cur_round = k;
    d->round_left = end - first;
    for (i = first; i < end; i++) {
        coll_msg *m = &d->ms.m[i];
        m->release = at;
        m->payload = coll_round_payload(d->rp, m) & (uint32_t)d->pmask;
        if (d->expect[m->dst] != COLL_NONE)
            res->errors++; /* two messages for one leaf in a round: not a round-model program */
        d->expect[m->dst] = (uint32_t)i;
    }
    res->rounds = k + 1;
}

/* Queue inference for tick t-1 from out(t-2), out(t-1), out(t) (see the file header). */
static void queue_update(coll_drv *d, const uint8_t *cur, int depth, lcan_coll_result *res, int final)
{
    int l, h = d->h;
    size_t b = 0;
    for (l = 1; l <= h; l++) {
        uint32_t S = lcan_topo_switches(d->t, l), x;
        int D = lcan_topo_downers(d->t, l), P = D + lcan_topo_uppers(d->t, l), p;
        for (x = 0; x < S; x++)
            for (p = 0; p < P; p++, b++) {
                int o0, o1, o2, d1, d0, sh, ch, lb, ub;
                if (l == 1 && p < D)
                    continue; /* level-1 downers: cr unused */
                o2 = d->o2[b];
                o1 = d->o1[b];
                o0 = final ? o1 : depth - (int)cur[b];
                d1 = o1 - o2;
                d0 = o0 - o1;
                sh = d1 == -1 ? 0 : 1;
                ch = d0 == 1 ? 0 : 1;
                lb = o1 - sh - ch;
                ub = o1 - (d1 == 1) - (d0 == -1);
                if (lb < 0)
                    lb = 0;
                if (lb > res->max_queue)
                    res->max_queue = lb;
                if (ub > res->max_queue_ub)
                    res->max_queue_ub = ub;
                if (o1 > res->max_outstanding)
                    res->max_outstanding = o1;
                if (p < D) {
                    if (lb > res->queue_down[l])
                        res->queue_down[l] = lb;
                    if (ub > d->ub_down[l])
                        d->ub_down[l] = ub;
                } else {
                    if (lb > res->queue_up[l])
                        res->queue_up[l] = lb;
                    if (ub > d->ub_up[l])
                        d->ub_up[l] = ub;
                }
            }
    }
}

static void queue_shift(coll_drv *d, const uint8_t *cur, int depth)
{
    size_t b;
    for (b = 0; b < d->ncr; b++) {
        d->o2[b] = d->o1[b];
        d->o1[b] = (int16_t)(depth - (int)cur[b]);
    }
}

/* The flood queues (spec 8.7), read directly: the view's second block holds q_o after the tick,
 * in the first block's order. */
static void flood_update(const coll_drv *d, const uint8_t *cur, lcan_coll_result *res)
{
    const uint8_t *q = cur + d->ncr;
    int l;
    for (l = 1; l <= d->h; l++) {
        uint32_t S = lcan_topo_switches(d->t, l), x;
        int D = lcan_topo_downers(d->t, l), P = D + lcan_topo_uppers(d->t, l), p;
        for (x = 0; x < S; x++, q += P)
            for (p = 0; p < P; p++) {
                int *peak = p < D ? &res->flood_down[l] : &res->flood_up[l];
                if (q[p] > *peak)
                    *peak = q[p];
            }
    }
}

/* Handle the ejections of tick t. Returns deliveries seen. */
static uint64_t read_ejections(coll_drv *d, uint64_t t, lcan_coll_result *res)
{
    uint32_t q;
    uint64_t got = 0;
    for (q = 0; q < d->NP; q++) {
        uint64_t f;
        uint32_t leaf, payload, dest, id;
        int bcast;
        coll_msg *m;
        if (!d->ej_valid[q])
            continue;
        f = d->ej_flit[q];
        leaf = q / (uint32_t)d->U0;
        payload = (uint32_t)(f & d->pmask);
        dest = (uint32_t)((f >> d->pw) & d->amask);
        bcast = (int)((f >> (d->pw + d->aw)) & 1u);
        got++;
        res->deliveries++;
        res->steps = t;
        if (d->rp != NULL) {
            id = d->expect[leaf];
            if (id == COLL_NONE) {
                res->errors++;
                continue;
            }
            m = &d->ms.m[id];
            d->expect[leaf] = COLL_NONE;
            if (bcast || dest != lcan_topo_pack(d->t, m->dst))
                res->errors++;
            coll_round_deliver(d->rp, m, payload);
            m->got++;
            if (d->round_left > 0)
                d->round_left--;
            continue;
        }
        id = payload;
        if (id >= d->ms.n) {
            res->errors++;
            continue;
        }
        m = &d->ms.m[id];
        if (m->bcast) {
            size_t bit = (size_t)d->bidx[id] * d->N + leaf;
            int head = (int)((f >> (d->pw + d->aw + 1)) & 1u);
            if (!bcast || dest != m->tree || (int)(q % (uint32_t)d->U0) != m->tree * d->p1 || d->bseen[bit] ||
                head != (m->bcast == 2) || (m->bcast == 2 && leaf == m->src))
                res->errors++; /* a flooding broadcast never returns to its source (spec 8.6) */
            d->bseen[bit] = 1;
            m->got++;
            if (d->reached != NULL && !d->reached[leaf]) {
                d->reached[leaf] = 1;
                d->nreached++;
            }
            d->last_event = t;
        } else {
            if (bcast || leaf != m->dst || dest != lcan_topo_pack(d->t, m->dst) || m->got != 0)
                res->errors++;
            m->got++;
        }
    }
    return got;
}

/* Faults: mark in `expect` the leaves that some tree broadcast of the root can reach (spec 8.5,
 * 8.6, 14.3): tree t climbs from the root's leaf port t*p_1 through upper 0 at every level to its top
 * switch and descends through parallel link 0 to every child (a flooding broadcast also descends
 * from every switch of the climb); a copy dies at the first port that is off (a request for upper 0
 * is unroutable, an ALL request skips off children). Walked on the wiring (lcan_topo_neighbor),
 * independently of the reach rows. */
static void tree_descend(const lcan_topo *t, const lcan_faults *f, int level, uint32_t x, uint8_t *expect)
{
    int m = lcan_topo_m(t, level), p = lcan_topo_p(t, level);
    for (int c = 0; c < m; c++) {
        lcan_end a = { level, x, c * p }, b;
        if (lcan_faults_port_off(t, f, level, x, c * p) || lcan_topo_neighbor(t, a, &b) != LCAN_OK)
            continue;
        if (b.level == 0)
            expect[b.node] = 1;
        else
            tree_descend(t, f, b.level, b.node, expect);
    }
}

static void tree_expect(const lcan_topo *t, const lcan_faults *f, uint32_t root, int flood,
                        uint8_t *expect)
{
    int h = lcan_topo_levels(t), w1 = lcan_topo_w(t, 1), p1 = lcan_topo_p(t, 1);
    for (int tr = 0; tr < w1; tr++) {
        lcan_end a = { 0, root, tr * p1 }, b;
        if (lcan_faults_port_off(t, f, 0, root, tr * p1) || lcan_topo_neighbor(t, a, &b) != LCAN_OK)
            continue;
        while (b.level < h) {
            int up0 = lcan_topo_downers(t, b.level);
            if (flood) /* flooding copies go down at every switch of the climb (spec 8.6) */
                tree_descend(t, f, b.level, b.node, expect);
            lcan_end c = { b.level, b.node, up0 };
            if (lcan_faults_port_off(t, f, b.level, b.node, up0) || lcan_topo_neighbor(t, c, &b) != LCAN_OK)
                break;
        }
        if (b.level == h)
            tree_descend(t, f, h, b.node, expect);
    }
}

static void present_inputs(coll_drv *d, uint64_t t, lcan_coll_result *res)
{
    uint32_t x;
    memset(d->inj_valid, 0, d->NP);
    memset(d->inj_flit, 0, (size_t)d->NP * sizeof *d->inj_flit);
    for (x = 0; x < d->N; x++) {
        int p, due = 0;
        for (p = 0; p < d->U0; p++) {
            uint32_t q = x * (uint32_t)d->U0 + (uint32_t)p;
            coll_msg *m;
            if (d->lhead[x] >= d->lfirst[x + 1])
                break;
            m = &d->ms.m[d->lidx[d->lhead[x]]];
            if (m->release == COLL_NOT_RELEASED || (uint64_t)m->release > t)
                break;
            due = 1;
            if (!d->inj_ready[q] || (m->port >= 0 && m->port != p))
                continue;
            d->inj_valid[q] = 1;
            d->inj_flit[q] = m->bcast ? mkflit(d, m->bcast, m->tree, (uint32_t)(m - d->ms.m))
                                      : mkflit(d, 0, lcan_topo_pack(d->t, m->dst),
                                               d->rp != NULL ? m->payload : (uint32_t)(m - d->ms.m));
            d->lhead[x]++;
            res->messages++;
            d->last_event = t;
            due = 0;
        }
        if (due && d->lhead[x] < d->lfirst[x + 1]) {
            coll_msg *m = &d->ms.m[d->lidx[d->lhead[x]]];
            if (m->release != COLL_NOT_RELEASED && (uint64_t)m->release <= t)
                res->inj_stalls++;
        }
    }
}

lcan_status lcan_collective_run(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o,
                                lcan_tick_fn tick, void *engine, lcan_coll_result *res)
{
    coll_drv d;
    sched_info si;
    lcan_status st = LCAN_OK;
    lcan_in in;
    lcan_out out;
    uint64_t want = 0, have = 0, tk, limit, idle_after = 0;
    size_t i;
    uint32_t nb = 0, need = 0;
    int round_prog;
    lcan_reach *reach = NULL;
    lcan_fault_sched sched = {NULL, 0};

    if (t == NULL || o == NULL || tick == NULL || res == NULL)
        return LCAN_ERR_ARG;
    memset(res, 0, sizeof *res);
    res->paper_steps = -1;
    res->expect_steps = -1;
    res->paper_ref = "";
    res->expect_ref = "";
    res->lower_bound = -1;
    res->lower_bound_ref = "";
    res->max_queue = res->max_queue_ub = res->max_outstanding = -1;
    for (i = 0; i <= LCAN_MAX_LEVELS; i++)
        res->queue_peak[i] = res->queue_peak_ub[i] = res->flood_up[i] = res->flood_down[i] = -1;
    memset(&d, 0, sizeof d);
    memset(&si, 0, sizeof si);
    si.paper = si.expect = -1;
    si.paper_ref = si.expect_ref = "";
    d.t = t;
    d.N = lcan_topo_leaves(t);
    d.NP = lcan_topo_ports(t);
    d.U0 = lcan_topo_leaf_ports(t);
    d.h = lcan_topo_levels(t);
    d.p1 = lcan_topo_p(t, 1);
    d.pw = o->payload_w;
    d.aw = lcan_topo_addr_width(t);
    if (d.pw < 1 || d.pw > 32 || o->depth < 1 || o->depth > 255 || o->flood_q < -1 || o->flood_q > 255 ||
        o->root >= d.N)
        return LCAN_ERR_ARG;
    d.pmask = ((uint64_t)1 << d.pw) - 1u;
    d.amask = ((uint64_t)1 << d.aw) - 1u;
    round_prog = op == LCAN_COLL_REDUCE || op == LCAN_COLL_PREFIX || (op == LCAN_COLL_BCAST && o->sw_bcast);

    if (o->faults != NULL && (op != LCAN_COLL_BCAST || o->sw_bcast || o->flits != 1)) {
        snprintf(res->err, sizeof res->err,
                 "faults: only --op bcast with hardware trees (--algo hw) and one flit runs under faults (spec 14.5)");
        st = LCAN_ERR_PATTERN;
        goto done;
    }
    if (o->faults != NULL) {
        st = lcan_reach_new(t, o->faults, &reach);
        if (st == LCAN_OK)
            st = lcan_fault_sched_rows(t, NULL, reach, &sched);
        if (st != LCAN_OK) {
            snprintf(res->err, sizeof res->err, "faults: %s", st == LCAN_ERR_PARAM ? "reach tables too large" : lcan_strerror(st));
            goto done;
        }
        res->fault_rows = sched.nrows;
    }
    if (reach != NULL) {
        int tr, w1 = lcan_topo_w(t, 1);
        for (tr = 0; tr < w1; tr++) {
            coll_msg *m;
            if (lcan_reach_port_off(reach, o->root * (uint32_t)d.U0 + (uint32_t)(tr * d.p1)))
                continue;
            if ((m = coll_add(&d.ms, o->root, 0, (uint32_t)(1 + sched.nrows), tr * d.p1)) == NULL) {
                st = LCAN_ERR_NOMEM;
                goto done;
            }
            m->bcast = o->flood ? 2 : 1;
            m->tree = (uint16_t)tr;
            res->trees_used++;
        }
        si.expect = 2 * d.h + (int64_t)sched.nrows;
        si.expect_ref = "2h after the row writes (spec 8.5-8.6: every tree is edge-disjoint from the others)";
        si.paper = 2 * d.h;
        si.paper_ref = "seed 002 Thm 3: w1 edge-disjoint spanning trees survive w1 - 1 faults; 2h steps";
    } else if (round_prog) {
        st = coll_round_build(t, op, o, d.pw, &d.ms, &d.rp, &si.expect, res->err, sizeof res->err);
        si.expect_ref = "round model: sum over rounds of 2 x (highest LCA level of the round)";
        si.paper = coll_seed001_bound(t);
        si.paper_is_bound = 1;
        si.paper_ref = si.paper >= 0
                           ? "seed 001 Thm 3 relation (8): round-model lower bound for broadcast; Thm 6: same for product/prefix"
                           : "seed 001 bounds are for binary trees with log N >= 2";
    } else {
        switch (op) {
        case LCAN_COLL_BCAST: st = sched_bcast(t, o, &d.ms, &si, res->err, sizeof res->err); break;
        case LCAN_COLL_SCATTER: st = sched_scatter_gather(t, o, 0, &d.ms, &si); break;
        case LCAN_COLL_GATHER: st = sched_scatter_gather(t, o, 1, &d.ms, &si); break;
        case LCAN_COLL_MNB: st = sched_mnb(t, o, &d.ms, &si); break;
        case LCAN_COLL_ALLTOALL: st = sched_alltoall(t, o, &d.ms, &si); break;
        default: st = LCAN_ERR_ARG; break;
        }
        if (st == LCAN_OK && d.ms.n > d.pmask + 1) {
            snprintf(res->err, sizeof res->err, "%zu message numbers do not fit PAYLOAD_W = %d", d.ms.n, d.pw);
            st = LCAN_ERR_ARG;
        }
    }
    res->paper_steps = si.paper;
    res->paper_ref = si.paper_ref;
    res->paper_is_bound = si.paper_is_bound;
    res->expect_steps = si.expect;
    res->expect_ref = si.expect_ref;
    coll_lower_bound(t, op, o, &res->lower_bound, &res->lower_bound_ref);
    if (st != LCAN_OK)
        goto done;
    if ((st = build_lists(&d)) != LCAN_OK)
        goto done;

    /* expected deliveries, broadcast bitmaps */
    d.bidx = malloc((d.ms.n ? d.ms.n : 1) * sizeof *d.bidx);
    if (d.bidx == NULL) {
        st = LCAN_ERR_NOMEM;
        goto done;
    }
    for (i = 0; i < d.ms.n; i++) {
        d.bidx[i] = d.ms.m[i].bcast ? nb++ : COLL_NONE;
        want += d.ms.m[i].bcast == 2 ? d.N - 1 : d.ms.m[i].bcast ? d.N : 1;
    }
    if ((uint64_t)nb * d.N > ((uint64_t)1 << 32)) {
        st = LCAN_ERR_NOMEM;
        goto done;
    }
    d.bseen = calloc((size_t)nb * d.N + 1, 1);
    d.expect = malloc((size_t)d.N * sizeof *d.expect);
    d.inj_valid = calloc(d.NP, 1);
    d.inj_ready = calloc(d.NP, 1);
    d.inj_ack = calloc(d.NP, 1);
    d.ej_valid = calloc(d.NP, 1);
    d.ej_ack = calloc(d.NP, 1);
    d.inj_flit = calloc(d.NP, sizeof *d.inj_flit);
    d.ej_flit = calloc(d.NP, sizeof *d.ej_flit);
    if (!d.bseen || !d.expect || !d.inj_valid || !d.inj_ready || !d.inj_ack || !d.ej_valid || !d.ej_ack ||
        !d.inj_flit || !d.ej_flit) {
        st = LCAN_ERR_NOMEM;
        goto done;
    }
    for (i = 0; i < d.N; i++)
        d.expect[i] = COLL_NONE;
    if (reach != NULL) {
        if ((d.reached = calloc(d.N, 1)) == NULL) {
            st = LCAN_ERR_NOMEM;
            goto done;
        }
        d.reached[o->root] = 1; /* it holds the message */
        d.nreached = 1;
        if ((d.tree_ok = calloc(d.N, 1)) == NULL) {
            st = LCAN_ERR_NOMEM;
            goto done;
        }
        tree_expect(t, o->faults, o->root, o->flood, d.tree_ok);
        d.tree_ok[o->root] = 1;
        for (i = 0; i < d.N; i++) {
            if ((uint32_t)i != o->root && lcan_reach_cut(reach, o->root, (uint32_t)i))
                res->cut++;
            need += d.tree_ok[i];
        }
    }
    if (o->debug != NULL) {
        int l;
        d.ndbg = o->debug(engine, NULL, 0);
        for (l = 1; l <= d.h; l++)
            d.ncr += (size_t)lcan_topo_switches(t, l) * (size_t)(lcan_topo_downers(t, l) + lcan_topo_uppers(t, l));
        if (d.ndbg != d.ncr && d.ndbg != 2 * d.ncr) {
            snprintf(res->err, sizeof res->err, "the engine's debug view has %zu bytes, not %zu or %zu (spec 9)",
                     d.ndbg, d.ncr, 2 * d.ncr);
            st = LCAN_ERR_ARG;
            goto done;
        }
        for (l = 1; l <= d.h && d.ndbg == 2 * d.ncr; l++) {
            res->flood_down[l] = 0;
            res->flood_up[l] = l < d.h ? 0 : -1;
        }
        d.dbg = calloc(d.ndbg + 1, 1);
        d.o1 = calloc(d.ndbg + 1, sizeof *d.o1);
        d.o2 = calloc(d.ndbg + 1, sizeof *d.o2);
        if (!d.dbg || !d.o1 || !d.o2) {
            st = LCAN_ERR_NOMEM;
            goto done;
        }
        res->max_queue = res->max_queue_ub = res->max_outstanding = 0;
    }

    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in.inj_valid = d.inj_valid;
    in.inj_flit = d.inj_flit;
    in.ej_ack = d.ej_ack;
    out.inj_ready = d.inj_ready;
    out.inj_ack = d.inj_ack;
    out.ej_valid = d.ej_valid;
    out.ej_flit = d.ej_flit;
    out.cnt_up = d.cnt[0];
    out.cnt_down = d.cnt[1];
    out.cnt_drop = d.cnt[2];

    limit = o->max_ticks ? o->max_ticks
                         : 1000u + (uint64_t)(d.ms.n + d.N) * (uint64_t)(4 * d.h + 8) * 2u;
    /* tick 0: reset */
    in.rst = 1;
    in.seed = o->net_seed;
    if ((st = tick(engine, &in, &out)) != LCAN_OK)
        goto done;
    in.rst = 0;
    if (reach != NULL) {
        in.link_off = o->faults->link_off;
        in.sw_off = o->faults->sw_off;
        limit += sched.nrows;
    }
    if (d.rp != NULL && coll_round_count(d.rp) > 0)
        release_round(&d, 0, 1, res);
    for (tk = 1; tk <= limit; tk++) {
        present_inputs(&d, tk, res);
        if (reach != NULL) {
            in.cfg_we = tk <= sched.nrows;
            in.cfg_addr = tk <= sched.nrows ? (uint32_t)sched.rows[tk - 1] : 0;
            in.cfg_row = tk <= sched.nrows ? lcan_reach_row(reach, sched.rows[tk - 1]) : NULL;
        }
        if ((st = tick(engine, &in, &out)) != LCAN_OK)
            goto done;
        have += read_ejections(&d, tk, res);
        if (reach != NULL) {
            if (d.nreached < need && tk > sched.nrows && tk >= d.last_event + (uint64_t)(4 * d.h + 16))
                break; /* quiet: what has not arrived never will */
            if (d.nreached >= need) {
                if (idle_after == 0)
                    idle_after = tk;
                if (tk >= idle_after + (uint64_t)(2 * d.h + 4))
                    break;
            }
            continue;
        }
        if (d.dbg != NULL) {
            o->debug(engine, d.dbg, d.ndbg);
            queue_update(&d, d.dbg, o->depth, res, 0);
            queue_shift(&d, d.dbg, o->depth);
            if (d.ndbg == 2 * d.ncr)
                flood_update(&d, d.dbg, res);
        }
        if (d.rp != NULL && d.round_left == 0 && d.cur_round + 1 < coll_round_count(d.rp))
            release_round(&d, d.cur_round + 1, (uint32_t)(tk + 1), res);
        if (have >= want) {
            if (idle_after == 0)
                idle_after = tk;
            if (tk >= idle_after + (uint64_t)(2 * d.h + 4))
                break;
        }
    }
    if (d.dbg != NULL) {
        int l;
        queue_update(&d, d.dbg, o->depth, res, 1);
        /* input FIFOs of level l: downers fed by level l-1's up outputs, uppers by level l+1's down
         * outputs (level 1's downers are fed by the leaves: not in the debug view) */
        for (l = 1; l <= d.h; l++) {
            int lb = l > 1 ? res->queue_up[l - 1] : 0, ub = l > 1 ? d.ub_up[l - 1] : 0;
            if (l < d.h && res->queue_down[l + 1] > lb)
                lb = res->queue_down[l + 1];
            if (l < d.h && d.ub_down[l + 1] > ub)
                ub = d.ub_down[l + 1];
            res->queue_peak[l] = lb;
            res->queue_peak_ub[l] = ub;
        }
    }
    if (reach != NULL) {
        if (tk > limit)
            st = LCAN_ERR_STALL;
        res->reached = d.nreached;
        res->unreached = d.N - d.nreached;
        for (i = 0; i < d.N; i++) /* a leaf on an intact tree path must be reached, and only those */
            if (d.reached[i] != d.tree_ok[i])
                res->errors++;
        res->correct = st == LCAN_OK && res->errors == 0;
        goto done;
    }
    if (tk > limit && have < want)
        st = LCAN_ERR_STALL;
    if (have > want)
        res->errors += have - want;
    for (i = 0; i < d.ms.n; i++) {
        uint32_t expected = d.ms.m[i].bcast == 2 ? d.N - 1 : d.ms.m[i].bcast ? d.N : 1;
        if (d.ms.m[i].got < expected)
            res->errors += expected - d.ms.m[i].got;
    }
    if (d.rp != NULL)
        res->errors += coll_round_verify(d.rp);
    res->correct = st == LCAN_OK && res->errors == 0;
done:
    drv_free(&d);
    lcan_reach_free(reach);
    lcan_fault_sched_free(&sched);
    return st;
}

/* ------------------------------------------------------------------ model engine */

static size_t model_debug(void *engine, uint8_t *buf, size_t len)
{
    return lcan_net_debug_dump((const lcan_net *)engine, buf, len);
}

void lcan_collective_model_cfg(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o, lcan_cfg *cfg,
                               lcan_coll_opts *run)
{
    int pw, depth, fq;
    *run = *o;
    lcan_collective_engine_cfg(t, op, o, &pw, &depth, &fq);
    if (o->depth > depth)
        depth = o->depth;
    lcan_cfg_default(cfg);
    cfg->mode = LCAN_PACKET;
    cfg->payload_w = pw;
    cfg->depth = depth;
    cfg->up_choice = o->up_choice;
    cfg->flood_q = fq;
    run->payload_w = pw;
    run->depth = depth;
    run->flood_q = fq;
}

lcan_status lcan_collective_run_model(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o,
                                      lcan_coll_result *res)
{
    lcan_cfg cfg;
    lcan_net *n = NULL;
    lcan_coll_opts oo;
    lcan_status st;
    if (t == NULL || o == NULL || res == NULL)
        return LCAN_ERR_ARG;
    lcan_collective_model_cfg(t, op, o, &cfg, &oo);
    oo.debug = model_debug;
    if ((st = lcan_net_new(t, &cfg, &n)) != LCAN_OK)
        return st;
    st = lcan_collective_run(t, op, &oo, lcan_net_engine_tick, n, res);
    lcan_net_free(n);
    return st;
}
