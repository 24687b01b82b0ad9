/*
 * sw.h - one switch's tick (spec 4-9, 14.3), internal: the switch unit of include/lcan_switch.h
 * (switch.c) and the network's full-scan tick (net.c) run the same functions here; the event-driven
 * router (route_fast.c) runs the same circuit header step, and the network's event-driven packet
 * tick (net_packet.c) the same offsets, up order and reach rows.
 *
 * A switch is described by its constants (lcan_sw_k: what a level of a network or one lcan_sw_cfg
 * gives) and its label (the packed address of its digits a_h..a_{l+1}); its state is a view
 * (lcan_sw_state: pointers), so that the unit owns its arrays and the network keeps its switches'
 * state in its own per-port arrays, shared with the event-driven packet tick.
 * Flits are held as in net_internal.h: the FW bits, plus LCAN_SW_VALID (bit 63) when valid; 0 when
 * invalid (spec 3).
 */
#ifndef LCAN_SW_H
#define LCAN_SW_H

#include "alloc.h"
#include "lcan.h"
#include "lfsr.h"

#define LCAN_SW_VALID ((uint64_t)1 << 63)

/* Classes of a unicast (spec 4): UP, DOWN(x) = x >= 0, or no port at all (digit >= m_l). */
#define LCAN_CLASS_UP   (-1)
#define LCAN_CLASS_DROP (-2)

/* The constants of one switch's tick. */
typedef struct {
    int P, D, U, p, m;        /* local ports, downers, uppers, p_l, m_l */
    int top;                  /* no uppers (U = 0, l = h): every unicast turns (spec 4) */
    int leaf;                 /* level 1: the downers face leaves and hold no credits (spec 8.2) */
    int mode, depth, up_choice;
    int flood_q;              /* FLOOD_Q in packet mode, 0 in circuit mode (spec 8.7: ignored there) */
    int off, bits;            /* digit l: (dest >> off) & (2^bits - 1) (spec 2.1) */
    uint32_t hi_mask;         /* packed-address bits of the digits l+1..h */
    uint32_t in_mask, up_mask, dn_mask; /* 2^clog2(n) - 1 for n = P, U, p (spec 5) */
    int sh_dest, sh_bcast, sh_head; /* flit fields (spec 3) */
    uint64_t bcast_m;         /* the bcast bit as the switch decodes it: 1 << sh_bcast in packet mode, 0
                                 in circuit mode (spec 3) and with UNICAST_ONLY (spec 8.8: every
                                 candidate a unicast); f & bcast_m != 0: a broadcast */
    uint32_t amask;           /* 2^ADDR_W - 1 */
    uint64_t fmask;           /* the FW bits */
} lcan_sw_k;

/* UNICAST_ONLY's rules (spec 8.8): 0 or 1, and 1 only with FLOOD_Q 0 (in either mode; flood queues
 * serve flooding broadcasts only). lcan_net_new and lcan_sw_new refuse others with LCAN_ERR_PARAM. */
static inline int lcan_sw_unicast_only_ok(const lcan_cfg *c)
{
    return c->unicast_only == 0 || (c->unicast_only == 1 && c->flood_q == 0);
}

/* Fills k for a switch of level `level` with the given shape; flit fields from addr_w and cfg. */
void lcan_sw_k_init(lcan_sw_k *k, int level, int m, int p_dn, int u, int addr_w, int dig_off, int dig_w,
                    const lcan_cfg *cfg);

/* A view of one switch's state (spec 7.1, 8.1), P entries per array. Counters are added to (the
 * network points every switch of a level at the level's sums, spec 9).
 * Flood queues (packet mode with FLOOD_Q > 0, spec 8.7; NULL otherwise): the outputs that own one
 * are parallel link 0 of every child (x * p, 0 <= x < m) and, below the top, upper D; queue j
 * (j = x for output x * p, j = m for upper D) holds its FLOOD_Q slots at fq[j * FLOOD_Q ..], a ring
 * from fq_head[o]; fq_count[o] is q_o (0 on outputs without a queue). */
typedef struct {
    uint32_t *lfsr;
    uint8_t *set, *src;             /* circuit mode */
    uint16_t *cr;                   /* packet mode */
    uint64_t *fifo;                 /* packet mode: P * depth slots, input i at i * depth */
    uint16_t *fhead, *fcount;
    lcan_pset *served;
    uint64_t *fq;                   /* FLOOD_Q > 0: lcan_sw_fq_queues(k) * FLOOD_Q slots */
    uint8_t *fq_head, *fq_count;    /* FLOOD_Q > 0: P entries, indexed by output */
    uint32_t *cnt_up, *cnt_down, *cnt_drop;
} lcan_sw_state;

/* The number of flood queues of a switch (spec 8.7): one per child, one more below the top. */
static inline int lcan_sw_fq_queues(const lcan_sw_k *k) { return k->m + !k->top; }

/* Faults seen by one switch on one tick (spec 14.1-14.3). off: its local ports that are off;
 * rows: its U reach rows, rww words each, stored inverted (bit a = 1: bit a of the row is 0, so
 * that all-ones rows are zero pages); NULL = all ones. */
typedef struct {
    lcan_pset off;
    const uint64_t *rows;
    uint32_t rww;
} lcan_sw_faults;

/* up_order: NULL = class UP scans cyclically from D + r_up (UP_CHOICE = rotate, or U <= 2 where
 * sigma = [r_up, 1 - r_up] gives the same scan, spec 5); else the U local ports D + sigma[k]. */
typedef struct { int r_in, r_up, r_dn; const uint8_t *up_order; } lcan_offsets;

/* Offsets from the LFSR value s before its step (spec 5), for UP_CHOICE = rotate. */
static inline lcan_offsets lcan_sw_offsets(const lcan_sw_k *k, uint32_t s)
{
    lcan_offsets o;
    o.r_in = lcan_lfsr_offset(s & 0xFFu, k->in_mask, k->P);
    o.r_up = lcan_lfsr_offset((s >> 8) & 0xFFu, k->up_mask, k->U);
    o.r_dn = lcan_lfsr_offset((s >> 16) & 0xFFu, k->dn_mask, k->p);
    o.up_order = NULL;
    return o;
}

/* Class UP's scan order under UP_CHOICE = uniform from sigma's bit stream z (lfsr.h):
 * buf[j] = D + sigma[j], j < U (spec 5-6). */
static inline const uint8_t *lcan_sw_up_order_z(const lcan_sw_k *k, uint32_t z, uint8_t *buf)
{
    int j;
    lcan_lfsr_up_perm_z(z, k->U, buf);
    for (j = 0; j < k->U; j++)
        buf[j] = (uint8_t)(k->D + buf[j]);
    return buf;
}

/* The same from the LFSR value s before its step. */
static inline const uint8_t *lcan_sw_up_order(const lcan_sw_k *k, uint32_t s, uint8_t *buf)
{
    return lcan_sw_up_order_z(k, lcan_lfsr_up_z(s), buf);
}

/* The offsets for the switch's UP_CHOICE; buf: LCAN_MAX_PORTS bytes that hold the up order when
 * one is needed (uniform and U >= 3). */
static inline lcan_offsets lcan_sw_offsets_uc(const lcan_sw_k *k, uint32_t s, uint8_t *buf)
{
    lcan_offsets o = lcan_sw_offsets(k, s);
    if (k->up_choice == LCAN_UP_UNIFORM && k->U >= 3)
        o.up_order = lcan_sw_up_order(k, s, buf);
    return o;
}

/* Routing decision of spec 4 for a unicast with packed destination dest that arrived on local
 * port i of a switch with label `label` (only its digits l+1..h are compared). */
static inline int lcan_sw_route(const lcan_sw_k *k, uint32_t label, int i, uint32_t dest)
{
    uint32_t x;
    if (i < k->D && !k->top && (dest & k->hi_mask) != (label & k->hi_mask))
        return LCAN_CLASS_UP;
    x = (dest >> k->off) & ((1u << k->bits) - 1u);
    return x < (uint32_t)k->m ? (int)x : LCAN_CLASS_DROP;
}

/* Bit dest of reach row j of f (1 when f holds no rows). */
static inline int lcan_sw_reach(const lcan_sw_faults *f, int j, uint32_t dest)
{
    return f->rows == NULL || !((f->rows[(size_t)j * f->rww + (dest >> 6)] >> (dest & 63u)) & 1u);
}

/* The masking of spec 14.3 (f may be NULL: no faults): the off ports leave want; for class UP
 * (up != 0) also every upper j whose reach row has bit dest = 0. */
static inline void lcan_sw_mask_want(const lcan_sw_k *k, const lcan_sw_faults *f, int up, uint32_t dest,
                                     lcan_pset *want)
{
    int j;
    if (f == NULL)
        return;
    want->w[0] &= ~f->off.w[0];
    want->w[1] &= ~f->off.w[1];
    if (up && f->rows != NULL)
        for (j = 0; j < k->U; j++)
            if (!lcan_sw_reach(f, j, dest)) {
                int o = k->D + j;
                want->w[o >> 6] &= ~((uint64_t)1 << (o & 63));
            }
}

/* Request of a unicast of class cls (LCAN_CLASS_UP or DOWN(x) = x >= 0); a dropped class
 * (LCAN_CLASS_DROP) gives a valid ONE request with an empty want set (spec 4, 6). */
static inline void lcan_sw_unicast_req(const lcan_sw_k *k, int cls, const lcan_offsets *off, lcan_req *r)
{
    r->valid = 1;
    r->kind = LCAN_REQ_ONE;
    r->order = NULL;
    r->n_order = 0;
    if (cls == LCAN_CLASS_UP) {
        r->want = lcan_pset_range(k->D, k->P);
        r->start = k->D + off->r_up;
        r->order = off->up_order;
        r->n_order = k->U;
    } else if (cls >= 0) {
        r->want = lcan_pset_range(cls * k->p, (cls + 1) * k->p);
        r->start = cls * k->p + off->r_dn;
    } else {
        lcan_pset_clear(&r->want);
        r->start = 0;
    }
}

/* Circuit mode, the header step (spec 7.2 step 3, first bullet): hv[i] != 0 when input i carries a
 * valid header with destination hdest[i]. set[o]: the set bits before the tick (avail = not set
 * and not off). flt: the switch's faults this tick (NULL = none): want sets masked as spec 14.3
 * says; a header whose masked want is empty still requests (the LFSR steps) and gets no grant.
 * Writes out[i] = the granted output, or -1 (no header, or dropped). Steps *lfsr iff a header was
 * present. Returns the number of headers. set is not modified. */
int lcan_sw_circuit_headers_any(const lcan_sw_k *k, uint32_t label, uint32_t *lfsr, const uint8_t *hv,
                                const uint32_t *hdest, const uint8_t *set, const lcan_sw_faults *flt, int *out);

/* The header step for P <= 64 on port masks (lcan_alloc64): the same requests as
 * lcan_sw_circuit_headers_any, which tests/test_switch.c drives with P > 64. Inline, so that a
 * caller without faults (flt = NULL) drops their code. */
static inline int lcan_sw_circuit_headers64(const lcan_sw_k *k, uint32_t label, uint32_t *lfsr, const uint8_t *hv,
                                            const uint32_t *hdest, const uint8_t *set, const lcan_sw_faults *flt,
                                            int *out)
{
    uint8_t order[64];
    uint64_t want[64], grant[64], reqm = 0, upm = 0, avail = 0, offm = flt != NULL ? flt->off.w[0] : 0;
    uint64_t up_want = lcan_low_mask(k->P) & ~lcan_low_mask(k->D), dn_unit = lcan_low_mask(k->p);
    int start[64];
    int P = k->P, i, n = 0, uorder = k->up_choice == LCAN_UP_UNIFORM && k->U >= 3;
    uint32_t s = *lfsr;
    int r_up = lcan_lfsr_offset((s >> 8) & 0xFFu, k->up_mask, k->U), r_dn = lcan_lfsr_offset((s >> 16) & 0xFFu, k->dn_mask, k->p);

    for (i = 0; i < P; i++) { /* the requests (spec 4, 6, 14.3) */
        int cls;
        avail |= (uint64_t)(set[i] == 0) << i;
        if (!hv[i])
            continue;
        n++;
        reqm |= (uint64_t)1 << i;
        cls = lcan_sw_route(k, label, i, hdest[i]);
        if (cls == LCAN_CLASS_UP) {
            int j;
            want[i] = up_want;
            start[i] = k->D + r_up;
            upm |= (uint64_t)1 << i;
            if (flt != NULL && flt->rows != NULL)
                for (j = 0; j < k->U; j++)
                    if (!lcan_sw_reach(flt, j, hdest[i]))
                        want[i] &= ~((uint64_t)1 << (k->D + j));
        } else if (cls >= 0) {
            want[i] = dn_unit << (cls * k->p);
            start[i] = cls * k->p + r_dn;
        } else {
            want[i] = 0;
            start[i] = 0;
        }
        want[i] &= ~offm;
    }
    if (n == 0) {
        for (i = 0; i < P; i++)
            out[i] = -1;
        return 0;
    }
    if (upm && uorder) /* sigma only when some header climbs */
        lcan_sw_up_order(k, s, order);
    lcan_alloc64(P, lcan_lfsr_offset(s & 0xFFu, k->in_mask, P), reqm, 0, uorder ? upm : 0, want, start, order, k->U,
                 avail & ~offm, grant);
    for (i = 0; i < P; i++)
        out[i] = ((reqm >> i) & 1u) && grant[i] ? lcan_ctz64(grant[i]) : -1;
    *lfsr = lcan_lfsr_step(s);
    return n;
}

static inline int lcan_sw_circuit_headers(const lcan_sw_k *k, uint32_t label, uint32_t *lfsr, const uint8_t *hv,
                                          const uint32_t *hdest, const uint8_t *set, const lcan_sw_faults *flt,
                                          int *out)
{
    if (k->P <= 64)
        return lcan_sw_circuit_headers64(k, label, lfsr, hv, hdest, set, flt, out);
    return lcan_sw_circuit_headers_any(k, label, lfsr, hv, hdest, set, flt, out);
}

/* A reset tick (spec 7.2 step 1, 8.3 step 1, 8.7 step 1): the LFSR loads lfsr0 (spec 5's value),
 * every other register and counter 0, cr = DEPTH (0 on level-1 downers), flood queues empty.
 * tx[P], ret[P]: the output flit and ack/credit-out registers after the tick. The reach rows are
 * the caller's (spec 14.2). */
void lcan_sw_reset(const lcan_sw_k *k, const lcan_sw_state *st, uint32_t lfsr0, uint64_t *tx, uint8_t *ret);

/* A clear tick in circuit mode (spec 7.2 step 2): set, src, flit and ack registers 0. */
void lcan_sw_clear(const lcan_sw_k *k, const lcan_sw_state *st, uint64_t *tx, uint8_t *ret);

/* One tick that is neither reset nor (circuit mode) clear: spec 7.2 step 3 (circuit) or 8.3 steps
 * 2-6 (packet; with FLOOD_Q > 0 also the flood queues of 8.7; with UNICAST_ONLY every candidate a
 * unicast, 8.8). rx[i]: the flit arriving on input i (LCAN_SW_VALID when valid); tx_ret[o]: the
 * ack (circuit) / credit (packet) arriving back on output o; flt: faults (NULL = none). Writes
 * every output register: tx[o] (the flit register of output o) and ret[i] (ack- / credit-out of
 * input i); may be the network's arrays. */
void lcan_sw_circuit_tick(const lcan_sw_k *k, uint32_t label, const lcan_sw_state *st, const uint64_t *rx,
                          const uint8_t *tx_ret, const lcan_sw_faults *flt, uint64_t *tx, uint8_t *ret);
void lcan_sw_packet_tick(const lcan_sw_k *k, uint32_t label, const lcan_sw_state *st, const uint64_t *rx,
                         const uint8_t *tx_ret, const lcan_sw_faults *flt, uint64_t *tx, uint8_t *ret);

/* Debug byte of output o (spec 9): circuit {set_o, src_o[6:0]}, packet cr_o (0 on level-1 downers,
 * whose cr is kept 0). */
static inline uint8_t lcan_sw_dbg(const lcan_sw_k *k, const lcan_sw_state *st, int o)
{
    if (k->mode == LCAN_CIRCUIT)
        return (uint8_t)((st->set[o] ? 0x80u : 0u) | (st->src[o] & 0x7Fu));
    return (uint8_t)(st->cr[o] & 0xFFu);
}

/* Debug byte of output o in the second block (spec 9, packet mode with FLOOD_Q > 0): q_o, 0 for an
 * output without a flood queue (and whenever FLOOD_Q = 0). */
static inline uint8_t lcan_sw_dbg_q(const lcan_sw_k *k, const lcan_sw_state *st, int o)
{
    return k->flood_q > 0 ? st->fq_count[o] : 0;
}

#endif
