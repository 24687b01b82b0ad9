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
};

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

#endif
