/*
 * net_internal.h - the state of a network (struct lcan_net) shared by net.c and
 * net_packet.c (internal).
 *
 * Registers that another switch reads (output flit registers, ack/credit-out registers) are double
 * buffered: a tick reads *_q (the value before the tick) and writes *_d; net.c swaps them at the end.
 * Everything else (set/src, cr, FIFOs, served, LFSR) is read and written only by its own switch.
 * Flits are stored with LCAN_VALID (bit 63) set when valid; 0 means invalid (spec 3).
 *
 * The network is wiring around its switches (spec 13.1): the full-scan tick runs every switch through
 * the tick of sw.c (the switch unit's, include/lcan_switch.h), on a view of that switch's state
 * (lcan_net_sw_view) in the per-port arrays below, its inputs gathered from the neighbours' output
 * registers of the tick before (*_q) and its outputs written into *_d. The event-driven packet tick
 * (fast mode) works on the same arrays.
 */
#ifndef LCAN_NET_INTERNAL_H
#define LCAN_NET_INTERNAL_H

#include <string.h>

#include "alloc.h"
#include "geom.h"
#include "lcan.h"
#include "sw.h"

#define LCAN_VALID LCAN_SW_VALID

/* Fast mode: the constants of a level-l switch's tick (spec 4-6, 8.3) as 64-bit masks, made from
 * swk[l] (net.c fast_alloc). */
typedef struct {
    int l;                         /* the level */
    int P, D, p, m, top;           /* top: l == h (no uppers, nothing goes up) */
    uint32_t hi_mask, dmask, off;  /* route decision: digits above l, digit l = (dest >> off) & dmask */
    uint32_t xsh;                  /* the same on a flit f, without its dest first: digit l = (f >> xsh) &
                                      dmask (xsh = sh_dest + off), the digits above l f & hi_f */
    uint64_t hi_f;                 /* (hi_mask << sh_dest) */
    uint32_t in_mask, up_mask, dn_mask;
    int U;
    int uorder;                    /* class UP scans D + sigma[k] (UP_CHOICE = uniform and U >= 3) */
    uint8_t *up_tab;               /* uorder and sigma reads at most LCAN_UP_TAB_BITS bits of z (lfsr.h):
                                      the order D + sigma[k] for every value of those bits, U bytes
                                      each (row z & up_key); NULL: computed on every step */
    uint32_t up_key;
    uint8_t *up_gr;                /* with up_tab, U <= LCAN_UP_GR_MAX and up_key < 2^8: class UP's
                                      grant, D + sigma[k] for the first k whose upper is free, by row
                                      and free uppers (entry (z & up_key) << U | free >> D; 0xFF: none) */
    uint64_t pmask;                /* ports 0..P-1 */
    uint64_t up_want;              /* the uppers D..P-1 */
    uint64_t dn_unit;              /* (1 << p) - 1: down class c wants dn_unit << c*p */
    uint64_t bc_full;              /* a descending broadcast: parallel link 0 of every child */
    uint64_t up_in;                /* the inputs whose unicasts may climb: 0..D-1 below the top */
    uint8_t r_in[256], st_up[256], r_dn[256]; /* spec 5's offsets by LFSR byte: r_in from s[7:0],
                                      D + r_up from s[15:8], r_dn from s[23:16] */
    uint64_t want_t[65];           /* a unicast's want set by class: DOWN(x) at x < m, UP at m */
    uint8_t base_t[65];            /* its class start less the offset: x * p, 0 for UP (st_up holds D) */
    uint8_t cyc_t[65];             /* 1: the class's cyclic scan from its start can pick another output
                                      than the lowest free one (DOWN with p > 1, UP with U > 1 outside
                                      sigma's order) */
    uint32_t *cnt_o[64];           /* the counter a send on output o adds to: cnt_ud[l][o >= D] */
    /* The same by request key x | up << 6 (digit l, x < 64, and the up decision of spec 4), so that
     * a candidate's class is not computed from them: want_k is 0 for an invalid digit (x >= m, not
     * going up), the only key with nothing to want; every key with up set is class UP. */
    uint64_t want_k[128];
    uint8_t base_k[128], cyc_k[128];
} lcan_fast_level;

/* The largest up_tab: 2^12 rows (U <= 5; kary(4,n)'s U = 4 reads 7 bits, 128 rows of 4 bytes). */
#define LCAN_UP_TAB_BITS 12
/* up_gr for U <= 4: at most 2^12 rows of 16 bytes (kary(4,n): 128 rows, 2 KB). */
#define LCAN_UP_GR_MAX 4

/* The event state and constants of one switch (and of the leaves' dummy switch), together so that
 * a visit finds them at one address (64 bytes); the level's constants by pointer (an address, not
 * a multiply by the size of lcan_fast_level on every visit). */
typedef struct {
    uint64_t arr[2];   /* inputs with a flit arriving: arr[n->cur] on this tick, arr[n->cur ^ 1] on the
                          next (written by the senders) */
    uint64_t fifo_m;   /* inputs whose FIFO is not empty */
    uint64_t leafm;    /* the outputs facing leaves (level-1 downers): no credits, always available
                          (spec 8.2); the others are available when their cr > 0, which a visit reads
                          from the counters (net_packet.c avail_of) rather than keep a mask a send
                          and a credit would both update */
    uint32_t lfsr;     /* the switch's LFSR (n->lfsr[sw] is the full-scan tick's: copied at the reset) */
    uint32_t spare;
    uint32_t pb, hi;   /* first global port; the switch's digits a_{l+1..h} (geom hi) */
    const lcan_fast_level *lv; /* its level's constants, n->lv[l] (NULL for the dummy switch) */
    uint64_t hi_f;     /* hi << sh_dest: a unicast at this switch goes up when f & lv->hi_f != hi_f */
} lcan_fast_sw;

typedef struct { /* 32 bytes: indexed by a shift; a send reads it whole, so everything it writes is
                    addressed from here without a multiply (the switch record, its activity word) */
    uint64_t *arr;   /* the arrival masks (lcan_fast_sw.arr) of the switch fed by the output; at a
                        leaf port q the ejection masks of its 64 ports (lcan_net.ejb + 2 (q / 64)) */
    uint64_t lbit;   /* the receiving input's bit in them: 1 << its local port (1 << q % 64 at a leaf) */
    uint64_t abit;   /* that switch's bit in word aw of the activity bitmap; 0 at a leaf, so a send
                        wakes without a branch on it */
    uint32_t rx;     /* the flit register it writes (the receiving input's global port, n_port + q
                        towards leaf port q) */
    uint16_t aw;     /* sw / 64 (0 at a leaf; fast mode needs n_sw < 2^22) */
    uint8_t leaf, cred; /* 1 at a leaf; 1 - leaf: the output holds credits (the level-1 downers do
                           not, spec 8.2) */
} lcan_fast_link;

struct lcan_net {
    lcan_geom g;
    lcan_cfg cfg;
    int fw;                 /* FW = 2 + ADDR_W + PAYLOAD_W */
    uint64_t fmask;         /* low FW bits */
    int sh_dest, sh_bcast, sh_head;
    uint64_t bcast_m;       /* the bcast bit as the switches decode it (sw.h): 1 << sh_bcast in packet
                               mode, 0 in circuit mode and with UNICAST_ONLY (spec 8.8) */
    uint32_t amask;         /* 2^ADDR_W - 1: a flit's dest field is (f >> sh_dest) & amask */
    uint32_t *lfsr;         /* per switch */
    uint64_t *flit_q, *flit_d;   /* per global port: output flit register (+ NP: see fast mode) */
    uint8_t *bk_q, *bk_d;        /* per global port: ack-out (circuit) / credit-out (packet) of the input */
    uint8_t *set, *src;          /* circuit: per output */
    uint16_t *cr;                /* packet: per output, then inj_cr */
    uint64_t *fifo;              /* packet: per input, DEPTH slots */
    uint16_t *fhead, *fcount;
    lcan_pset *served;
    uint64_t *fq;                /* packet, FLOOD_Q > 0: flood queue slots (spec 8.7), switch (l, x) at
                                    fq_base[l] + x * lcan_sw_fq_queues(swk[l]) * FLOOD_Q (sw.h) */
    uint8_t *fq_head, *fq_count; /* packet, FLOOD_Q > 0: per output (q_o = fq_count) */
    size_t fq_base[LCAN_MAX_LEVELS + 2];
    uint64_t *inj;               /* per network port: injection register */
    uint16_t *inj_cr;            /* packet: per network port (= cr + n_port, one allocation) */
    uint32_t cnt_ud[LCAN_MAX_LEVELS + 1][2]; /* per level: [0] cnt_down, [1] cnt_up (spec 9): a send counts
                                                in cnt_ud[l][o >= D], one add */
    uint32_t cnt_drop[LCAN_MAX_LEVELS + 1];

    /* Packet mode, every P_l <= 64 and FLOOD_Q = 0 (fast = 1): event-driven tick, same behaviour (net_packet.c).
     * Only switches with an arriving flit or a non-empty FIFO are visited; the per-switch 64-bit
     * masks say which local ports (lcan_fast_sw). *_cur is read this tick, *_nxt written by the
     * senders for the next one (swapped with the flit registers; the arrival masks by cur / nxt).
     * In this mode the flit registers are indexed by their receiver, not their sender: flit_q[gp]
     * is the flit arriving on global input gp (written by the switch or network port feeding it;
     * inj is the full-scan tick's), flit_q[n_port + q] the one leaving towards leaf port q (ej);
     * so a switch reads an arriving flit at its own port, without looking its sender up. They
     * hold a valid flit only where a mask says one was written on the tick (arr, ejb):
     * nothing else reads them, so they are never cleared, and bk_q / bk_d are not used (credits
     * travel in crl).
     * Senders are numbered 0..n_port+NP-1: the global output ports, then the network ports, whose
     * credit counter is cr[n_port + q] = inj_cr[q]; so a switch returns an input's credit the same
     * way whether it faces a leaf or a switch, without a branch (random traffic makes such branches
     * mispredict: they, not instructions, bound the speed). Index n_sw is a dummy switch that the
     * leaves "belong" to, never visited. */
    int fast;
    int plain;                   /* every level's unicast grant is the lowest free wanted output, or
                                    class UP's by up_gr: no class scans cyclically from a start (every
                                    cyc_k 0), each level is the top or has up_gr, and P <= 8 (kary(3,n)
                                    and kary(4,n) under UP_CHOICE = uniform); net_packet.c has a copy of
                                    the tick for it, run while bcast_in is 0 (every candidate a unicast) */
    lcan_fast_level lv[LCAN_MAX_LEVELS + 2];
    lcan_fast_sw *swd;           /* per switch (+ dummy) */
    unsigned cur, nxt;           /* which of lcan_fast_sw.arr is this tick's, and the next tick's
                                    (nxt = cur ^ 1; both flip every tick) */
    lcan_fast_link *out_to;      /* per sender: where its output goes (a network port q, n_port + q: to
                                    its level-1 input, leaf_gp[q]) */
    uint32_t *in_src;            /* per global port: the sender feeding its input */
    uint32_t *port_sw;           /* per sender: owning switch (n_sw for a network port) */
    uint8_t *port_loc;           /* per sender: local port index (0 for a network port) */
    uint64_t *act_cur, *act_nxt; /* the switches to visit on this tick, and on the next one, as
                                    bitmaps (n_actw words; bit sw % 64 of word sw / 64): a wake is one
                                    OR, without a test of "listed already", and the visits run in
                                    switch order (which cannot matter: a visit reads only its own
                                    state and the registers of the tick before) */
    uint32_t n_actw;
    uint32_t *crl_cur, *crl_nxt; /* senders receiving a credit this / next tick: applied after every
                                    switch and the leaves have run (spec 8.3 step 6), without a visit */
    uint32_t n_crl_cur, *crl_end; /* crl_end: where the next credit goes in crl_nxt (a pointer, not a
                                     count: a uint32_t store cannot change it, so it stays in a register) */
    uint64_t *ejb;               /* the network ports q whose level-1 downer output was written (ej),
                                    a pair of words per 64 ports: bit q % 64 of ejb[2 (q / 64) + nxt] on
                                    the tick (a send sets it as it sets a switch's arrival bit: the
                                    link record points here), read as [.. + cur] by write_outputs
                                    after the tick; the tick clears its nxt words first */
    uint32_t n_ejw;              /* words per parity: ceil(NP / 64) */
    uint64_t bcast_in;           /* != 0: a broadcast was injected since the reset (the bcast bits of
                                    the injected flits under bcast_m, so never with UNICAST_ONLY):
                                    every flit enters at a leaf (leaf_fast), so without one no
                                    candidate is a broadcast */

    /* Faults (spec 14). Nothing here is allocated until a tick brings a fault pin or a row write,
     * so a network never given faults costs nothing and runs as before.
     * pin_link / pin_sw: this tick's link_off / sw_off (NULL = none), set for the tick only.
     * faulty: this tick must mask want sets (a pin is given, or some row is not all ones).
     * f_link[gp]: the link of global port gp (LK_OFF(l) + x*D_l + o of the downer that carries it);
     * f_far[gp]: the global switch id at its far end, LCAN_NO_SW for a leaf (built on the first
     * tick with an off pin). rows: the NR reach rows (RWW words each, row r at r * RWW) stored
     * inverted (bit a = 1: bit a of the row is 0), NULL while every row is all ones (allocated on
     * the first write of another value, freed by reset); n_rows_set counts the rows that are not
     * all ones, so the rows are all ones exactly when it is 0. */
    const uint8_t *pin_link, *pin_sw;
    int faulty;
    uint32_t *f_link, *f_far;
    uint64_t *rows;
    uint64_t n_rows_set;
    uint32_t rww;                /* words per row: ceil(RW / 64), RW = 2^ADDR_W */
    uint64_t nr;                 /* NR (lcan_faults.h) */
    uint64_t row_off[LCAN_MAX_LEVELS + 2], lk_off[LCAN_MAX_LEVELS + 2];

    lcan_sw_k swk[LCAN_MAX_LEVELS + 2]; /* per level: the switch constants (sw.h) */
};

#define LCAN_NO_SW 0xFFFFFFFFu

/* Fast mode: mark switch sw active on the next tick if c != 0 (without a branch: whether a switch
 * stays active is as random as the traffic). */
static inline void lcan_net_wake_if(struct lcan_net *n, uint32_t sw, int c)
{
    n->act_nxt[sw >> 6] |= (uint64_t)(c != 0) << (sw & 63u);
}

/* Dest field of a stored flit. */
static inline uint32_t lcan_net_dest(const struct lcan_net *n, uint64_t f)
{
    return (uint32_t)(f >> n->sh_dest) & n->amask;
}

/* The flit arriving this tick on input j of a switch whose port block starts at pb. */
static inline uint64_t lcan_net_in_flit(const struct lcan_net *n, uint32_t gp)
{
    uint32_t pr = n->g.peer[gp];
    return (pr & LCAN_PEER_LEAF) ? n->inj[pr & ~LCAN_PEER_LEAF] : n->flit_q[pr];
}

/* Faults seen by switch (l, x) on this tick (spec 14.1-14.3): fills *f and returns it, or returns
 * NULL when the tick has no faults to apply (n->faulty = 0). */
const lcan_sw_faults *lcan_net_sw_faults(const struct lcan_net *n, int l, uint32_t x, lcan_sw_faults *f);

/* The state of switch (l, x) as a view into the network's arrays (sw.h); its counters are the
 * level's sums (spec 9). Every field is assigned (the arrays of the other mode are NULL): a memset
 * of the view, compiled to `rep stos` once the struct outgrew 88 bytes, cost the circuit full-scan
 * tick 30 % of its speed (one view per switch and tick). */
static inline void lcan_net_sw_view(struct lcan_net *n, int l, uint32_t x, lcan_sw_state *st)
{
    uint32_t pb = n->g.port_base[l] + x * (uint32_t)n->g.P[l];
    int pk = n->cfg.mode == LCAN_PACKET, fq = n->fq != NULL;
    st->lfsr = &n->lfsr[n->g.sw_base[l] + x];
    st->set = pk ? NULL : n->set + pb;
    st->src = pk ? NULL : n->src + pb;
    st->cr = pk ? n->cr + pb : NULL;
    st->fifo = pk ? n->fifo + (size_t)pb * (size_t)n->cfg.depth : NULL;
    st->fhead = pk ? n->fhead + pb : NULL;
    st->fcount = pk ? n->fcount + pb : NULL;
    st->served = pk ? n->served + pb : NULL;
    st->fq = fq ? n->fq + n->fq_base[l] + (size_t)x * (size_t)lcan_sw_fq_queues(&n->swk[l]) * (size_t)n->swk[l].flood_q
                : NULL;
    st->fq_head = fq ? n->fq_head + pb : NULL;
    st->fq_count = fq ? n->fq_count + pb : NULL;
    st->cnt_up = &n->cnt_ud[l][1];
    st->cnt_down = &n->cnt_ud[l][0];
    st->cnt_drop = &n->cnt_drop[l];
}

/* The packet-mode switches' tick on the fast path (net_packet.c; the full-scan tick is sw.c's, wired
 * by net.c): every switch of act_cur (the active ones), P <= 64; _faulty on ticks with faults to
 * apply (n->faulty), the other one without. */
void lcan_net_packet_switches(struct lcan_net *n);
void lcan_net_packet_switches_faulty(struct lcan_net *n);

#endif
