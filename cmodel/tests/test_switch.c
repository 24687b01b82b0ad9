/*
 * test_switch.c - one switch as a unit (include/lcan_switch.h, spec 13.1), driven alone through its
 * public ports. Every expected value is computed here from the spec's text (the LFSR, salt, seeding
 * and offsets of spec 5 and sigma_ref.h's sigma, written again here; a reference switch written
 * from spec 4, 6, 7.2, 8.3, 8.6, 8.7, 14.2-14.3), never by the model's code:
 *
 *  - lcan_sw_cfg_of against spec 2.2's index arithmetic, 13.1's parameters and 14.2's ROW_OFF on
 *    lcan(4,4,64), including W_UP = 0, P_UP = 1 at the top; lcan_sw_seed_of ^ salt (or 1) equals
 *    spec 5's reset state; bad arguments and bad cfgs give LCAN_ERR_ARG;
 *  - reset: outputs 0, debug bytes 0 (circuit) / DEPTH, 0 on level-1 downers (packet);
 *  - circuit: a lone header of each class (UP, DOWN(x) turning and from an upper, digit >= m_l)
 *    granted the port spec 5-6 give for the LFSR state computed by hand (rotate and uniform), the
 *    dropped one counted and stepping the LFSR; data following a circuit and discarded without one;
 *    acks OR-ed per input (7.2) and ignored on outputs without a circuit; a header on an input that
 *    owns a circuit makes a second circuit and data follow both; clear releases everything but
 *    holds counters and LFSR;
 *  - packet: bypass timing and credit-out (8.3), credits down on a send and up on a credit (step 6:
 *    a credit arriving at tick t serves tick t + 1), a FIFO waiting for credit keeps order, level-1
 *    downers need none; tree broadcast up (upper 0 only) and down (link 0 of every child, the served
 *    mask across ticks), flooding want sets from a child and from a parent, at the top;
 *  - past the credits (8.3 step 5), DEPTH 1 and 3, on a downer and on an upper: a flit arriving
 *    at a full FIFO is dropped, on a tick whose head leaves (the FIFO one flit shorter, one
 *    credit-out) and on one whose head stays; it never leaves later, is not counted, and the input
 *    returns DEPTH credits in all;
 *  - faults: an off output is never granted, a reach row masks class UP from the tick after its
 *    write, writes outside row_base..row_base + U - 1 are ignored, reset restores all-ones rows,
 *    unroutable ONE requests are dropped and counted in both modes;
 *  - random: thousands of ticks on several shapes in both modes and both UP_CHOICEs with any legal
 *    inputs and a few illegal ones (faults and row writes changing every tick, reset and clear at any time, headers on
 *    owning inputs, data without circuits, acks without circuits, impossible digits, destinations
 *    outside the subtree from a parent, in packet mode now and then a flit past the credits: the
 *    run must have dropped such flits with and without a pop), every output compared with the
 *    reference switch below;
 *  - flood queues (spec 8.7) by hand on shape A: a lone flood leaves on its tick; two floods meeting
 *    on an output are both accepted with FLOOD_Q 2 (copies in ascending input order, the second on
 *    the next tick) and neither with FLOOD_Q 1; credits stall the queues, acceptance is judged on q_o
 *    before the tick; an off output's queue is emptied; a busy queue takes its output before a
 *    unicast; FLOOD_Q -1 and 256 refused (both modes), 255 taken;
 *  - flood queues at random: flooding-heavy inputs from children and uppers with credit stalls,
 *    FLOOD_Q 1, 2, 3, 8, 255, with and without off ports and row writes, P = 3 .. 16, every output
 *    and the 2 * P debug bytes compared with the reference; the run must have exercised refusals,
 *    full queues, queues emptied by off ports, sends up and unicasts meeting a busy queue. Circuit
 *    mode with FLOOD_Q 8 writes P debug bytes and behaves as without.
 *  - UNICAST_ONLY (spec 8.8): 2, -1, and 1 with FLOOD_Q 1 or 255 refused with LCAN_ERR_PARAM in
 *    both modes, 1 with FLOOD_Q 0 taken; the random runs again with UNICAST_ONLY = 1 (broadcast and
 *    flooding flits among the inputs, flooding-heavy on some shapes) against the reference, which
 *    then reads every packet candidate's bcast bit as 0; circuit mode as without.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan_faults.h"
#include "lcan_switch.h"
#include "sigma_ref.h"

static check_ctx C = {"test_switch", 0, 0};

#define MAXP 16
#define MAXFQ 255 /* FLOOD_Q */
#define PW 8 /* PAYLOAD_W of the tests; ADDR_W = 6, so a reach row is one 64-bit word */
#define AW 6

/* ------------------------------------------------------------------ spec 5, written again */
static uint32_t r_rotl(uint32_t x, int r) { r &= 31; return r ? (x << r) | (x >> (32 - r)) : x; }
static uint32_t r_mix(uint32_t x)
{
    uint32_t t = x + (r_rotl(x, 7) ^ r_rotl(x, 19));
    uint32_t y = t + (r_rotl(t, 13) ^ r_rotl(t, 27));
    return y ^ (y >> 16);
}
static uint32_t r_salt(int l, uint32_t x) { return (uint32_t)l * 0x9E3779B9u + x * 0x85EBCA6Bu + 0x6A09E667u; }
static uint32_t r_state(uint32_t seed, int l, uint32_t x)
{
    uint32_t h1 = r_mix(seed), h2 = r_mix(h1), h3 = r_mix(h2), salt = r_salt(l, x);
    uint32_t s = r_rotl(h1, (int)(salt & 31)) ^ r_rotl(h2, (int)((salt >> 5) & 31)) ^ r_rotl(h3, (int)((salt >> 10) & 31)) ^ salt;
    return s ? s : 1;
}
static uint32_t r_step(uint32_t s) { return (s >> 1) ^ ((s & 1u) ? 0x80200003u : 0u); }
static int r_red(uint32_t field, int n)
{
    int r = (int)(field & (uint32_t)((1 << ref_clog2(n)) - 1));
    return r >= n ? r - n : r;
}

/* ------------------------------------------------------------------ the reference switch */
typedef struct {
    /* shape */
    int level, m, p, U, D, P, dig_off, dig_w, mode, depth, uc, fq; /* fq: FLOOD_Q, 0 in circuit mode */
    int uo;                         /* UNICAST_ONLY (spec 8.8): bcast read as 0 in packet mode */
    uint32_t label, salt, row_base;
    /* state */
    uint32_t s, cnt_up, cnt_down, cnt_drop;
    int set[MAXP], src[MAXP], cr[MAXP], fn[MAXP];
    uint64_t fifo[MAXP][8];
    unsigned served[MAXP];
    uint64_t rows[MAXP]; /* bit a of row j */
    uint64_t q[MAXP][MAXFQ]; /* spec 8.7: flood queue of output o, head at q[o][0], qn[o] flits */
    int qn[MAXP];
    /* outputs */
    uint64_t tx[MAXP]; /* valid flag in bit 63 */
    int ret[MAXP];
} ref_sw;

typedef struct {
    int rst, clear, cfg_we;
    uint32_t seed, cfg_addr;
    uint64_t cfg_row;
    int rv[MAXP], tr[MAXP], off[MAXP];
    uint64_t rf[MAXP];
} ref_in;

#define V63 ((uint64_t)1 << 63)
static int f_head(uint64_t f) { return (int)((f >> (PW + AW + 1)) & 1u); }
static int f_bcast(uint64_t f) { return (int)((f >> (PW + AW)) & 1u); }
static uint32_t f_dest(uint64_t f) { return (uint32_t)((f >> PW) & ((1u << AW) - 1u)); }
static uint64_t mkflit(int head, int bcast, uint32_t dest, uint32_t payload)
{
    return (payload & 0xFFu) | ((uint64_t)dest << PW) | ((uint64_t)bcast << (PW + AW)) | ((uint64_t)head << (PW + AW + 1));
}
static int leafdn(const ref_sw *r, int o) { return r->level == 1 && o < r->D; }

/* spec 4: -1 UP, -2 no port, else x */
static int r_class(const ref_sw *r, int i, uint32_t dest)
{
    uint32_t above = dest >> (r->dig_off + r->dig_w), mine = r->label >> (r->dig_off + r->dig_w);
    int x;
    if (i < r->D && r->U > 0 && above != mine)
        return -1;
    x = (int)((dest >> r->dig_off) & ((1u << r->dig_w) - 1u));
    return x < r->m ? x : -2;
}

/* A request: kind 0 ONE / 1 ALL, want as a bit mask of ports, start, up (scan in sigma order). */
typedef struct { int valid, all, start, up; unsigned want; } rreq;

/* spec 6, from its pseudo code */
static void r_alloc(const ref_sw *r, const rreq *q, unsigned avail, unsigned *grant)
{
    int k, j, sigma[MAXP];
    int r_in = r_red(r->s & 0xFFu, r->P), r_up = r->U ? r_red((r->s >> 8) & 0xFFu, r->U) : 0;
    unsigned taken = 0;
    (void)r_up;
    ref_sigma(r->s, r->U > 0 ? r->U : 1, sigma);
    for (k = 0; k < r->P; k++)
        grant[k] = 0;
    for (k = 0; k < r->P; k++) {
        int i = (r_in + k) % r->P;
        unsigned fr;
        if (!q[i].valid)
            continue;
        fr = q[i].want & avail & ~taken;
        if (q[i].all) {
            grant[i] = fr;
        } else if (q[i].up && r->uc == LCAN_UP_UNIFORM) {
            for (j = 0; j < r->U; j++)
                if (fr & (1u << (r->D + sigma[j]))) {
                    grant[i] = 1u << (r->D + sigma[j]);
                    break;
                }
        } else {
            for (j = 0; j < r->P; j++) {
                int o = (q[i].start + j) % r->P;
                if (fr & (1u << o)) {
                    grant[i] = 1u << o;
                    break;
                }
            }
        }
        taken |= grant[i];
    }
}

static unsigned offmask(const ref_sw *r, const ref_in *in)
{
    unsigned m = 0;
    int o;
    for (o = 0; o < r->P; o++)
        if (in->off[o])
            m |= 1u << o;
    return m;
}

/* a unicast's request (spec 4, 6, 14.3) */
static void r_unicast(const ref_sw *r, const ref_in *in, int i, uint32_t dest, rreq *q)
{
    int cls = r_class(r, i, dest), j, k;
    int r_up = r->U ? r_red((r->s >> 8) & 0xFFu, r->U) : 0, r_dn = r_red((r->s >> 16) & 0xFFu, r->p);
    q->valid = 1;
    q->all = 0;
    q->want = 0;
    q->up = cls == -1;
    q->start = 0;
    if (cls == -1) {
        for (j = 0; j < r->U; j++)
            if (!in->off[r->D + j] && ((r->rows[j] >> dest) & 1u))
                q->want |= 1u << (r->D + j);
        q->start = r->D + r_up;
    } else if (cls >= 0) {
        for (k = 0; k < r->p; k++)
            if (!in->off[cls * r->p + k])
                q->want |= 1u << (cls * r->p + k);
        q->start = cls * r->p + r_dn;
    }
}

static void r_reset(ref_sw *r, uint32_t seed)
{
    int o;
    r->s = (seed ^ r->salt) ? (seed ^ r->salt) : 1u;
    r->cnt_up = r->cnt_down = r->cnt_drop = 0;
    for (o = 0; o < r->P; o++) {
        r->set[o] = r->src[o] = 0;
        r->cr[o] = leafdn(r, o) ? 0 : r->depth;
        r->fn[o] = 0;
        r->qn[o] = 0;
        r->served[o] = 0;
        r->tx[o] = 0;
        r->ret[o] = 0;
        r->rows[o] = ~(uint64_t)0;
    }
}

static void r_circuit(ref_sw *r, const ref_in *in)
{
    int P = r->P, i, o, nh = 0;
    uint64_t in_f[MAXP];
    int set0[MAXP], src0[MAXP];
    rreq q[MAXP];
    unsigned avail = 0, grant[MAXP];
    for (i = 0; i < P; i++) {
        in_f[i] = in->rv[i] ? (V63 | in->rf[i]) : 0;
        set0[i] = r->set[i];
        src0[i] = r->src[i];
        r->ret[i] = 0;
    }
    for (o = 0; o < P; o++) {
        r->tx[o] = 0;
        if (!set0[o])
            continue;
        if (in->tr[o])
            r->ret[src0[o]] = 1;
        if (in_f[src0[o]] && !f_head(in_f[src0[o]]))
            r->tx[o] = in_f[src0[o]];
    }
    for (i = 0; i < P; i++) {
        q[i].valid = 0;
        if (in_f[i] && f_head(in_f[i])) {
            r_unicast(r, in, i, f_dest(in_f[i]), &q[i]);
            nh++;
        }
    }
    if (nh == 0)
        return;
    for (o = 0; o < P; o++)
        if (!set0[o] && !in->off[o])
            avail |= 1u << o;
    r_alloc(r, q, avail, grant);
    for (i = 0; i < P; i++) {
        if (!q[i].valid)
            continue;
        if (!grant[i]) {
            r->cnt_drop++;
            continue;
        }
        for (o = 0; !(grant[i] & (1u << o)); o++)
            ;
        r->set[o] = 1;
        r->src[o] = i;
        r->tx[o] = in_f[i];
        if (o >= r->D)
            r->cnt_up++;
        else
            r->cnt_down++;
    }
    r->s = r_step(r->s);
}

/* What the random runs exercised of spec 8.7 (checked at the end of test_random_flood). */
static struct { long rejected, accepted, full, emptied, sent_up, blocked_uni; } cov;

/* Flits the random runs sent past their credits, all dropped at a full FIFO (spec 8.3 step 5): on
 * ticks that popped the head [1], and that did not [0] (checked at the end of test_random). */
static long overrun_drops[2];

/* Spec 8.7: does output o own a flood queue? (parallel link 0 of a child; upper 0 below the top) */
static int r_owns_q(const ref_sw *r, int o) { return (o < r->D && o % r->p == 0) || (o == r->D && r->U > 0); }

/* Spec 8.7 steps 2, 3 and 6 on the flooding candidates (fl[i]); the copy sent on o is cand of the
 * queue's head. Marks accepted candidates consumed; returns the outputs whose queue held a flit
 * after the appends (the allocator must not use them, step 4). */
static unsigned r_flood(ref_sw *r, const ref_in *in, const uint64_t *cand, const int *fl, int *consumed, unsigned avail)
{
    int P = r->P, D = r->D, i, o, c, n[MAXP] = {0};
    unsigned F[MAXP], busy = 0;
    for (i = 0; i < P; i++) {
        F[i] = 0;
        if (!fl[i])
            continue;
        if (i < D) { /* from child i / p: link 0 of every other child, and upper 0 below the top */
            for (c = 0; c < r->m; c++)
                if (c != i / r->p)
                    F[i] |= 1u << (c * r->p);
            if (r->U > 0)
                F[i] |= 1u << D;
        } else { /* from an upper: link 0 of every child */
            for (c = 0; c < r->m; c++)
                F[i] |= 1u << (c * r->p);
        }
        F[i] &= ~offmask(r, in);
        for (o = 0; o < P; o++)
            n[o] += (F[i] >> o) & 1u;
    }
    for (i = 0; i < P; i++) { /* accepted when q_o + n_o <= FLOOD_Q on every o of F_i, q_o before the tick */
        int ok = fl[i];
        for (o = 0; o < P && ok; o++)
            if ((F[i] >> o) & 1u)
                ok = r->qn[o] + n[o] <= r->fq;
        if (fl[i])
            consumed[i] = ok;
        cov.rejected += fl[i] && !ok;
    }
    for (i = 0; i < P; i++) { /* the copies, in ascending input order */
        if (!fl[i] || !consumed[i])
            continue;
        cov.accepted++;
        for (o = 0; o < P; o++)
            if ((F[i] >> o) & 1u) {
                r->q[o][r->qn[o]++] = cand[i];
                cov.full += r->qn[o] == r->fq && r->fq > 1;
            }
    }
    for (o = 0; o < P; o++) {
        if (!r_owns_q(r, o))
            continue;
        if (in->off[o]) { /* step 6 */
            cov.emptied += r->qn[o] > 0;
            r->qn[o] = 0;
            continue;
        }
        if (r->qn[o] == 0)
            continue;
        busy |= 1u << o;
        if ((avail >> o) & 1u) { /* step 3: the head leaves */
            r->tx[o] = r->q[o][0];
            memmove(&r->q[o][0], &r->q[o][1], sizeof r->q[o][0] * (size_t)(r->qn[o] - 1));
            r->qn[o]--;
            if (!leafdn(r, o))
                r->cr[o]--;
            if (o >= D)
                r->cnt_up++, cov.sent_up++;
            else
                r->cnt_down++;
        }
    }
    return busy;
}

static void r_packet(ref_sw *r, const ref_in *in)
{
    int P = r->P, D = r->D, i, o, c, nreq = 0;
    uint64_t cand[MAXP];
    int from_fifo[MAXP], consumed[MAXP], fl[MAXP], was_full[MAXP];
    unsigned full[MAXP], grant[MAXP], avail = 0, offm = offmask(r, in);
    rreq q[MAXP];
    for (o = 0; o < P; o++) {
        r->tx[o] = 0;
        if ((leafdn(r, o) || r->cr[o] > 0) && !in->off[o])
            avail |= 1u << o;
    }
    for (i = 0; i < P; i++) {
        uint64_t f;
        int bc; /* a broadcast: bcast = 1, and not UNICAST_ONLY (spec 8.8) */
        from_fifo[i] = r->fn[i] > 0;
        was_full[i] = r->fn[i] == r->depth; /* DEPTH flits before the tick: an arriving flit is dropped */
        cand[i] = from_fifo[i] ? r->fifo[i][0] : (in->rv[i] ? (V63 | in->rf[i]) : 0);
        consumed[i] = 0;
        fl[i] = 0;
        q[i].valid = 0;
        full[i] = 0;
        f = cand[i];
        if (!f)
            continue;
        bc = f_bcast(f) && !r->uo;
        if (r->fq > 0 && bc && f_head(f)) { /* spec 8.7: flood queues, no request */
            fl[i] = 1;
            continue;
        }
        if (!bc) {
            r_unicast(r, in, i, f_dest(f), &q[i]);
            if (!q[i].want) {
                q[i].valid = 0;
                consumed[i] = 1;
                r->cnt_drop++;
                continue;
            }
        } else if (f_head(f) || i >= D || r->U == 0) { /* ALL: flooding, or descending tree */
            int from = (f_head(f) && i < D) ? i / r->p : -1;
            for (c = 0; c < r->m; c++)
                if (c != from)
                    full[i] |= 1u << (c * r->p);
            if (from >= 0 && r->U > 0)
                full[i] |= 1u << D;
            full[i] &= ~offm;
            q[i].valid = 1;
            q[i].all = 1;
            q[i].up = 0;
            q[i].start = 0;
            q[i].want = full[i] & ~r->served[i];
            if (!q[i].want) {
                q[i].valid = 0;
                consumed[i] = 1;
                continue;
            }
        } else { /* climbing tree broadcast: upper 0 */
            q[i].valid = 1;
            q[i].all = 0;
            q[i].up = 0;
            q[i].start = D;
            q[i].want = (1u << D) & ~offm;
            if (!q[i].want) {
                q[i].valid = 0;
                consumed[i] = 1;
                r->cnt_drop++;
                continue;
            }
        }
        nreq++;
    }
    if (r->fq > 0) {
        unsigned busy = r_flood(r, in, cand, fl, consumed, avail);
        for (i = 0; i < P; i++) /* a unicast of class DOWN(x) meets a busy queue on link 0 */
            cov.blocked_uni += q[i].valid && !q[i].all && (q[i].want & busy & avail) != 0;
        avail &= ~busy;
    }
    if (nreq)
        r_alloc(r, q, avail, grant);
    for (i = 0; i < P; i++) {
        if (q[i].valid) {
            for (o = 0; o < P; o++)
                if (grant[i] & (1u << o)) {
                    r->tx[o] = cand[i];
                    if (!leafdn(r, o))
                        r->cr[o]--;
                    if (o >= D)
                        r->cnt_up++;
                    else
                        r->cnt_down++;
                }
            if (q[i].all)
                consumed[i] = (full[i] & ~(r->served[i] | grant[i])) == 0;
            else
                consumed[i] = grant[i] != 0;
            if (!consumed[i])
                r->served[i] |= grant[i];
        }
        if (consumed[i]) {
            r->served[i] = 0;
            if (from_fifo[i]) {
                memmove(&r->fifo[i][0], &r->fifo[i][1], sizeof r->fifo[i][0] * 7);
                r->fn[i]--;
            }
        }
        r->ret[i] = consumed[i];
        if (in->rv[i] && (from_fifo[i] || !consumed[i]) && !was_full[i])
            r->fifo[i][r->fn[i]++] = V63 | in->rf[i];
        else if (in->rv[i] && was_full[i])
            overrun_drops[consumed[i]]++;
    }
    for (o = 0; o < P; o++)
        if (!leafdn(r, o))
            r->cr[o] += in->tr[o] != 0;
    if (nreq)
        r->s = r_step(r->s);
}

static void r_tick(ref_sw *r, const ref_in *in)
{
    if (in->rst) {
        r_reset(r, in->seed);
        return;
    }
    if (in->clear && r->mode == LCAN_CIRCUIT) {
        int o;
        for (o = 0; o < r->P; o++)
            r->set[o] = r->src[o] = 0, r->tx[o] = 0, r->ret[o] = 0;
    } else if (r->mode == LCAN_CIRCUIT) {
        r_circuit(r, in);
    } else {
        r_packet(r, in);
    }
    if (in->cfg_we && in->cfg_addr >= r->row_base && in->cfg_addr < r->row_base + (uint32_t)r->U)
        r->rows[in->cfg_addr - r->row_base] = in->cfg_row;
}

static uint8_t r_dbg(const ref_sw *r, int o)
{
    if (r->mode == LCAN_CIRCUIT)
        return (uint8_t)((r->set[o] ? 0x80 : 0) | (r->src[o] & 0x7F));
    return (uint8_t)r->cr[o];
}

/* ------------------------------------------------------------------ driving the unit */
typedef struct {
    lcan_sw *s;
    lcan_sw_cfg c;
    ref_sw r;
    ref_in in;
    /* unit pins */
    uint8_t rv[MAXP], tr[MAXP], off[MAXP];
    uint64_t rf[MAXP], row[1];
    uint8_t o_ret[MAXP], o_tv[MAXP], o_dbg[2 * MAXP];
    uint64_t o_tf[MAXP];
    lcan_sw_out out;
    long tick;
} tsw;

static lcan_sw_cfg mkcfg(int level, int m, int p, int w_up, int p_up, int dig_off, int dig_w, uint32_t label,
                         int mode, int depth, int uc)
{
    lcan_sw_cfg c;
    memset(&c, 0, sizeof c);
    c.level = level;
    c.m = m;
    c.p_dn = p;
    c.w_up = w_up;
    c.p_up = p_up;
    c.addr_w = AW;
    c.dig_off = dig_off;
    c.dig_w = dig_w;
    lcan_cfg_default(&c.cfg);
    c.cfg.mode = (lcan_mode)mode;
    c.cfg.payload_w = PW;
    c.cfg.depth = depth;
    c.cfg.up_choice = (lcan_up_choice)uc;
    c.label = label;
    c.salt = 0x3C6EF372u + (uint32_t)level * 77u;
    c.row_base = 40;
    return c;
}

static int t_open(tsw *t, const lcan_sw_cfg *c)
{
    memset(t, 0, sizeof *t);
    t->c = *c;
    if (lcan_sw_new(c, &t->s) != LCAN_OK) {
        check(&C, 0, "lcan_sw_new failed");
        return 0;
    }
    t->r.level = c->level;
    t->r.m = c->m;
    t->r.p = c->p_dn;
    t->r.U = c->w_up * c->p_up;
    t->r.D = c->m * c->p_dn;
    t->r.P = t->r.D + t->r.U;
    t->r.dig_off = c->dig_off;
    t->r.dig_w = c->dig_w;
    t->r.mode = c->cfg.mode;
    t->r.depth = c->cfg.depth;
    t->r.uc = c->cfg.up_choice;
    t->r.fq = c->cfg.mode == LCAN_PACKET ? c->cfg.flood_q : 0;
    t->r.uo = c->cfg.unicast_only;
    t->r.label = c->label;
    t->r.salt = c->salt;
    t->r.row_base = c->row_base;
    r_reset(&t->r, 0);
    t->out.rx_ret = t->o_ret;
    t->out.tx_valid = t->o_tv;
    t->out.tx_flit = t->o_tf;
    t->out.dbg = t->o_dbg;
    check(&C, lcan_sw_ports(t->s) == t->r.P && lcan_sw_flit_width(t->s) == 2 + AW + PW, "ports / flit width");
    return 1;
}

/* One tick of the unit and the reference with t->in; then compares every output. Clears the
 * per-tick inputs (flits, returns, rst, clear, cfg_we) but not port_off. */
static int t_tick(tsw *t, const char *what)
{
    lcan_sw_in in;
    int P = t->r.P, o, bad = 0;
    memset(&in, 0, sizeof in);
    for (o = 0; o < P; o++) {
        t->rv[o] = (uint8_t)t->in.rv[o];
        t->rf[o] = t->in.rf[o] | ((uint64_t)0xA5 << 40); /* bits at FW and above are ignored */
        t->tr[o] = (uint8_t)t->in.tr[o];
        t->off[o] = (uint8_t)t->in.off[o];
    }
    t->row[0] = t->in.cfg_row;
    in.rst = t->in.rst;
    in.clear = t->in.clear;
    in.seed = t->in.seed;
    in.rx_valid = t->rv;
    in.rx_flit = t->rf;
    in.tx_ret = t->tr;
    in.port_off = t->off;
    in.cfg_we = t->in.cfg_we;
    in.cfg_addr = t->in.cfg_addr;
    in.cfg_row = t->row;
    memset(t->o_dbg + P, 0xEE, (size_t)P); /* without flood queues the unit writes P bytes only */
    lcan_sw_tick(t->s, &in, &t->out);
    r_tick(&t->r, &t->in);
    t->tick++;
    for (o = 0; o < P; o++) {
        int ev = (t->r.tx[o] & V63) != 0;
        uint64_t ef = t->r.tx[o] & ~V63;
        if (t->o_tv[o] != ev || t->o_tf[o] != ef || t->o_ret[o] != t->r.ret[o] || t->o_dbg[o] != r_dbg(&t->r, o)) {
            if (!bad)
                check(&C, 0, "%s: tick %ld port %d: tx %d/%llx ret %d dbg %02x, expected %d/%llx %d %02x", what, t->tick,
                      o, t->o_tv[o], (unsigned long long)t->o_tf[o], t->o_ret[o], t->o_dbg[o], ev,
                      (unsigned long long)ef, t->r.ret[o], r_dbg(&t->r, o));
            bad = 1;
        }
    }
    for (o = 0; o < P && t->r.fq == 0; o++)
        if (t->o_dbg[P + o] != 0xEE && !bad) {
            check(&C, 0, "%s: tick %ld: dbg byte %d written without flood queues", what, t->tick, P + o);
            bad = 1;
        }
    for (o = 0; o < P && t->r.fq > 0; o++) { /* spec 13.1: the second half of dbg, q_o */
        if (t->r.qn[o] > t->r.fq) {
            check(&C, 0, "%s: tick %ld reference q_%d = %d above FLOOD_Q %d", what, t->tick, o, t->r.qn[o], t->r.fq);
            bad = 1;
        }
        if (t->o_dbg[P + o] != t->r.qn[o]) {
            if (!bad)
                check(&C, 0, "%s: tick %ld port %d: q %d, expected %d", what, t->tick, o, t->o_dbg[P + o], t->r.qn[o]);
            bad = 1;
        }
    }
    if (t->out.cnt_up != t->r.cnt_up || t->out.cnt_down != t->r.cnt_down || t->out.cnt_drop != t->r.cnt_drop) {
        check(&C, 0, "%s: tick %ld counters %u %u %u, expected %u %u %u", what, t->tick, t->out.cnt_up,
              t->out.cnt_down, t->out.cnt_drop, t->r.cnt_up, t->r.cnt_down, t->r.cnt_drop);
        bad = 1;
    }
    if (!bad)
        check(&C, 1, "");
    for (o = 0; o < P; o++)
        t->in.rv[o] = t->in.tr[o] = 0, t->in.rf[o] = 0;
    t->in.rst = t->in.clear = t->in.cfg_we = 0;
    return !bad;
}

static void t_reset(tsw *t, uint32_t seed)
{
    t->in.rst = 1;
    t->in.seed = seed;
    t_tick(t, "reset");
}

/* ------------------------------------------------------------------ cfg_of, seed_of, bad cfgs */
static void test_cfg(void)
{
    lcan_topo *t = NULL;
    char err[200];
    lcan_cfg cfg;
    lcan_sw_cfg c;
    lcan_sw *s = NULL;
    uint32_t x;
    int l;
    lcan_cfg_default(&cfg);
    if (lcan_topo_parse("lcan(4,4,64)", &t, err, sizeof err) != LCAN_OK) {
        check(&C, 0, "parse: %s", err);
        return;
    }
    /* h = 3, m = 4, w = 1,4,4, p = 1; B = 2 per digit; S_l = 16; U_1 = U_2 = 4, U_3 = 0;
     * index (spec 2.2): level 1 x = a_2 + 4 a_3, level 2 x = b_2 + 4 a_3, level 3 x = b_2 + 4 b_3;
     * ROW_OFF(1) = 0, ROW_OFF(2) = 16 * 4 = 64, ROW_OFF(3) = 128 */
    for (l = 1; l <= 3; l++)
        for (x = 0; x < 16; x++) {
            uint32_t label = l == 1 ? ((x % 4) << 2 | (x / 4) << 4) : l == 2 ? (x / 4) << 4 : 0;
            uint32_t rb = l == 1 ? 4 * x : l == 2 ? 64 + 4 * x : 128;
            int ok = lcan_sw_cfg_of(t, &cfg, l, x, &c) == LCAN_OK;
            check(&C, ok && c.level == l && c.m == 4 && c.p_dn == 1 && c.w_up == (l < 3 ? 4 : 0) && c.p_up == 1 &&
                          c.addr_w == 6 && c.dig_off == 2 * (l - 1) && c.dig_w == 2 && c.label == label &&
                          c.salt == r_salt(l, x) && c.row_base == rb && c.cfg.mode == cfg.mode,
                  "cfg_of(%d, %u): label %x row_base %u", l, x, c.label, c.row_base);
            check(&C, ((lcan_sw_seed_of(1234u, l, x) ^ c.salt) ? (lcan_sw_seed_of(1234u, l, x) ^ c.salt) : 1u) ==
                          r_state(1234u, l, x),
                  "seed_of(%d, %u) ^ salt is spec 5's state", l, x);
        }
    check(&C, lcan_sw_cfg_of(t, &cfg, 0, 0, &c) == LCAN_ERR_ARG && lcan_sw_cfg_of(t, &cfg, 4, 0, &c) == LCAN_ERR_ARG &&
                  lcan_sw_cfg_of(t, &cfg, 1, 16, &c) == LCAN_ERR_ARG && lcan_sw_cfg_of(NULL, &cfg, 1, 0, &c) == LCAN_ERR_ARG &&
                  lcan_sw_cfg_of(t, &cfg, 1, 0, NULL) == LCAN_ERR_ARG,
          "cfg_of: level / index out of range");
    lcan_topo_free(t);
    /* a p > 1 network: pgft(2;3,4;2,3;2,1): level 1 P_UP = p_2 = 1, W_UP = 3; top: W_UP 0, P_UP 1 */
    if (lcan_topo_parse("pgft(2;3,4;2,3;2,1)", &t, err, sizeof err) == LCAN_OK) {
        check(&C, lcan_sw_cfg_of(t, NULL, 1, 0, &c) == LCAN_OK && c.m == 3 && c.p_dn == 2 && c.w_up == 3 && c.p_up == 1,
              "pgft level 1");
        check(&C, lcan_sw_cfg_of(t, NULL, 2, 5, &c) == LCAN_OK && c.m == 4 && c.p_dn == 1 && c.w_up == 0 && c.p_up == 1 &&
                      c.label == 0 && c.row_base == (uint32_t)lcan_topo_row_offset(t, 2),
              "pgft top");
        lcan_topo_free(t);
    }
    /* seed 0 that hits salt: state 1 */
    check(&C, r_state(0, 1, 0) != 0, "(state never 0)");

    /* bad cfgs */
    {
        lcan_sw_cfg g = mkcfg(2, 3, 2, 3, 1, 2, 2, 0x20, LCAN_CIRCUIT, 4, 1), b;
        int k;
        check(&C, lcan_sw_new(&g, &s) == LCAN_OK && s != NULL, "good cfg");
        lcan_sw_free(s);
        check(&C, lcan_sw_new(NULL, &s) == LCAN_ERR_ARG && s == NULL && lcan_sw_new(&g, NULL) == LCAN_ERR_ARG,
              "NULL arguments");
        for (k = 0; k < 15; k++) {
            b = g;
            switch (k) {
            case 13: b.cfg.flood_q = -1; break;
            case 14: b.cfg.flood_q = 256; break;
            case 0: b.m = 0; break;
            case 1: b.p_dn = 0; break;
            case 2: b.w_up = -1; break;
            case 3: b.p_up = 0; break;
            case 4: b.m = 64; b.p_dn = 2; b.w_up = 1; break; /* P = 129 */
            case 5: b.level = 0; break;
            case 6: b.dig_off = 5; break;                    /* field beyond ADDR_W */
            case 7: b.addr_w = 25; break;
            case 8: b.cfg.payload_w = 0; break;
            case 9: b.cfg.depth = 0; break;
            case 10: b.cfg.depth = 256; break;
            case 11: b.cfg.mode = (lcan_mode)2; break;
            default: b.cfg.up_choice = (lcan_up_choice)7; break;
            }
            s = (lcan_sw *)&b; /* must be reset to NULL */
            check(&C, lcan_sw_new(&b, &s) == LCAN_ERR_ARG && s == NULL, "bad cfg %d refused", k);
            b.cfg.mode = LCAN_PACKET; /* FLOOD_Q is refused in either mode */
            if (k >= 13)
                check(&C, lcan_sw_new(&b, &s) == LCAN_ERR_ARG && s == NULL, "bad cfg %d refused in packet mode", k);
        }
        b = g; /* the limits themselves are taken */
        b.cfg.mode = LCAN_PACKET;
        b.cfg.flood_q = 255;
        check(&C, lcan_sw_new(&b, &s) == LCAN_OK && s != NULL, "FLOOD_Q 255 taken");
        lcan_sw_free(s);
        for (k = 0; k < 2; k++) { /* UNICAST_ONLY (spec 8.8): 0 or 1, 1 only with FLOOD_Q 0, either mode */
            static const int uo_bad[] = {2, -1, 1, 1};
            static const int fq_bad[] = {0, 0, 1, 255};
            int j;
            b = g;
            b.cfg.mode = (lcan_mode)k;
            for (j = 0; j < 4; j++) {
                b.cfg.unicast_only = uo_bad[j];
                b.cfg.flood_q = fq_bad[j];
                s = (lcan_sw *)&b;
                check(&C, lcan_sw_new(&b, &s) == LCAN_ERR_PARAM && s == NULL,
                      "mode %d UNICAST_ONLY %d FLOOD_Q %d refused (LCAN_ERR_PARAM)", k, uo_bad[j], fq_bad[j]);
            }
            b.cfg.unicast_only = 1;
            b.cfg.flood_q = 0;
            check(&C, lcan_sw_new(&b, &s) == LCAN_OK && s != NULL, "mode %d UNICAST_ONLY 1 FLOOD_Q 0 taken", k);
            lcan_sw_free(s);
        }
    }
    lcan_sw_free(NULL);
}

/* ------------------------------------------------------------------ targeted checks */

/* Shape A: level 2, m = 3 (digit 3 impossible), p = 2, 3 parents: D = 6, U = 3, P = 9; ADDR_W 6 with
 * digit 2 in bits [3:2], the switch's a_3 = 2 in bits [5:4]. */
static lcan_sw_cfg shape_a(int mode, int uc) { return mkcfg(2, 3, 2, 3, 1, 2, 2, 0x20, mode, 4, uc); }

static void test_circuit_lone(void)
{
    int uc, trial;
    for (uc = 0; uc <= 1; uc++) {
        lcan_sw_cfg c = shape_a(LCAN_CIRCUIT, uc);
        tsw t;
        unsigned long long rng = 11;
        if (!t_open(&t, &c))
            return;
        for (trial = 0; trial < 300; trial++) {
            uint32_t seed = (uint32_t)test_rng(&rng), s = (seed ^ c.salt) ? (seed ^ c.salt) : 1, dest;
            int kind = trial % 4, i, exp, sigma[3], r_up, r_dn;
            if (trial == 7)
                seed = c.salt, s = 1; /* seed ^ salt = 0: the LFSR loads 1 */
            t_reset(&t, seed);
            ref_sigma(s, 3, sigma);
            r_up = r_red((s >> 8) & 0xFF, 3);
            r_dn = r_red((s >> 16) & 0xFF, 2);
            if (kind == 0) { /* UP: from a downer, a_3 = 1 != 2 */
                i = trial % 6;
                dest = 0x10 | (uint32_t)(trial % 16);
                exp = 6 + (uc ? sigma[0] : r_up);
            } else if (kind == 1) { /* turning: a_3 = 2, digit 2 = 1 -> DOWN(1) */
                i = trial % 6;
                dest = 0x24 | (uint32_t)(trial % 4);
                exp = 2 + r_dn;
            } else if (kind == 2) { /* from an upper, destination outside the subtree: DOWN(2) */
                i = 6 + trial % 3;
                dest = 0x08 | (uint32_t)(trial % 4);
                exp = 4 + r_dn;
            } else { /* digit 3 >= m: dropped */
                i = trial % 9;
                dest = 0x2C;
                exp = -1;
            }
            t.in.rv[i] = 1;
            t.in.rf[i] = mkflit(1, 0, dest, (uint32_t)trial);
            t_tick(&t, "lone header");
            check(&C, exp < 0 ? (t.out.cnt_drop == 1 && t.out.cnt_up + t.out.cnt_down == 0)
                              : (t.o_tv[exp] && t.o_tf[exp] == mkflit(1, 0, dest, (uint32_t)trial) &&
                                 t.o_dbg[exp] == (0x80 | i) && t.out.cnt_drop == 0 &&
                                 t.out.cnt_up == (uint32_t)(exp >= 6) && t.out.cnt_down == (uint32_t)(exp < 6)),
                  "uc %d seed %08x kind %d: lone header from %d to %d", uc, seed, kind, i, exp);
            /* the LFSR stepped once (also for the dropped header): a second lone UP header from a
             * free downer is granted from the stepped state */
            {
                uint32_t s2 = r_step(s);
                int sg[3], e2, j = (i + 1) % 6, k;
                ref_sigma(s2, 3, sg);
                e2 = -1;
                for (k = 0; k < 3 && e2 < 0; k++) {
                    int o = 6 + (uc ? sg[k] : (r_red((s2 >> 8) & 0xFF, 3) + k) % 3);
                    if (!(t.o_dbg[o] & 0x80))
                        e2 = o;
                }
                t.in.rv[j] = 1;
                t.in.rf[j] = mkflit(1, 0, 0x00, 1);
                t_tick(&t, "second header");
                check(&C, e2 >= 0 && t.o_tv[e2] && (t.o_dbg[e2] & 0x7F) == j, "uc %d: LFSR stepped once: %d", uc, e2);
            }
        }
        lcan_sw_free(t.s);
    }
}

static void test_circuit_paths(void)
{
    lcan_sw_cfg c = shape_a(LCAN_CIRCUIT, 1);
    tsw t;
    uint64_t d1 = mkflit(0, 0, 0x24, 0x5A), d2 = mkflit(0, 1, 0x24, 0x3C);
    int o1, o2, o;
    uint32_t up, dn;
    if (!t_open(&t, &c))
        return;
    t_reset(&t, 99);
    /* a header from upper input 6 to DOWN(1): outputs 2 or 3 */
    t.in.rv[6] = 1;
    t.in.rf[6] = mkflit(1, 0, 0x24, 6);
    t_tick(&t, "h1");
    o1 = t.o_tv[2] ? 2 : 3;
    check(&C, t.o_tv[o1] && t.o_dbg[o1] == 0x86, "header sets a circuit 6 -> %d", o1);
    /* data on 6 follows; data on 7 (no circuit) vanishes; an ack on o1 reaches input 6, one on 0 (no
     * circuit) nowhere */
    t.in.rv[6] = 1;
    t.in.rf[6] = d1;
    t.in.rv[7] = 1;
    t.in.rf[7] = d2;
    t.in.tr[o1] = 1;
    t.in.tr[0] = 1;
    t_tick(&t, "data");
    check(&C, t.o_tv[o1] && t.o_tf[o1] == d1 && t.o_ret[6] == 1 && t.o_ret[7] == 0 && t.o_ret[0] == 0,
          "data follows, ack returns");
    for (o = 0, dn = 0; o < 9; o++)
        dn += t.o_tv[o];
    check(&C, dn == 1, "data without circuit discarded");
    /* a second header on input 6 (owns a circuit): routed as a new request, old circuit stays */
    t.in.rv[6] = 1;
    t.in.rf[6] = mkflit(1, 0, 0x28, 7); /* DOWN(2): 4 or 5 */
    t_tick(&t, "h2");
    o2 = t.o_tv[4] ? 4 : 5;
    check(&C, t.o_tv[o2] && t.o_dbg[o2] == 0x86 && t.o_dbg[o1] == 0x86 && !t.o_tv[o1], "second circuit 6 -> %d", o2);
    /* data follows both; acks on either or both OR into input 6 */
    t.in.rv[6] = 1;
    t.in.rf[6] = d1;
    t.in.tr[o1] = 1;
    t.in.tr[o2] = 1;
    t_tick(&t, "data2");
    check(&C, t.o_tv[o1] && t.o_tv[o2] && t.o_tf[o1] == d1 && t.o_tf[o2] == d1 && t.o_ret[6] == 1, "data on both, acks OR");
    t.in.tr[o2] = 1;
    t_tick(&t, "ack2");
    check(&C, t.o_ret[6] == 1, "one ack enough");
    up = t.out.cnt_up;
    dn = t.out.cnt_down;
    /* clear: everything released, counters held */
    t.in.clear = 1;
    t.in.rv[6] = 1;
    t.in.rf[6] = mkflit(1, 0, 0x24, 1); /* ignored on a clear tick */
    t_tick(&t, "clear");
    for (o = 0; o < 9; o++)
        check(&C, t.o_dbg[o] == 0 && !t.o_tv[o] && !t.o_ret[o], "clear: port %d released", o);
    check(&C, t.out.cnt_up == up && t.out.cnt_down == dn && dn == 2 && t.out.cnt_drop == 0, "clear holds counters");
    t.in.rv[6] = 1;
    t.in.rf[6] = d1;
    t_tick(&t, "after clear");
    for (o = 0, dn = 0; o < 9; o++)
        dn += t.o_tv[o];
    check(&C, dn == 0, "no data after clear");
    lcan_sw_free(t.s);
}

/* Packet mode on shape A (level 2: every output holds credits) and a level-1 shape. */
static void test_packet(void)
{
    lcan_sw_cfg c = shape_a(LCAN_PACKET, 0);
    tsw t;
    uint64_t f;
    int o, k, got, i;
    if (!t_open(&t, &c))
        return;
    t_reset(&t, 5);
    for (o = 0; o < 9; o++)
        check(&C, t.o_dbg[o] == 4 && !t.o_tv[o] && !t.o_ret[o], "packet reset: cr = DEPTH on %d", o);
    /* bypass: a unicast from upper 6 to DOWN(0) leaves on tick t (output of the same tick), its
     * credit goes back at once, cr of its output 3 */
    f = mkflit(0, 0, 0x20, 1);
    t.in.rv[6] = 1;
    t.in.rf[6] = f;
    t_tick(&t, "bypass");
    o = t.o_tv[0] ? 0 : 1;
    check(&C, t.o_tv[o] && t.o_tf[o] == f && t.o_ret[6] == 1 && t.o_dbg[o] == 3, "bypass to %d, credit-out, cr 3", o);
    /* drain both links to child 0 (8 credits), without credits back */
    for (k = 0; k < 7; k++) {
        t.in.rv[6] = 1;
        t.in.rf[6] = mkflit(0, 0, 0x20, 2 + (uint32_t)k);
        t_tick(&t, "drain");
    }
    check(&C, t.o_dbg[0] == 0 && t.o_dbg[1] == 0, "child 0's links out of credit");
    /* three more wait in the FIFO (no credit-out), in order */
    for (k = 0; k < 3; k++) {
        t.in.rv[6] = 1;
        t.in.rf[6] = mkflit(0, 0, 0x20, 20 + (uint32_t)k);
        t_tick(&t, "queue");
        check(&C, !t.o_tv[0] && !t.o_tv[1] && !t.o_ret[6], "queued %d", k);
    }
    /* a credit on output 1 at tick t: used from t + 1 (spec 8.3 step 6) */
    t.in.tr[1] = 1;
    t_tick(&t, "credit");
    check(&C, !t.o_tv[0] && !t.o_tv[1] && t.o_dbg[1] == 1, "credit counted after the allocation");
    t_tick(&t, "send");
    check(&C, t.o_tv[1] && t.o_tf[1] == mkflit(0, 0, 0x20, 20) && t.o_ret[6] && t.o_dbg[1] == 0, "FIFO head goes");
    t.in.tr[0] = 1;
    t.in.tr[1] = 1;
    t_tick(&t, "2 credits");
    t_tick(&t, "send2");
    got = (t.o_tv[0] && t.o_tf[0] == mkflit(0, 0, 0x20, 21)) || (t.o_tv[1] && t.o_tf[1] == mkflit(0, 0, 0x20, 21));
    check(&C, got && !(t.o_tv[0] && t.o_tv[1]), "one per tick, in order");
    /* impossible digit: consumed, counted, credit returned, nothing sent */
    t_reset(&t, 5);
    t.in.rv[7] = 1;
    t.in.rf[7] = mkflit(0, 0, 0x2C, 9);
    t_tick(&t, "bad digit");
    check(&C, t.out.cnt_drop == 1 && t.o_ret[7] == 1, "impossible digit dropped, credit back");
    /* tree broadcast from a downer: upper 0 (port 6) only */
    for (i = 0; i < 6; i++) {
        t_reset(&t, (uint32_t)i * 31u);
        t.in.rv[i] = 1;
        t.in.rf[i] = mkflit(0, 1, 1, 3);
        t_tick(&t, "bcast up");
        for (o = 0, got = 0; o < 9; o++)
            got += t.o_tv[o];
        check(&C, got == 1 && t.o_tv[6] && t.o_ret[i], "tree broadcast climbs on upper 0 from %d", i);
        /* flooding from child i / 2: link 0 of the two other children and upper 0 */
        t.in.rv[i] = 1;
        t.in.rf[i] = mkflit(1, 1, 1, 3);
        t_tick(&t, "flood up");
        for (o = 0, got = 0; o < 9; o++)
            got |= t.o_tv[o] << o;
        check(&C, got == (int)((0x15u & ~(1u << (2 * (i / 2)))) | 0x40u) && t.o_ret[i], "flooding from child %d: %x", i / 2, got);
    }
    /* a tree broadcast from upper 7 down to link 0 of every child, with child 1's link 0 out of
     * credit: served across ticks, consumed (credit-out) when the last copy goes */
    t_reset(&t, 77);
    for (k = 0; k < 4; k++) { /* spend link 2's credits: unicasts to DOWN(1) while link 3 is off */
        t.in.off[3] = 1;
        t.in.rv[8] = 1;
        t.in.rf[8] = mkflit(0, 0, 0x04, (uint32_t)k);
        t_tick(&t, "spend");
    }
    t.in.off[3] = 0;
    check(&C, t.o_dbg[2] == 0, "link 2 out of credit");
    t.in.rv[7] = 1;
    t.in.rf[7] = mkflit(0, 1, 0, 0x77);
    t_tick(&t, "bcast down");
    check(&C, t.o_tv[0] && t.o_tv[4] && !t.o_tv[2] && !t.o_ret[7], "copies to children 0 and 2, waiting for 1");
    t_tick(&t, "wait");
    check(&C, !t.o_tv[0] && !t.o_tv[4] && !t.o_tv[2] && !t.o_ret[7], "served copies not repeated");
    t.in.tr[2] = 1;
    t_tick(&t, "credit");
    t_tick(&t, "last copy");
    check(&C, t.o_tv[2] && !t.o_tv[0] && !t.o_tv[4] && t.o_ret[7] && t.o_tf[2] == mkflit(0, 1, 0, 0x77),
          "last copy, consumed");
    lcan_sw_free(t.s);

    /* level 1: downers need no credits and show 0; flooding from a parent reaches every child */
    c = mkcfg(1, 4, 1, 2, 2, 0, 2, 0x24, LCAN_PACKET, 2, 1);
    if (!t_open(&t, &c))
        return;
    t_reset(&t, 3);
    for (o = 0; o < 8; o++)
        check(&C, t.o_dbg[o] == (o < 4 ? 0 : 2), "level-1 reset dbg %d", o);
    for (k = 0; k < 10; k++) {
        t.in.rv[5] = 1;
        t.in.rf[5] = mkflit(0, 0, 0x27, (uint32_t)k);
        t.in.tr[3] = 1; /* ignored on a level-1 downer */
        t_tick(&t, "leaf");
        check(&C, t.o_tv[3] && t.o_dbg[3] == 0 && t.o_ret[5], "level-1 downer %d needs no credit", k);
    }
    t.in.rv[6] = 1;
    t.in.rf[6] = mkflit(1, 1, 0, 1);
    t_tick(&t, "flood down");
    check(&C, t.o_tv[0] && t.o_tv[1] && t.o_tv[2] && t.o_tv[3] && !t.o_tv[4] && t.o_ret[6], "flooding from a parent");
    lcan_sw_free(t.s);

    /* the top (no uppers): flooding from child 1 goes to the other children only */
    c = mkcfg(3, 3, 2, 0, 1, 4, 2, 0, LCAN_PACKET, 4, 1);
    if (!t_open(&t, &c))
        return;
    t_reset(&t, 8);
    t.in.rv[3] = 1;
    t.in.rf[3] = mkflit(1, 1, 0, 1);
    t_tick(&t, "flood top");
    for (o = 0, got = 0; o < 6; o++)
        got |= t.o_tv[o] << o;
    check(&C, got == 0x11 && t.o_ret[3], "flooding at the top: %x", got);
    t.in.rv[2] = 1; /* a unicast from a downer whose a_h.. differ: the top turns it (DOWN(0)) */
    t.in.rf[2] = mkflit(0, 0, 0x01, 1);
    t_tick(&t, "top turn");
    check(&C, t.o_tv[0] || t.o_tv[1], "the top turns every unicast");
    lcan_sw_free(t.s);
}

/* Spec 8.7 by hand on shape A (D = 6, uppers 6..8; the flood queues are on outputs 0, 2, 4 (link 0
 * of children 0..2) and 6 (upper 0)); every expectation below is derived from the spec's steps. */
static int qbytes(const tsw *t, int q0, int q2, int q4, int q6)
{
    int o;
    for (o = 0; o < 9; o++) {
        int e = o == 0 ? q0 : o == 2 ? q2 : o == 4 ? q4 : o == 6 ? q6 : 0;
        if (t->o_dbg[9 + o] != e)
            return 0;
    }
    return 1;
}

static int txset(const tsw *t)
{
    int o, m = 0;
    for (o = 0; o < 9; o++)
        m |= t->o_tv[o] << o;
    return m;
}

static void test_flood_q(void)
{
    lcan_sw_cfg c = shape_a(LCAN_PACKET, 1);
    tsw t;
    uint64_t f0 = mkflit(1, 1, 0, 0x10), f2 = mkflit(1, 1, 0, 0x12), fu[8];
    int k;
    c.cfg.flood_q = 2;
    if (!t_open(&t, &c))
        return;
    /* a lone flooding broadcast from child 0 (input 0): flood set {2, 4, 6}, sent on its tick */
    t_reset(&t, 11);
    t.in.rv[0] = 1;
    t.in.rf[0] = f0;
    t_tick(&t, "fq lone");
    check(&C, txset(&t) == 0x54 && t.o_tf[2] == f0 && t.o_tf[4] == f0 && t.o_tf[6] == f0 && t.o_ret[0] &&
                  t.o_dbg[2] == 3 && t.o_dbg[4] == 3 && t.o_dbg[6] == 3 && qbytes(&t, 0, 0, 0, 0) &&
                  t.out.cnt_up == 1 && t.out.cnt_down == 2,
          "FLOOD_Q 2: a lone flood leaves on its tick: %x", txset(&t));
    /* children 0 and 1 at once (inputs 0, 2): n_4 = n_6 = 2 <= 2, both accepted; queue 4 and 6 hold
     * f0 then f2 (ascending input order) and send f0; outputs 2 (f0) and 0 (f2) send at once; a
     * unicast from upper 7 to DOWN(2) (outputs 4, 5) finds 4 busy with its queue and takes 5 */
    t_reset(&t, 12);
    t.in.rv[0] = t.in.rv[2] = t.in.rv[7] = 1;
    t.in.rf[0] = f0;
    t.in.rf[2] = f2;
    t.in.rf[7] = mkflit(0, 0, 0x28, 0x77);
    t_tick(&t, "fq two");
    check(&C, txset(&t) == 0x75 && t.o_tf[0] == f2 && t.o_tf[2] == f0 && t.o_tf[4] == f0 && t.o_tf[6] == f0 &&
                  t.o_tf[5] == mkflit(0, 0, 0x28, 0x77) && t.o_ret[0] && t.o_ret[2] && t.o_ret[7] &&
                  qbytes(&t, 0, 0, 1, 1),
          "FLOOD_Q 2: two floods accepted, queues 4 and 6 keep f2, the unicast takes 5: %x", txset(&t));
    t_tick(&t, "fq two, next");
    check(&C, txset(&t) == 0x50 && t.o_tf[4] == f2 && t.o_tf[6] == f2 && qbytes(&t, 0, 0, 0, 0),
          "the second copies leave on the next tick");
    lcan_sw_free(t.s);

    /* FLOOD_Q 1: the same two floods: n_4 = 2 > 1, neither is accepted (no copy, no credit-out),
     * and neither is on any later tick while both wait at their FIFO heads (spec 8.7 step 2) */
    c.cfg.flood_q = 1;
    if (!t_open(&t, &c))
        return;
    t_reset(&t, 13);
    t.in.rv[0] = t.in.rv[2] = 1;
    t.in.rf[0] = f0;
    t.in.rf[2] = f2;
    t_tick(&t, "fq1 two");
    for (k = 0; k < 5; k++) {
        check(&C, txset(&t) == 0 && !t.o_ret[0] && !t.o_ret[2] && qbytes(&t, 0, 0, 0, 0) && t.out.cnt_drop == 0,
              "FLOOD_Q 1: two floods meeting on output 4 both wait (tick %d)", k);
        t_tick(&t, "fq1 wait");
    }
    lcan_sw_free(t.s);

    /* credits: floods from upper 7 (flood set {0, 2, 4}), one per tick, no credit back. Ticks 1-4
     * spend the 4 credits of 0, 2, 4; 5 and 6 are accepted into the queues (q 1, then 2); 7 is not
     * (2 + 1 > 2) and waits in the FIFO */
    c.cfg.flood_q = 2;
    if (!t_open(&t, &c))
        return;
    t_reset(&t, 14);
    for (k = 1; k <= 7; k++) {
        fu[k] = mkflit(1, 1, 0, 0x40u + (uint32_t)k);
        t.in.rv[7] = 1;
        t.in.rf[7] = fu[k];
        t_tick(&t, "fq credits");
        if (k <= 4)
            check(&C, txset(&t) == 0x15 && t.o_tf[0] == fu[k] && t.o_ret[7] && t.o_dbg[0] == 4 - k &&
                          qbytes(&t, 0, 0, 0, 0),
                  "flood %d sent on 0, 2, 4", k);
        else /* q = 1, 2, then 2 again with flood 7 refused */
            check(&C, txset(&t) == 0 && t.o_ret[7] == (k < 7) && qbytes(&t, k < 6 ? 1 : 2, k < 6 ? 1 : 2, k < 6 ? 1 : 2, 0),
                  "flood %d: queued (%d) or refused (%d)", k, k < 7, k == 7);
    }
    /* tick 8: a credit arrives on 0 (used from tick 9): nothing moves; tick 9: 0 sends flood 5,
     * flood 7 still refused (q_2 = 2) */
    t.in.tr[0] = 1;
    t_tick(&t, "fq credit 0");
    check(&C, txset(&t) == 0 && !t.o_ret[7] && qbytes(&t, 2, 2, 2, 0) && t.o_dbg[0] == 1, "a credit on 0: cr 1");
    t_tick(&t, "fq send 0");
    check(&C, txset(&t) == 0x01 && t.o_tf[0] == fu[5] && !t.o_ret[7] && qbytes(&t, 1, 2, 2, 0), "0 sends flood 5");
    /* tick 10: credits on 2 and 4; tick 11: they send flood 5, but flood 7 is judged on q before the
     * tick (q_2 = q_4 = 2): refused; tick 12: q = 1, 1, 1 and n = 1: accepted, no credit to send */
    t.in.tr[2] = t.in.tr[4] = 1;
    t_tick(&t, "fq credit 2 4");
    check(&C, txset(&t) == 0 && !t.o_ret[7] && qbytes(&t, 1, 2, 2, 0), "credits on 2, 4");
    t_tick(&t, "fq send 2 4");
    check(&C, txset(&t) == 0x14 && t.o_tf[2] == fu[5] && t.o_tf[4] == fu[5] && !t.o_ret[7] && qbytes(&t, 1, 1, 1, 0),
          "2 and 4 send flood 5; flood 7 judged on q before the tick");
    t_tick(&t, "fq accept 7");
    check(&C, txset(&t) == 0 && t.o_ret[7] && qbytes(&t, 2, 2, 2, 0), "flood 7 accepted");
    /* tick 13: output 0 off: its queue is emptied (no count), the others keep theirs */
    t.in.off[0] = 1;
    t_tick(&t, "fq off");
    t.in.off[0] = 0;
    check(&C, txset(&t) == 0 && qbytes(&t, 0, 2, 2, 0) && t.out.cnt_drop == 0, "an off output's queue is emptied");
    /* a unicast from upper 8 to DOWN(1) (outputs 2, 3) with credits back on 2: 2 sends its queue's
     * head (flood 6), the unicast takes 3 */
    t.in.tr[2] = 1;
    t_tick(&t, "fq credit 2");
    t.in.rv[8] = 1;
    t.in.rf[8] = mkflit(0, 0, 0x24, 0x99);
    t_tick(&t, "fq queue first");
    check(&C, txset(&t) == 0x0C && t.o_tf[2] == fu[6] && t.o_tf[3] == mkflit(0, 0, 0x24, 0x99) &&
                  qbytes(&t, 0, 1, 2, 0),
          "the flood queue comes before the inputs: %x", txset(&t));
    lcan_sw_free(t.s);
}

/* Spec 8.3 step 5 past the credits, by hand on shape A with DEPTH 1 and 3: input `in` (downer 0 or
 * upper 7) gets DEPTH unicasts for DOWN(1) (outputs 2, 3) after input 4 has spent those outputs'
 * 2 * DEPTH credits (none come back), so its FIFO fills; then one more flit x arrives (its sender
 * holds no credit). pop: a credit came back on output 2 the tick before, so the head leaves on x's
 * tick; else nothing leaves. Either way x is dropped - not stored, not counted: the FIFO holds
 * DEPTH - 1 (pop) or DEPTH after the tick, and once credits flow again exactly the flits it held
 * leave, in order, x never; the input returns DEPTH credits in all, one per flit it held. */
static void overrun_case(int depth, int in, int pop)
{
    lcan_sw_cfg c = mkcfg(2, 3, 2, 3, 1, 2, 2, 0x20, LCAN_PACKET, depth, LCAN_UP_ROTATE);
    tsw t;
    uint64_t x = mkflit(0, 0, 0x24, 0xEE);
    int k, o, next, n_ret, seen_x = 0, in_order = 1, outst[9] = {0};
    if (!t_open(&t, &c))
        return;
    t_reset(&t, 7u + (uint32_t)in);
    for (k = 0; k < 2 * depth; k++) { /* input 4 (child 2) to DOWN(1): one grant a tick */
        t.in.rv[4] = 1;
        t.in.rf[4] = mkflit(0, 0, 0x25, 0x80 + (uint32_t)k);
        t_tick(&t, "overrun: spend");
    }
    check(&C, t.o_dbg[2] == 0 && t.o_dbg[3] == 0 && t.out.cnt_down == (uint32_t)(2 * depth),
          "overrun depth %d: outputs 2, 3 out of credit", depth);
    outst[2] = outst[3] = depth;
    for (k = 0; k < depth; k++) { /* the FIFO of `in` fills */
        t.in.rv[in] = 1;
        t.in.rf[in] = mkflit(0, 0, 0x24, (uint32_t)k);
        t_tick(&t, "overrun: fill");
        check(&C, txset(&t) == 0 && !t.o_ret[in], "overrun depth %d in %d: flit %d waits", depth, in, k);
    }
    if (pop) {
        t.in.tr[2] = 1;
        outst[2]--;
        t_tick(&t, "overrun: credit");
        check(&C, txset(&t) == 0 && t.o_dbg[2] == 1, "overrun depth %d in %d: a credit on output 2", depth, in);
    }
    t.in.rv[in] = 1; /* the overrun */
    t.in.rf[in] = x;
    t_tick(&t, "overrun");
    if (pop)
        check(&C, txset(&t) == 0x04 && t.o_tf[2] == mkflit(0, 0, 0x24, 0) && t.o_ret[in] && t.r.fn[in] == depth - 1,
              "overrun depth %d in %d: the head leaves on 2 (tx %x ret %d), x dropped (%d held)", depth, in, txset(&t),
              t.o_ret[in], t.r.fn[in]);
    else
        check(&C, txset(&t) == 0 && !t.o_ret[in] && t.r.fn[in] == depth,
              "overrun depth %d in %d: nothing leaves (tx %x ret %d), x dropped (%d held)", depth, in, txset(&t),
              t.o_ret[in], t.r.fn[in]);
    outst[2] += pop;
    next = pop;
    n_ret = t.o_ret[in];
    for (k = 0; k < 2 * depth + 6; k++) { /* credits flow again: the FIFO drains */
        for (o = 2; o <= 3; o++)
            if (outst[o] > 0) {
                t.in.tr[o] = 1;
                outst[o]--;
            }
        t_tick(&t, "overrun: drain");
        for (o = 0; o < 9; o++) {
            if (!t.o_tv[o])
                continue;
            outst[o]++;
            if (t.o_tf[o] == x)
                seen_x = 1;
            else if (o < 2 || o > 3 || t.o_tf[o] != mkflit(0, 0, 0x24, (uint32_t)next++))
                in_order = 0;
        }
        n_ret += t.o_ret[in];
    }
    check(&C, !seen_x && in_order && next == depth && n_ret == depth && t.out.cnt_down == (uint32_t)(3 * depth) &&
                  t.out.cnt_up == 0 && t.out.cnt_drop == 0 && t.r.fn[in] == 0,
          "overrun depth %d in %d pop %d: x %s, in order %d, %d of %d held flits left, %d credits returned, counters "
          "%u %u %u",
          depth, in, pop, seen_x ? "delivered" : "dropped", in_order, next, depth, n_ret, t.out.cnt_up,
          t.out.cnt_down, t.out.cnt_drop);
    lcan_sw_free(t.s);
}

static void test_overrun(void)
{
    int depth, in, pop;
    for (depth = 1; depth <= 3; depth += 2)
        for (in = 0; in <= 7; in += 7) /* downer 0, upper 7 */
            for (pop = 0; pop <= 1; pop++)
                overrun_case(depth, in, pop);
}

static void test_faults(void)
{
    int mode, seed, o, got;
    for (mode = 0; mode <= 1; mode++) {
        lcan_sw_cfg c = shape_a(mode, 1);
        tsw t;
        if (!t_open(&t, &c))
            return;
        for (seed = 1; seed <= 40; seed++) {
            uint32_t dest = 0x13;
            t_reset(&t, (uint32_t)seed * 2654435761u);
            /* uppers 6 and 8 off: UP always gets 7 */
            t.in.off[6] = t.in.off[8] = 1;
            t.in.rv[0] = 1;
            t.in.rf[0] = mkflit(1, 0, dest, 1);
            t_tick(&t, "off");
            check(&C, t.o_tv[7] && !t.o_tv[6] && !t.o_tv[8], "off uppers never granted");
            t.in.off[6] = t.in.off[8] = 0;
            /* reach row of upper 1 (row row_base + 1) without bit dest, written on this tick: not
             * used yet; rows outside row_base .. row_base + 2 ignored */
            t_reset(&t, (uint32_t)seed);
            t.in.cfg_we = 1;
            t.in.cfg_addr = c.row_base + 1;
            t.in.cfg_row = ~((uint64_t)1 << dest);
            t.in.off[6] = t.in.off[8] = 1;
            t.in.rv[5] = 1;
            t.in.rf[5] = mkflit(1, 0, dest, 9);
            t_tick(&t, "row write");
            check(&C, t.o_tv[7], "a row written on tick t is not used on t");
            t.in.off[6] = t.in.off[8] = 0;
            t.in.clear = 1; /* (circuit mode: release upper 7) */
            t_tick(&t, "clear");
            t.in.cfg_we = 1;
            t.in.cfg_addr = c.row_base + 3; /* not this switch's */
            t.in.cfg_row = 0;
            t.in.off[6] = t.in.off[8] = 1; /* upper 7 is the only port; its row now says no */
            t.in.rv[1] = 1;
            t.in.rf[1] = mkflit(1, 0, dest, 2);
            t_tick(&t, "masked");
            for (o = 0, got = 0; o < 9; o++)
                got += t.o_tv[o];
            check(&C, got == 0 && t.out.cnt_drop == 1 && (mode == LCAN_CIRCUIT || t.o_ret[1]),
                  "mode %d: unroutable header dropped and counted", mode);
            t.in.off[6] = t.in.off[8] = 0;
            t.in.cfg_we = 1;
            t.in.cfg_addr = c.row_base - 1; /* not this switch's */
            t.in.cfg_row = 0;
            t.in.rv[2] = 1;
            t.in.rf[2] = mkflit(1, 0, dest ^ 1, 3); /* another destination: row 1 allows it */
            t_tick(&t, "other dest");
            check(&C, t.o_tv[6] || t.o_tv[7] || t.o_tv[8], "row masks only its destination");
            /* the other rows still all ones: uppers 6, 8 reachable for dest */
            t.in.rv[3] = 1;
            t.in.rf[3] = mkflit(1, 0, dest, 4);
            t.in.off[7] = 1;
            t_tick(&t, "rows intact");
            t.in.off[7] = 0;
            check(&C, (t.o_tv[6] || t.o_tv[8]) && !t.o_tv[7], "mode %d: writes outside the rows ignored", mode);
            /* reset: all ones again */
            t_reset(&t, 1);
            t.in.off[6] = t.in.off[8] = 1;
            t.in.rv[4] = 1;
            t.in.rf[4] = mkflit(1, 0, dest, 5);
            t_tick(&t, "after reset");
            t.in.off[6] = t.in.off[8] = 0;
            check(&C, t.o_tv[7], "reset: rows all ones");
        }
        lcan_sw_free(t.s);
    }
}

/* ------------------------------------------------------------------ random inputs vs the reference */

/* One random run of `ticks` ticks on cfg c, every output compared with the reference. Flits: kind
 * (v >> 8) % 8 is 0-4 a header (circuit; head ignored on a packet unicast), 5 data, 6 tree
 * broadcast, 7 flooding (bcast ignored in circuit mode); with flood != 0 kinds 3-5 are flooding too
 * (spec 8.7's queues kept busy). off_mod: a port is off on a tick with probability 1 / off_mod (0:
 * never, and no row writes either). Credits come back for the flits an output sent, each with
 * probability 2/3 per tick, or not at all during the stall phases. In packet mode a sender without
 * credit sends anyway with probability 1/16 (its credit unchanged): the FIFO it feeds holds DEPTH
 * flits, so the flit is dropped (spec 8.3 step 5). */
static void random_run(const lcan_sw_cfg *c, int ticks, int flood, int off_mod, unsigned long long *rng,
                       const char *what)
{
    tsw t;
    int P, tick, i, credit[MAXP], outst[MAXP], ok = 1, mode = c->cfg.mode, depth = c->cfg.depth;
    if (!t_open(&t, c))
        return;
    P = t.r.P;
    for (tick = 0; tick < ticks && ok; tick++) {
        unsigned long long r = test_rng(rng);
        int rate = (int)(r % 4);           /* load varies */
        int stall = (tick / 64) % 4 == 3;  /* flood: no credits back for a while (queues fill) */
        if (tick == 0 || r % 509 == 0) {
            t.in.rst = 1;
            t.in.seed = (uint32_t)(r >> 20);
            for (i = 0; i < P; i++)
                credit[i] = depth, outst[i] = 0;
        }
        t.in.clear = r % 97 == 0;
        for (i = 0; i < P; i++) {
            unsigned long long v = test_rng(rng);
            int over = mode == LCAN_PACKET && credit[i] == 0 && (v >> 52) % 16 == 0; /* past the credits */
            int send = (int)(v % 4) <= rate && (mode == LCAN_CIRCUIT || credit[i] > 0 || over) && !t.in.rst;
            int kind = (int)((v >> 8) % 8);
            if (flood && kind >= 3 && kind != 6)
                kind = 7;
            t.in.rv[i] = send;
            t.in.rf[i] = mkflit(kind < 5 || kind == 7, kind >= 6, (uint32_t)(v >> 16) % 64, (uint32_t)(v >> 32));
            if (!send)
                t.in.rf[i] = 0;
            if (send && mode == LCAN_PACKET && !over)
                credit[i]--;
            t.in.off[i] = off_mod > 0 && (v >> 40) % (unsigned)off_mod == 0;
            /* returns: acks anywhere; credits only for flits the output sent */
            if (mode == LCAN_CIRCUIT)
                t.in.tr[i] = (v >> 44) % 3 == 0;
            else if (t.r.level == 1 && i < t.r.D)
                t.in.tr[i] = (v >> 44) % 2; /* ignored */
            else if (outst[i] > 0 && (v >> 44) % 3 != 0 && !(flood && stall)) {
                t.in.tr[i] = 1;
                outst[i]--;
            }
        }
        if (off_mod > 0 && r % 5 == 0) {
            unsigned long long v = test_rng(rng);
            t.in.cfg_we = 1;
            t.in.cfg_addr = c->row_base - 2 + (uint32_t)(v % (unsigned)(t.r.U + 4));
            t.in.cfg_row = (v >> 8) % 4 == 0 ? ~(uint64_t)0 : (test_rng(rng) | test_rng(rng));
        }
        if (t.in.rst) /* a reset tick carries nothing else of use */
            for (i = 0; i < P; i++)
                t.in.tr[i] = 0;
        ok = t_tick(&t, what);
        for (i = 0; i < P && mode == LCAN_PACKET; i++) {
            credit[i] += t.o_ret[i];
            outst[i] += t.o_tv[i];
        }
    }
    lcan_sw_free(t.s);
}

static void test_random(void)
{
    static const struct { int level, m, p, w_up, p_up, dig_off, dig_w; uint32_t label; } sh[] = {
        {2, 3, 2, 3, 1, 2, 2, 0x20}, {1, 4, 1, 2, 2, 0, 2, 0x24}, {3, 3, 2, 0, 1, 4, 2, 0},
        {2, 2, 1, 5, 1, 2, 1, 0x18}, {1, 2, 3, 1, 3, 0, 1, 0x2A},
    };
    int k, mode, uc, depth;
    unsigned long long rng = 2026;
    for (k = 0; k < (int)(sizeof sh / sizeof sh[0]); k++)
        for (mode = 0; mode <= 1; mode++)
            for (uc = 0; uc <= 1; uc++)
                for (depth = 1; depth <= (mode ? 3 : 1); depth += 2) {
                    lcan_sw_cfg c = mkcfg(sh[k].level, sh[k].m, sh[k].p, sh[k].w_up, sh[k].p_up, sh[k].dig_off,
                                          sh[k].dig_w, sh[k].label, mode, depth, uc);
                    char what[80];
                    snprintf(what, sizeof what, "random shape %d mode %d uc %d depth %d", k, mode, uc, depth);
                    random_run(&c, 3000, 0, 16, &rng, what);
                    /* UNICAST_ONLY (spec 8.8): the same inputs (broadcasts, floods among them) read as
                     * unicasts in packet mode; no effect in circuit mode */
                    c.cfg.unicast_only = 1;
                    snprintf(what, sizeof what, "random UNICAST_ONLY shape %d mode %d uc %d depth %d", k, mode, uc,
                             depth);
                    random_run(&c, 1500, k % 2, k % 2 ? 0 : 16, &rng, what);
                }
    check(&C, overrun_drops[0] > 100 && overrun_drops[1] > 100,
          "random runs: flits past the credits dropped at a full FIFO %ld times with a pop, %ld without",
          overrun_drops[1], overrun_drops[0]);
    printf("test_switch: random runs: flits past the credits dropped %ld times with a pop, %ld without\n",
           overrun_drops[1], overrun_drops[0]);
}

/* Spec 8.7 against the reference: flooding-heavy random inputs (from children and from uppers,
 * with stalls that fill the queues) on small and larger switches (up to P = 16), FLOOD_Q 1, 2, 3, 8
 * and 255, without faults and with off ports and row writes; the 2 * P debug bytes compared every
 * tick. Circuit mode ignores FLOOD_Q (P debug bytes, the circuit behaviour). */
static void test_random_flood(void)
{
    static const struct { int level, m, p, w_up, p_up, dig_off, dig_w; uint32_t label; } sh[] = {
        {2, 3, 2, 3, 1, 2, 2, 0x20}, {1, 4, 1, 2, 2, 0, 2, 0x24}, {3, 3, 2, 0, 1, 4, 2, 0},
        {2, 2, 1, 1, 1, 2, 1, 0x18}, {1, 2, 3, 1, 3, 0, 1, 0x2A}, {2, 4, 2, 4, 2, 2, 2, 0x30},
        {1, 8, 1, 8, 1, 0, 3, 0x28}, {3, 4, 4, 0, 1, 4, 2, 0},
    };
    static const int fqs[] = {1, 2, 3, 8, 255};
    int k, f, faults, depth;
    unsigned long long rng = 8007;
    for (k = 0; k < (int)(sizeof sh / sizeof sh[0]); k++)
        for (f = 0; f < (int)(sizeof fqs / sizeof fqs[0]); f++)
            for (faults = 0; faults <= 1; faults++)
                for (depth = 1; depth <= 4; depth += 3) {
                    lcan_sw_cfg c = mkcfg(sh[k].level, sh[k].m, sh[k].p, sh[k].w_up, sh[k].p_up, sh[k].dig_off,
                                          sh[k].dig_w, sh[k].label, LCAN_PACKET, depth, (k + f) % 2);
                    char what[96];
                    c.cfg.flood_q = fqs[f];
                    snprintf(what, sizeof what, "flood shape %d FLOOD_Q %d faults %d depth %d", k, fqs[f], faults,
                             depth);
                    random_run(&c, 2000, 1, faults ? 48 : 0, &rng, what);
                }
    check(&C, cov.rejected > 1000 && cov.accepted > 10000 && cov.full > 1000 && cov.emptied > 100 &&
                  cov.sent_up > 1000 && cov.blocked_uni > 100,
          "random flood runs exercised: %ld rejected, %ld accepted, %ld queues full, %ld emptied by off, %ld "
          "sent up, %ld unicasts meeting a busy queue",
          cov.rejected, cov.accepted, cov.full, cov.emptied, cov.sent_up, cov.blocked_uni);
    printf("test_switch: random flood runs: %ld rejected, %ld accepted, %ld queues full, %ld emptied by off, %ld sent "
           "up, %ld unicasts meeting a busy queue\n",
           cov.rejected, cov.accepted, cov.full, cov.emptied, cov.sent_up, cov.blocked_uni);
    for (k = 0; k < 2; k++) { /* circuit mode: FLOOD_Q ignored */
        lcan_sw_cfg c = mkcfg(sh[k].level, sh[k].m, sh[k].p, sh[k].w_up, sh[k].p_up, sh[k].dig_off, sh[k].dig_w,
                              sh[k].label, LCAN_CIRCUIT, 4, 1);
        c.cfg.flood_q = 8;
        random_run(&c, 1000, 1, 16, &rng, "circuit with FLOOD_Q 8");
    }
}

/* P > 64 (the port sets' second word): level 2, m = 64, p = 1, two parents: D = 64, U = 2, P = 66;
 * ADDR_W 7, digit 2 in bits [5:0], a_3 = 1 in bit 6; PAYLOAD_W 8: flit = payload | dest << 8 |
 * bcast << 15 | head << 16. */
static void test_wide(void)
{
    int mode, trial;
    for (mode = 0; mode <= 1; mode++)
        for (trial = 0; trial < 60; trial++) {
            lcan_sw_cfg c;
            lcan_sw *s = NULL;
            uint8_t rv[66] = {0}, tv[66], ret[66], dbg[66];
            uint64_t rf[66] = {0}, tf[66];
            lcan_sw_in in;
            lcan_sw_out out;
            uint32_t seed = 1000u + (uint32_t)trial * 7919u, st;
            int r_up, r_in, first, o, n;
            memset(&c, 0, sizeof c);
            c.level = 2;
            c.m = 64;
            c.p_dn = 1;
            c.w_up = 2;
            c.p_up = 1;
            c.addr_w = 7;
            c.dig_off = 0;
            c.dig_w = 6;
            lcan_cfg_default(&c.cfg);
            c.cfg.mode = (lcan_mode)mode;
            c.cfg.payload_w = 8;
            c.cfg.up_choice = (lcan_up_choice)(trial % 2);
            c.label = 0x40;
            c.salt = 0xDEADBEEFu;
            if (lcan_sw_new(&c, &s) != LCAN_OK) {
                check(&C, 0, "wide: lcan_sw_new");
                return;
            }
            check(&C, lcan_sw_ports(s) == 66 && lcan_sw_flit_width(s) == 17, "wide: 66 ports, FW 17");
            st = (seed ^ c.salt) ? (seed ^ c.salt) : 1u;
            r_up = (int)((st >> 8) & 1u);
            r_in = r_red(st & 0xFFu, 66);
            memset(&in, 0, sizeof in);
            memset(&out, 0, sizeof out);
            in.rx_valid = rv;
            in.rx_flit = rf;
            out.tx_valid = tv;
            out.tx_flit = tf;
            out.rx_ret = ret;
            out.dbg = dbg;
            in.rst = 1;
            in.seed = seed;
            lcan_sw_tick(s, &in, &out);
            in.rst = 0;
            /* upper 65 to child 63 (outside the subtree: goes down all the same); downers 1 and 2
             * climb (a_3 = 0): the first in rotated order from r_in gets upper r_up */
            rv[65] = rv[1] = rv[2] = 1;
            rf[65] = 0x3Fu << 8 | 1u << 16 | 0x65u;
            rf[1] = 0x05u << 8 | 1u << 16 | 0x01u;
            rf[2] = 0x06u << 8 | 1u << 16 | 0x02u;
            lcan_sw_tick(s, &in, &out);
            first = r_in == 2 ? 2 : 1;
            check(&C, tv[63] && tf[63] == rf[65] && tv[64 + r_up] && tf[64 + r_up] == rf[first] && tv[65 - r_up] &&
                          tf[65 - r_up] == rf[3 - first] && out.cnt_up == 2 && out.cnt_down == 1,
                  "wide mode %d seed %u: r_in %d r_up %d", mode, seed, r_in, r_up);
            if (mode == LCAN_CIRCUIT)
                check(&C, dbg[63] == (0x80 | 65) && dbg[64 + r_up] == (0x80 | first), "wide: circuits in dbg");
            else
                check(&C, dbg[63] == 3 && dbg[64] == 3 && dbg[65] == 3 && ret[65] && ret[1] && ret[2], "wide: credits");
            memset(rv, 0, sizeof rv);
            if (mode == LCAN_PACKET) { /* flooding from child 10: 63 children and upper 0 */
                rv[10] = 1;
                rf[10] = 1u << 16 | 1u << 15 | 0x33u;
                lcan_sw_tick(s, &in, &out);
                for (o = 0, n = 0; o < 66; o++)
                    n += tv[o];
                check(&C, n == 64 && !tv[10] && tv[64] && !tv[65] && tv[0] && tv[63] && ret[10] && out.cnt_down == 1 + 63 &&
                              out.cnt_up == 3,
                      "wide: flooding copies %d", n);
            }
            lcan_sw_free(s);
        }
}

int main(void)
{
    test_cfg();
    test_circuit_lone();
    test_circuit_paths();
    test_packet();
    test_flood_q();
    test_overrun();
    test_faults();
    test_random();
    test_random_flood();
    test_wide();
    return check_done(&C);
}
