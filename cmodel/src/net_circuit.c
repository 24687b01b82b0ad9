/*
 * net_circuit.c - the wiring of one circuit-mode switch in the network's full-scan tick: its inputs
 * are the flit registers of its neighbours (the injection registers at the leaves) and the ack-out
 * registers behind its outputs (ej_ack at the leaves, spec 7.3), all before the tick; the tick
 * itself is the switch unit's (sw.c, spec 7.2 step 3).
 */
#include "net_internal.h"
#include "sw.h"

void lcan_net_circuit_switch(struct lcan_net *n, int l, uint32_t x, const uint8_t *ej_ack)
{
    const lcan_geom *g = &n->g;
    int P = g->P[l], i;
    uint32_t pb = g->port_base[l] + x * (uint32_t)P;
    uint64_t rx[LCAN_MAX_PORTS];
    uint8_t ack[LCAN_MAX_PORTS];
    lcan_sw_state st;
    lcan_sw_faults flt;

    for (i = 0; i < P; i++) {
        uint32_t pr = g->peer[pb + (uint32_t)i];
        rx[i] = lcan_net_in_flit(n, pb + (uint32_t)i);
        ack[i] = (uint8_t)((pr & LCAN_PEER_LEAF) ? (ej_ack != NULL && ej_ack[pr & ~LCAN_PEER_LEAF]) : n->bk_q[pr]);
    }
    lcan_net_sw_view(n, l, x, &st);
    lcan_sw_circuit_tick(&n->swk[l], g->hi[g->sw_base[l] + x], &st, rx, ack,
                         n->faulty ? lcan_net_sw_faults(n, l, x, &flt) : NULL, n->flit_d + pb, n->bk_d + pb);
}
