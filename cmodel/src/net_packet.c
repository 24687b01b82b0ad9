/*
 * net_packet.c - one packet-mode switch tick (spec 8.3 steps 2-6).
 *
 * Candidate per input = FIFO head, else the arriving flit (bypass). Unicasts make ONE requests of
 * their class (spec 4); a broadcast climbs through upper 0 (ONE) and descends on parallel link 0 to
 * every child not yet served (ALL). Outputs are available when they hold a credit (level-1 downers
 * always). A consumed candidate returns a credit on its input.
 */
#include "lfsr.h"
#include "net_internal.h"
#include "sw.h"

static void fifo_push(struct lcan_net *n, uint32_t gp, uint64_t f)
{
    uint32_t D = (uint32_t)n->cfg.depth;
    if (n->fcount[gp] >= D) /* impossible while credits are honoured */
        return;
    n->fifo[(size_t)gp * D + (n->fhead[gp] + n->fcount[gp]) % D] = f;
    n->fcount[gp]++;
}

static void fifo_pop(struct lcan_net *n, uint32_t gp)
{
    n->fhead[gp] = (uint16_t)((n->fhead[gp] + 1u) % (uint32_t)n->cfg.depth);
    n->fcount[gp]--;
}

/* Build the request of candidate f on input i; returns 0 if the candidate is discarded instead
 * (a unicast whose digit is invalid, spec 4). full: the broadcast's whole want set. */
static int make_req(const struct lcan_net *n, int l, uint32_t hi, int i, uint64_t f, uint32_t gp,
                    const lcan_offsets *off, lcan_req *r, lcan_pset *full)
{
    const lcan_geom *g = &n->g;
    if (!((f >> n->sh_bcast) & 1u)) {
        int cls = lcan_route_decide(g, l, hi, i, lcan_net_dest(n, f));
        if (cls == LCAN_CLASS_DROP)
            return 0;
        lcan_sw_unicast_req(g, l, cls, off, r);
        return 1;
    }
    r->valid = 1;
    lcan_pset_clear(full);
    if (i < g->D[l] && l < g->h) {
        r->kind = LCAN_REQ_ONE;
        lcan_pset_add(full, g->D[l]);
        r->start = g->D[l];
        r->want = *full;
    } else {
        int c;
        r->kind = LCAN_REQ_ALL;
        r->start = 0;
        for (c = 0; c < g->m[l]; c++)
            lcan_pset_add(full, c * g->p[l]);
        r->want.w[0] = full->w[0] & ~n->served[gp].w[0];
        r->want.w[1] = full->w[1] & ~n->served[gp].w[1];
    }
    return 1;
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
    lcan_offsets off = lcan_sw_offsets(g, l, n->lfsr[sw]);

    lcan_pset_clear(&avail);
    for (o = 0; o < P; o++) {
        n->flit_d[pb + (uint32_t)o] = 0;
        if ((l == 1 && o < D) || n->cr[pb + (uint32_t)o] > 0)
            lcan_pset_add(&avail, o);
    }
    for (i = 0; i < P; i++) {
        uint32_t gp = pb + (uint32_t)i;
        arr[i] = lcan_net_in_flit(n, gp);
        from_fifo[i] = n->fcount[gp] > 0;
        cand[i] = from_fifo[i] ? n->fifo[(size_t)gp * (uint32_t)n->cfg.depth + n->fhead[gp]] : arr[i];
        req[i].valid = 0;
        consumed[i] = 0;
        if (!(cand[i] & LCAN_VALID))
            continue;
        if (make_req(n, l, g->hi[sw], i, cand[i], gp, &off, &req[i], &full[i]))
            nreq++;
        else
            consumed[i] = 1; /* discarded on arrival */
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
 * The same steps as lcan_net_packet_switch, on 64-bit port masks, for a switch that has something
 * to do (net_internal.h: arriving flits or a non-empty FIFO). Arriving credits only add to cr after
 * the allocation (step 6), so net.c adds them after every switch has run, without a visit. Only the registers
 * that become non-zero are written; net.c zeroes them again two ticks later (wr_d). */

static inline uint64_t bit64(int i) { return (uint64_t)1 << i; }

static inline uint64_t range64(int lo, int hi) /* ports lo..hi-1, 0 <= lo <= hi <= 64 */
{
    uint64_t a = hi >= 64 ? ~(uint64_t)0 : (bit64(hi) - 1u);
    return a & ~(bit64(lo) - 1u);
}

/* Several candidates, or a broadcast: the allocator of spec 6 on masks. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
/* Output o of the switch whose first global port is pb takes flit f (spec 8.3 step 4): the flit
 * register, the ejection list at a leaf, a credit spent (an output left without credits leaves
 * *avail), the level's counter, and the receiving switch woken for the next tick. */
static void send_flit(struct lcan_net *n, int l, int D, uint32_t pb, int o, uint64_t leafdn,
                      uint64_t f, uint64_t *avail)
{
    uint32_t go = pb + (uint32_t)o, pr = n->g.peer[go];
    n->flit_d[go] = f;
    n->wr_d[n->n_wr_d++] = go;
    if (pr & LCAN_PEER_LEAF)
        n->ejl_d[n->n_ejl_d++] = pr & ~LCAN_PEER_LEAF;
    if (!((leafdn >> o) & 1u) && --n->cr[go] == 0)
        *avail &= ~bit64(o);
    if (o >= D)
        n->cnt_up[l]++;
    else
        n->cnt_down[l]++;
    if (!(pr & LCAN_PEER_LEAF)) {
        uint32_t ps = n->port_sw[pr];
        n->arr_nxt[ps] |= bit64(n->port_loc[pr]);
        lcan_net_wake(n, ps);
    }
}

static void switch_general(struct lcan_net *n, uint32_t sw)
{
    const lcan_geom *g = &n->g;
    int l = n->sw_level[sw];
    uint32_t x = sw - g->sw_base[l];
    int P = g->P[l], D = g->D[l];
    uint32_t pb = g->port_base[l] + x * (uint32_t)P, depth = (uint32_t)n->cfg.depth;
    uint64_t arr = n->arr_cur[sw], fm = n->fifo_m[sw], avail = n->avail_m[sw];
    uint64_t cands = arr | fm, m;
    uint64_t leafdn = l == 1 ? range64(0, D) : 0; /* level-1 downers: no credits */

    n->arr_cur[sw] = 0;
    if (cands) {
        uint64_t cand[64], want[64], full[64], grant[64];
        int start[64];
        uint64_t reqm = 0, allm = 0, consumed = 0;
        lcan_offsets off = lcan_sw_offsets(g, l, n->lfsr[sw]);
        for (m = cands; m; m &= m - 1u) {
            int i = lcan_ctz64(m);
            uint32_t gp = pb + (uint32_t)i;
            uint64_t f;
            if ((fm >> i) & 1u) {
                f = n->fifo[(size_t)gp * depth + n->fhead[gp]];
            } else {
                uint32_t pr = g->peer[gp];
                f = (pr & LCAN_PEER_LEAF) ? n->inj[pr & ~LCAN_PEER_LEAF] : n->flit_q[pr];
            }
            cand[i] = f;
            if (!((f >> n->sh_bcast) & 1u)) {
                int cls = lcan_route_decide(g, l, g->hi[sw], i, lcan_net_dest(n, f));
                if (cls == LCAN_CLASS_DROP) {
                    consumed |= bit64(i);
                    continue;
                }
                if (cls == LCAN_CLASS_UP) {
                    want[i] = range64(D, P);
                    start[i] = D + off.r_up;
                } else {
                    want[i] = range64(cls * g->p[l], (cls + 1) * g->p[l]);
                    start[i] = cls * g->p[l] + off.r_dn;
                }
            } else if (i < D && l < g->h) {
                want[i] = full[i] = bit64(D);
                start[i] = D;
            } else {
                int c;
                full[i] = 0;
                for (c = 0; c < g->m[l]; c++)
                    full[i] |= bit64(c * g->p[l]);
                want[i] = full[i] & ~n->served[gp].w[0];
                start[i] = 0;
                allm |= bit64(i);
            }
            reqm |= bit64(i);
        }
        if (reqm) {
            /* spec 6: inputs in the order r_in, .., P-1, 0, .., r_in-1 */
            uint64_t taken = 0, part[2];
            int k;
            part[0] = reqm & ~(bit64(off.r_in) - 1u);
            part[1] = reqm & (bit64(off.r_in) - 1u);
            for (k = 0; k < 2; k++)
                for (m = part[k]; m; m &= m - 1u) {
                    int i = lcan_ctz64(m);
                    uint64_t fr = want[i] & avail & ~taken, gr;
                    if ((allm >> i) & 1u) {
                        gr = fr;
                    } else {
                        uint64_t hi = fr & ~(bit64(start[i]) - 1u);
                        gr = hi ? (hi & (0u - hi)) : (fr & (0u - fr));
                    }
                    grant[i] = gr;
                    taken |= gr;
                }
        }
        for (m = cands; m; m &= m - 1u) {
            int i = lcan_ctz64(m), from_fifo = (int)((fm >> i) & 1u), cons;
            uint32_t gp = pb + (uint32_t)i;
            if ((reqm >> i) & 1u) {
                uint64_t gr = grant[i], gm, done;
                for (gm = gr; gm; gm &= gm - 1u)
                    send_flit(n, l, D, pb, lcan_ctz64(gm), leafdn, cand[i], &avail);
                if ((allm >> i) & 1u) {
                    done = n->served[gp].w[0] | gr;
                    cons = (full[i] & ~done) == 0;
                    if (!cons)
                        n->served[gp].w[0] = done; /* a ONE request that is not granted adds nothing */
                } else {
                    cons = gr != 0;
                }
            } else {
                cons = (int)((consumed >> i) & 1u);
            }
            if (cons) {
                uint32_t pr = g->peer[gp];
                if ((allm >> i) & 1u) /* served is only ever set by ALL requests */
                    n->served[gp].w[0] = 0;
                if (from_fifo) {
                    fifo_pop(n, gp);
                    if (n->fcount[gp] == 0)
                        fm &= ~bit64(i);
                }
                n->bk_d[gp] = 1;
                n->wr_d[n->n_wr_d++] = gp;
                if (!(pr & LCAN_PEER_LEAF))
                    n->crl_nxt[n->n_crl_nxt++] = pr;
                else
                    n->lcr_nxt[n->n_lcr_nxt++] = pr & ~LCAN_PEER_LEAF;
            }
            if (((arr >> i) & 1u) && (from_fifo || !cons)) {
                uint32_t pr = g->peer[gp];
                fifo_push(n, gp, (pr & LCAN_PEER_LEAF) ? n->inj[pr & ~LCAN_PEER_LEAF] : n->flit_q[pr]);
                fm |= bit64(i);
            }
        }
        if (reqm)
            n->lfsr[sw] = lcan_lfsr_step(n->lfsr[sw]);
    }
    n->avail_m[sw] = avail;
    n->fifo_m[sw] = fm;
    if (fm)
        lcan_net_wake(n, sw);
}

void lcan_net_packet_switch_fast(struct lcan_net *n, uint32_t sw)
{
    const lcan_geom *g = &n->g;
    uint64_t arr = n->arr_cur[sw], fm = n->fifo_m[sw], cands = arr | fm;
    int l, P, D;
    uint32_t pb, depth = (uint32_t)n->cfg.depth;
    uint64_t avail, leafdn;
    if (cands == 0 || (cands & (cands - 1u))) {
        switch_general(n, sw);
        return;
    }
    {
        /* one candidate (the common case below saturation): the allocator's rotation cannot matter */
        int i = lcan_ctz64(cands), from_fifo = fm != 0, cons = 1, cls;
        uint32_t gp, pr;
        uint64_t f;
        l = n->sw_level[sw];
        P = g->P[l];
        D = g->D[l];
        pb = g->port_base[l] + (sw - g->sw_base[l]) * (uint32_t)P;
        gp = pb + (uint32_t)i;
        pr = g->peer[gp];
        f = from_fifo ? n->fifo[(size_t)gp * depth + n->fhead[gp]]
                      : ((pr & LCAN_PEER_LEAF) ? n->inj[pr & ~LCAN_PEER_LEAF] : n->flit_q[pr]);
        if ((f >> n->sh_bcast) & 1u) {
            switch_general(n, sw);
            return;
        }
        avail = n->avail_m[sw];
        leafdn = l == 1 ? range64(0, D) : 0;
        n->arr_cur[sw] = 0;
        cls = lcan_route_decide(g, l, g->hi[sw], i, lcan_net_dest(n, f));
        if (cls != LCAN_CLASS_DROP) {
            uint32_t s = n->lfsr[sw];
            uint64_t want, fr, hi, gr;
            int start;
            if (cls == LCAN_CLASS_UP) {
                want = range64(D, P);
                start = D + lcan_lfsr_offset((s >> 8) & 0xFFu, g->up_mask[l], g->U[l]);
            } else {
                want = range64(cls * g->p[l], (cls + 1) * g->p[l]);
                start = cls * g->p[l] + lcan_lfsr_offset((s >> 16) & 0xFFu, g->dn_mask[l], g->p[l]);
            }
            fr = want & avail;
            hi = fr & ~(bit64(start) - 1u);
            gr = hi ? (hi & (0u - hi)) : (fr & (0u - fr));
            cons = gr != 0;
            if (gr)
                send_flit(n, l, D, pb, lcan_ctz64(gr), leafdn, f, &avail);
            n->lfsr[sw] = lcan_lfsr_step(s);
        }
        if (cons) {
            if (from_fifo) {
                fifo_pop(n, gp);
                if (n->fcount[gp] == 0)
                    fm = 0;
            }
            n->bk_d[gp] = 1;
            n->wr_d[n->n_wr_d++] = gp;
            if (!(pr & LCAN_PEER_LEAF))
                n->crl_nxt[n->n_crl_nxt++] = pr;
            else
                n->lcr_nxt[n->n_lcr_nxt++] = pr & ~LCAN_PEER_LEAF;
        }
        if (arr && (from_fifo || !cons)) {
            fifo_push(n, gp, (pr & LCAN_PEER_LEAF) ? n->inj[pr & ~LCAN_PEER_LEAF] : n->flit_q[pr]);
            fm = bit64(i);
        }
    }
    n->avail_m[sw] = avail;
    n->fifo_m[sw] = fm;
    if (fm)
        lcan_net_wake(n, sw);
}
