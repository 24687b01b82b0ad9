/*
 * net_internal.h - the state of a network (struct lcan_net) shared by net.c, net_circuit.c and
 * net_packet.c (internal).
 *
 * Registers that another switch reads (output flit registers, ack/credit-out registers) are double
 * buffered: a tick reads *_q (the value before the tick) and writes *_d; net.c swaps them at the end.
 * Everything else (set/src, cr, FIFOs, served, LFSR) is read and written only by its own switch.
 * Flits are stored with LCAN_VALID (bit 63) set when valid; 0 means invalid (spec 3).
 */
#ifndef LCAN_NET_INTERNAL_H
#define LCAN_NET_INTERNAL_H

#include "alloc.h"
#include "geom.h"
#include "lcan.h"

#define LCAN_VALID ((uint64_t)1 << 63)

struct lcan_net {
    lcan_geom g;
    lcan_cfg cfg;
    int fw;                 /* FW = 2 + ADDR_W + PAYLOAD_W */
    uint64_t fmask;         /* low FW bits */
    int sh_dest, sh_bcast, sh_head;
    uint32_t *lfsr;         /* per switch */
    uint64_t *flit_q, *flit_d;   /* per global port: output flit register */
    uint8_t *bk_q, *bk_d;        /* per global port: ack-out (circuit) / credit-out (packet) of the input */
    uint8_t *set, *src;          /* circuit: per output */
    uint16_t *cr;                /* packet: per output */
    uint64_t *fifo;              /* packet: per input, DEPTH slots */
    uint16_t *fhead, *fcount;
    lcan_pset *served;
    uint64_t *inj;               /* per network port: injection register */
    uint16_t *inj_cr;            /* packet: per network port */
    uint32_t cnt_up[LCAN_MAX_LEVELS + 1], cnt_down[LCAN_MAX_LEVELS + 1], cnt_drop[LCAN_MAX_LEVELS + 1];

    /* Packet mode, every P_l <= 64 (fast = 1): event-driven tick, same behaviour (net_packet.c).
     * Only switches with an arriving flit, an arriving credit or a non-empty FIFO are visited; the
     * per-switch 64-bit masks say which local ports. *_cur is read this tick, *_nxt written by the
     * senders for the next one (swapped with the flit/credit registers). Entries of flit_d / bk_d
     * written two ticks ago are zeroed from the wr_d list before the switches run. */
    int fast;
    uint8_t *sw_level;           /* per switch */
    uint32_t *port_sw;           /* per global port: owning switch */
    uint8_t *port_loc;           /* per global port: local port index */
    uint64_t *arr_cur, *arr_nxt; /* per switch: inputs with a flit arriving */
    uint64_t *fifo_m;            /* per switch: inputs whose FIFO is not empty */
    uint64_t *avail_m;           /* per switch: outputs with cr > 0 (and level-1 downers) */
    uint32_t *act_cur, *act_nxt; /* switch lists */
    uint32_t n_act_cur, n_act_nxt;
    uint64_t *act_stamp;         /* per switch: tick number + 1 when already in act_nxt */
    uint64_t ticks;
    uint32_t *wr_q, *wr_d;       /* global ports written in the last tick / two ticks ago */
    uint32_t n_wr_q, n_wr_d;
    uint32_t *crl_cur, *crl_nxt; /* output ports (global) receiving a credit this / next tick: applied
                                    after every switch has run (spec 8.3 step 6), without a visit */
    uint32_t n_crl_cur, n_crl_nxt;
    uint32_t *lcr_cur, *lcr_nxt; /* network ports receiving a credit this / next tick (inj_cr) */
    uint32_t n_lcr_cur, n_lcr_nxt;
    uint32_t *ejl_q, *ejl_d;     /* network ports whose level-1 downer output was written (ej) */
    uint32_t n_ejl_q, n_ejl_d;
    uint32_t n_inj_zero;         /* network ports with inj_cr == 0 (inj_ready = 0) */
};

/* Fast mode: mark switch sw active on the next tick. */
static inline void lcan_net_wake(struct lcan_net *n, uint32_t sw)
{
    if (n->act_stamp[sw] != n->ticks + 1) {
        n->act_stamp[sw] = n->ticks + 1;
        n->act_nxt[n->n_act_nxt++] = sw;
    }
}

/* Dest field of a stored flit. */
static inline uint32_t lcan_net_dest(const struct lcan_net *n, uint64_t f)
{
    return (uint32_t)((f >> n->sh_dest) & (((uint64_t)1 << n->g.addr_w) - 1u));
}

/* The flit arriving this tick on input j of a switch whose port block starts at pb. */
static inline uint64_t lcan_net_in_flit(const struct lcan_net *n, uint32_t gp)
{
    uint32_t pr = n->g.peer[gp];
    return (pr & LCAN_PEER_LEAF) ? n->inj[pr & ~LCAN_PEER_LEAF] : n->flit_q[pr];
}

/* One switch's tick (not reset / not clear), reading *_q and writing *_d and local state. */
void lcan_net_circuit_switch(struct lcan_net *n, int l, uint32_t x, const uint8_t *ej_ack);
void lcan_net_packet_switch(struct lcan_net *n, int l, uint32_t x);
/* The same tick on the fast path (only called for active switches, P <= 64). */
void lcan_net_packet_switch_fast(struct lcan_net *n, uint32_t sw);

#endif
