/*
 * geom.c - builds lcan_geom from a topology (spec 1-2). The wiring is computed arithmetically from
 * the mixed-radix switch index of spec 2.2 (tests cross-check it against lcan_topo_neighbor):
 * a level-l switch x = B + W_l * (a_{l+1} + m_{l+1} * R) with W_l = w_1..w_l, B = x mod W_l;
 * its upper y*p_{l+1}+k joins switch B + W_l * (y + w_{l+1} * R) of level l+1, downer a_{l+1}*p_{l+1}+k.
 */
#include <stdlib.h>
#include <string.h>

#include "geom.h"

int lcan_geom_clog2(uint32_t x)
{
    int b = 0;
    while (b < 32 && ((uint64_t)1 << b) < x)
        b++;
    return b;
}

static uint32_t mask_of(uint32_t n) { return (uint32_t)(((uint64_t)1 << lcan_geom_clog2(n)) - 1u); }

static void fill_levels(lcan_geom *g, const lcan_topo *t)
{
    int l;
    uint64_t ports = 0, sws = 0;
    g->h = lcan_topo_levels(t);
    g->N = lcan_topo_leaves(t);
    g->U0 = lcan_topo_leaf_ports(t);
    g->NP = lcan_topo_ports(t);
    g->addr_w = lcan_topo_addr_width(t);
    for (l = 1; l <= g->h; l++) {
        g->m[l] = lcan_topo_m(t, l);
        g->w[l] = lcan_topo_w(t, l);
        g->p[l] = lcan_topo_p(t, l);
        g->S[l] = lcan_topo_switches(t, l);
        g->D[l] = g->m[l] * g->p[l];
        g->off[l] = lcan_topo_field_offset(t, l);
        g->bits[l] = lcan_topo_field_width(t, l);
    }
    for (l = 1; l <= g->h; l++) {
        g->U[l] = l < g->h ? g->w[l + 1] * g->p[l + 1] : 0;
        g->P[l] = g->D[l] + g->U[l];
        g->hi_mask[l] = (uint32_t)((((uint64_t)1 << g->addr_w) - 1u) & ~(((uint64_t)1 << (g->off[l] + g->bits[l])) - 1u));
        g->in_mask[l] = mask_of((uint32_t)g->P[l]);
        g->up_mask[l] = mask_of((uint32_t)g->U[l]);
        g->dn_mask[l] = mask_of((uint32_t)g->p[l]);
        g->sw_base[l] = (uint32_t)sws;
        g->port_base[l] = (uint32_t)ports;
        sws += g->S[l];
        ports += (uint64_t)g->S[l] * (uint64_t)g->P[l];
    }
    g->n_sw = (uint32_t)sws;
    g->n_port = (uint32_t)ports;
}

static void wire(lcan_geom *g)
{
    uint32_t Wl = 1, x, q;
    int l, y, k;

    for (l = 1; l < g->h; l++) {
        uint32_t mm = (uint32_t)g->m[l + 1], ww = (uint32_t)g->w[l + 1];
        int pp = g->p[l + 1];
        Wl *= (uint32_t)g->w[l];
        for (x = 0; x < g->S[l]; x++) {
            uint32_t B = x % Wl, a = (x / Wl) % mm, R = x / Wl / mm;
            for (y = 0; y < (int)ww; y++) {
                uint32_t X = B + Wl * ((uint32_t)y + ww * R);
                for (k = 0; k < pp; k++) {
                    uint32_t up = g->port_base[l] + x * (uint32_t)g->P[l] + (uint32_t)(g->D[l] + y * pp + k);
                    uint32_t dn = g->port_base[l + 1] + X * (uint32_t)g->P[l + 1] + a * (uint32_t)pp + (uint32_t)k;
                    g->peer[up] = dn;
                    g->peer[dn] = up;
                }
            }
        }
    }
    for (q = 0; q < g->NP; q++) {
        uint32_t s = q / (uint32_t)g->U0, lp = q % (uint32_t)g->U0;
        uint32_t yy = lp / (uint32_t)g->p[1], kk = lp % (uint32_t)g->p[1];
        uint32_t X = yy + (uint32_t)g->w[1] * (s / (uint32_t)g->m[1]);
        uint32_t dn = g->port_base[1] + X * (uint32_t)g->P[1] + (s % (uint32_t)g->m[1]) * (uint32_t)g->p[1] + kk;
        g->peer[dn] = LCAN_PEER_LEAF | q;
        g->leaf_gp[q] = dn;
    }
}

static void fill_hi(lcan_geom *g)
{
    uint32_t Wl = 1, r, b;
    int l, j;
    for (l = 1; l <= g->h; l++) {
        Wl *= (uint32_t)g->w[l];
        for (r = 0; r < g->S[l] / Wl; r++) { /* r = the digits a_{l+1..h} of switches r*W_l .. */
            uint32_t rr = r, hi = 0;
            for (j = l + 1; j <= g->h; j++) {
                hi |= (rr % (uint32_t)g->m[j]) << g->off[j];
                rr /= (uint32_t)g->m[j];
            }
            for (b = 0; b < Wl; b++)
                g->hi[g->sw_base[l] + r * Wl + b] = hi;
        }
    }
}

lcan_status lcan_geom_init(lcan_geom *g, const lcan_topo *t)
{
    memset(g, 0, sizeof *g);
    if (t == NULL || lcan_topo_levels(t) < 1)
        return LCAN_ERR_ARG;
    fill_levels(g, t);
    g->hi = malloc((size_t)g->n_sw * sizeof *g->hi);
    g->peer = malloc((size_t)g->n_port * sizeof *g->peer);
    g->leaf_gp = malloc((size_t)g->NP * sizeof *g->leaf_gp);
    if (g->hi == NULL || g->peer == NULL || g->leaf_gp == NULL) {
        lcan_geom_free(g);
        return LCAN_ERR_NOMEM;
    }
    wire(g);
    fill_hi(g);
    return LCAN_OK;
}

void lcan_geom_free(lcan_geom *g)
{
    free(g->hi);
    free(g->peer);
    free(g->leaf_gp);
    g->hi = NULL;
    g->peer = NULL;
    g->leaf_gp = NULL;
}
