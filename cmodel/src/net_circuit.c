/*
 * net_circuit.c - one circuit-mode switch tick (spec 7.2 step 3).
 *
 * From the registers before the tick: acks travel back from each set output o to the ack-out
 * register of src_o; data flits follow set circuits; headers request outputs that are not set
 * (allocator, spec 6) and set them, or are dropped. Faults (spec 14.3): off outputs are not
 * available, want sets are masked (sw.c); circuits already set keep carrying data and acks.
 */
#include "net_internal.h"
#include "sw.h"

void lcan_net_circuit_switch(struct lcan_net *n, int l, uint32_t x, const uint8_t *ej_ack)
{
    const lcan_geom *g = &n->g;
    int P = g->P[l], i, o, nh = 0;
    uint32_t pb = g->port_base[l] + x * (uint32_t)P;
    uint64_t in[LCAN_MAX_PORTS];
    uint8_t hv[LCAN_MAX_PORTS] = {0};
    uint32_t hdest[LCAN_MAX_PORTS] = {0};
    int out[LCAN_MAX_PORTS];
    lcan_sw_faults flt;

    for (i = 0; i < P; i++) {
        uint64_t f = lcan_net_in_flit(n, pb + (uint32_t)i);
        in[i] = f;
        hv[i] = (f & LCAN_VALID) && ((f >> n->sh_head) & 1u);
        hdest[i] = hv[i] ? lcan_net_dest(n, f) : 0;
        nh += hv[i];
        n->bk_d[pb + (uint32_t)i] = 0;
    }
    /* acks and data, using set/src before the tick */
    for (o = 0; o < P; o++) {
        uint32_t gp = pb + (uint32_t)o, pr;
        uint64_t f;
        n->flit_d[gp] = 0;
        if (!n->set[gp])
            continue;
        pr = g->peer[gp];
        if ((pr & LCAN_PEER_LEAF) ? (ej_ack != NULL && ej_ack[pr & ~LCAN_PEER_LEAF]) : n->bk_q[pr])
            n->bk_d[pb + n->src[gp]] = 1;
        f = in[n->src[gp]];
        if ((f & LCAN_VALID) && !((f >> n->sh_head) & 1u))
            n->flit_d[gp] = f;
    }
    /* headers */
    if (nh == 0 ||
        lcan_sw_circuit_headers(g, l, x, n->cfg.up_choice, &n->lfsr[g->sw_base[l] + x], hv, hdest, &n->set[pb],
                                n->faulty ? lcan_net_sw_faults(n, l, x, &flt) : NULL, out) == 0)
        return;
    for (i = 0; i < P; i++) {
        uint32_t gp;
        if (!hv[i])
            continue;
        if (out[i] < 0) {
            n->cnt_drop[l]++;
            continue;
        }
        gp = pb + (uint32_t)out[i];
        n->set[gp] = 1;
        n->src[gp] = (uint8_t)i;
        n->flit_d[gp] = in[i];
        if (out[i] >= g->D[l])
            n->cnt_up[l]++;
        else
            n->cnt_down[l]++;
    }
}
