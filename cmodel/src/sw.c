/*
 * sw.c - one switch's tick (see sw.h): the one implementation of spec 7.2 and 8.3 that the switch
 * unit (switch.c) and the network's full-scan tick (net.c) both run.
 */
#include <string.h>

#include "geom.h"
#include "lfsr.h"
#include "sw.h"

void lcan_sw_k_init(lcan_sw_k *k, int level, int m, int p_dn, int u, int addr_w, int dig_off, int dig_w,
                    const lcan_cfg *cfg)
{
    int hi_lo = dig_off + dig_w;
    memset(k, 0, sizeof *k);
    k->m = m;
    k->p = p_dn;
    k->D = m * p_dn;
    k->U = u;
    k->P = k->D + u;
    k->top = u == 0;
    k->leaf = level == 1;
    k->mode = cfg->mode;
    k->depth = cfg->depth;
    k->up_choice = cfg->up_choice;
    k->flood_q = cfg->mode == LCAN_PACKET ? cfg->flood_q : 0;
    k->off = dig_off;
    k->bits = dig_w;
    k->amask = (uint32_t)(((uint64_t)1 << addr_w) - 1u);
    k->hi_mask = k->amask & ~(uint32_t)(((uint64_t)1 << hi_lo) - 1u);
    k->in_mask = (uint32_t)(((uint64_t)1 << lcan_geom_clog2((uint32_t)k->P)) - 1u);
    k->up_mask = (uint32_t)(((uint64_t)1 << lcan_geom_clog2((uint32_t)k->U)) - 1u);
    k->dn_mask = (uint32_t)(((uint64_t)1 << lcan_geom_clog2((uint32_t)k->p)) - 1u);
    k->sh_dest = cfg->payload_w;
    k->sh_bcast = cfg->payload_w + addr_w;
    k->sh_head = k->sh_bcast + 1;
    k->bcast_m = cfg->mode == LCAN_PACKET && !cfg->unicast_only ? (uint64_t)1 << k->sh_bcast : 0;
    k->fmask = ((uint64_t)1 << (2 + addr_w + cfg->payload_w)) - 1u;
}

int lcan_sw_circuit_headers_any(const lcan_sw_k *k, uint32_t label, uint32_t *lfsr, const uint8_t *hv,
                                const uint32_t *hdest, const uint8_t *set, const lcan_sw_faults *flt, int *out)
{
    uint8_t order[LCAN_MAX_PORTS];
    lcan_req req[LCAN_MAX_PORTS];
    lcan_pset grant[LCAN_MAX_PORTS], avail;
    lcan_offsets off;
    int cls[LCAN_MAX_PORTS];
    int P = k->P, i, n = 0, any_up = 0;

    for (i = 0; i < P; i++) {
        out[i] = -1;
        req[i].valid = 0;
        if (hv[i]) {
            cls[i] = lcan_sw_route(k, label, i, hdest[i]);
            any_up |= cls[i] == LCAN_CLASS_UP;
            n++;
        }
    }
    if (n == 0)
        return 0;
    off = lcan_sw_offsets(k, *lfsr);
    if (any_up && k->up_choice == LCAN_UP_UNIFORM && k->U >= 3) /* sigma only when some header climbs */
        off.up_order = lcan_sw_up_order(k, *lfsr, order);
    lcan_pset_clear(&avail);
    for (i = 0; i < P; i++) {
        if (!set[i])
            lcan_pset_add(&avail, i);
        if (hv[i]) {
            lcan_sw_unicast_req(k, cls[i], &off, &req[i]);
            lcan_sw_mask_want(k, flt, cls[i] == LCAN_CLASS_UP, hdest[i], &req[i].want); /* spec 14.3 */
        }
    }
    if (flt != NULL) { /* spec 14.3: off outputs are not available */
        avail.w[0] &= ~flt->off.w[0];
        avail.w[1] &= ~flt->off.w[1];
    }
    lcan_alloc(P, off.r_in, req, &avail, grant);
    for (i = 0; i < P; i++)
        if (hv[i])
            out[i] = lcan_pset_next(&grant[i], 0);
    *lfsr = lcan_lfsr_step(*lfsr);
    return n;
}

void lcan_sw_reset(const lcan_sw_k *k, const lcan_sw_state *st, uint32_t lfsr0, uint64_t *tx, uint8_t *ret)
{
    int P = k->P, o;
    *st->lfsr = lfsr0;
    *st->cnt_up = *st->cnt_down = *st->cnt_drop = 0;
    memset(tx, 0, (size_t)P * sizeof *tx);
    memset(ret, 0, (size_t)P);
    if (k->mode == LCAN_CIRCUIT) {
        memset(st->set, 0, (size_t)P);
        memset(st->src, 0, (size_t)P);
        return;
    }
    memset(st->fhead, 0, (size_t)P * sizeof *st->fhead);
    memset(st->fcount, 0, (size_t)P * sizeof *st->fcount);
    memset(st->served, 0, (size_t)P * sizeof *st->served);
    if (k->flood_q > 0) { /* spec 8.7 step 1 */
        memset(st->fq_head, 0, (size_t)P);
        memset(st->fq_count, 0, (size_t)P);
    }
    for (o = 0; o < P; o++)
        st->cr[o] = (uint16_t)((k->leaf && o < k->D) ? 0 : k->depth);
}

void lcan_sw_clear(const lcan_sw_k *k, const lcan_sw_state *st, uint64_t *tx, uint8_t *ret)
{
    memset(st->set, 0, (size_t)k->P);
    memset(st->src, 0, (size_t)k->P);
    memset(tx, 0, (size_t)k->P * sizeof *tx);
    memset(ret, 0, (size_t)k->P);
}

/* ------------------------------------------------------------------ circuit mode (spec 7.2 step 3)
 * From the registers before the tick: acks travel back from each set output o to the ack-out
 * register of src_o; data flits follow set circuits; headers request outputs that are not set
 * (allocator, spec 6) and set them, or are dropped. Faults (spec 14.3): off outputs are not
 * available, want sets are masked; circuits already set keep carrying data and acks. */
void lcan_sw_circuit_tick(const lcan_sw_k *k, uint32_t label, const lcan_sw_state *st, const uint64_t *rx,
                          const uint8_t *tx_ret, const lcan_sw_faults *flt, uint64_t *tx, uint8_t *ret)
{
    int P = k->P, i, o, nh = 0;
    uint8_t hv[LCAN_MAX_PORTS];
    uint32_t hdest[LCAN_MAX_PORTS];
    int out[LCAN_MAX_PORTS];

    for (i = 0; i < P; i++) {
        uint64_t f = rx[i];
        hv[i] = (uint8_t)((f & LCAN_SW_VALID) && ((f >> k->sh_head) & 1u));
        hdest[i] = (uint32_t)(f >> k->sh_dest) & k->amask;
        nh += hv[i];
        ret[i] = 0;
    }
    /* acks and data, using set/src before the tick */
    for (o = 0; o < P; o++) {
        uint64_t f;
        tx[o] = 0;
        if (!st->set[o])
            continue;
        if (tx_ret[o])
            ret[st->src[o]] = 1;
        f = rx[st->src[o]];
        if ((f & LCAN_SW_VALID) && !((f >> k->sh_head) & 1u))
            tx[o] = f;
    }
    /* headers */
    if (nh == 0)
        return;
    lcan_sw_circuit_headers(k, label, st->lfsr, hv, hdest, st->set, flt, out);
    for (i = 0; i < P; i++) {
        if (!hv[i])
            continue;
        if (out[i] < 0) {
            (*st->cnt_drop)++;
            continue;
        }
        st->set[out[i]] = 1;
        st->src[out[i]] = (uint8_t)i;
        tx[out[i]] = rx[i];
        if (out[i] >= k->D)
            (*st->cnt_up)++;
        else
            (*st->cnt_down)++;
    }
}

/* ------------------------------------------------------------------ packet mode (spec 8.3 steps 2-6)
 * Candidate per input = FIFO head, else the arriving flit (bypass). A flit arriving at an input
 * whose FIFO held DEPTH flits before the tick (impossible while credits are honoured) is dropped,
 * not stored, even when the head is popped on that tick. Unicasts make ONE requests of
 * their class (spec 4); a tree broadcast climbs through upper 0 (ONE) and descends on parallel link
 * 0 to every child not yet served (ALL); a flooding broadcast (head = 1, spec 8.6) asks at once for
 * every direction of its tree but the one it came from (ALL). Outputs are available when they hold
 * a credit (level-1 downers always). A consumed candidate returns a credit on its input. Faults
 * (spec 14.3): off outputs are never available and want sets are masked; a ONE request left with
 * nothing to want (also an impossible digit, spec 4) is discarded and counted in cnt_drop, an ALL
 * request with nothing left to copy is consumed without a count. With FLOOD_Q > 0 (spec 8.7)
 * flooding candidates take no part in the allocator: flood_tick moves them into the flood queues of
 * their outputs, which send before the allocator runs. With UNICAST_ONLY (spec 8.8) the bcast and
 * head bits are not read (k->bcast_m = 0): every candidate is a unicast, served stays 0. */

/* The flooding want set of a candidate on input i (spec 8.3 step 3; 8.7's flood set): from child
 * c = i div p_l parallel link 0 of every other child and, below the top, upper D + 0; from an upper
 * parallel link 0 of every child; minus the off ports (spec 14.3). */
static lcan_pset flood_set(const lcan_sw_k *k, int i, const lcan_sw_faults *flt)
{
    lcan_pset s;
    int c, from = i < k->D ? i / k->p : -1;
    lcan_pset_clear(&s);
    for (c = 0; c < k->m; c++)
        if (c != from)
            lcan_pset_add(&s, c * k->p);
    if (from >= 0 && !k->top)
        lcan_pset_add(&s, k->D);
    lcan_sw_mask_want(k, flt, 0, 0, &s);
    return s;
}

/* Build the request of candidate f on input i. full: the broadcast's whole want set (masked).
 * Returns 1 for a request; 0 when the candidate is discarded and counted in cnt_drop instead (a
 * ONE request whose want set is empty); 2 when it is consumed without a request and not counted
 * (an ALL request with nothing left to copy). */
static int make_req(const lcan_sw_k *k, uint32_t label, int i, uint64_t f, const lcan_pset *served,
                    const lcan_offsets *off, const lcan_sw_faults *flt, lcan_req *r, lcan_pset *full)
{
    int c, D = k->D;
    if (!(f & k->bcast_m)) { /* a unicast (with UNICAST_ONLY every candidate, spec 8.8) */
        uint32_t dest = (uint32_t)(f >> k->sh_dest) & k->amask;
        int cls = lcan_sw_route(k, label, i, dest);
        if (cls == LCAN_CLASS_DROP)
            return 0;
        lcan_sw_unicast_req(k, cls, off, r);
        lcan_sw_mask_want(k, flt, cls == LCAN_CLASS_UP, dest, &r->want);
        return !lcan_pset_empty(&r->want);
    }
    r->valid = 1;
    r->order = NULL;
    r->n_order = 0;
    lcan_pset_clear(full);
    if ((f >> k->sh_head) & 1u) { /* flooding (spec 8.6) */
        r->kind = LCAN_REQ_ALL;
        r->start = 0;
        *full = flood_set(k, i, flt);
    } else if (i < D && !k->top) { /* a climbing tree broadcast: upper 0 */
        r->kind = LCAN_REQ_ONE;
        lcan_pset_add(full, D);
        r->start = D;
        lcan_sw_mask_want(k, flt, 0, 0, full);
        r->want = *full;
        return !lcan_pset_empty(&r->want);
    } else { /* descending: parallel link 0 of every child */
        r->kind = LCAN_REQ_ALL;
        r->start = 0;
        for (c = 0; c < k->m; c++)
            lcan_pset_add(full, c * k->p);
        lcan_sw_mask_want(k, flt, 0, 0, full);
    }
    r->want.w[0] = full->w[0] & ~served->w[0];
    r->want.w[1] = full->w[1] & ~served->w[1];
    return lcan_pset_empty(&r->want) ? 2 : 1;
}

/* The arriving flit f joins the tail of input i's FIFO. The caller pushes only into a FIFO that
 * did not hold DEPTH flits before the tick (spec 8.3 step 5: a flit arriving at a full FIFO is
 * dropped, even when the head leaves on the same tick), so there is always a free slot. */
static void fifo_push(const lcan_sw_k *k, const lcan_sw_state *st, int i, uint64_t f)
{
    int tail = st->fhead[i] + st->fcount[i];
    st->fifo[(size_t)i * (size_t)k->depth + (size_t)(tail >= k->depth ? tail - k->depth : tail)] = f;
    st->fcount[i]++;
}

/* Output o takes flit f (spec 8.3 step 4, 8.7 step 3): its flit register, a credit spent (level-1
 * downers hold none), counted in cnt_up / cnt_down. */
static void send_flit(const lcan_sw_k *k, const lcan_sw_state *st, int o, uint64_t f, uint64_t *tx)
{
    tx[o] = f;
    if (!(k->leaf && o < k->D))
        st->cr[o]--;
    if (o >= k->D)
        (*st->cnt_up)++;
    else
        (*st->cnt_down)++;
}

/* Is candidate f a flooding broadcast (bcast = 1, head = 1: spec 8.6)? (Never with UNICAST_ONLY.) */
static int is_flood(const lcan_sw_k *k, uint64_t f)
{
    return (f & k->bcast_m) && ((f >> k->sh_head) & 1u);
}

/* Output of flood queue j (sw.h): parallel link 0 of child j, or upper D for j = m; and back. */
static int fq_output(const lcan_sw_k *k, int j) { return j < k->m ? j * k->p : k->D; }
static int fq_index(const lcan_sw_k *k, int o) { return o < k->D ? o / k->p : k->m; }

/* Spec 8.7 steps 2, 3 and 6 (FLOOD_Q > 0), on the tick's flooding candidates (fl[i] != 0: cand[i]
 * is one). Acceptance: n_o counts the candidates whose flood set holds o; candidate i is accepted
 * when q_o + n_o <= FLOOD_Q for every o of its flood set (q_o before the tick), then consumed
 * (consumed[i] = 1) and copied into those queues, in ascending input order. Flood send: every queue
 * holding a flit whose output is available (*avail: a credit or a level-1 downer, not off) writes
 * its head to tx[o], spending a credit; every such output, sent or not, leaves *avail (step 4: the
 * queue comes before the inputs). An off output's queue is emptied (step 6); it is in no flood set
 * and not available, so it takes nothing and sends nothing. */
static void flood_tick(const lcan_sw_k *k, const lcan_sw_state *st, const uint64_t *cand, const uint8_t *fl,
                       const lcan_sw_faults *flt, lcan_pset *avail, uint8_t *consumed, uint64_t *tx)
{
    int P = k->P, Q = k->flood_q, nq = lcan_sw_fq_queues(k), i, j, o;
    lcan_pset fs[LCAN_MAX_PORTS];
    int n_o[LCAN_MAX_PORTS];
    uint8_t acc[LCAN_MAX_PORTS];

    memset(n_o, 0, (size_t)P * sizeof *n_o);
    for (i = 0; i < P; i++) /* step 2: flood sets and n_o */
        if (fl[i]) {
            fs[i] = flood_set(k, i, flt);
            for (o = lcan_pset_next(&fs[i], 0); o >= 0; o = lcan_pset_next(&fs[i], o + 1))
                n_o[o]++;
        }
    for (i = 0; i < P; i++) { /* step 2: acceptance, judged on q_o before the tick (no append yet) */
        int ok = fl[i];
        for (o = ok ? lcan_pset_next(&fs[i], 0) : -1; o >= 0 && ok; o = lcan_pset_next(&fs[i], o + 1))
            ok = st->fq_count[o] + n_o[o] <= Q;
        acc[i] = (uint8_t)ok;
    }
    for (i = 0; i < P; i++) { /* step 2: the copies, in ascending input order */
        if (!acc[i])
            continue;
        consumed[i] = 1;
        for (o = lcan_pset_next(&fs[i], 0); o >= 0; o = lcan_pset_next(&fs[i], o + 1)) {
            int tail = st->fq_head[o] + st->fq_count[o];
            j = fq_index(k, o);
            st->fq[(size_t)j * (size_t)Q + (size_t)(tail >= Q ? tail - Q : tail)] = cand[i];
            st->fq_count[o]++;
        }
    }
    for (j = 0; j < nq; j++) { /* steps 3, 4 and 6 */
        o = fq_output(k, j);
        if (flt != NULL && lcan_pset_has(&flt->off, o)) {
            st->fq_count[o] = 0;
            st->fq_head[o] = 0;
            continue;
        }
        if (st->fq_count[o] == 0)
            continue;
        if (lcan_pset_has(avail, o)) {
            send_flit(k, st, o, st->fq[(size_t)j * (size_t)Q + st->fq_head[o]], tx);
            st->fq_head[o] = (uint8_t)(st->fq_head[o] + 1 == Q ? 0 : st->fq_head[o] + 1);
            st->fq_count[o]--;
        }
        avail->w[o >> 6] &= ~((uint64_t)1 << (o & 63));
    }
}

void lcan_sw_packet_tick(const lcan_sw_k *k, uint32_t label, const lcan_sw_state *st, const uint64_t *rx,
                         const uint8_t *tx_ret, const lcan_sw_faults *flt, uint64_t *tx, uint8_t *ret)
{
    int P = k->P, D = k->D, i, o, nreq = 0;
    uint64_t cand[LCAN_MAX_PORTS];
    uint8_t from_fifo[LCAN_MAX_PORTS], consumed[LCAN_MAX_PORTS], fl[LCAN_MAX_PORTS];
    lcan_req req[LCAN_MAX_PORTS];
    lcan_pset full[LCAN_MAX_PORTS], grant[LCAN_MAX_PORTS], avail;
    uint8_t order[LCAN_MAX_PORTS];
    lcan_offsets off = lcan_sw_offsets_uc(k, *st->lfsr, order);

    lcan_pset_clear(&avail);
    for (o = 0; o < P; o++) {
        tx[o] = 0;
        if (((k->leaf && o < D) || st->cr[o] > 0) && (flt == NULL || !lcan_pset_has(&flt->off, o)))
            lcan_pset_add(&avail, o);
    }
    for (i = 0; i < P; i++) {
        int rq;
        from_fifo[i] = st->fcount[i] > 0;
        cand[i] = from_fifo[i] ? st->fifo[(size_t)i * (size_t)k->depth + st->fhead[i]] : rx[i];
        req[i].valid = 0;
        consumed[i] = 0;
        fl[i] = 0;
        if (!(cand[i] & LCAN_SW_VALID))
            continue;
        if (k->flood_q > 0 && is_flood(k, cand[i])) { /* spec 8.7: not a request */
            fl[i] = 1;
            continue;
        }
        rq = make_req(k, label, i, cand[i], &st->served[i], &off, flt, &req[i], &full[i]);
        if (rq == 1) {
            nreq++;
        } else { /* discarded (counted when a ONE request had nothing to want) */
            req[i].valid = 0;
            consumed[i] = 1;
            *st->cnt_drop += (uint32_t)(rq == 0);
        }
    }
    if (k->flood_q > 0)
        flood_tick(k, st, cand, fl, flt, &avail, consumed, tx);
    if (nreq > 0)
        lcan_alloc(P, off.r_in, req, &avail, grant);
    for (i = 0; i < P; i++) {
        /* credits make it impossible; should a flit arrive at a FIFO that held DEPTH flits before
         * the tick, it is dropped, whether or not the head is popped below (spec 8.3 step 5) */
        int was_full = st->fcount[i] >= k->depth;
        if (req[i].valid) {
            lcan_pset done;
            for (o = lcan_pset_next(&grant[i], 0); o >= 0; o = lcan_pset_next(&grant[i], o + 1)) {
                send_flit(k, st, o, cand[i], tx);
            }
            done.w[0] = st->served[i].w[0] | grant[i].w[0];
            done.w[1] = st->served[i].w[1] | grant[i].w[1];
            if (req[i].kind == LCAN_REQ_ALL)
                consumed[i] = (full[i].w[0] & ~done.w[0]) == 0 && (full[i].w[1] & ~done.w[1]) == 0;
            else
                consumed[i] = !lcan_pset_empty(&grant[i]);
            if (!consumed[i])
                st->served[i] = done;
        }
        if (consumed[i]) {
            lcan_pset_clear(&st->served[i]);
            if (from_fifo[i]) {
                st->fhead[i] = (uint16_t)(st->fhead[i] + 1 == k->depth ? 0 : st->fhead[i] + 1);
                st->fcount[i]--;
            }
        }
        ret[i] = consumed[i];
        /* the arriving flit is stored unless it was the candidate and got consumed, or arrived at a
         * full FIFO */
        if ((rx[i] & LCAN_SW_VALID) && (from_fifo[i] || !consumed[i]) && !was_full)
            fifo_push(k, st, i, rx[i]);
    }
    for (o = 0; o < P; o++) /* step 6: credits arriving (none on level-1 downers) */
        if (!(k->leaf && o < D))
            st->cr[o] = (uint16_t)(st->cr[o] + (tx_ret[o] != 0));
    if (nreq > 0)
        *st->lfsr = lcan_lfsr_step(*st->lfsr);
}
