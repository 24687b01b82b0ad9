/*
 * net_packet.c - the event-driven packet-mode tick of the fast path (spec 8.3 steps 2-6): the
 * full-scan tick of sw.c (wired by net.c's switch_tick) done on 64-bit port masks.
 *
 * Candidate per input = FIFO head, else the arriving flit (bypass). A flit arriving at an input
 * whose FIFO held DEPTH flits before the tick (impossible while credits are honoured) is dropped,
 * not stored, even when the head is popped on that tick. Unicasts make ONE requests of
 * their class (spec 4); a tree broadcast climbs through upper 0 (ONE) and descends on parallel link 0
 * to every child not yet served (ALL); a flooding broadcast (head = 1, spec 8.6) asks at once for
 * every direction of its tree but the one it came from (ALL). Outputs are available when they hold a credit (level-1 downers
 * always). A consumed candidate returns a credit on its input. Faults (spec 14.3): off outputs are
 * never available and want sets are masked; a ONE request left with nothing to want (also an
 * impossible digit, spec 4) is discarded and counted in cnt_drop, an ALL request with nothing left
 * to copy is consumed without a count. The event-driven path has a copy for ticks with faults and
 * one without (n->faulty), so a network without faults runs the code it ran before. It shares with
 * the unit the LFSR offsets and up order (lfsr.h), the reach rows (sw.h: lcan_sw_reach) and the
 * off ports (lcan_net_sw_faults); tests/test_traffic_fast.c and test_net_packet.c keep the two
 * ticks equal output by output. It knows no flood queues (spec 8.7): a network with FLOOD_Q > 0
 * runs the full-scan tick instead (net.c, fast_alloc). With UNICAST_ONLY (spec 8.8) a flit's bcast
 * bit is decoded as 0 (n->bcast_m = 0, as sw.c's k->bcast_m): every candidate is a unicast, so
 * n->bcast_in stays 0 and only the unicast steps run.
 */
#include "bytemask.h"
#include "lfsr.h"
#include "net_internal.h"
#include "sw.h"

/* FIFO operations of the fast path (indices wrap by arithmetic, not by a branch or a division).
 * popped: 1 when the FIFO's head left on this tick (before the push). A FIFO that held DEPTH flits
 * before the tick refuses the flit, whether or not its head left (spec 8.3 step 5: the flit is
 * dropped; impossible while credits are honoured). */
static inline void fifo_push(struct lcan_net *n, uint32_t gp, uint64_t f, uint32_t popped)
{
    uint32_t D = (uint32_t)n->cfg.depth, tail = (uint32_t)n->fhead[gp] + n->fcount[gp];
    if (n->fcount[gp] + popped >= D)
        return;
    n->fifo[(size_t)gp * D + tail - (D & (0u - (uint32_t)(tail >= D)))] = f;
    n->fcount[gp]++;
}

static inline void fifo_pop(struct lcan_net *n, uint32_t gp)
{
    uint32_t h = (uint32_t)n->fhead[gp] + 1u;
    n->fhead[gp] = (uint16_t)(h & (0u - (uint32_t)(h != (uint32_t)n->cfg.depth)));
    n->fcount[gp]--;
}

/* ------------------------------------------------------------------ fast path (P <= 64)
 *
 * The same steps as lcan_sw_packet_tick (sw.c), on 64-bit port masks and the per-level constants of
 * net_internal.h, for a switch that has something to do (arriving flits or a non-empty FIFO).
 * Arriving credits only add to cr after the allocation (step 6), so net.c adds them after every
 * switch has run, without a visit. Only the flit registers that carry a flit are written.
 * Written for a processor's branch predictor: whether a FIFO is empty, a flit goes up or down, a
 * port faces a leaf or a request is granted is as random as the traffic, so those choices are
 * made by selecting values (masks, dummy entries) and by loops over port masks, not by branches. */

static inline uint64_t bit64(int i) { return (uint64_t)1 << i; }

/* All ones if c, else 0. */
static inline uint64_t all_if(int c) { return (uint64_t)0 - (uint64_t)(c != 0); }

/* The candidate on global input gp: the head of its FIFO if from_fifo, else the flit arriving
 * (net_internal.h: flit_q is indexed by the receiving input). */
static inline uint64_t candidate(const struct lcan_net *n, uint32_t gp, int from_fifo)
{
    uint64_t head = n->fifo[(size_t)gp * (uint32_t)n->cfg.depth + n->fhead[gp]];
    uint64_t arriving = n->flit_q[gp], sel = all_if(from_fifo);
    return (head & sel) | (arriving & ~sel);
}

/* Output o of the switch whose first global port is pb takes flit f (spec 8.3 step 4): the flit
 * register of its receiver (net_internal.h) and its bit in the receiving switch's arrival mask and
 * a wake, or at a leaf the same bit in the ejection masks (lcan_net.ejb) and no wake (abit 0); a
 * credit spent (level-1 downers hold none). The caller counts it. An output whose last credit is
 * spent is taken on this tick, so the visit's free set need not drop it (avail_of). */
static inline void send_flit(struct lcan_net *n, uint32_t pb, int o, uint64_t f)
{
    uint32_t go = pb + (uint32_t)o, dec;
    const lcan_fast_link *to = &n->out_to[go];
    dec = to->cred; /* the outputs facing leaves, the level-1 downers, hold no credits (spec 8.2) */
    n->flit_d[to->rx] = f;
    to->arr[n->nxt] |= to->lbit; /* (at a leaf its bit in ejb) */
    n->act_nxt[to->aw] |= to->abit; /* (0 at a leaf) */
    n->cr[go] = (uint16_t)(n->cr[go] - dec);
}

/* The outputs of switch sd (of P ports) available on this tick (spec 8.3): those that hold a credit,
 * from the counters (eight by one compare; bits at P and above, the next ports' counters, are never
 * wanted), and the level-1 downers, which hold none (spec 8.2). */
static inline uint64_t avail_of(const struct lcan_net *n, const lcan_fast_sw *sd, int P)
{
    return lcan_nonzero_u16_mask(n->cr + sd->pb, (uint32_t)P) | sd->leafm;
}

/* The candidate on global input gp was consumed: its credit goes back to the sender (spec 8.3
 * step 5, 8.4), arriving there next tick. */
static inline void return_credit(struct lcan_net *n, uint32_t gp)
{
    *n->crl_end++ = n->in_src[gp];
}

/* Faults (spec 14.3) on the fast path, as masks of local ports: the off ports of switch sw (of
 * level l), and the uppers whose reach rows hold bit dest. Only called when n->faulty. */
static uint64_t fast_off(const struct lcan_net *n, uint32_t sw, int l, lcan_sw_faults *fb)
{
    return lcan_net_sw_faults(n, l, sw - n->g.sw_base[l], fb)->off.w[0];
}

/* The end of a switch's tick (spec 8.3 steps 5-6) for the inputs at pb: a consumed candidate
 * (consm) returns its credit; then the FIFOs that change: a consumed candidate leaves its FIFO if it
 * came from there (popm; fm: the inputs whose candidate was the FIFO's head); the arriving flit (arr)
 * is stored unless it was the candidate and got consumed (pushm; a consumed arriving flit, the
 * common case below saturation, and a blocked head with nothing arriving change nothing), or its
 * FIFO held DEPTH flits before the tick: then it is dropped, whether or not the head leaves
 * (impossible while credits are honoured). One loop per case (pop; push; both: the pop makes room
 * for the flit, the count stays), each without branches on the data, indices wrapping by
 * arithmetic; a full FIFO is a test of the count that the push and both loops load anyway, never
 * true while credits are honoured (so always predicted), and turns "both" into a plain pop.
 * Returns the new FIFO mask. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint64_t consume_and_store(struct lcan_net *n, uint32_t pb, uint64_t arr, uint64_t fm, uint64_t consm,
                                         uint32_t depth)
{
    uint64_t m, popm = consm & fm, pushm = arr & (fm | ~consm), fm_new = fm | pushm;
    for (m = consm; m; m &= m - 1u)
        return_credit(n, pb + (uint32_t)lcan_ctz64(m));
    for (m = popm & ~pushm; m; m &= m - 1u) { /* the head leaves */
        int i = lcan_ctz64(m);
        uint32_t gp = pb + (uint32_t)i, head = (uint32_t)n->fhead[gp] + 1u, count = (uint32_t)n->fcount[gp] - 1u;
        n->fhead[gp] = (uint16_t)(head - (depth & (0u - (uint32_t)(head >= depth))));
        n->fcount[gp] = (uint16_t)count;
        fm_new &= ~((uint64_t)(count == 0) << i);
    }
    for (m = pushm & ~popm; m; m &= m - 1u) { /* the arriving flit joins the tail */
        int i = lcan_ctz64(m);
        uint32_t gp = pb + (uint32_t)i, count = n->fcount[gp], tail = (uint32_t)n->fhead[gp] + count;
        tail -= depth & (0u - (uint32_t)(tail >= depth));
        if (count < depth) { /* (never full while credits are honoured) */
            n->fifo[(size_t)gp * depth + tail] = n->flit_q[gp];
            n->fcount[gp] = (uint16_t)(count + 1u);
        }
    }
    for (m = popm & pushm; m; m &= m - 1u) { /* both: the count stays */
        int i = lcan_ctz64(m);
        uint32_t gp = pb + (uint32_t)i, head = n->fhead[gp], count = n->fcount[gp], tail = head + count;
        tail -= depth & (0u - (uint32_t)(tail >= depth));
        if (count >= depth) { /* full before the tick: the flit is dropped, the head leaves */
            n->fcount[gp] = (uint16_t)(count - 1u);
            fm_new &= ~((uint64_t)(count == 1u) << i);
        } else {
            n->fifo[(size_t)gp * depth + tail] = n->flit_q[gp];
        }
        head++;
        n->fhead[gp] = (uint16_t)(head - (depth & (0u - (uint32_t)(head >= depth))));
    }
    return fm_new;
}

static uint64_t fast_reach(const lcan_fast_level *lv, const lcan_sw_faults *fb, uint32_t dest)
{
    uint64_t m = lv->up_want;
    int j;
    if (fb->rows != NULL)
        for (j = 0; j < lv->U; j++)
            if (!lcan_sw_reach(fb, j, dest))
                m &= ~bit64(lv->D + j);
    return m;
}

/* Class UP's scan order D + sigma[k] (UP_CHOICE = uniform, U >= 3) for the LFSR value s of a
 * switch of level l: the level's table row when it has one (net.c up_table), else computed into buf. */
static inline const uint8_t *up_order(const struct lcan_net *n, const lcan_fast_level *lv, int l, uint32_t s,
                                      uint8_t *buf)
{
    if (lv->up_tab != NULL) /* z & up_key, up_key < 2^16: z's first two bytes, s[15:8] and s[31:24] */
        return lv->up_tab + (size_t)((((s >> 8) & 0xFFu) | ((s >> 24) << 8)) & lv->up_key) * (size_t)lv->U;
    return lcan_sw_up_order(&n->swk[l], s, buf);
}

/* Class UP's grant by lcan_fast_level.up_gr for the LFSR value s and the free uppers fr (not 0). */
static inline uint64_t up_grant(const lcan_fast_level *lv, uint32_t s, uint64_t fr)
{
    size_t row = (s >> 8) & lv->up_key; /* as up_order's: up_key < 2^8 (net.c up_table), z's first byte s[15:8] */
    return bit64(lv->up_gr[(row << lv->U) + (size_t)(fr >> lv->D)]);
}

/* The output granted to a unicast request of key x | up << 6 (lcan_fast_level.want_k: class DOWN(x),
 * or UP when up) of a switch of level lv->l with LFSR value s, among its free wanted outputs fr
 * (spec 6), as a bit (0: none): the first free one cyclically from the class's start (x * p + r_dn,
 * or D + r_up), or for class UP under UP_CHOICE = uniform the first free D + sigma[k] (*ord: that
 * order, looked up on first use). Where the start cannot matter (cyc_k: a down class of one link,
 * class UP in sigma's order) the lowest free output is that first one, and the start is not
 * computed. plain (a constant in each copy of the tick: lcan_net.plain): no class of the level
 * is cyclic and class UP is granted by up_gr, so neither is tested. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint64_t grant_unicast(const struct lcan_net *n, const lcan_fast_level *lv, uint32_t s, uint32_t key,
                                     int up, uint64_t fr, const uint8_t **ord, uint8_t *ord_buf, const int plain)
{
    uint64_t g = fr & (0u - fr);
    if (plain)
        return up && fr ? up_grant(lv, s, fr) : g;
    if (lv->cyc_k[key]) {
        uint32_t start = lv->base_k[key] + (up ? lv->st_up[(s >> 8) & 0xFFu] : lv->r_dn[(s >> 16) & 0xFFu]);
        uint64_t hi = fr & ~(bit64((int)start) - 1u), first = hi ? hi : fr;
        g = first & (0u - first);
    }
    if (up && lv->uorder && fr) {
        int k;
        if (lv->up_gr != NULL) /* (fr: uppers only, class UP) */
            return up_grant(lv, s, fr);
        if (*ord == NULL)
            *ord = up_order(n, lv, lv->l, s, ord_buf);
        for (k = 0; k < lv->U; k++)
            if ((fr >> (*ord)[k]) & 1u) {
                g = bit64((*ord)[k]);
                break;
            }
    }
    return g;
}

/* Several candidates, or a broadcast: the allocator of spec 6 on masks. faulty (a constant in
 * each of the two copies switch_general makes): mask the want sets (spec 14.3); the copy without
 * faults has none of that code. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void switch_general_t(struct lcan_net *n, uint32_t sw, uint64_t arr, uint64_t fm, const int faulty)
{
    lcan_fast_sw *sd = &n->swd[sw];
    const lcan_fast_level *lv = sd->lv;
    int D = lv->D, P = lv->P, p = lv->p, up_in_ok = !lv->top;
    uint32_t pb = sd->pb, s = sd->lfsr, nup = 0, ndn = 0, depth = (uint32_t)n->cfg.depth;
    uint64_t avail = avail_of(n, sd, P), cands = arr | fm, m;
    uint64_t cand[64], want[64], grant[64];
    int start[64];
    uint64_t reqm = 0, allm = 0, dropm = 0, gotm, consm, fm_new, ordm = 0;
    uint64_t offm = 0, bdropm = 0; /* faults: off ports; ALL requests left with nothing to copy */
    uint32_t ndrop = 0;
    lcan_sw_faults fb;
    uint8_t ord_buf[64];
    const uint8_t *ord = NULL; /* class UP's scan order (UP_CHOICE = uniform, U >= 3), made once */
    int r_in = lcan_lfsr_offset(s & 0xFFu, lv->in_mask, P);
    int r_up = lcan_lfsr_offset((s >> 8) & 0xFFu, lv->up_mask, lv->U);
    int r_dn = lcan_lfsr_offset((s >> 16) & 0xFFu, lv->dn_mask, p);

    sd->arr[n->cur] = 0;
    if (faulty)
        offm = fast_off(n, sw, lv->l, &fb);
    for (m = cands; m; m &= m - 1u) {
        int i = lcan_ctz64(m);
        uint32_t gp = pb + (uint32_t)i;
        uint64_t f = candidate(n, gp, (int)((fm >> i) & 1u));
        cand[i] = f;
        if (!(f & n->bcast_m)) { /* a unicast (with UNICAST_ONLY every candidate, spec 8.8) */
            uint32_t dest = lcan_net_dest(n, f), x = (dest >> lv->off) & lv->dmask, xd;
            uint64_t upm;
            int up = (i < D) & up_in_ok & ((dest & lv->hi_mask) != sd->hi); /* spec 4 */
            if (x >= (uint32_t)lv->m && !up) { /* an invalid digit: discarded on arrival (rare) */
                dropm |= bit64(i);
                ndrop++;
                continue;
            }
            upm = all_if(up);
            xd = x & ~(uint32_t)upm;
            want[i] = (lv->up_want & upm) | ((lv->dn_unit << (xd * (uint32_t)p)) & ~upm);
            if (faulty) { /* spec 14.3; unroutable: discarded and counted */
                want[i] &= ~offm & (up ? fast_reach(lv, &fb, dest) : ~(uint64_t)0);
                if (want[i] == 0) {
                    dropm |= bit64(i);
                    ndrop++;
                    continue;
                }
            }
            start[i] = (int)(((uint32_t)(D + r_up) & (uint32_t)upm) | ((uint32_t)((int)xd * p + r_dn) & ~(uint32_t)upm));
            if (up && lv->uorder) {
                if (ord == NULL)
                    ord = up_order(n, lv, lv->l, s, ord_buf);
                ordm |= bit64(i);
            }
        } else if ((f >> n->sh_head) & 1u) { /* flooding (spec 8.6): every direction but back */
            uint64_t full = lv->bc_full;
            if (i < D)
                full = (full & ~bit64((i / p) * p)) | (up_in_ok ? bit64(D) : 0);
            want[i] = full & ~offm & ~n->served[gp].w[0];
            start[i] = 0;
            if (faulty && want[i] == 0) { /* faults: nothing left to copy (spec 14.3) */
                bdropm |= bit64(i);
                continue;
            }
            allm |= bit64(i);
        } else if (i < D && up_in_ok) { /* a climbing broadcast: upper 0 */
            want[i] = bit64(D) & ~offm;
            start[i] = D;
            if (faulty && want[i] == 0) { /* faults: unroutable (spec 14.3) */
                dropm |= bit64(i);
                ndrop++;
                continue;
            }
        } else { /* descending: every child not yet served, at once */
            want[i] = lv->bc_full & ~offm & ~n->served[gp].w[0];
            start[i] = 0;
            if (faulty && want[i] == 0) {
                bdropm |= bit64(i);
                continue;
            }
            allm |= bit64(i);
        }
        reqm |= bit64(i);
    }
    /* spec 6: the allocator on masks (alloc.h), as the circuit header step runs it */
    gotm = lcan_alloc64(P, r_in, reqm, allm, ordm, want, start, ord, lv->U, avail, grant);
    /* step 4: every granted output takes its input's candidate */
    for (m = gotm; m; m &= m - 1u) {
        int i = lcan_ctz64(m);
        uint64_t gm;
        for (gm = grant[i]; gm; gm &= gm - 1u) {
            int o = lcan_ctz64(gm);
            send_flit(n, pb, o, cand[i]);
            nup += (uint32_t)(o >= D);
            ndn += (uint32_t)(o < D);
        }
    }
    /* consumed: dropped, a granted ONE request, an ALL request whose children are all served */
    consm = dropm | bdropm | (gotm & ~allm);
    for (m = bdropm; m; m &= m - 1u)
        n->served[pb + (uint32_t)lcan_ctz64(m)].w[0] = 0;
    for (m = allm; m; m &= m - 1u) {
        int i = lcan_ctz64(m);
        uint32_t gp = pb + (uint32_t)i;
        if ((want[i] & ~grant[i]) == 0) { /* want = full minus served */
            consm |= bit64(i);
            n->served[gp].w[0] = 0; /* served is only ever set by ALL requests */
        } else {
            n->served[gp].w[0] |= grant[i];
        }
    }
    fm_new = consume_and_store(n, pb, arr, fm, consm, depth);
    fm = fm_new;
    if (reqm)
        sd->lfsr = lcan_lfsr_step(s);
    n->cnt_ud[lv->l][1] += nup;
    n->cnt_ud[lv->l][0] += ndn;
    n->cnt_drop[lv->l] += ndrop;
    sd->fifo_m = fm;
    lcan_net_wake_if(n, sw, fm != 0);
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void switch_general(struct lcan_net *n, uint32_t sw, uint64_t arr, uint64_t fm)
{
    switch_general_t(n, sw, arr, fm, 0);
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void switch_general_faulty(struct lcan_net *n, uint32_t sw, uint64_t arr, uint64_t fm)
{
    switch_general_t(n, sw, arr, fm, 1);
}

/* Several candidates, all unicasts, no faults (the common multi-candidate case): the same steps as
 * switch_general_t, but each request is made, granted and sent in one pass over the inputs in the
 * allocator's order (spec 6: r_in, .., P-1, 0, .., r_in-1), without the want / start / grant arrays.
 * An output granted is taken for the rest of the pass (whether or not its last credit went), so the
 * later requests see the same free set as the allocator's. Returns 0 without any effect when a
 * candidate is a broadcast (switch_general then runs). may_bcast (a constant in each of the two
 * copies): whether a broadcast can be among the candidates (n->bcast_in, false unless the traffic has
 * broadcasts); the copy without reads each candidate in the pass instead of all of them first to
 * look for one, and is inlined into the loop over the switches. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int switch_uni_t(struct lcan_net *n, uint32_t sw, uint64_t arr, uint64_t fm, const int may_bcast,
                               const int plain)
{
    lcan_fast_sw *sd = &n->swd[sw];
    const lcan_fast_level *lv = sd->lv;
    uint64_t bcast_m = n->bcast_m;
    uint32_t pb = sd->pb, s = sd->lfsr, ndrop = 0, depth = (uint32_t)n->cfg.depth;
    uint64_t avail = avail_of(n, sd, plain ? 8 : lv->P), cands = arr | fm, m, bc = 0, taken = 0, consm = 0, dropm = 0,
             seg[2];
    uint64_t fm_new;
    int ph;
    uint64_t cand[64];
    uint8_t ord_buf[64];
    const uint8_t *ord = NULL;
    int r_in = lv->r_in[s & 0xFFu];

    if (may_bcast) {
        for (m = cands; m; m &= m - 1u) {
            int i = lcan_ctz64(m);
            uint64_t f = candidate(n, pb + (uint32_t)i, (int)((fm >> i) & 1u));
            cand[i] = f;
            bc |= f;
        }
        if (bc & bcast_m)
            return 0;
    }
    sd->arr[n->cur] = 0;
    seg[0] = cands & ~(bit64(r_in) - 1u); /* the allocator's order: inputs r_in..P-1, then 0..r_in-1 */
    seg[1] = cands & (bit64(r_in) - 1u);
    for (ph = 0; ph < 2; ph++)
    for (m = seg[ph]; m; m &= m - 1u) {
        int i = lcan_ctz64(m), up;
        uint64_t f, g, want;
        uint32_t key;
        f = may_bcast ? cand[i] : candidate(n, pb + (uint32_t)i, (int)((fm >> i) & 1u));
        /* (the per-level constants are read where used, not copied first: copies are spilled) */
        up = (int)((lv->up_in >> i) & 1u) & ((f & lv->hi_f) != sd->hi_f); /* spec 4 */
        key = ((uint32_t)(f >> lv->xsh) & lv->dmask) | (uint32_t)up << 6;
        want = lv->want_k[key];
        if (want == 0) { /* an invalid digit: discarded on arrival (rare) */
            dropm |= bit64(i);
            ndrop++;
            continue;
        }
        g = grant_unicast(n, lv, s, key, up, want & avail & ~taken, &ord, ord_buf, plain);
        if (g) {
            int o = lcan_ctz64(g);
            taken |= g;
            consm |= bit64(i);
            send_flit(n, pb, o, f);
            (*lv->cnt_o[o])++;
        }
    }
    fm_new = consume_and_store(n, pb, arr, fm, consm | dropm, depth);
    if (cands & ~dropm) /* a request was made */
        sd->lfsr = lcan_lfsr_step(s);
    n->cnt_drop[lv->l] += ndrop;
    sd->fifo_m = fm_new;
    lcan_net_wake_if(n, sw, fm_new != 0);
    return 1;
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int switch_uni(struct lcan_net *n, uint32_t sw, uint64_t arr, uint64_t fm)
{
    return switch_uni_t(n, sw, arr, fm, 1, 0);
}

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void switch_uni_nb(struct lcan_net *n, uint32_t sw, uint64_t arr, uint64_t fm, const int plain)
{
    (void)switch_uni_t(n, sw, arr, fm, 0, plain);
}

/* One switch on the fast path; faulty: a constant in each copy, as in switch_general_t; plain (a
 * constant too: lcan_net.plain, and no broadcast injected since the reset, n->bcast_in = 0): the
 * plain grant (grant_unicast), every candidate a unicast (so it is not tested for one), and at most 8
 * ports (their counters read as one group of eight, avail_of). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void switch_fast_t(struct lcan_net *n, uint32_t sw, const int faulty, const int plain)
{
    lcan_fast_sw *sd = &n->swd[sw];
    uint64_t arr = sd->arr[n->cur], fm = sd->fifo_m, cands = arr | fm, f;
    const lcan_fast_level *lv;
    int i, from_fifo, cons = 1, up;
    uint32_t gp, dest, x, key;
    if (cands == 0)
        return;
    if (cands & (cands - 1u)) {
        if (faulty)
            switch_general_faulty(n, sw, arr, fm);
        else if (plain || !n->bcast_in)
            switch_uni_nb(n, sw, arr, fm, plain);
        else if (!switch_uni(n, sw, arr, fm))
            switch_general(n, sw, arr, fm);
        return;
    }
    /* one candidate (the common case below saturation): the allocator's rotation cannot matter */
    lv = sd->lv;
    i = lcan_ctz64(cands);
    gp = sd->pb + (uint32_t)i;
    from_fifo = fm != 0;
    /* (a branch, not candidate()'s selection of both: a lone candidate nearly always arrives, so it
     * is predicted, and the FIFO is not read) */
    f = from_fifo ? n->fifo[(size_t)gp * (uint32_t)n->cfg.depth + n->fhead[gp]] : n->flit_q[gp];
    if (!plain && (f & n->bcast_m)) { /* a broadcast (never with UNICAST_ONLY, spec 8.8) */
        if (faulty)
            switch_general_faulty(n, sw, arr, fm);
        else
            switch_general(n, sw, arr, fm);
        return;
    }
    sd->arr[n->cur] = 0;
    dest = lcan_net_dest(n, f);
    x = (uint32_t)(f >> lv->xsh) & lv->dmask;
    up = (int)((lv->up_in >> i) & 1u) & ((f & lv->hi_f) != sd->hi_f); /* spec 4 */
    key = x | (uint32_t)up << 6;
    if (lv->want_k[key] != 0) { /* (0: an invalid digit, rare) */
        uint64_t want = lv->want_k[key], gr;
        uint32_t s = sd->lfsr;
        if (faulty) { /* spec 14.3 */
            lcan_sw_faults fb;
            want &= ~fast_off(n, sw, lv->l, &fb) & (up ? fast_reach(lv, &fb, dest) : ~(uint64_t)0);
        }
        if (!faulty || want != 0) {
            uint8_t ord_buf[64];
            const uint8_t *ord = NULL;
            gr = grant_unicast(n, lv, s, key, up, want & avail_of(n, sd, plain ? 8 : lv->P), &ord, ord_buf, plain);
            cons = gr != 0;
            if (gr) {
                int o = lcan_ctz64(gr);
                send_flit(n, sd->pb, o, f);
                (*lv->cnt_o[o])++;
            }
            sd->lfsr = lcan_lfsr_step(s);
        } else { /* unroutable (spec 14.3): no request, discarded and counted */
            n->cnt_drop[lv->l]++;
        }
    } else { /* an invalid digit (spec 4): no request, discarded and counted (spec 9) */
        n->cnt_drop[lv->l]++;
    }
    if (cons) {
        if (from_fifo) {
            fifo_pop(n, gp);
            if (n->fcount[gp] == 0)
                fm = 0;
        }
        return_credit(n, gp);
    }
    /* the arriving flit is stored unless it was the candidate and got consumed; here cons says the
     * head left: a FIFO that held DEPTH flits before the tick refuses the flit all the same (spec
     * 8.3 step 5), and may be empty now (DEPTH 1) */
    if (arr && (from_fifo || !cons)) {
        fifo_push(n, gp, n->flit_q[gp], (uint32_t)cons);
        fm |= all_if(n->fcount[gp]) & bit64(i);
    }
    sd->fifo_m = fm;
    if (fm) /* (a branch: a lone candidate nearly always arrives and leaves, so fm is 0, predicted) */
        lcan_net_wake_if(n, sw, 1);
}

/* Every active switch of the tick, in switch order; the loop is here so that the per-switch step is
 * inlined into it (one call per tick, not one per switch). act_cur is cleared as it is read (the
 * visits write act_nxt only), ready to serve as act_nxt on the next tick. faulty and plain: as in
 * switch_fast_t, constants in each of the three copies below. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void switches_t(struct lcan_net *n, const int faulty, const int plain)
{
    uint64_t *act = n->act_cur;
    uint32_t w, nw = n->n_actw;
    for (w = 0; w < nw; w++) {
        uint64_t m = act[w];
        act[w] = 0;
        for (; m; m &= m - 1u)
            switch_fast_t(n, w * 64u + (uint32_t)lcan_ctz64(m), faulty, plain);
    }
}

void lcan_net_packet_switches(struct lcan_net *n)
{
    if (n->plain && !n->bcast_in) /* (the grant without the cyclic and sigma-scan tests, no broadcasts) */
        switches_t(n, 0, 1);
    else
        switches_t(n, 0, 0);
}

void lcan_net_packet_switches_faulty(struct lcan_net *n)
{
    switches_t(n, 1, 0);
}
