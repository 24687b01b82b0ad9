/*
 * net.c - the cycle-accurate network (spec 3, 5, 7, 8, 9): construction, flit fields, the tick
 * (reset, clear, every switch, the leaf boundary of spec 7.3 / 8.4) and the observation outputs.
 *
 * A new network is in the state a reset tick with seed 0 leaves it in. The network copies what it
 * needs from the topology; the topology may be freed afterwards.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bytemask.h"
#include "lcan_faults.h"
#include "lfsr.h"
#include "net_internal.h"

void lcan_cfg_default(lcan_cfg *c)
{
    if (c == NULL)
        return;
    c->mode = LCAN_CIRCUIT;
    c->payload_w = 16;
    c->depth = 4;
    c->up_choice = LCAN_UP_UNIFORM;
    c->flood_q = 0;
    c->unicast_only = 0;
}

/* ------------------------------------------------------------------ faults (spec 14)
 * The reach rows are one array of NR rows (net_internal.h), allocated with calloc on the first
 * write of a row that is not all ones and stored inverted, so that its zero pages - every row
 * the driver never wrote - are the all-ones rows of spec 14.2 and cost no memory. */

/* Every reach row all ones (spec 14.2: a reset tick). */
static void rows_all_ones(lcan_net *n)
{
    free(n->rows);
    n->rows = NULL;
    n->n_rows_set = 0;
}

/* The per-port tables f_link / f_far (net_internal.h), built once; -1 if out of memory. */
static int fault_tables(lcan_net *n)
{
    const lcan_geom *g = &n->g;
    int l, o;
    uint32_t x;
    if (n->f_link != NULL)
        return 0;
    n->f_link = malloc((size_t)g->n_port * sizeof *n->f_link);
    n->f_far = malloc((size_t)g->n_port * sizeof *n->f_far);
    if (n->f_link == NULL || n->f_far == NULL) {
        free(n->f_link);
        free(n->f_far);
        n->f_link = n->f_far = NULL;
        return -1;
    }
    for (l = 1; l <= g->h; l++)
        for (x = 0; x < g->S[l]; x++)
            for (o = 0; o < g->P[l]; o++) {
                uint32_t gp = g->port_base[l] + x * (uint32_t)g->P[l] + (uint32_t)o, pr = g->peer[gp];
                if (o < g->D[l]) { /* downer o: its own link; the child (a leaf at level 1) */
                    n->f_link[gp] = (uint32_t)(n->lk_off[l] + (uint64_t)x * (uint64_t)g->D[l] + (uint64_t)o);
                    n->f_far[gp] = (pr & LCAN_PEER_LEAF) ? LCAN_NO_SW
                                                         : g->sw_base[l - 1] + (pr - g->port_base[l - 1]) / (uint32_t)g->P[l - 1];
                } else { /* upper: the link on the parent's downer pr */
                    uint32_t rel = pr - g->port_base[l + 1], X = rel / (uint32_t)g->P[l + 1];
                    n->f_link[gp] = (uint32_t)(n->lk_off[l + 1] + (uint64_t)X * (uint64_t)g->D[l + 1] +
                                               (uint64_t)(rel % (uint32_t)g->P[l + 1]));
                    n->f_far[gp] = g->sw_base[l + 1] + X;
                }
            }
    return 0;
}

const lcan_sw_faults *lcan_net_sw_faults(const lcan_net *n, int l, uint32_t x, lcan_sw_faults *f)
{
    const lcan_geom *g = &n->g;
    uint32_t sw = g->sw_base[l] + x, pb = g->port_base[l] + x * (uint32_t)g->P[l];
    int o;
    if (!n->faulty)
        return NULL;
    lcan_pset_clear(&f->off);
    f->rows = NULL;
    if (n->rows != NULL && l < g->h) {
        f->rows = n->rows + (size_t)(n->row_off[l] + (uint64_t)x * (uint64_t)g->U[l]) * n->rww;
        f->rww = n->rww;
    }
    if (n->pin_sw != NULL && n->pin_sw[sw]) {
        f->off = lcan_pset_range(0, g->P[l]); /* spec 14.1: every port of an off switch */
        return f;
    }
    if (n->pin_link != NULL || n->pin_sw != NULL)
        for (o = 0; o < g->P[l]; o++) {
            uint32_t gp = pb + (uint32_t)o, far = n->f_far[gp];
            if ((n->pin_link != NULL && n->pin_link[n->f_link[gp]]) ||
                (n->pin_sw != NULL && far != LCAN_NO_SW && n->pin_sw[far]))
                lcan_pset_add(&f->off, o);
        }
    return f;
}

/* Word k of row (cfg_row's layout) inverted, bits at RW and above 0. */
static uint64_t row_inv(const lcan_net *n, const uint64_t *row, uint32_t k)
{
    uint64_t v = ~row[k];
    if (n->g.addr_w < 6)
        v &= ((uint64_t)1 << ((uint32_t)1 << n->g.addr_w)) - 1u;
    return v;
}

/* Is row all ones in its RW bits? */
static int row_is_ones(const lcan_net *n, const uint64_t *row)
{
    uint32_t k;
    for (k = 0; k < n->rww; k++)
        if (row_inv(n, row, k) != 0)
            return 0;
    return 1;
}

/* Prepare a row write (spec 14.2): allocate the rows on the first write of a
 * row that is not all ones; LCAN_ERR_NOMEM if they do not fit (nothing written then). */
static lcan_status row_prepare(lcan_net *n, const uint64_t *row)
{
    uint64_t words;
    if (row == NULL)
        return LCAN_ERR_ARG;
    if (n->rows != NULL || row_is_ones(n, row)) /* (all ones where all ones already) */
        return LCAN_OK;
    words = n->nr * (uint64_t)n->rww;
    if (words / n->rww != n->nr || words > (uint64_t)SIZE_MAX / sizeof *n->rows ||
        (n->rows = calloc((size_t)words, sizeof *n->rows)) == NULL)
        return LCAN_ERR_NOMEM;
    return LCAN_OK;
}

/* The write itself, at the end of the tick: row r := row, used from the next tick on. */
static void row_write(lcan_net *n, uint64_t r, const uint64_t *row)
{
    uint64_t *dst, was = 0, now = 0;
    uint32_t k;
    if (n->rows == NULL) /* all ones := all ones */
        return;
    dst = n->rows + (size_t)r * n->rww;
    for (k = 0; k < n->rww; k++) {
        was |= dst[k];
        dst[k] = row_inv(n, row, k);
        now |= dst[k];
    }
    n->n_rows_set = n->n_rows_set - (was != 0) + (now != 0);
}

/* The faults of a tick (spec 14.1-14.2): the port tables on the first off pin, the row write's
 * storage, this tick's pins (n->pin_*, n->faulty; cleared again by lcan_net_tick). */
static lcan_status faults_prepare(lcan_net *n, const lcan_in *in, int *write)
{
    if ((in->link_off != NULL || in->sw_off != NULL) && fault_tables(n) != 0)
        return LCAN_ERR_NOMEM;
    if (!in->rst && in->cfg_we && (uint64_t)in->cfg_addr < n->nr) {
        lcan_status st = row_prepare(n, in->cfg_row);
        if (st != LCAN_OK)
            return st;
        *write = 1;
    }
    n->pin_link = in->link_off;
    n->pin_sw = in->sw_off;
    n->faulty = in->link_off != NULL || in->sw_off != NULL || n->n_rows_set != 0;
    return LCAN_OK;
}

static void do_reset(lcan_net *n, uint32_t seed)
{
    const lcan_geom *g = &n->g;
    size_t np = g->n_port;
    int l;
    uint32_t x, q, hash[3];

    memset(n->flit_q, 0, (np + g->NP) * sizeof *n->flit_q);
    memset(n->flit_d, 0, (np + g->NP) * sizeof *n->flit_d);
    memset(n->bk_q, 0, np);
    memset(n->bk_d, 0, np);
    memset(n->inj, 0, g->NP * sizeof *n->inj);
    memset(n->cnt_ud, 0, sizeof n->cnt_ud);
    memset(n->cnt_drop, 0, sizeof n->cnt_drop);
    rows_all_ones(n);
    /* every switch's reset (sw.c), with spec 5's LFSR value */
    lcan_lfsr_seed_hashes(seed, hash);
    for (l = 1; l <= g->h; l++)
        for (x = 0; x < g->S[l]; x++) {
            uint32_t pb = g->port_base[l] + x * (uint32_t)g->P[l];
            lcan_sw_state st;
            lcan_net_sw_view(n, l, x, &st);
            lcan_sw_reset(&n->swk[l], &st, lcan_lfsr_seed_from(hash, l, x), n->flit_q + pb, n->bk_q + pb);
        }
    if (n->cfg.mode == LCAN_CIRCUIT)
        return;
    for (q = 0; q < g->NP; q++)
        n->inj_cr[q] = (uint16_t)n->cfg.depth;
    if (n->fast) {
        size_t ns = g->n_sw + 1u; /* + the dummy switch of the leaves */
        size_t k;
        for (k = 0; k < ns; k++) {
            lcan_fast_sw *sd = &n->swd[k];
            sd->arr[0] = sd->arr[1] = 0;
            sd->fifo_m = 0;
        }
        for (l = 1; l <= g->h; l++)
            for (x = 0; x < g->S[l]; x++)
                n->swd[g->sw_base[l] + x].lfsr = n->lfsr[g->sw_base[l] + x];
        n->cur = 0;
        n->nxt = 1;
        memset(n->act_cur, 0, n->n_actw * sizeof *n->act_cur);
        memset(n->act_nxt, 0, n->n_actw * sizeof *n->act_nxt);
        n->n_crl_cur = 0;
        n->crl_end = n->crl_nxt;
        memset(n->ejb, 0, 2u * n->n_ejw * sizeof *n->ejb);
        n->bcast_in = 0;
    }
}

/* Ports lo..hi-1 of a switch of at most 64 ports, as a mask (0 <= lo <= hi <= 64). */
static uint64_t range64(int lo, int hi)
{
    uint64_t a = hi >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << hi) - 1u);
    return lo >= 64 ? 0 : a & ~(((uint64_t)1 << lo) - 1u);
}

/* Fast mode: class UP's scan orders of level l for every value of the bits of z that sigma reads
 * (net_internal.h: up_tab), when they are few; a lookup then replaces the Fisher-Yates draws on
 * every step that sends a flit up. 0, or -1 if out of memory. */
static int up_table(lcan_net *n, int l)
{
    lcan_fast_level *lv = &n->lv[l];
    int bits = lcan_lfsr_up_bits(lv->U);
    uint32_t z;
    if (!lv->uorder || bits > LCAN_UP_TAB_BITS)
        return 0;
    lv->up_tab = malloc(((size_t)1 << bits) * (size_t)lv->U);
    if (lv->up_tab == NULL)
        return -1;
    lv->up_key = (1u << bits) - 1u;
    for (z = 0; z <= lv->up_key; z++)
        lcan_sw_up_order_z(&n->swk[l], z, lv->up_tab + (size_t)z * (size_t)lv->U);
    if (lv->U > LCAN_UP_GR_MAX || lv->up_key > 0xFFu) /* (U <= 4 reads at most 8 bits: z's first byte) */
        return 0;
    lv->up_gr = malloc(((size_t)lv->up_key + 1u) << lv->U);
    if (lv->up_gr == NULL)
        return -1;
    for (z = 0; z <= lv->up_key; z++) {
        const uint8_t *ord = lv->up_tab + (size_t)z * (size_t)lv->U;
        uint32_t fr;
        for (fr = 0; fr < (1u << lv->U); fr++) { /* fr: the free uppers, bit j for upper D + j */
            uint8_t o = 0xFFu;
            int k;
            for (k = lv->U - 1; k >= 0; k--) /* (the first in the order wins) */
                if ((fr >> (ord[k] - lv->D)) & 1u)
                    o = ord[k];
            lv->up_gr[((size_t)z << lv->U) + fr] = o;
        }
    }
    return 0;
}

/* The link record of a sender (a switch output or a network port) whose output feeds the switch
 * input gp (a global port): its flit register, its bit in that switch's arrival masks, the switch's
 * wake, and a credit spent per send. */
static void link_to_input(lcan_net *n, lcan_fast_link *to, uint32_t gp)
{
    uint32_t sw = n->port_sw[gp];
    to->arr = n->swd[sw].arr;
    to->rx = gp;
    to->lbit = (uint64_t)1 << n->port_loc[gp];
    to->abit = (uint64_t)1 << (sw & 63u);
    to->aw = (uint16_t)(sw >> 6);
    to->leaf = 0;
    to->cred = 1;
}

/* Fast mode (net_internal.h): the per-switch and per-port tables and the event state. The
 * event-driven tick knows no flood queues (spec 8.7): with FLOOD_Q > 0 the network runs the
 * full-scan tick (sw.c), which visits every switch on every tick, as a queue may send on a tick
 * that brings its switch nothing. */
static int fast_alloc(lcan_net *n)
{
    const lcan_geom *g = &n->g;
    size_t ns = g->n_sw + 1u, np = g->n_port, nsend = np + g->NP; /* + dummy switch; senders */
    int l, j;
    uint32_t x, q;
    n->fast = n->cfg.mode == LCAN_PACKET && n->cfg.flood_q == 0;
    for (l = 1; l <= g->h; l++)
        if (g->P[l] > 64)
            n->fast = 0;
    if (g->n_sw >= (uint32_t)1 << 22) /* (lcan_fast_link.aw: 16 bits) */
        n->fast = 0;
    for (l = 1; l <= g->h; l++)
        if (n->swk[l].bits > 6) /* (lcan_fast_level.want_k: digits below 64; implied by P <= 64) */
            n->fast = 0;
    if (!n->fast)
        return 0;
    n->swd = calloc(ns, sizeof *n->swd);
    n->out_to = malloc(nsend * sizeof *n->out_to);
    n->in_src = malloc(np * sizeof *n->in_src);
    n->port_sw = malloc(nsend * sizeof *n->port_sw);
    n->port_loc = malloc(nsend);
    n->crl_cur = malloc(np * sizeof *n->crl_cur); /* at most one credit per input and tick */
    n->crl_nxt = malloc(np * sizeof *n->crl_nxt);
    n->n_ejw = (g->NP + 63u) / 64u;
    n->ejb = calloc(2u * (size_t)n->n_ejw, sizeof *n->ejb);
    n->n_actw = (g->n_sw + 63u) / 64u; /* (the dummy switch n_sw is never woken) */
    n->act_cur = calloc(n->n_actw, sizeof *n->act_cur);
    n->act_nxt = calloc(n->n_actw, sizeof *n->act_nxt);
    if (!n->swd || !n->out_to || !n->in_src || !n->port_sw || !n->port_loc ||
        !n->crl_cur || !n->crl_nxt ||
        !n->ejb || !n->act_cur || !n->act_nxt)
        return -1;
    n->plain = 1; /* (cleared below by a level that is not) */
    for (l = 1; l <= g->h; l++) {
        lcan_fast_level *lv = &n->lv[l];
        int c;
        const lcan_sw_k *k = &n->swk[l]; /* the switch constants (sw.h), as masks */
        lv->l = l;
        lv->P = k->P;
        lv->D = k->D;
        lv->p = k->p;
        lv->m = k->m;
        lv->U = k->U;
        lv->uorder = k->up_choice == LCAN_UP_UNIFORM && k->U >= 3;
        lv->top = k->top;
        lv->hi_mask = k->hi_mask;
        lv->dmask = (1u << k->bits) - 1u;
        lv->off = (uint32_t)k->off;
        lv->xsh = (uint32_t)n->sh_dest + lv->off;
        lv->hi_f = (uint64_t)k->hi_mask << n->sh_dest;
        lv->in_mask = k->in_mask;
        lv->up_mask = k->up_mask;
        lv->dn_mask = k->dn_mask;
        lv->pmask = range64(0, k->P);
        lv->up_want = range64(k->D, k->P);
        lv->dn_unit = range64(0, k->p);
        lv->bc_full = 0;
        for (c = 0; c < k->m; c++)
            lv->bc_full |= (uint64_t)1 << (c * k->p);
        lv->up_in = k->top ? 0 : range64(0, k->D);
        for (c = 0; c < k->m; c++) {
            lv->want_t[c] = range64(c * k->p, (c + 1) * k->p);
            lv->base_t[c] = (uint8_t)(c * k->p);
        }
        lv->want_t[k->m] = lv->up_want;
        for (c = 0; c < k->m; c++)
            lv->cyc_t[c] = (uint8_t)(k->p > 1);
        lv->cyc_t[k->m] = (uint8_t)(k->U > 1 && !lv->uorder);
        for (c = 0; c < k->P; c++)
            lv->cnt_o[c] = &n->cnt_ud[l][c >= k->D];
        lv->base_t[k->m] = 0;
        for (c = 0; c < 128; c++) { /* (bits <= 6, checked above: x < 64) */
            int cls = c >= 64 ? k->m : c, valid = c >= 64 || c < k->m;
            lv->want_k[c] = valid ? lv->want_t[cls] : 0;
            lv->base_k[c] = valid ? lv->base_t[cls] : 0;
            lv->cyc_k[c] = valid ? lv->cyc_t[cls] : 0;
        }
        for (c = 0; c < 256; c++) {
            lv->r_in[c] = (uint8_t)lcan_lfsr_offset((uint32_t)c, k->in_mask, k->P);
            lv->st_up[c] = (uint8_t)(k->D + lcan_lfsr_offset((uint32_t)c, k->up_mask, k->U));
            lv->r_dn[c] = (uint8_t)lcan_lfsr_offset((uint32_t)c, k->dn_mask, k->p);
        }
        if (up_table(n, l) != 0)
            return -1;
        n->plain &= (k->top || lv->up_gr != NULL) && k->P <= 8;
        for (c = 0; c < 128; c++)
            n->plain &= !lv->cyc_k[c];
        for (x = 0; x < g->S[l]; x++) {
            uint32_t sw = g->sw_base[l] + x;
            n->swd[sw].pb = g->port_base[l] + x * (uint32_t)g->P[l];
            n->swd[sw].hi = g->hi[sw];
            n->swd[sw].hi_f = (uint64_t)g->hi[sw] << n->sh_dest;
            n->swd[sw].lv = lv;
            for (j = 0; j < g->P[l]; j++) {
                uint32_t gp = n->swd[sw].pb + (uint32_t)j;
                n->port_sw[gp] = sw;
                n->port_loc[gp] = (uint8_t)j;
            }
        }
    }
    for (q = 0; q < g->NP; q++) {
        n->port_sw[np + q] = g->n_sw;
        n->port_loc[np + q] = 0;
    }
    for (x = 0; x < np; x++) {
        uint32_t pr = g->peer[x], leaf = (pr & LCAN_PEER_LEAF) != 0, pq = pr & ~LCAN_PEER_LEAF;
        n->in_src[x] = leaf ? (uint32_t)np + pq : pr;
        if (leaf) { /* towards leaf port pq: its bit in the ejection masks, no wake, no credits */
            lcan_fast_link *to = &n->out_to[x];
            to->arr = n->ejb + 2u * (pq >> 6);
            to->rx = n->in_src[x]; /* the link's far end: x's peer as a receiver, as a sender */
            to->lbit = (uint64_t)1 << (pq & 63u);
            to->abit = 0;
            to->aw = 0;
            to->leaf = 1;
            to->cred = 0;
        } else
            link_to_input(n, &n->out_to[x], pr);
        n->swd[n->port_sw[x]].leafm |= (uint64_t)leaf << n->port_loc[x];
    }
    for (q = 0; q < g->NP; q++) /* network port q feeds the level-1 input leaf_gp[q] */
        link_to_input(n, &n->out_to[np + q], g->leaf_gp[q]);
    return 0;
}

/* The flood queues (spec 8.7, packet mode with FLOOD_Q > 0): lcan_sw_fq_queues slots of FLOOD_Q
 * flits per switch (only the outputs that own a queue hold slots; net_internal.h), q_o and the
 * ring heads per output; -1 if out of memory. */
static int fq_alloc(lcan_net *n)
{
    const lcan_geom *g = &n->g;
    size_t total = 0;
    int l;
    for (l = 1; l <= g->h; l++) {
        n->fq_base[l] = total;
        total += (size_t)g->S[l] * (size_t)lcan_sw_fq_queues(&n->swk[l]) * (size_t)n->cfg.flood_q;
    }
    n->fq = calloc(total, sizeof *n->fq);
    n->fq_head = calloc(g->n_port, 1);
    n->fq_count = calloc(g->n_port, 1);
    return n->fq != NULL && n->fq_head != NULL && n->fq_count != NULL ? 0 : -1;
}

lcan_status lcan_net_new(const lcan_topo *t, const lcan_cfg *cfg, lcan_net **out)
{
    lcan_net *n;
    lcan_status st;
    size_t np;
    int l;

    if (out == NULL)
        return LCAN_ERR_ARG;
    *out = NULL;
    if (t == NULL)
        return LCAN_ERR_ARG;
    n = calloc(1, sizeof *n);
    if (n == NULL)
        return LCAN_ERR_NOMEM;
    if (cfg != NULL)
        n->cfg = *cfg;
    else
        lcan_cfg_default(&n->cfg);
    if ((n->cfg.mode != LCAN_CIRCUIT && n->cfg.mode != LCAN_PACKET) || n->cfg.payload_w < 1 ||
        n->cfg.payload_w > 32 || n->cfg.depth < 1 || n->cfg.depth > 255 || n->cfg.flood_q < 0 ||
        n->cfg.flood_q > 255 || (n->cfg.up_choice != LCAN_UP_ROTATE && n->cfg.up_choice != LCAN_UP_UNIFORM)) {
        free(n);
        return LCAN_ERR_ARG;
    }
    if (!lcan_sw_unicast_only_ok(&n->cfg)) { /* spec 8.8: 0 or 1, and 1 only without flood queues */
        free(n);
        return LCAN_ERR_PARAM;
    }
    st = lcan_geom_init(&n->g, t);
    if (st != LCAN_OK) {
        free(n);
        return st;
    }
    n->fw = 2 + n->g.addr_w + n->cfg.payload_w;
    if (n->fw > 63) {
        lcan_net_free(n);
        return LCAN_ERR_PARAM;
    }
    if (n->cfg.mode == LCAN_PACKET && n->cfg.flood_q > 0 && n->cfg.flood_q < lcan_net_flood_q_min(t)) {
        lcan_net_free(n); /* spec 8.7: the floods of a switch's children could never all be accepted */
        return LCAN_ERR_PARAM;
    }
    n->fmask = ((uint64_t)1 << n->fw) - 1u;
    n->nr = lcan_topo_reach_rows(t);
    n->rww = (uint32_t)((lcan_topo_row_bits(t) + 63u) / 64u);
    for (l = 1; l <= n->g.h + 1; l++) {
        n->lk_off[l] = lcan_topo_link_offset(t, l);
        n->row_off[l] = l <= n->g.h ? lcan_topo_row_offset(t, l) : n->nr;
    }
    for (l = 1; l <= n->g.h; l++)
        lcan_sw_k_init(&n->swk[l], l, n->g.m[l], n->g.p[l], n->g.U[l], n->g.addr_w, n->g.off[l], n->g.bits[l],
                       &n->cfg);
    n->sh_dest = n->cfg.payload_w;
    n->amask = (uint32_t)(((uint64_t)1 << n->g.addr_w) - 1u);
    n->sh_bcast = n->cfg.payload_w + n->g.addr_w;
    n->sh_head = n->sh_bcast + 1;
    n->bcast_m = n->swk[1].bcast_m; /* (every level decodes alike: 0 with UNICAST_ONLY, spec 8.8) */
    np = n->g.n_port;
    n->lfsr = malloc((size_t)n->g.n_sw * sizeof *n->lfsr);
    n->flit_q = malloc((np + n->g.NP) * sizeof *n->flit_q);
    n->flit_d = malloc((np + n->g.NP) * sizeof *n->flit_d);
    n->bk_q = malloc(np);
    n->bk_d = malloc(np);
    n->inj = malloc((size_t)n->g.NP * sizeof *n->inj);
    if (n->cfg.mode == LCAN_CIRCUIT) {
        n->set = malloc(np);
        n->src = malloc(np);
    } else {
        /* (+ 8: the fast tick reads a switch's counters eight at a time, bytemask.h) */
        n->cr = calloc(np + n->g.NP + 8u, sizeof *n->cr);
        n->fifo = calloc(np * (size_t)n->cfg.depth, sizeof *n->fifo); /* the fast tick reads stale slots */
        n->fhead = malloc(np * sizeof *n->fhead);
        n->fcount = malloc(np * sizeof *n->fcount);
        n->served = malloc(np * sizeof *n->served);
        n->inj_cr = n->cr != NULL ? n->cr + np : NULL;
        if (n->cfg.flood_q > 0 && fq_alloc(n) != 0) {
            lcan_net_free(n);
            return LCAN_ERR_NOMEM;
        }
    }
    if (!n->lfsr || !n->flit_q || !n->flit_d || !n->bk_q || !n->bk_d || !n->inj ||
        (n->cfg.mode == LCAN_CIRCUIT ? (!n->set || !n->src)
                                     : (!n->cr || !n->fifo || !n->fhead || !n->fcount || !n->served || !n->inj_cr))) {
        lcan_net_free(n);
        return LCAN_ERR_NOMEM;
    }
    if (fast_alloc(n) != 0) {
        lcan_net_free(n);
        return LCAN_ERR_NOMEM;
    }
    do_reset(n, 0);
    *out = n;
    return LCAN_OK;
}

void lcan_net_free(lcan_net *n)
{
    int l;
    if (n == NULL)
        return;
    lcan_geom_free(&n->g);
    free(n->lfsr);
    free(n->flit_q);
    free(n->flit_d);
    free(n->bk_q);
    free(n->bk_d);
    free(n->inj);
    free(n->set);
    free(n->src);
    free(n->cr);
    free(n->fifo);
    free(n->fhead);
    free(n->fcount);
    free(n->served);
    free(n->fq);
    free(n->fq_head);
    free(n->fq_count);
    free(n->swd);
    free(n->out_to);
    free(n->in_src);
    free(n->port_sw);
    free(n->port_loc);
    free(n->crl_cur);
    free(n->crl_nxt);
    free(n->ejb);
    free(n->act_cur);
    free(n->act_nxt);
    for (l = 0; l < (int)(sizeof n->lv / sizeof n->lv[0]); l++) {
        free(n->lv[l].up_tab);
        free(n->lv[l].up_gr);
    }
    free(n->f_link);
    free(n->f_far);
    rows_all_ones(n);
    free(n);
}

int lcan_net_flit_width(const lcan_net *n) { return n ? n->fw : 0; }

uint64_t lcan_flit(const lcan_net *n, int head, int bcast, uint32_t dest, uint32_t payload)
{
    uint64_t amask, pmask;
    if (n == NULL)
        return 0;
    amask = ((uint64_t)1 << n->g.addr_w) - 1u;
    pmask = ((uint64_t)1 << n->cfg.payload_w) - 1u;
    return ((uint64_t)payload & pmask) | (((uint64_t)dest & amask) << n->sh_dest) |
           ((uint64_t)(bcast != 0) << n->sh_bcast) | ((uint64_t)(head != 0) << n->sh_head);
}

int lcan_flit_head(const lcan_net *n, uint64_t f) { return n ? (int)((f >> n->sh_head) & 1u) : 0; }
int lcan_flit_bcast(const lcan_net *n, uint64_t f) { return n ? (int)((f >> n->sh_bcast) & 1u) : 0; }
uint32_t lcan_flit_dest(const lcan_net *n, uint64_t f) { return n ? lcan_net_dest(n, f) : 0; }
uint32_t lcan_flit_payload(const lcan_net *n, uint64_t f)
{
    return n ? (uint32_t)(f & (((uint64_t)1 << n->cfg.payload_w) - 1u)) : 0;
}

/* Leaf boundary registers (spec 7.3, 8.4), after the switches have read them. */
static void leaf_tick(lcan_net *n, const lcan_in *in)
{
    uint32_t q;
    for (q = 0; q < n->g.NP; q++) {
        int v = in->inj_valid != NULL && in->inj_valid[q] && in->inj_flit != NULL;
        if (n->cfg.mode == LCAN_PACKET) {
            int ready = n->inj_cr[q] > 0;
            int credit = n->bk_q[n->g.leaf_gp[q]];
            v = v && ready;
            n->inj_cr[q] = (uint16_t)(n->inj_cr[q] - (v ? 1 : 0) + credit);
        }
        n->inj[q] = v ? (LCAN_VALID | (in->inj_flit[q] & n->fmask)) : 0;
    }
}

/* leaf_tick in fast mode, for a network port q whose inj_valid is set: the same registers; the
 * injection register (the flit register of the level-1 input it feeds, flit_d[leaf_gp[q]], see
 * net_internal.h) is only written when valid (the level-1 switch reads it only when woken by it); the credits from the level-1 switches are added afterwards
 * with the others (lcan_net_tick). */
static inline void leaf_inject(lcan_net *n, const lcan_in *in, uint32_t q)
{
    if (n->inj_cr[q] > 0) {
        const lcan_fast_link *to = &n->out_to[n->g.n_port + q]; /* (as a send: net_packet.c send_flit) */
        n->inj_cr[q]--;
        n->flit_d[to->rx] = LCAN_VALID | (in->inj_flit[q] & n->fmask);
        n->bcast_in |= in->inj_flit[q] & n->bcast_m;
        to->arr[n->nxt] |= to->lbit;
        n->act_nxt[to->aw] |= to->abit;
    }
}

/* Every valid network port: from the caller's list when it gives one (lcan_in.inj_list: the
 * traffic driver knows them), else from a scan of inj_valid. */
static void leaf_fast(lcan_net *n, const lcan_in *in)
{
    const uint8_t *iv = in->inj_flit != NULL ? in->inj_valid : NULL;
    uint32_t base, NP = n->g.NP, k;
    if (iv == NULL)
        return;
    if (in->inj_list != NULL) {
        for (k = 0; k < in->n_inj; k++)
            leaf_inject(n, in, in->inj_list[k]);
        return;
    }
    for (base = 0; base < NP; base += 64) {
        uint64_t m = lcan_nonzero_bytes(iv + base, NP - base < 64 ? NP - base : 64);
        for (; m; m &= m - 1u)
            leaf_inject(n, in, base + (uint32_t)lcan_ctz64(m));
    }
}

static void write_outputs(const lcan_net *n, lcan_out *out)
{
    const lcan_geom *g = &n->g;
    uint32_t q;
    int l;
    if (out == NULL)
        return;
    if (n->fast) {
        /* every flit towards a leaf was written on this tick: port q's bit is set in ejb (the words
         * of parity cur, after the tick), its register is flit_q[n_port + q] (flit_q holds stale
         * values elsewhere) */
        uint32_t w;
        if (out->inj_ready) /* (every tick, by SIMD: cheaper than counting the ports at zero per credit) */
            lcan_nonzero_u16_flags(out->inj_ready, n->inj_cr, g->NP);
        if (out->inj_ack)
            memset(out->inj_ack, 0, g->NP);
        if (out->ej_valid)
            memset(out->ej_valid, 0, g->NP);
        if (out->ej_flit)
            memset(out->ej_flit, 0, g->NP * sizeof *out->ej_flit);
        for (w = 0; w < n->n_ejw; w++) {
            uint64_t m = n->ejb[2u * w + n->cur];
            for (; m; m &= m - 1u) {
                uint32_t qq = w * 64u + (uint32_t)lcan_ctz64(m);
                if (out->ej_valid)
                    out->ej_valid[qq] = 1;
                if (out->ej_flit)
                    out->ej_flit[qq] = n->flit_q[g->n_port + qq] & n->fmask;
            }
        }
    } else
    for (q = 0; q < g->NP; q++) {
        uint64_t f = n->flit_q[g->leaf_gp[q]];
        if (out->inj_ready)
            out->inj_ready[q] = (uint8_t)(n->cfg.mode == LCAN_CIRCUIT || n->inj_cr[q] > 0);
        if (out->inj_ack)
            out->inj_ack[q] = (uint8_t)(n->cfg.mode == LCAN_CIRCUIT && n->bk_q[g->leaf_gp[q]]);
        if (out->ej_valid)
            out->ej_valid[q] = (uint8_t)((f & LCAN_VALID) != 0);
        if (out->ej_flit)
            out->ej_flit[q] = f & n->fmask;
    }
    if (out->cnt_up || out->cnt_down || out->cnt_drop) /* (the traffic driver asks for none of them) */
        for (l = 1; l <= g->h; l++) {
            if (out->cnt_up)
                out->cnt_up[l - 1] = n->cnt_ud[l][1];
            if (out->cnt_down)
                out->cnt_down[l - 1] = n->cnt_ud[l][0];
            if (out->cnt_drop)
                out->cnt_drop[l - 1] = n->cnt_drop[l];
        }
}

/* The tick's state update (everything but the outputs); on a tick with faults n->pin_* and
 * n->faulty are set (faults_prepare). */
/* The wiring of switch (l, x) in the full-scan tick (spec 13.1): its inputs are the flit registers of
 * its neighbours (the injection registers at the leaves) and the ack-out / credit-out registers
 * behind its outputs, all before the tick; at the leaves the ack is ej_ack (circuit mode, spec 7.3;
 * NULL: none) and no credit comes back (packet mode, spec 8.2). The tick itself is sw.c's. */
static void switch_tick(lcan_net *n, int l, uint32_t x, const uint8_t *ej_ack)
{
    const lcan_geom *g = &n->g;
    int P = g->P[l], i;
    uint32_t pb = g->port_base[l] + x * (uint32_t)P;
    uint64_t rx[LCAN_MAX_PORTS];
    uint8_t back[LCAN_MAX_PORTS];
    lcan_sw_state st;
    lcan_sw_faults flt;
    const lcan_sw_faults *f;

    for (i = 0; i < P; i++) {
        uint32_t pr = g->peer[pb + (uint32_t)i];
        rx[i] = lcan_net_in_flit(n, pb + (uint32_t)i);
        back[i] = (uint8_t)((pr & LCAN_PEER_LEAF) ? (ej_ack != NULL && ej_ack[pr & ~LCAN_PEER_LEAF]) : n->bk_q[pr]);
    }
    lcan_net_sw_view(n, l, x, &st);
    f = n->faulty ? lcan_net_sw_faults(n, l, x, &flt) : NULL;
    if (n->cfg.mode == LCAN_CIRCUIT)
        lcan_sw_circuit_tick(&n->swk[l], g->hi[g->sw_base[l] + x], &st, rx, back, f, n->flit_d + pb, n->bk_d + pb);
    else
        lcan_sw_packet_tick(&n->swk[l], g->hi[g->sw_base[l] + x], &st, rx, back, f, n->flit_d + pb, n->bk_d + pb);
}

static inline void tick_state(lcan_net *n, const lcan_in *in)
{
    const lcan_geom *g = &n->g;
    int l;
    uint32_t x;
    void *tmp;

    if (in->rst) {
        do_reset(n, in->seed);
    } else if (in->clear && n->cfg.mode == LCAN_CIRCUIT) {
        for (l = 1; l <= g->h; l++) /* every switch's clear tick (sw.c) */
            for (x = 0; x < g->S[l]; x++) {
                uint32_t pb = g->port_base[l] + x * (uint32_t)g->P[l];
                lcan_sw_state st;
                lcan_net_sw_view(n, l, x, &st);
                lcan_sw_clear(&n->swk[l], &st, n->flit_d + pb, n->bk_d + pb);
            }
        leaf_tick(n, in);
        tmp = n->flit_q; n->flit_q = n->flit_d; n->flit_d = tmp;
        tmp = n->bk_q; n->bk_q = n->bk_d; n->bk_d = tmp;
    } else if (n->fast) {
        uint32_t *t32, k;
        uint64_t *t64;
        for (k = 0; k < n->n_ejw; k++) /* this tick's ejections (the words still hold the tick before last's) */
            n->ejb[2u * k + n->nxt] = 0;
        if (n->faulty)
            lcan_net_packet_switches_faulty(n);
        else
            lcan_net_packet_switches(n);
        leaf_fast(n, in);
        { /* credits arriving this tick (spec 8.3 step 6, 8.4): the counters only (a switch reads
           * which outputs hold credits from them at its visit); the network's fields in locals, as
           * the stores would otherwise make the compiler reload them on every credit */
            const uint32_t *crl = n->crl_cur, ncrl = n->n_crl_cur;
            uint16_t *cr = n->cr;
            for (k = 0; k < ncrl; k++)
                cr[crl[k]]++;
        }
        tmp = n->flit_q; n->flit_q = n->flit_d; n->flit_d = tmp;
        n->cur ^= 1u;
        n->nxt ^= 1u;
        n->n_crl_cur = (uint32_t)(n->crl_end - n->crl_nxt);
        t32 = n->crl_cur; n->crl_cur = n->crl_nxt; n->crl_nxt = t32;
        n->crl_end = n->crl_nxt;
        t64 = n->act_cur; n->act_cur = n->act_nxt; n->act_nxt = t64; /* (act_cur was cleared by the visits) */
    } else {
        for (l = 1; l <= g->h; l++)
            for (x = 0; x < g->S[l]; x++)
                switch_tick(n, l, x, n->cfg.mode == LCAN_CIRCUIT ? in->ej_ack : NULL);
        leaf_tick(n, in);
        tmp = n->flit_q; n->flit_q = n->flit_d; n->flit_d = tmp;
        tmp = n->bk_q; n->bk_q = n->bk_d; n->bk_d = tmp;
    }
}

/* A tick with fault pins or reach rows (spec 14): everything that can fail is prepared before the
 * tick changes any state; a row written on this tick is used from the next one (spec 14.2). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static lcan_status tick_faults(lcan_net *n, const lcan_in *in, lcan_out *out)
{
    int write = 0;
    lcan_status st = faults_prepare(n, in, &write);
    if (st != LCAN_OK)
        return st;
    tick_state(n, in);
    if (write)
        row_write(n, in->cfg_addr, in->cfg_row);
    n->faulty = 0;
    n->pin_link = n->pin_sw = NULL;
    write_outputs(n, out);
    return LCAN_OK;
}

lcan_status lcan_net_tick(lcan_net *n, const lcan_in *in, lcan_out *out)
{
    if (n == NULL || in == NULL)
        return LCAN_ERR_ARG;
    if (in->link_off != NULL || in->sw_off != NULL || in->cfg_we || n->n_rows_set != 0)
        return tick_faults(n, in, out);
    tick_state(n, in);
    write_outputs(n, out);
    return LCAN_OK;
}

uint8_t lcan_net_debug(const lcan_net *n, int level, uint32_t index, int port)
{
    uint32_t gp;
    if (n == NULL || level < 1 || level > n->g.h || index >= n->g.S[level] || port < 0 || port >= n->g.P[level])
        return 0;
    gp = n->g.port_base[level] + index * (uint32_t)n->g.P[level] + (uint32_t)port;
    if (n->cfg.mode == LCAN_CIRCUIT)
        return (uint8_t)((n->set[gp] ? 0x80u : 0u) | (n->src[gp] & 0x7Fu));
    return (uint8_t)(n->cr[gp] & 0xFFu);
}

int lcan_net_flood_q_min(const lcan_topo *t)
{
    int l, m = 1;
    for (l = 1; t != NULL && l <= lcan_topo_levels(t); l++)
        if (lcan_topo_m(t, l) > m)
            m = lcan_topo_m(t, l);
    return m;
}

uint8_t lcan_net_flood_q(const lcan_net *n, int level, uint32_t index, int port)
{
    if (n == NULL || n->fq_count == NULL || level < 1 || level > n->g.h || index >= n->g.S[level] || port < 0 ||
        port >= n->g.P[level])
        return 0;
    return n->fq_count[n->g.port_base[level] + index * (uint32_t)n->g.P[level] + (uint32_t)port];
}

size_t lcan_net_debug_dump(const lcan_net *n, uint8_t *buf, size_t len)
{
    size_t np, total, b;
    if (n == NULL)
        return 0;
    np = n->g.n_port; /* spec 9 order = global port order */
    total = n->fq_count != NULL ? 2 * np : np; /* the second block: q_o (spec 8.7, 9) */
    if (buf == NULL)
        return total;
    for (b = 0; b < np && b < len; b++) {
        if (n->cfg.mode == LCAN_CIRCUIT)
            buf[b] = (uint8_t)((n->set[b] ? 0x80u : 0u) | (n->src[b] & 0x7Fu));
        else
            buf[b] = (uint8_t)(n->cr[b] & 0xFFu);
    }
    for (b = np; b < total && b < len; b++)
        buf[b] = n->fq_count[b - np];
    return total;
}

lcan_status lcan_net_engine_tick(void *engine, const lcan_in *in, lcan_out *out)
{
    return lcan_net_tick((lcan_net *)engine, in, out);
}
