/*
 * test_traffic_fast.c - the event-driven packet-mode tick (net_packet.c fast path, net.c) against
 * the full-scan tick it replaces, every output and the whole debug view on every tick: random
 * unicast and broadcast (tree and flooding) traffic at low and saturating rates, UP_CHOICE rotate
 * and uniform, idle phases, resets, on networks with
 * parallel links, several uppers and w1 > 1. The reference is the same network with n->fast = 0
 * (the original per-switch code, every switch every tick). A third network, fast, is given only
 * some of the output arrays (the others NULL): the ones given must still be the same.
 *
 * Overrun runs drive the networks past their credits (spec 8.3 step 5): after each reset every
 * network port's inj_cr is set far above DEPTH (an internal field: the pins cannot do it), so the
 * leaves inject into full level-1 FIFOs, at every port at random or from port 0 alone (a lone
 * candidate: the fast path's single-candidate step) where DEPTH times the level-1 uppers is below
 * the credit loop's 3 ticks. Besides the comparison above (and of every FIFO count), each unicast
 * carries a tag of its own; a flit arriving on an input whose FIFO held DEPTH flits before the
 * tick (read from the full-scan network before the tick) must never be delivered, every other
 * one exactly once (the runs end idle); both kinds of drop must occur, with the head popped on
 * the tick (the count one lower after it) and without.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan.h"
#include "net_internal.h"

/* Overrun bookkeeping (tags: the payloads of the unicasts, one per injection). */
enum { TAG_NONE = 0, TAG_FLYING, TAG_DONE, TAG_GONE }; /* GONE: dropped or an impossible digit */
#define NO_TAG 0xFFFFFFFFu
static long drops[3][2]; /* by overrun mode: drops at a full FIFO [0] whose head stayed, [1] popped */

static void run(check_ctx *c, const char *spec, int depth, double rate, double brate, int ticks,
                unsigned long long seed, lcan_up_choice uc, int overrun)
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
    /* overrun (1: every port, 2: port 0 alone): tag states, each port's tag of the tick before,
     * the inputs where a flit is dropped on this tick */
    uint8_t *tag = NULL;
    uint32_t *prev = NULL, *dropgp = NULL, ntag = 0, tag0 = 0, ndrop = 0, j;

    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK) {
        check(c, 0, "%s: %s", spec, err);
        return;
    }
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    cfg.depth = depth;
    cfg.up_choice = uc;
    if (overrun)
        cfg.payload_w = 24; /* room for a tag per injection */
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
    if (overrun) {
        tag = calloc((size_t)ticks * NP, 1);
        prev = malloc(NP * sizeof *prev);
        dropgp = malloc(NP * sizeof *dropgp);
        for (q = 0; q < NP; q++)
            prev[q] = NO_TAG;
    }
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
        int quiet = ((k >> 8) & 3) == 3 || (overrun && k >= ticks - 300); /* overrun: end idle */
        in.rst = k == 0 || k == ticks / 2;
        in.seed = (uint32_t)(seed + (unsigned long long)k);
        ndrop = 0;
        for (q = 0; overrun && q < NP; q++) { /* the flit injected on the tick before (iv) arrives now */
            uint32_t gp = b->g.leaf_gp[q];
            if (iv[q] && !in.rst && b->fcount[gp] >= (uint16_t)depth) {
                dropgp[ndrop++] = gp;
                if (prev[q] != NO_TAG)
                    tag[prev[q]] = TAG_GONE;
            }
            prev[q] = NO_TAG;
        }
        memset(iv, 0, NP);
        memset(fl, 0, NP * 8);
        if (!in.rst && !quiet)
            for (q = 0; q < NP && (overrun < 2 || q == 0); q++) {
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
                    fl[q] = lcan_flit(a, 0, 0, lcan_topo_pack(t, (uint32_t)(test_rng(&seed) % N)),
                                      overrun ? ntag : s ^ (uint32_t)k);
                if (test_rng(&seed) % 1000 == 0) /* now and then an invalid destination digit */
                    fl[q] |= ((uint64_t)1 << (a->sh_dest + lcan_topo_addr_width(t))) - ((uint64_t)1 << a->sh_dest);
                if (overrun && !lcan_flit_bcast(a, fl[q])) { /* a unicast: tagged */
                    uint32_t d = lcan_flit_dest(a, fl[q]);
                    tag[ntag] = lcan_topo_unpack(t, d) != UINT32_MAX ? TAG_FLYING : TAG_GONE; /* an address? */
                    prev[q] = ntag++;
                }
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
        if (overrun && in.rst) { /* past the credits from here on (never 0) */
            for (q = 0; q < NP; q++)
                a->inj_cr[q] = b->inj_cr[q] = c3->inj_cr[q] = 30000;
            tag0 = ntag; /* what was in flight is gone with the reset */
        }
        lcan_net_debug_dump(a, da, nd);
        lcan_net_debug_dump(b, db, nd);
        if (memcmp(ra, rb, NP) || memcmp(ea, eb, NP) || memcmp(fa, fb, NP * 8) || memcmp(aa, ab, NP) ||
            memcmp(da, db, nd) || memcmp(cua, cub, (size_t)lcan_topo_levels(t) * 4) ||
            memcmp(cda, cdb, (size_t)lcan_topo_levels(t) * 4) || memcmp(ea, ec, NP) ||
            (overrun && memcmp(a->fcount, b->fcount, (size_t)a->g.n_port * sizeof *a->fcount)))
            bad = 1;
        check(c, !bad, "%s depth %d rate %g bcast %g uc %d overrun %d: fast and full-scan ticks differ at tick %d", spec,
              depth, rate, brate, uc, overrun, k);
        for (j = 0; j < ndrop && !bad; j++) { /* a dropped flit is not stored: the count is DEPTH, or one less */
            uint16_t cnt = b->fcount[dropgp[j]];
            drops[overrun][cnt == depth - 1]++;
            if (cnt != depth && cnt != depth - 1) {
                check(c, 0, "%s depth %d overrun %d tick %d: dropped at a full FIFO, count %d after", spec, depth,
                      overrun, k, cnt);
                bad = 1;
            }
        }
        for (q = 0; overrun && q < NP && !bad; q++) { /* every tagged unicast delivered once, a dropped one never */
            uint32_t tg = lcan_flit_payload(b, fb[q]);
            if (!eb[q] || lcan_flit_bcast(b, fb[q]))
                continue;
            if (tg < tag0 || tg >= ntag || tag[tg] != TAG_FLYING) {
                check(c, 0, "%s depth %d overrun %d tick %d: tag %u delivered on port %u in state %d", spec, depth,
                      overrun, k, tg, q, tg < ntag ? tag[tg] : -1);
                bad = 1;
            } else {
                tag[tg] = TAG_DONE;
            }
        }
    }
    if (overrun && !bad) {
        uint32_t lost = 0;
        for (j = tag0; j < ntag; j++)
            lost += tag[j] == TAG_FLYING;
        check(c, lost == 0, "%s depth %d overrun %d: %u of %u tags never delivered", spec, depth, overrun, lost,
              ntag - tag0);
    }
    free(tag);
    free(prev);
    free(dropgp);
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
            run(&c, specs[k], 4, 0.05, 0.02, 1500, 11 + k, u, 0);
            run(&c, specs[k], 4, 0.9, 0.01, 1500, 21 + k, u, 0);
            run(&c, specs[k], 1, 0.5, 0.05, 800, 31 + k, u, 0);
            run(&c, specs[k], 3, 0.3, 0.0, 800, 41 + k, u, 0);
            run(&c, specs[k], 4, 0.9, 0.0, 800, 61 + k, u, 0); /* unicasts only, saturated (switch_uni_nb) */
            run(&c, specs[k], 8, 0.2, 0.3, 600, 51 + k, u, 0); /* mostly broadcasts, half of them flooding */
            /* past the credits (spec 8.3 step 5): every port, unicasts only and with broadcasts */
            run(&c, specs[k], 1, 0.7, 0.0, 1200, 71 + k, u, 1);
            run(&c, specs[k], 3, 0.9, 0.05, 1200, 81 + k, u, 1);
        }
    /* port 0 alone past its credits, DEPTH x the level-1 uppers below 3 (the credit loop): the lone
     * candidate's step; with 1 x 1 the head waits two ticks of three (drops without a pop too) */
    for (uc = LCAN_UP_ROTATE; uc <= LCAN_UP_UNIFORM; uc++) {
        run(&c, "lcan(2,2,8)", 1, 1.0, 0.0, 1200, 91, (lcan_up_choice)uc, 2);
        run(&c, "xgft(2;4,4;1,1)", 1, 1.0, 0.0, 1200, 92, (lcan_up_choice)uc, 2);
        run(&c, "xgft(2;4,4;1,1)", 2, 1.0, 0.0, 1200, 93, (lcan_up_choice)uc, 2);
    }
    for (k = 1; k <= 2; k++)
        check(&c, drops[k][0] > 0 && drops[k][1] > 0, "overrun %d: drops at a full FIFO %ld with a pop, %ld without",
              (int)k, drops[k][1], drops[k][0]);
    printf("test_traffic_fast: drops at a full FIFO (with a pop / without): every port %ld / %ld, port 0 alone %ld / %ld\n",
           drops[1][1], drops[1][0], drops[2][1], drops[2][0]);
    return check_done(&c);
}
