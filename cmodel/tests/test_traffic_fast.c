/*
 * test_traffic_fast.c - the event-driven packet-mode tick (net_packet.c fast path, net.c) against
 * the full-scan tick it replaces, every output and the whole debug view on every tick: random
 * unicast and broadcast (tree and flooding) traffic at low and saturating rates, UP_CHOICE rotate
 * and uniform, idle phases, resets, on networks with
 * parallel links, several uppers and w1 > 1. The reference is the same network with n->fast = 0
 * (the original per-switch code, every switch every tick). A third network, fast, is given only
 * some of the output arrays (the others NULL): the ones given must still be the same.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan.h"
#include "net_internal.h"

static void run(check_ctx *c, const char *spec, int depth, double rate, double brate, int ticks,
                unsigned long long seed, lcan_up_choice uc)
{
    lcan_topo *t;
    lcan_net *a, *b, *c3;
    lcan_cfg cfg;
    char err[256];
    uint32_t NP, N, q;
    int U0, w1, p1, k, bad = 0;
    uint8_t *iv, *ra, *rb, *ea, *eb, *aa, *ab, *da, *db, *ec;
    uint64_t *fl, *fa, *fb;
    uint32_t cua[16], cub[16], cda[16], cdb[16];
    size_t nd;
    uint32_t *injl, ninj;
    lcan_in in;
    lcan_out oa, ob, oc;

    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK) {
        check(c, 0, "%s: %s", spec, err);
        return;
    }
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    cfg.depth = depth;
    cfg.up_choice = uc;
    lcan_net_new(t, &cfg, &a);
    lcan_net_new(t, &cfg, &b);
    lcan_net_new(t, &cfg, &c3);
    check(c, a->fast == 1, "%s: the fast path is used", spec);
    b->fast = 0; /* reference: every switch, every tick */
    NP = lcan_topo_ports(t);
    N = lcan_topo_leaves(t);
    U0 = lcan_topo_leaf_ports(t);
    w1 = lcan_topo_w(t, 1);
    p1 = lcan_topo_p(t, 1);
    nd = lcan_net_debug_dump(a, NULL, 0);
    iv = calloc(NP, 1);
    ra = calloc(NP, 1);
    rb = calloc(NP, 1);
    ea = calloc(NP, 1);
    eb = calloc(NP, 1);
    aa = calloc(NP, 1);
    ab = calloc(NP, 1);
    fl = calloc(NP, 8);
    fa = calloc(NP, 8);
    fb = calloc(NP, 8);
    da = calloc(nd, 1);
    db = calloc(nd, 1);
    ec = calloc(NP, 1);
    injl = calloc(NP, sizeof *injl);
    memset(&in, 0, sizeof in);
    memset(&oa, 0, sizeof oa);
    memset(&ob, 0, sizeof ob);
    in.inj_valid = iv;
    in.inj_flit = fl;
    oa.inj_ready = ra; oa.inj_ack = aa; oa.ej_valid = ea; oa.ej_flit = fa; oa.cnt_up = cua; oa.cnt_down = cda; oa.cnt_drop = NULL;
    ob.inj_ready = rb; ob.inj_ack = ab; ob.ej_valid = eb; ob.ej_flit = fb; ob.cnt_up = cub; ob.cnt_down = cdb; ob.cnt_drop = NULL;
    memset(&oc, 0, sizeof oc);
    oc.ej_valid = ec; /* inj_ready, inj_ack, ej_flit and the counters NULL */
    for (k = 0; k < ticks && !bad; k++) {
        int quiet = ((k >> 8) & 3) == 3;
        in.rst = k == 0 || k == ticks / 2;
        in.seed = (uint32_t)(seed + (unsigned long long)k);
        memset(iv, 0, NP);
        memset(fl, 0, NP * 8);
        if (!in.rst && !quiet)
            for (q = 0; q < NP; q++) {
                double u = (double)(test_rng(&seed) >> 11) / 9007199254740992.0;
                uint32_t s = q / (uint32_t)U0;
                if (!ra[q] || u >= rate)
                    continue;
                iv[q] = 1;
                u = (double)(test_rng(&seed) >> 11) / 9007199254740992.0;
                if (u < brate && (int)(q % (uint32_t)U0) % p1 == 0 && (int)(q % (uint32_t)U0) / p1 < w1)
                    fl[q] = lcan_flit(a, (int)(test_rng(&seed) & 1u), 1, (q % (uint32_t)U0) / (uint32_t)p1,
                                      (uint32_t)k); /* head = 1: flooding (spec 8.6), 0: tree */
                else
                    fl[q] = lcan_flit(a, 0, 0, lcan_topo_pack(t, (uint32_t)(test_rng(&seed) % N)), s ^ (uint32_t)k);
                if (test_rng(&seed) % 1000 == 0) /* now and then an invalid destination digit */
                    fl[q] |= ((uint64_t)1 << (16 + lcan_topo_addr_width(t))) - ((uint64_t)1 << 16);
            }
        /* every other tick the injections also as a list (lcan_in.inj_list; b, the full scan, ignores it) */
        for (ninj = 0, q = NP; q-- > 0;) /* (in any order: descending here) */
            if (iv[q])
                injl[ninj++] = q;
        in.inj_list = (k & 1) ? injl : NULL;
        in.n_inj = ninj;
        lcan_net_tick(a, &in, &oa);
        lcan_net_tick(b, &in, &ob);
        lcan_net_tick(c3, &in, &oc);

        lcan_net_debug_dump(a, da, nd);
        lcan_net_debug_dump(b, db, nd);
        if (memcmp(ra, rb, NP) || memcmp(ea, eb, NP) || memcmp(fa, fb, NP * 8) || memcmp(aa, ab, NP) ||
            memcmp(da, db, nd) || memcmp(cua, cub, (size_t)lcan_topo_levels(t) * 4) ||
            memcmp(cda, cdb, (size_t)lcan_topo_levels(t) * 4) || memcmp(ea, ec, NP))
            bad = 1;
        check(c, !bad, "%s depth %d rate %g bcast %g uc %d: fast and full-scan ticks differ at tick %d", spec, depth,
              rate, brate, uc, k);
    }
    free(injl);
    free(iv); free(ra); free(rb); free(ea); free(eb); free(aa); free(ab); free(fl); free(fa); free(fb); free(da); free(db); free(ec);
    lcan_net_free(a);
    lcan_net_free(b);
    lcan_net_free(c3);
    lcan_topo_free(t);
}

int main(void)
{
    check_ctx c = {"test_traffic_fast", 0, 0};
    static const char *specs[] = {"kary(4,3)", "lcan(2,2,8)", "cm5", "bft(6;1,2,4,8,16,32)", "xgft(2;4,4;2,3)",
                                  "pgft(3;2,2,2;2,2,1;2,1,2)", "lcan(4,2,64)", "lcan(2,5,32)"};
    size_t k;
    int uc;
    for (uc = LCAN_UP_ROTATE; uc <= LCAN_UP_UNIFORM; uc++)
        for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
            lcan_up_choice u = (lcan_up_choice)uc;
            run(&c, specs[k], 4, 0.05, 0.02, 1500, 11 + k, u);
            run(&c, specs[k], 4, 0.9, 0.01, 1500, 21 + k, u);
            run(&c, specs[k], 1, 0.5, 0.05, 800, 31 + k, u);
            run(&c, specs[k], 3, 0.3, 0.0, 800, 41 + k, u);
            run(&c, specs[k], 4, 0.9, 0.0, 800, 61 + k, u); /* unicasts only, saturated (switch_uni_nb) */
            run(&c, specs[k], 8, 0.2, 0.3, 600, 51 + k, u); /* mostly broadcasts, half of them flooding */
        }
    return check_done(&c);
}
