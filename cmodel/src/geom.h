/*
 * geom.h - the network's geometry as the model uses it (internal): per-level constants, a global
 * numbering of switches and switch ports, and the wiring of spec 2.3 as one array.
 *
 * Global switch id:  sw_base[l] + x              (x = index within level l, spec 2.2)
 * Global port:       port_base[l] + x * P[l] + j (j = local port, spec 2.3)
 * peer[gp] is the global port at the other end of the link on port gp (links are full duplex: the
 * output of gp feeds the input of peer[gp] and vice versa); for the downers of level-1 switches it is
 * LCAN_PEER_LEAF | q, q the network port (leaf_number * U_0 + leaf port).
 */
#ifndef LCAN_GEOM_H
#define LCAN_GEOM_H

#include <stdint.h>
#include "lcan.h"

#define LCAN_PEER_LEAF 0x80000000u

typedef struct {
    int h, U0, addr_w;
    uint32_t N, NP;
    int m[LCAN_MAX_LEVELS + 2], w[LCAN_MAX_LEVELS + 2], p[LCAN_MAX_LEVELS + 2];
    int D[LCAN_MAX_LEVELS + 2], U[LCAN_MAX_LEVELS + 2], P[LCAN_MAX_LEVELS + 2];
    int off[LCAN_MAX_LEVELS + 2], bits[LCAN_MAX_LEVELS + 2];
    uint32_t S[LCAN_MAX_LEVELS + 2];
    uint32_t hi_mask[LCAN_MAX_LEVELS + 2];  /* packed-address bits of digits l+1..h */
    uint32_t in_mask[LCAN_MAX_LEVELS + 2];  /* 2^clog2(P_l) - 1 */
    uint32_t up_mask[LCAN_MAX_LEVELS + 2];  /* 2^clog2(U_l) - 1 */
    uint32_t dn_mask[LCAN_MAX_LEVELS + 2];  /* 2^clog2(p_l) - 1 */
    uint32_t sw_base[LCAN_MAX_LEVELS + 2];
    uint32_t port_base[LCAN_MAX_LEVELS + 2];
    uint32_t n_sw, n_port;
    uint32_t *hi;       /* per switch: its digits a_{l+1..h} packed like an address */
    uint32_t *peer;     /* per global port */
    uint32_t *leaf_gp;  /* per network port q: the level-1 downer facing it */
} lcan_geom;

int lcan_geom_clog2(uint32_t x);
lcan_status lcan_geom_init(lcan_geom *g, const lcan_topo *t);
void lcan_geom_free(lcan_geom *g);

/* Level of global port gp (the switch that owns it). */
static inline int lcan_geom_port_level(const lcan_geom *g, uint32_t gp)
{
    int l = g->h;
    while (l > 1 && gp < g->port_base[l])
        l--;
    return l;
}

#endif
