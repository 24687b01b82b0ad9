/*
 * net_packet.c - one packet-mode switch tick (spec 8.3 steps 2-6).
 *
 * Candidate per input = FIFO head, else the arriving flit (bypass). Unicasts make ONE requests of
 * their class (spec 4); a tree broadcast climbs through upper 0 (ONE) and descends on parallel link 0
 * to every child not yet served (ALL); a flooding broadcast (head = 1, spec 8.6) asks at once for
 * every direction of its tree but the one it came from (ALL). Outputs are available when they hold a credit (level-1 downers
 * always). A consumed candidate returns a credit on its input. Faults (spec 14.3): off outputs are
 * never available and want sets are masked; a ONE request left with nothing to want (also an
 * impossible digit, spec 4) is discarded and counted in cnt_drop, an ALL request with nothing left
 * to copy is consumed without a count. The event-driven path has a copy for ticks with faults and
 * one without (n->faulty), so a network without faults runs the code it ran before.
 */
#include "lfsr.h"
#include "net_internal.h"
#include "sw.h"

/* (FIFO indices wrap by arithmetic, not by a branch or a division: see the fast path below) */
static inline void fifo_push(struct lcan_net *n, uint32_t gp, uint64_t f)
{
    uint32_t D = (uint32_t)n->cfg.depth, tail = (uint32_t)n->fhead[gp] + n->fcount[gp];
    if (n->fcount[gp] >= D) /* impossible while credits are honoured */
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

/* Build the request of candidate f on input i. full: the broadcast's whole want set (spec 8.3
 * step 3): a tree broadcast (head = 0) climbs through upper 0 (ONE) or descends to parallel link 0
 * of every child (ALL); a flooding broadcast (head = 1, spec 8.6) goes everywhere on its tree but
 * back (ALL). flt (NULL = none): want and full masked as spec 14.3 says.
 * Returns 1 for a request; 0 when the candidate is discarded and counted in cnt_drop instead (a
 * ONE request whose want set is empty: a unicast whose digit is invalid, spec 4, or an unroutable
 * ONE request, spec 14.3); 2 when it is consumed without a request and not counted (an ALL request
 * with nothing left to copy, spec 14.3). */
static int make_req(const struct lcan_net *n, int l, uint32_t hi, int i, uint64_t f, uint32_t gp,
                    const lcan_offsets *off, const lcan_sw_faults *flt, lcan_req *r, lcan_pset *full)
{
    const lcan_geom *g = &n->g;
    int c, D = g->D[l];
    if (!((f >> n->sh_bcast) & 1u)) {
        uint32_t dest = lcan_net_dest(n, f);
        int cls = lcan_route_decide(g, l, hi, i, dest);
        if (cls == LCAN_CLASS_DROP)
            return 0;
        lcan_sw_unicast_req(g, l, cls, off, r);
        lcan_sw_mask_want(g, l, flt, cls == LCAN_CLASS_UP, dest, &r->want);
        return !lcan_pset_empty(&r->want);
    }
    r->valid = 1;
    r->order = NULL;
    r->n_order = 0;
    lcan_pset_clear(full);
    if ((f >> n->sh_head) & 1u) { /* flooding */
        int from = i < D ? i / g->p[l] : -1;
        r->kind = LCAN_REQ_ALL;
        r->start = 0;
        for (c = 0; c < g->m[l]; c++)
            if (c != from)
                lcan_pset_add(full, c * g->p[l]);
        if (from >= 0 && l < g->h)
            lcan_pset_add(full, D);
    } else if (i < D && l < g->h) {
        r->kind = LCAN_REQ_ONE;
        lcan_pset_add(full, D);
        r->start = D;
        lcan_sw_mask_want(g, l, flt, 0, 0, full);
        r->want = *full;
        return !lcan_pset_empty(&r->want);
    } else {
        r->kind = LCAN_REQ_ALL;
        r->start = 0;
        for (c = 0; c < g->m[l]; c++)
            lcan_pset_add(full, c * g->p[l]);
    }
    lcan_sw_mask_want(g, l, flt, 0, 0, full);
    r->want.w[0] = full->w[0] & ~n->served[gp].w[0];
    r->want.w[1] = full->w[1] & ~n->served[gp].w[1];
    return lcan_pset_empty(&r->want) ? 2 : 1;
}

void lcan_net_packet_switch(struct lcan_net *n, int l, uint32_t x)
{
    const lcan_geom *g = &n->g;
    int P = g->P[l], D = g->D[l], i, o, nreq = 0;
    uint32_t pb = g->port_base[l] + x * (uint32_t)P, sw = g->sw_base[l] + x;
    uint64_t arr[LCAN_MAX_PORTS], cand[LCAN_MAX_PORTS];
    int from_fifo[LCAN_MAX_PORTS], consumed[LCAN_MAX_PORTS];
    lcan_req req[LCAN_MAX_PORTS];
    lcan_pset full[LCAN_MAX_PORTS], grant[LCAN_MAX_PORTS], avail;
    uint8_t order[LCAN_MAX_PORTS];
    lcan_offsets off = lcan_sw_offsets_uc(g, l, n->lfsr[sw], n->cfg.up_choice, order);
    lcan_sw_faults fbuf;
    const lcan_sw_faults *flt = n->faulty ? lcan_net_sw_faults(n, l, x, &fbuf) : NULL;

    lcan_pset_clear(&avail);
    for (o = 0; o < P; o++) {
        n->flit_d[pb + (uint32_t)o] = 0;
        if (((l == 1 && o < D) || n->cr[pb + (uint32_t)o] > 0) && (flt == NULL || !lcan_pset_has(&flt->off, o)))
            lcan_pset_add(&avail, o);
    }
    for (i = 0; i < P; i++) {
        uint32_t gp = pb + (uint32_t)i;
        int rq;
        arr[i] = lcan_net_in_flit(n, gp);
        from_fifo[i] = n->fcount[gp] > 0;
        cand[i] = from_fifo[i] ? n->fifo[(size_t)gp * (uint32_t)n->cfg.depth + n->fhead[gp]] : arr[i];
        req[i].valid = 0;
        consumed[i] = 0;
        if (!(cand[i] & LCAN_VALID))
            continue;
        rq = make_req(n, l, g->hi[sw], i, cand[i], gp, &off, flt, &req[i], &full[i]);
        if (rq == 1) {
            nreq++;
        } else { /* discarded (counted when a ONE request had nothing to want) */
            req[i].valid = 0;
            consumed[i] = 1;
            n->cnt_drop[l] += (uint32_t)(rq == 0);
        }
    }
    if (nreq > 0)
        lcan_alloc(P, off.r_in, req, &avail, grant);
    for (i = 0; i < P; i++) {
        uint32_t gp = pb + (uint32_t)i;
        if (req[i].valid) {
            lcan_pset done;
            for (o = lcan_pset_next(&grant[i], 0); o >= 0; o = lcan_pset_next(&grant[i], o + 1)) {
                n->flit_d[pb + (uint32_t)o] = cand[i];
                if (!(l == 1 && o < D))
                    n->cr[pb + (uint32_t)o]--;
                if (o >= D)
                    n->cnt_up[l]++;
                else
                    n->cnt_down[l]++;
            }
            done.w[0] = n->served[gp].w[0] | grant[i].w[0];
            done.w[1] = n->served[gp].w[1] | grant[i].w[1];
            if (((cand[i] >> n->sh_bcast) & 1u) && req[i].kind == LCAN_REQ_ALL)
                consumed[i] = (full[i].w[0] & ~done.w[0]) == 0 && (full[i].w[1] & ~done.w[1]) == 0;
            else
                consumed[i] = !lcan_pset_empty(&grant[i]);
            if (!consumed[i])
                n->served[gp] = done;
        }
        if (consumed[i]) {
            lcan_pset_clear(&n->served[gp]);
            if (from_fifo[i])
                fifo_pop(n, gp);
        }
        n->bk_d[gp] = (uint8_t)consumed[i];
        /* the arriving flit is stored unless it was the candidate and got consumed */
        if ((arr[i] & LCAN_VALID) && (from_fifo[i] || !consumed[i]))
            fifo_push(n, gp, arr[i]);
    }
    for (o = 0; o < P; o++) {
        uint32_t gp = pb + (uint32_t)o, pr = g->peer[gp];
        if (!(pr & LCAN_PEER_LEAF))
            n->cr[gp] = (uint16_t)(n->cr[gp] + n->bk_q[pr]);
    }
    if (nreq > 0)
        n->lfsr[sw] = lcan_lfsr_step(n->lfsr[sw]);
}

/* ------------------------------------------------------------------ fast path (P <= 64)
 *
 * The same steps as lcan_net_packet_switch, on 64-bit port masks and the per-level constants of
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
 * from its sender (net_internal.h: an output register or a network port's injection register). */
static inline uint64_t candidate(const struct lcan_net *n, uint32_t gp, int from_fifo)
{
    uint64_t head = n->fifo[(size_t)gp * (uint32_t)n->cfg.depth + n->fhead[gp]];
    uint64_t arriving = n->flit_q[n->in_src[gp]], sel = all_if(from_fifo);
    return (head & sel) | (arriving & ~sel);
}

/* Output o of the switch whose first global port is pb takes flit f (spec 8.3 step 4): the flit
 * register; at a leaf the ejection list, else the receiving switch's arrival mask and a wake (the
 * leaves' dummy switch takes the mask and is never listed); a credit spent (level-1 downers hold
 * none; an output left without credits leaves *avail). The caller counts it. */
static inline void send_flit(struct lcan_net *n, const lcan_fast_level *lv, uint32_t pb, int o, uint64_t f,
                             uint64_t *avail)
{
    uint32_t go = pb + (uint32_t)o, dec = !((lv->leafdn >> o) & 1u), c;
    const lcan_fast_link *to = &n->out_to[go];
    uint64_t t = n->ticks + 1;
    n->flit_d[go] = f;
    n->ejl_d[n->n_ejl_d] = to->q;
    n->n_ejl_d += to->leaf;
    n->arr_nxt[to->sw] |= bit64(to->loc);
    n->act_nxt[n->n_act_nxt] = to->sw;
    n->n_act_nxt += (uint32_t)(n->act_stamp[to->sw] != t) & (uint32_t)!to->leaf;
    n->act_stamp[to->sw] = t;
    c = n->cr[go] - dec;
    n->cr[go] = (uint16_t)c;
    *avail &= ~(bit64(o) & all_if(dec & (c == 0)));
}

/* The candidate on global input gp was consumed: its credit goes back to the sender (spec 8.3
 * step 5, 8.4), arriving there next tick. */
static inline void return_credit(struct lcan_net *n, uint32_t gp)
{
    n->crl_nxt[n->n_crl_nxt++] = n->in_src[gp];
}

/* Faults (spec 14.3) on the fast path, as masks of local ports: the off ports of switch sw (of
 * level l), and the uppers whose reach rows hold bit dest. Only called when n->faulty. */
static uint64_t fast_off(const struct lcan_net *n, uint32_t sw, int l, lcan_sw_faults *fb)
{
    return lcan_net_sw_faults(n, l, sw - n->g.sw_base[l], fb)->off.w[0];
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

/* Several candidates, or a broadcast: the allocator of spec 6 on masks. faulty (a constant in
 * each of the two copies switch_general makes): mask the want sets (spec 14.3); the copy without
 * faults has none of that code. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void switch_general_t(struct lcan_net *n, uint32_t sw, uint64_t arr, uint64_t fm, const int faulty)
{
    const lcan_fast_sw *sd = &n->swd[sw];
    const lcan_fast_level *lv = &n->lv[sd->l];
    int D = lv->D, P = lv->P, p = lv->p, up_in_ok = !lv->top;
    uint32_t pb = sd->pb, s = n->lfsr[sw], nup = 0, ndn = 0, depth = (uint32_t)n->cfg.depth;
    uint64_t avail = n->avail_m[sw], cands = arr | fm, m, rot;
    uint64_t cand[64], want[64], grant[64];
    int start[64];
    uint64_t reqm = 0, allm = 0, dropm = 0, taken = 0, gotm = 0, consm, fm_new, ordm = 0;
    uint64_t offm = 0, bdropm = 0; /* faults: off ports; ALL requests left with nothing to copy */
    uint32_t ndrop = 0;
    lcan_sw_faults fb;
    uint8_t ord[64]; /* class UP's scan order D + sigma[k] (UP_CHOICE = uniform, U >= 3), made once */
    int have_ord = 0;
    int r_in = lcan_lfsr_offset(s & 0xFFu, lv->in_mask, P);
    int r_up = lcan_lfsr_offset((s >> 8) & 0xFFu, lv->up_mask, lv->U);
    int r_dn = lcan_lfsr_offset((s >> 16) & 0xFFu, lv->dn_mask, p);

    n->arr_cur[sw] = 0;
    if (faulty)
        offm = fast_off(n, sw, sd->l, &fb);
    for (m = cands; m; m &= m - 1u) {
        int i = lcan_ctz64(m);
        uint32_t gp = pb + (uint32_t)i;
        uint64_t f = candidate(n, gp, (int)((fm >> i) & 1u));
        cand[i] = f;
        if (!((f >> n->sh_bcast) & 1u)) {
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
                if (!have_ord) {
                    lcan_lfsr_up_perm(s, lv->U, ord);
                    have_ord = 1;
                }
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
    /* spec 6: inputs in the order r_in, .., P-1, 0, .., r_in-1 = the bits of reqm rotated right by
     * r_in (0 <= r_in < P <= 64) */
    rot = ((reqm >> r_in) | ((reqm << 1) << (P - 1 - r_in))) & lv->pmask;
    for (; rot; rot &= rot - 1u) {
        int i = lcan_ctz64(rot) + r_in;
        uint64_t fr, hi, first, one, gr;
        i -= P & (int)all_if(i >= P);
        fr = want[i] & avail & ~taken;
        hi = fr & ~(bit64(start[i]) - 1u);
        first = (hi & all_if(hi != 0)) | (fr & ~all_if(hi != 0)); /* cyclic scan from start */
        one = first & (0u - first);
        gr = (fr & all_if((allm >> i) & 1u)) | (one & ~all_if((allm >> i) & 1u));
        if ((ordm >> i) & 1u) { /* class UP, UP_CHOICE = uniform: the first free D + sigma[k] */
            int k;
            gr = 0;
            for (k = 0; k < lv->U && fr; k++)
                if ((fr >> (D + ord[k])) & 1u) {
                    gr = bit64(D + ord[k]);
                    break;
                }
        }
        grant[i] = gr;
        taken |= gr;
        gotm |= (uint64_t)(gr != 0) << i;
    }
    /* step 4: every granted output takes its input's candidate */
    for (m = gotm; m; m &= m - 1u) {
        int i = lcan_ctz64(m);
        uint64_t gm;
        for (gm = grant[i]; gm; gm &= gm - 1u) {
            int o = lcan_ctz64(gm);
            send_flit(n, lv, pb, o, cand[i], &avail);
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
    /* every candidate's input, in one pass without branches: a consumed candidate returns its
     * credit and leaves its FIFO if it came from there; the arriving flit is stored unless it was
     * the candidate and got consumed */
    for (m = cands, fm_new = 0; m; m &= m - 1u) {
        int i = lcan_ctz64(m);
        uint32_t gp = pb + (uint32_t)i, cons = (uint32_t)(consm >> i) & 1u, ff = (uint32_t)(fm >> i) & 1u;
        uint32_t pop = cons & ff, push = (uint32_t)(arr >> i) & (ff | !cons) & 1u, head, count, tail;
        size_t slot;
        n->crl_nxt[n->n_crl_nxt] = n->in_src[gp];
        n->n_crl_nxt += cons;
        head = (uint32_t)n->fhead[gp] + pop;
        head -= depth & (0u - (uint32_t)(head >= depth));
        count = (uint32_t)n->fcount[gp] - pop;
        push &= count < depth; /* (never full while credits are honoured) */
        tail = head + count;
        tail -= depth & (0u - (uint32_t)(tail >= depth));
        slot = (size_t)gp * depth + tail;
        n->fifo[slot] = (n->flit_q[n->in_src[gp]] & all_if((int)push)) | (n->fifo[slot] & ~all_if((int)push));
        count += push;
        n->fhead[gp] = (uint16_t)head;
        n->fcount[gp] = (uint16_t)count;
        fm_new |= (uint64_t)(count != 0) << i;
    }
    fm = fm_new;
    if (reqm)
        n->lfsr[sw] = lcan_lfsr_step(s);
    n->cnt_up[sd->l] += nup;
    n->cnt_down[sd->l] += ndn;
    n->cnt_drop[sd->l] += ndrop;
    n->avail_m[sw] = avail;
    n->fifo_m[sw] = fm;
    if (fm)
        lcan_net_wake(n, sw);
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

/* One switch on the fast path; faulty: a constant in each copy, as in switch_general_t. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void switch_fast_t(struct lcan_net *n, uint32_t sw, const int faulty)
{
    uint64_t arr = n->arr_cur[sw], fm = n->fifo_m[sw], cands = arr | fm, f;
    const lcan_fast_sw *sd;
    const lcan_fast_level *lv;
    int i, D, from_fifo, cons = 1, up;
    uint32_t gp, dest, x;
    if (cands == 0)
        return;
    if (cands & (cands - 1u)) {
        if (faulty)
            switch_general_faulty(n, sw, arr, fm);
        else
            switch_general(n, sw, arr, fm);
        return;
    }
    /* one candidate (the common case below saturation): the allocator's rotation cannot matter */
    sd = &n->swd[sw];
    lv = &n->lv[sd->l];
    D = lv->D;
    i = lcan_ctz64(cands);
    gp = sd->pb + (uint32_t)i;
    from_fifo = fm != 0;
    f = candidate(n, gp, from_fifo);
    if ((f >> n->sh_bcast) & 1u) {
        if (faulty)
            switch_general_faulty(n, sw, arr, fm);
        else
            switch_general(n, sw, arr, fm);
        return;
    }
    n->arr_cur[sw] = 0;
    dest = lcan_net_dest(n, f);
    x = (dest >> lv->off) & lv->dmask;
    up = (i < D) & !lv->top & ((dest & lv->hi_mask) != sd->hi); /* spec 4 */
    if (x < (uint32_t)lv->m || up) { /* (x >= m: an invalid digit, rare) */
        uint64_t upm = all_if(up), want, fr, hi, first, gr, avail = n->avail_m[sw];
        uint32_t s = n->lfsr[sw], xd = x & ~(uint32_t)upm;
        uint32_t start_up = (uint32_t)(D + lcan_lfsr_offset((s >> 8) & 0xFFu, lv->up_mask, lv->U));
        uint32_t start_dn = xd * (uint32_t)lv->p + (uint32_t)lcan_lfsr_offset((s >> 16) & 0xFFu, lv->dn_mask, lv->p);
        int start = (int)((start_up & (uint32_t)upm) | (start_dn & ~(uint32_t)upm));
        want = (lv->up_want & upm) | ((lv->dn_unit << (xd * (uint32_t)lv->p)) & ~upm);
        if (faulty) { /* spec 14.3 */
            lcan_sw_faults fb;
            want &= ~fast_off(n, sw, sd->l, &fb) & (up ? fast_reach(lv, &fb, dest) : ~(uint64_t)0);
        }
        if (!faulty || want != 0) {
            fr = want & avail;
            hi = fr & ~(bit64(start) - 1u);
            first = (hi & all_if(hi != 0)) | (fr & ~all_if(hi != 0));
            gr = first & (0u - first);
            if (up && lv->uorder && fr) { /* class UP, UP_CHOICE = uniform: the first free D + sigma[k] */
                uint8_t ord[64];
                int k;
                lcan_lfsr_up_perm(s, lv->U, ord);
                for (k = 0; k < lv->U; k++)
                    if ((fr >> (D + ord[k])) & 1u) {
                        gr = bit64(D + ord[k]);
                        break;
                    }
            }
            cons = gr != 0;
            if (gr) {
                int o = lcan_ctz64(gr);
                send_flit(n, lv, sd->pb, o, f, &avail);
                n->cnt_up[sd->l] += (uint32_t)(o >= D);
                n->cnt_down[sd->l] += (uint32_t)(o < D);
                n->avail_m[sw] = avail;
            }
            n->lfsr[sw] = lcan_lfsr_step(s);
        } else { /* unroutable (spec 14.3): no request, discarded and counted */
            n->cnt_drop[sd->l]++;
        }
    } else { /* an invalid digit (spec 4): no request, discarded and counted (spec 9) */
        n->cnt_drop[sd->l]++;
    }
    if (cons) {
        if (from_fifo) {
            fifo_pop(n, gp);
            if (n->fcount[gp] == 0)
                fm = 0;
        }
        return_credit(n, gp);
    }
    if (arr && (from_fifo || !cons)) {
        fifo_push(n, gp, n->flit_q[n->in_src[gp]]);
        fm = bit64(i);
    }
    n->fifo_m[sw] = fm;
    if (fm)
        lcan_net_wake(n, sw);
}

void lcan_net_packet_switch_fast(struct lcan_net *n, uint32_t sw)
{
    switch_fast_t(n, sw, 0);
}

void lcan_net_packet_switch_fast_faulty(struct lcan_net *n, uint32_t sw)
{
    switch_fast_t(n, sw, 1);
}
