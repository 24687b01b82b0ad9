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
