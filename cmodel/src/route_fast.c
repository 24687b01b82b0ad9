/*
 * route_fast.c - lcan_route_perm_fast: the pass driver of spec 7.5 on the circuit-mode model,
 * event-driven. Only headers matter for the result: an LFSR steps only on ticks where its switch
 * has a header request (spec 5), acks always return over a complete circuit within the pass
 * (4h - 1 < T_pass), and data never makes requests. So each pass is simulated as waves of headers:
 * the headers injected on pass tick 1 reach level-1 switches on tick 2, and every tick only the
 * switches holding a header are visited. The header step is the switch unit's
 * (sw.c: lcan_sw_circuit_headers, the allocator of alloc.c), as in the tick-level model; the tests
 * require the two routers to agree. A header granted a level-1 downer has reached its destination
 * and satisfies its source. ticks = 1 + passes * T_pass; data_errors = 0 (data is not simulated).
 */
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "route.h"
#include "sw.h"

/* State is kept in one record per switch so that a visit touches one or two cache lines:
 * [0] LFSR, [1] hi (the switch's digits a_{l+1..h}, packed like an address), then per local port j
 * LINK at 2 + j (the far end: LCAN_PEER_LEAF | q for level-1 downers, else far index << 7 | far
 * local port), SRC at 2 + P + j (source of the header waiting on input j) and DEST at 2 + 2P + j
 * (its packed destination), then 2P bytes: set[j] (output j holds a circuit of the pass) and hv[j]
 * (a header waits on input j) - the arrays the header step of sw.c reads, in place. The switches
 * holding headers for the next tick are a bitmap over global switch ids, visited in ascending
 * order; switches of one tick do not interact (a header climbing on tick t is at level t, one
 * descending at level 2L - t: neighbours never both hold one), so the order does not change the
 * result. */
#define REC_W(P) (2u + 3u * (uint32_t)(P) + (2u * (uint32_t)(P) + 3u) / 4u)

typedef struct {
    lcan_geom g;                        /* constants only; its arrays are freed after the build */
    uint32_t *rec, *inj, *pdest;
    size_t *setlist;                    /* byte offsets in rec of the set flags of the pass */
    size_t rbase[LCAN_MAX_LEVELS + 2];
    uint64_t *cur, *nxt;
    uint8_t *sat;
    uint32_t nwords, nnxt, nset;
    uint64_t down[LCAN_MAX_LEVELS + 1];
    lcan_sw_k k[LCAN_MAX_LEVELS + 2];   /* per level: the switch constants (sw.h) */
} fast;

static void fast_free(fast *f)
{
    lcan_geom_free(&f->g);
    free(f->rec); free(f->inj); free(f->pdest); free(f->setlist);
    free(f->cur); free(f->nxt); free(f->sat);
}

/* Far end of local port j of a level-l switch (global port gp) as a LINK word. */
static uint32_t link_of(const lcan_geom *g, int l, int j, uint32_t gp)
{
    uint32_t pr = g->peer[gp], rel;
    int l2 = j >= g->D[l] ? l + 1 : l - 1;
    if (pr & LCAN_PEER_LEAF)
        return pr;
    rel = pr - g->port_base[l2];
    return (rel / (uint32_t)g->P[l2]) << 7 | rel % (uint32_t)g->P[l2];
}

static lcan_status fast_init(fast *f, const lcan_topo *t, const uint32_t *perm, uint32_t seed, int up_choice)
{
    lcan_status st;
    uint32_t x, s, q, hash[3];
    size_t nrec = 0;
    int l, j;
    lcan_cfg cfg;
    memset(f, 0, sizeof *f);
    st = lcan_geom_init(&f->g, t);
    if (st != LCAN_OK)
        return st;
    lcan_cfg_default(&cfg);
    cfg.payload_w = 1; /* (flits are not simulated: only the destination field is used) */
    cfg.up_choice = (lcan_up_choice)up_choice;
    for (l = 1; l <= f->g.h; l++)
        lcan_sw_k_init(&f->k[l], l, f->g.m[l], f->g.p[l], f->g.U[l], f->g.addr_w, f->g.off[l], f->g.bits[l], &cfg);
    for (l = 1; l <= f->g.h; l++) {
        f->rbase[l] = nrec;
        nrec += (size_t)f->g.S[l] * REC_W(f->g.P[l]);
    }
    f->rec = malloc(nrec * sizeof *f->rec);
    f->inj = malloc((size_t)f->g.NP * sizeof *f->inj);
    f->setlist = malloc((size_t)f->g.n_port * sizeof *f->setlist);
    f->nwords = (f->g.n_sw + 63u) / 64u;
    f->cur = calloc(f->nwords, sizeof *f->cur);
    f->nxt = calloc(f->nwords, sizeof *f->nxt);
    f->pdest = malloc((size_t)f->g.N * sizeof *f->pdest);
    f->sat = calloc(f->g.N, 1);
    if (!f->rec || !f->inj || !f->setlist || !f->cur || !f->nxt || !f->pdest || !f->sat)
        return LCAN_ERR_NOMEM;
    if (!lcan_route_check_perm(perm, f->g.N, f->sat))
        return LCAN_ERR_ARG;
    for (s = 0; s < f->g.N; s++)
        f->pdest[s] = lcan_topo_pack(t, perm[s]);
    lcan_lfsr_seed_hashes(seed, hash);
    for (l = 1; l <= f->g.h; l++)
        for (x = 0; x < f->g.S[l]; x++) {
            uint32_t *r = &f->rec[f->rbase[l] + (size_t)x * REC_W(f->g.P[l])];
            uint32_t pb = f->g.port_base[l] + x * (uint32_t)f->g.P[l];
            r[0] = lcan_lfsr_seed_from(hash, l, x);
            r[1] = f->g.hi[f->g.sw_base[l] + x];
            int P = f->g.P[l];
            for (j = 0; j < P; j++) {
                r[2 + j] = link_of(&f->g, l, j, pb + (uint32_t)j);
                r[2 + P + j] = 0;
                r[2 + 2 * P + j] = 0;
            }
            memset(r + 2 + 3 * P, 0, 2u * (size_t)P); /* set, hv */
        }
    for (q = 0; q < f->g.NP; q++) { /* level-1 index << 7 | downer facing network port q */
        uint32_t rel = f->g.leaf_gp[q] - f->g.port_base[1];
        f->inj[q] = (rel / (uint32_t)f->g.P[1]) << 7 | rel % (uint32_t)f->g.P[1];
    }
    lcan_geom_free(&f->g);
    return LCAN_OK;
}

/* A header from source s arrives at the level-l switch on far (index << 7 | local port). */
static void arrive(fast *f, int l, uint32_t far, uint32_t s)
{
    uint32_t x = far >> 7, sw = f->g.sw_base[l] + x, P = (uint32_t)f->g.P[l], j = far & 127u;
    uint32_t *r = &f->rec[f->rbase[l] + (size_t)x * REC_W(P)];
    uint64_t bit = (uint64_t)1 << (sw & 63u);
    r[2 + P + j] = s;
    r[2 + 2 * P + j] = f->pdest[s];
    ((uint8_t *)(r + 2 + 3 * P))[P + j] = 1;
    if (!(f->nxt[sw >> 6] & bit)) {
        f->nxt[sw >> 6] |= bit;
        f->nnxt++;
    }
}

/* One switch's tick (spec 7.2 step 3): the header step of sw.c on the headers waiting at its
 * inputs, with set = the circuits of the pass and the grants made earlier. A switch is visited only
 * when it holds a header, so its LFSR steps. Returns the number of sources satisfied. */
static uint32_t visit(fast *f, int l, uint32_t x)
{
    const lcan_sw_k *k = &f->k[l];
    int P = k->P, D = k->D, i;
    uint32_t *r = &f->rec[f->rbase[l] + (size_t)x * REC_W(P)], *link = r + 2, *src = r + 2 + P, nsat = 0;
    uint8_t *set = (uint8_t *)(r + 2 + 3 * P), *hv = set + P;
    int out[LCAN_MAX_PORTS];

    lcan_sw_circuit_headers(k, r[1], &r[0], hv, r + 2 + 2 * P, set, NULL, out);
    for (i = 0; i < P; i++) {
        int o = out[i];
        hv[i] = 0;
        if (o < 0)
            continue; /* no header, or dropped */
        set[o] = 1;
        f->setlist[f->nset++] = (size_t)(&set[o] - (uint8_t *)f->rec);
        if (o >= D) {
            arrive(f, l + 1, link[o], src[i]);
        } else {
            f->down[l]++;
            if (l == 1) {
                f->sat[src[i]] = 1;
                nsat++;
            } else {
                arrive(f, l - 1, link[o], src[i]);
            }
        }
    }
    return nsat;
}

/* One pass k; returns the number of sources satisfied in it. */
static uint32_t fast_pass(fast *f, int k)
{
    const lcan_geom *g = &f->g;
    uint32_t s, w, nsat = 0;
    uint64_t *tmp;

    for (w = 0; w < f->nset; w++) /* clear: release the previous pass's circuits */
        ((uint8_t *)f->rec)[f->setlist[w]] = 0;
    f->nset = 0;
    f->nnxt = 0;
    for (s = 0; s < g->N; s++)
        if (!f->sat[s])
            arrive(f, 1, f->inj[s * (uint32_t)g->U0 + (s + (uint32_t)k) % (uint32_t)g->U0], s);
    while (f->nnxt > 0) {
        int l = 1;
        tmp = f->cur; f->cur = f->nxt; f->nxt = tmp;
        f->nnxt = 0;
        for (w = 0; w < f->nwords; w++) {
            uint64_t v = f->cur[w];
            f->cur[w] = 0;
            while (v) {
                uint32_t sw = 64u * w + (uint32_t)lcan_ctz64(v);
                v &= v - 1u;
                while (l < g->h && sw >= g->sw_base[l + 1])
                    l++;
                nsat += visit(f, l, sw - g->sw_base[l]);
            }
        }
    }
    return nsat;
}

lcan_status lcan_route_perm_fast(const lcan_topo *t, const uint32_t *perm, uint32_t net_seed,
                                 int max_passes, lcan_up_choice up_choice, lcan_route_result *res)
{
    return lcan_route_fast_trace(t, perm, net_seed, max_passes, up_choice, res, NULL);
}

lcan_status lcan_route_fast_trace(const lcan_topo *t, const uint32_t *perm, uint32_t net_seed,
                                  int max_passes, lcan_up_choice up_choice, lcan_route_result *res,
                                  int *pass_of)
{
    fast f;
    lcan_status st;
    uint32_t remaining;
    int k, l;

    if (t == NULL || perm == NULL || res == NULL || max_passes < 1 ||
        (up_choice != LCAN_UP_ROTATE && up_choice != LCAN_UP_UNIFORM))
        return LCAN_ERR_ARG;
    st = fast_init(&f, t, perm, net_seed, (int)up_choice);
    if (st != LCAN_OK) {
        fast_free(&f);
        return st;
    }
    memset(f.sat, 0, f.g.N);
    for (k = 0; pass_of != NULL && k < (int)f.g.N; k++)
        pass_of[k] = -1;
    res->passes = 0;
    res->first_pass = 0;
    res->data_errors = 0;
    remaining = f.g.N;
    for (k = 0; k < max_passes && remaining > 0; k++) {
        uint32_t nsat = fast_pass(&f, k), s;
        for (s = 0; pass_of != NULL && s < f.g.N; s++)
            if (f.sat[s] && pass_of[s] < 0)
                pass_of[s] = k;
        if (k == 0) {
            res->first_pass = nsat;
            for (l = 1; l <= f.g.h && res->stage_occ != NULL; l++)
                res->stage_occ[f.g.h - l] = (double)(uint32_t)f.down[l] / ((double)f.g.S[l] * f.g.D[l]);
        }
        remaining -= nsat;
        res->passes = k + 1;
    }
    res->ticks = lcan_route_ticks(f.g.h, res->passes);
    fast_free(&f);
    return remaining > 0 ? LCAN_ERR_STALL : LCAN_OK;
}
