/*
 * netio.h - pin buffers for driving one lcan_net tick by tick in the model's tests.
 */
#ifndef LCAN_TEST_NETIO_H
#define LCAN_TEST_NETIO_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan.h"

typedef struct {
    lcan_net *net;
    const lcan_topo *t;
    uint32_t NP, N;
    int U0, h;
    uint8_t *inj_valid, *ej_ack, *inj_ready, *inj_ack, *ej_valid;
    uint64_t *inj_flit, *ej_flit;
    uint32_t cnt_up[LCAN_MAX_LEVELS], cnt_down[LCAN_MAX_LEVELS], cnt_drop[LCAN_MAX_LEVELS];
    lcan_in in;
    lcan_out out;
} netio;

/* Parse spec; NULL and one failed check of c when it does not parse. */
static inline lcan_topo *netio_parse(check_ctx *c, const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    check(c, lcan_topo_parse(spec, &t, err, sizeof err) == LCAN_OK, "parse %s: %s", spec, err);
    return t;
}

static inline int netio_open(netio *io, const lcan_topo *t, const lcan_cfg *cfg)
{
    memset(io, 0, sizeof *io);
    io->t = t;
    io->NP = lcan_topo_ports(t);
    io->N = lcan_topo_leaves(t);
    io->U0 = lcan_topo_leaf_ports(t);
    io->h = lcan_topo_levels(t);
    if (lcan_net_new(t, cfg, &io->net) != LCAN_OK)
        return 0;
    io->inj_valid = calloc(io->NP, 1);
    io->ej_ack = calloc(io->NP, 1);
    io->inj_ready = calloc(io->NP, 1);
    io->inj_ack = calloc(io->NP, 1);
    io->ej_valid = calloc(io->NP, 1);
    io->inj_flit = calloc(io->NP, sizeof *io->inj_flit);
    io->ej_flit = calloc(io->NP, sizeof *io->ej_flit);
    io->in.inj_valid = io->inj_valid;
    io->in.inj_flit = io->inj_flit;
    io->in.ej_ack = io->ej_ack;
    io->out.inj_ready = io->inj_ready;
    io->out.inj_ack = io->inj_ack;
    io->out.ej_valid = io->ej_valid;
    io->out.ej_flit = io->ej_flit;
    io->out.cnt_up = io->cnt_up;
    io->out.cnt_down = io->cnt_down;
    io->out.cnt_drop = io->cnt_drop;
    return 1;
}

static inline void netio_close(netio *io)
{
    lcan_net_free(io->net);
    free(io->inj_valid); free(io->ej_ack); free(io->inj_ready); free(io->inj_ack); free(io->ej_valid);
    free(io->inj_flit); free(io->ej_flit);
}

/* Zero every input (rst, clear, injections, acks). */
static inline void netio_idle(netio *io)
{
    io->in.rst = 0;
    io->in.clear = 0;
    memset(io->inj_valid, 0, io->NP);
    memset(io->ej_ack, 0, io->NP);
    memset(io->inj_flit, 0, io->NP * sizeof *io->inj_flit);
}

static inline lcan_status netio_tick(netio *io) { return lcan_net_tick(io->net, &io->in, &io->out); }

/* Tick tau (1, 2, ..) of a lone injection: flit f on network port q on tick 1, no other input. */
static inline lcan_status netio_tick_lone(netio *io, int tau, uint32_t q, uint64_t f)
{
    netio_idle(io);
    io->inj_valid[q] = (uint8_t)(tau == 1);
    io->inj_flit[q] = tau == 1 ? f : 0;
    return netio_tick(io);
}

static inline void netio_reset(netio *io, uint32_t seed)
{
    netio_idle(io);
    io->in.rst = 1;
    io->in.seed = seed;
    netio_tick(io);
    io->in.rst = 0;
}

/* Independent digit arithmetic (spec 2.1), from the m list only. */
static inline int test_digit(const lcan_topo *t, uint32_t s, int l)
{
    int j;
    for (j = 1; j < l; j++)
        s /= (uint32_t)lcan_topo_m(t, j);
    return (int)(s % (uint32_t)lcan_topo_m(t, l));
}

static inline uint32_t test_pack(const lcan_topo *t, uint32_t s)
{
    uint32_t a = 0;
    int l, off = 0;
    for (l = 1; l <= lcan_topo_levels(t); l++) {
        int b = 0;
        while ((1 << b) < lcan_topo_m(t, l))
            b++;
        a |= (uint32_t)test_digit(t, s, l) << off;
        off += b;
    }
    return a;
}

static inline int test_lca(const lcan_topo *t, uint32_t s, uint32_t d)
{
    int l;
    for (l = lcan_topo_levels(t); l >= 2; l--)
        if (test_digit(t, s, l) != test_digit(t, d, l))
            return l;
    return 1;
}

#endif
