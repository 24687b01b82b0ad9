/*
 * route.c - the pass driver of spec 7.5 on any engine (the model's lcan_net_tick, or the RTL through
 * tb/): reset, then passes of T_pass ticks (clear, headers, acks back from the destinations, data
 * from the satisfied sources, checked at the destinations) until every source is satisfied.
 *
 * Ticks of the run: one reset tick (seed = net_seed), then pass k = 0, 1, .. of T_pass ticks each.
 * data_errors counts: a header at a leaf other than its destination or with a wrong payload, a
 * second header at one destination in a pass, a data flit at a port that did not receive the
 * header or with a wrong payload/dest, a data flit beyond DATA_LEN, and every missing data flit.
 *
 * Under faults (spec 14.4-14.5, lcan_route_perm_faults): after the reset tick the rows that differ
 * from all ones are written, one per tick (cfg_we, nothing else presented), with link_off / sw_off
 * presented from the first of those ticks on and on every later tick; pass 0 starts after the last
 * write. A source whose pair is cut is never active (res->cut); an active source uses the
 * ((s + k) mod c)-th of its c usable ports in pass k (without faults: port (s + k) mod U_0).
 */
#include <stdlib.h>
#include <string.h>

#include "lcan_faults.h"
#include "route.h"

typedef struct {
    const lcan_topo *t;
    int h, U0, pw, aw;
    uint32_t N, NP;
    lcan_tick_fn tick;
    void *engine;
    lcan_in in;
    lcan_out out;
    uint8_t *inj_valid, *ej_ack, *inj_ready, *inj_ack, *ej_valid;
    uint64_t *inj_flit, *ej_flit;
    uint32_t cnt[3][LCAN_MAX_LEVELS];
    uint8_t *active, *sat, *drecv;
    uint32_t *inv, *hdr_q, *pdest;
    uint64_t errors;
    const lcan_reach *reach; /* NULL: no faults */
    const uint32_t *perm;
    int *port;               /* leaf port each source uses in the current pass */
} driver;

int lcan_route_check_perm(const uint32_t *perm, uint32_t N, uint8_t *seen)
{
    uint32_t s;
    memset(seen, 0, N);
    for (s = 0; s < N; s++) {
        if (perm[s] >= N || seen[perm[s]])
            return 0;
        seen[perm[s]] = 1;
    }
    return 1;
}

/* Payload of data flit j of source s (spec 7.5): (s*DATA_LEN + j) * K mod 2^32 (then mod 2^PAYLOAD_W),
 * K odd, so every payload bit toggles over a pass. */
#define LCAN_DATA_MUL 0x9E3779B1u
static uint64_t data_payload(uint32_t s, uint32_t j)
{
    return (uint64_t)(uint32_t)((s * (uint32_t)LCAN_DATA_LEN + j) * LCAN_DATA_MUL);
}

static uint64_t mkflit(const driver *d, int head, uint32_t dest, uint64_t payload)
{
    uint64_t pm = ((uint64_t)1 << d->pw) - 1u;
    return (payload & pm) | ((uint64_t)dest << d->pw) | ((uint64_t)(head != 0) << (d->pw + d->aw + 1));
}

static void drv_free(driver *d)
{
    free(d->inj_valid); free(d->ej_ack); free(d->inj_ready); free(d->inj_ack); free(d->ej_valid);
    free(d->inj_flit); free(d->ej_flit);
    free(d->active); free(d->sat); free(d->drecv);
    free(d->inv); free(d->hdr_q); free(d->pdest); free(d->port);
}

static lcan_status drv_init(driver *d, const lcan_topo *t, int payload_w, const uint32_t *perm)
{
    uint32_t s;
    memset(d, 0, sizeof *d);
    d->t = t;
    d->h = lcan_topo_levels(t);
    d->U0 = lcan_topo_leaf_ports(t);
    d->N = lcan_topo_leaves(t);
    d->NP = lcan_topo_ports(t);
    d->pw = payload_w;
    d->aw = lcan_topo_addr_width(t);
    d->inj_valid = calloc(d->NP, 1);
    d->ej_ack = calloc(d->NP, 1);
    d->inj_ready = calloc(d->NP, 1);
    d->inj_ack = calloc(d->NP, 1);
    d->ej_valid = calloc(d->NP, 1);
    d->inj_flit = calloc(d->NP, sizeof *d->inj_flit);
    d->ej_flit = calloc(d->NP, sizeof *d->ej_flit);
    d->active = calloc(d->N, 1);
    d->sat = calloc(d->N, 1);
    d->drecv = calloc(d->N, 1);
    d->inv = calloc(d->N, sizeof *d->inv);
    d->hdr_q = calloc(d->N, sizeof *d->hdr_q);
    d->pdest = calloc(d->N, sizeof *d->pdest);
    d->port = calloc(d->N, sizeof *d->port);
    d->perm = perm;
    if (!d->inj_valid || !d->ej_ack || !d->inj_ready || !d->inj_ack || !d->ej_valid || !d->inj_flit ||
        !d->ej_flit || !d->active || !d->sat || !d->drecv || !d->inv || !d->hdr_q || !d->pdest || !d->port)
        return LCAN_ERR_NOMEM;
    if (!lcan_route_check_perm(perm, d->N, d->sat))
        return LCAN_ERR_ARG;
    memset(d->sat, 0, d->N);
    for (s = 0; s < d->N; s++) {
        d->inv[perm[s]] = s;
        d->pdest[s] = lcan_topo_pack(t, perm[s]);
        d->active[s] = 1;
    }
    d->in.inj_valid = d->inj_valid;
    d->in.inj_flit = d->inj_flit;
    d->in.ej_ack = d->ej_ack;
    d->out.inj_ready = d->inj_ready;
    d->out.inj_ack = d->inj_ack;
    d->out.ej_valid = d->ej_valid;
    d->out.ej_flit = d->ej_flit;
    d->out.cnt_up = d->cnt[0];
    d->out.cnt_down = d->cnt[1];
    d->out.cnt_drop = d->cnt[2];
    return LCAN_OK;
}

/* Present the inputs of pass tick tau of pass k (ej_ack was prepared by the previous tick). */
static void drv_inputs(driver *d, int k, int tau)
{
    uint32_t s;
    int data0 = 4 * d->h + 1;
    d->in.rst = 0;
    d->in.clear = tau == 0;
    memset(d->inj_valid, 0, d->NP);
    memset(d->inj_flit, 0, d->NP * sizeof *d->inj_flit);
    if (tau == 1) {
        for (s = 0; s < d->N; s++) {
            uint32_t q;
            if (!d->active[s])
                continue;
            if (d->reach == NULL) {
                d->port[s] = (int)((s + (uint32_t)k) % (uint32_t)d->U0);
            } else {
                int c = lcan_reach_usable_count(d->reach, s, d->perm[s]);
                d->port[s] = lcan_reach_usable_port(d->reach, s, d->perm[s], (int)((s + (uint32_t)k) % (uint32_t)c));
            }
            q = s * (uint32_t)d->U0 + (uint32_t)d->port[s];
            d->inj_valid[q] = 1;
            d->inj_flit[q] = mkflit(d, 1, d->pdest[s], s);
        }
    } else if (tau >= data0 && tau < data0 + LCAN_DATA_LEN) {
        for (s = 0; s < d->N; s++) {
            uint32_t q;
            if (!d->sat[s])
                continue;
            q = s * (uint32_t)d->U0 + (uint32_t)d->port[s];
            d->inj_valid[q] = 1;
            d->inj_flit[q] = mkflit(d, 0, d->pdest[s], data_payload(s, (uint32_t)(tau - data0)));
        }
    }
}

/* Read the outputs of one tick: acks at sources, headers and data at destinations. */
static void drv_outputs(driver *d, uint32_t *nsat)
{
    uint32_t q;
    uint64_t pm = ((uint64_t)1 << d->pw) - 1u, am = ((uint64_t)1 << d->aw) - 1u;
    memset(d->ej_ack, 0, d->NP);
    for (q = 0; q < d->NP; q++) {
        uint32_t leaf = q / (uint32_t)d->U0, s = d->inv[leaf];
        uint64_t f = d->ej_flit[q];
        if (d->inj_ack[q] && d->active[leaf] && !d->sat[leaf]) {
            d->sat[leaf] = 1;
            (*nsat)++;
        }
        if (!d->ej_valid[q])
            continue;
        if ((f >> (d->pw + d->aw + 1)) & 1u) {
            d->ej_ack[q] = 1;
            if (((f >> d->pw) & am) != d->pdest[s] || (f & pm) != (s & pm) || d->hdr_q[leaf] != UINT32_MAX)
                d->errors++;
            if (d->hdr_q[leaf] == UINT32_MAX)
                d->hdr_q[leaf] = q;
        } else if (d->hdr_q[leaf] != q || d->drecv[leaf] >= LCAN_DATA_LEN ||
                   ((f >> d->pw) & am) != d->pdest[s] ||
                   (f & pm) != (data_payload(s, d->drecv[leaf]) & pm)) {
            d->errors++;
        } else {
            d->drecv[leaf]++;
        }
    }
}

lcan_status lcan_route_perm(const lcan_topo *t, int payload_w, lcan_tick_fn tick, void *engine,
                            const uint32_t *perm, uint32_t net_seed, int max_passes,
                            lcan_route_result *res)
{
    return lcan_route_perm_faults(t, payload_w, tick, engine, perm, net_seed, max_passes, NULL, res);
}

lcan_status lcan_route_perm_faults(const lcan_topo *t, int payload_w, lcan_tick_fn tick, void *engine,
                                   const uint32_t *perm, uint32_t net_seed, int max_passes,
                                   const struct lcan_faults *faults, lcan_route_result *res)
{
    driver d;
    lcan_status st;
    lcan_reach *reach = NULL;
    lcan_fault_sched sched = {NULL, 0};
    uint32_t remaining, s;
    uint64_t i;
    int k, tau, l, T;

    if (t == NULL || tick == NULL || perm == NULL || res == NULL || max_passes < 1 || payload_w < 1 || payload_w > 32)
        return LCAN_ERR_ARG;
    st = drv_init(&d, t, payload_w, perm);
    if (st == LCAN_OK && faults != NULL) {
        st = lcan_reach_new(t, faults, &reach);
        if (st == LCAN_OK)
            st = lcan_fault_sched_rows(t, NULL, reach, &sched);
    }
    if (st != LCAN_OK) {
        drv_free(&d);
        lcan_reach_free(reach);
        lcan_fault_sched_free(&sched);
        return st;
    }
    d.reach = reach;
    T = lcan_pass_ticks(d.h);
    res->passes = 0;
    res->first_pass = 0;
    res->ticks = 0;
    res->data_errors = 0;
    res->cut = 0;
    d.in.rst = 1;
    d.in.seed = net_seed;
    st = tick(engine, &d.in, &d.out);
    res->ticks++;
    d.in.rst = 0;
    remaining = d.N;
    if (reach != NULL) {
        /* spec 14.4: the fault pins from tick 1 on, the rows on ticks 1, 2, .. */
        d.in.link_off = faults->link_off;
        d.in.sw_off = faults->sw_off;
        for (i = 0; i < sched.nrows && st == LCAN_OK; i++) {
            d.in.cfg_we = 1;
            d.in.cfg_addr = (uint32_t)sched.rows[i];
            d.in.cfg_row = lcan_reach_row(reach, sched.rows[i]);
            st = tick(engine, &d.in, &d.out);
            res->ticks++;
        }
        d.in.cfg_we = 0;
        d.in.cfg_addr = 0;
        d.in.cfg_row = NULL;
        for (s = 0; s < d.N; s++)
            if (lcan_reach_cut(reach, s, perm[s])) {
                d.active[s] = 0;
                res->cut++;
            }
        remaining -= res->cut;
    }
    for (k = 0; k < max_passes && remaining > 0 && st == LCAN_OK; k++) {
        uint32_t nsat = 0, before[LCAN_MAX_LEVELS];
        memcpy(before, d.cnt[1], sizeof before);
        memset(d.sat, 0, d.N);
        memset(d.drecv, 0, d.N);
        memset(d.ej_ack, 0, d.NP);
        for (s = 0; s < d.N; s++)
            d.hdr_q[s] = UINT32_MAX;
        for (tau = 0; tau < T && st == LCAN_OK; tau++) {
            drv_inputs(&d, k, tau);
            st = tick(engine, &d.in, &d.out);
            res->ticks++;
            drv_outputs(&d, &nsat);
        }
        for (s = 0; s < d.N; s++) {
            uint32_t dst = perm[s];
            if (!d.sat[s])
                continue;
            d.active[s] = 0;
            if (d.hdr_q[dst] == UINT32_MAX)
                d.errors += LCAN_DATA_LEN;
            else
                d.errors += (uint64_t)(LCAN_DATA_LEN - d.drecv[dst]);
        }
        if (k == 0) {
            res->first_pass = nsat;
            for (l = 1; l <= d.h && res->stage_occ != NULL; l++)
                res->stage_occ[d.h - l] = (double)(uint32_t)(d.cnt[1][l - 1] - before[l - 1]) /
                                          ((double)lcan_topo_switches(t, l) * lcan_topo_downers(t, l));
        }
        remaining -= nsat;
        res->passes = k + 1;
    }
    res->data_errors = d.errors;
    drv_free(&d);
    lcan_reach_free(reach);
    lcan_fault_sched_free(&sched);
    if (st != LCAN_OK)
        return st;
    return remaining > 0 ? LCAN_ERR_STALL : LCAN_OK;
}
