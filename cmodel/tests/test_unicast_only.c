/*
 * test_unicast_only.c - UNICAST_ONLY (spec 8.8, lcan_cfg.unicast_only) of lcan_net. Expected values
 * come from the spec's text (digits, packing and LCA levels written again in netio.h), not from
 * the model's code:
 *
 *  - a lone broadcast (bcast = 1; tree, head = 0, and flooding, head = 1) on tree t, injected as
 *    spec 8.5 says (leaf port t*p1, dest = t) into an idle network, from every leaf: with
 *    UNICAST_ONLY = 1 it leaves the network exactly once, at the leaf whose packed address is t,
 *    on a leaf port of parent t (the plane it entered), as an output of tick t0 + 2L - 1 (spec
 *    8.4's unicast latency; L the LCA level of source and that leaf), unchanged (bcast and head
 *    still set); per level one copy up below L and one down up to L, nothing dropped; when t's
 *    digits are impossible (spec 4: w1 > m1) it is dropped at its level-1 switch and counted; the
 *    debug view (credits) is back to its reset value. With UNICAST_ONLY = 0 the same injection
 *    reaches every leaf on port t*p1 at t0 + 2h - 1 (tree, spec 8.5) / every leaf but the source
 *    at t0 + 2L - 1 (flooding, spec 8.6). On the event-driven tick and on the full-scan tick.
 *  - random unicast traffic (bcast = 0; head bits random, as packet mode ignores them on a
 *    unicast; now and then an impossible digit; idle phases, resets, fault pins on some runs): a
 *    network with UNICAST_ONLY = 1 gives every output of lcan_out (inj_ready, inj_ack, ej_valid,
 *    ej_flit, the three counter vectors) and the whole debug view of one with 0, on every tick;
 *    DEPTH 1 and 4, UP_CHOICE rotate and uniform, topologies with parallel links, several uppers
 *    and w1 > 1, both on the event-driven tick and on the full-scan tick (n->fast = 0). In circuit
 *    mode the same holds with broadcast bits set (the parameter has no effect there).
 *  - random traffic with bcast bits set (tree and flooding broadcasts on tree indices, arbitrary
 *    dests with bcast set, impossible digits, fault pins on some runs) on UNICAST_ONLY networks:
 *    the event-driven tick equals the full-scan tick (the switch unit's tick, sw.c) output by
 *    output and in the debug view, as test_traffic_fast.c checks for the default.
 *  - lcan_net_new refuses UNICAST_ONLY 2, -1 and 1 with FLOOD_Q > 0 (both modes) with
 *    LCAN_ERR_PARAM and *out NULL (nothing allocated: the ASan build's leak check), takes 1 with
 *    FLOOD_Q 0; lcan_cfg_default sets 0; FLOOD_Q outside 0..255 stays LCAN_ERR_ARG.
 *    (lcan_sw_new's refusals: test_switch.c.)
 */
#include <stdio.h>

#include "check.h"
#include "lcan_faults.h"
#include "net_internal.h"
#include "netio.h"

static check_ctx C = {"test_unicast_only", 0, 0};

static void cfg_make(lcan_cfg *cfg, lcan_mode mode, int depth, lcan_up_choice uc, int uo)
{
    lcan_cfg_default(cfg);
    cfg->mode = mode;
    cfg->depth = depth;
    cfg->up_choice = uc;
    cfg->unicast_only = uo;
}

/* Digit l of packed address a (spec 2.1: B_j = clog2(m_j) bits per digit, level 1 lowest), which
 * may be impossible (>= m_l). */
static int addr_digit(const lcan_topo *t, uint32_t a, int l)
{
    int j, b = 0;
    for (j = 1; j <= l; j++) {
        a >>= b;
        for (b = 0; (1 << b) < lcan_topo_m(t, j); b++)
            ;
    }
    return (int)(a & ((1u << b) - 1u));
}

/* The level where a unicast from leaf s to packed address a turns (spec 4): the highest level
 * l >= 2 whose digit differs, else 1 (the LCA level when a is a leaf's address). */
static int turn_level(const lcan_topo *t, uint32_t s, uint32_t a)
{
    int l;
    for (l = lcan_topo_levels(t); l >= 2; l--)
        if (addr_digit(t, a, l) != test_digit(t, s, l))
            return l;
    return 1;
}

/* The leaf whose packed address (spec 2.1, netio.h) is a; N if none (an impossible digit). */
static uint32_t leaf_of(const lcan_topo *t, uint32_t a)
{
    uint32_t r, N = lcan_topo_leaves(t);
    for (r = 0; r < N; r++)
        if (test_pack(t, r) == a)
            return r;
    return N;
}

/* ------------------------------------------------------------------ a lone broadcast */

/* Does the broadcast (tree `tree`, flooding if head) from leaf s appear on network port q
 * (leaf r = q / U0) as an output of the tick tau ticks after its injection (tau = 1: the injection
 * tick)? uo: UNICAST_ONLY. d: the leaf whose packed address is tree (N: none). With UNICAST_ONLY
 * the answer is "may": a unicast takes one of the p1 parallel links of parent `tree` (spec 6's
 * choice), so exactly one of the ports that may see it does. */
static int bc_expected(const netio *io, int uo, int head, int tree, uint32_t s, uint32_t d, uint32_t q, int tau)
{
    uint32_t r = q / (uint32_t)io->U0;
    int lp = (int)(q % (uint32_t)io->U0), p1 = lcan_topo_p(io->t, 1);
    if (uo) /* spec 8.8: a unicast to leaf d, in the plane of parent `tree` (spec 8.4) */
        return r == d && lp / p1 == tree && tau == 2 * test_lca(io->t, s, d);
    if (lp != tree * p1)
        return 0;
    if (!head) /* spec 8.5: every leaf, the source too, 2h ticks */
        return tau == 2 * io->h;
    return r != s && tau == 2 * test_lca(io->t, s, r); /* spec 8.6 */
}

static void lone_bcast(const char *spec, int depth)
{
    lcan_topo *t = netio_parse(&C, spec);
    int uo, slow, head, tree, w1, p1, tau, l;
    uint32_t s, q;
    size_t nd;
    uint8_t *dbg0, *dbg;
    if (t == NULL)
        return;
    w1 = lcan_topo_w(t, 1);
    p1 = lcan_topo_p(t, 1);
    for (uo = 0; uo <= 1; uo++)
        for (slow = 0; slow <= 1; slow++) {
            netio io;
            lcan_cfg cfg;
            cfg_make(&cfg, LCAN_PACKET, depth, LCAN_UP_UNIFORM, uo);
            if (!netio_open(&io, t, &cfg)) {
                check(&C, 0, "%s UNICAST_ONLY %d: lcan_net_new failed", spec, uo);
                continue;
            }
            io.net->fast = !slow && io.net->fast; /* slow: every switch every tick (sw.c) */
            nd = lcan_net_debug_dump(io.net, NULL, 0);
            dbg0 = calloc(nd, 1);
            dbg = calloc(nd, 1);
            for (head = 0; head <= 1; head++)
                for (tree = 0; tree < w1; tree++)
                    for (s = 0; s < io.N; s++) {
                        uint32_t qs = s * (uint32_t)io.U0 + (uint32_t)(tree * p1), d = leaf_of(t, (uint32_t)tree);
                        uint64_t f = lcan_flit(io.net, head, 1, (uint32_t)tree, 0x7000u + s);
                        uint32_t up = 0, dn = 0, drop = 0;
                        long seen = 0, bad = 0, want = 0;
                        int L = turn_level(t, s, (uint32_t)tree), ok;
                        netio_reset(&io, s * 3u + (uint32_t)tree);
                        lcan_net_debug_dump(io.net, dbg0, nd);
                        for (tau = 1; tau <= 2 * io.h + 3; tau++) {
                            netio_tick_lone(&io, tau, qs, f);
                            for (q = 0; q < io.NP; q++) {
                                int exp = bc_expected(&io, uo, head, tree, s, d, q, tau);
                                want += !uo && exp;
                                seen += io.ej_valid[q];
                                bad += (io.ej_valid[q] && (!exp || io.ej_flit[q] != f)) || (!uo && exp && !io.ej_valid[q]);
                            }
                        }
                        lcan_net_debug_dump(io.net, dbg, nd);
                        for (l = 0; l < io.h; l++) {
                            up += io.cnt_up[l];
                            dn += io.cnt_down[l];
                            drop += io.cnt_drop[l];
                        }
                        want = uo ? d < io.N : want;
                        ok = bad == 0 && seen == want && memcmp(dbg, dbg0, nd) == 0;
                        if (uo) { /* one copy per link of the unicast path up to level L and down; with
                                     an impossible digit 1 (d = N) none to the leaf: dropped at level 1 */
                            int imp = d == io.N;
                            ok = ok && (imp || L == test_lca(t, s, d)) && drop == (uint32_t)imp &&
                                 io.cnt_drop[0] == (uint32_t)imp;
                            for (l = 1; l <= io.h; l++)
                                ok = ok && io.cnt_up[l - 1] == (uint32_t)(l < L) &&
                                     io.cnt_down[l - 1] == (uint32_t)(l <= L && l > imp);
                        } else {
                            ok = ok && want == (long)io.N - head && drop == 0;
                        }
                        check(&C, ok,
                              "%s UNICAST_ONLY %d %s %s broadcast tree %d from leaf %u: %ld arrivals (%ld expected), "
                              "%ld misplaced/mistimed/changed, counters %u up %u down %u dropped",
                              spec, uo, slow ? "full-scan" : "fast", head ? "flooding" : "tree", tree, s, seen, want,
                              bad, up, dn, drop);
                    }
            free(dbg0);
            free(dbg);
            netio_close(&io);
        }
    lcan_topo_free(t);
}

/* ------------------------------------------------------------------ two networks, random inputs */

typedef struct {
    double rate;      /* injection probability per ready port and tick */
    double brate;     /* of an injection: a flit with bcast = 1 */
    int faults;       /* random link_off / sw_off pins on some ticks */
} traffic;

/* Networks a (cfg ca) and b (cfg cb), b on the full-scan tick if slow_b (a if slow_a), driven with
 * the same random inputs for `ticks` ticks (resets at 0 and half way, idle phases); every output
 * and the debug view compared on every tick. Returns the first tick that differs, or -1. */
static long run_pair(const char *spec, const lcan_cfg *ca, int slow_a, const lcan_cfg *cb, int slow_b,
                     const traffic *tr, int ticks, unsigned long long seed)
{
    lcan_topo *t = netio_parse(&C, spec);
    netio a, b;
    uint8_t *da, *db, *lk, *sw;
    uint64_t nl, ns, e;
    uint32_t q, amask;
    size_t nd;
    long bad = -1;
    int k, l, w1, p1, circ = ca->mode == LCAN_CIRCUIT;
    if (t == NULL)
        return 0;
    if (!netio_open(&a, t, ca)) {
        lcan_topo_free(t);
        return 0;
    }
    if (!netio_open(&b, t, cb)) {
        netio_close(&a);
        lcan_topo_free(t);
        return 0;
    }
    a.net->fast = !slow_a && a.net->fast;
    b.net->fast = !slow_b && b.net->fast;
    nd = lcan_net_debug_dump(a.net, NULL, 0);
    da = calloc(nd, 1);
    db = calloc(nd, 1);
    nl = lcan_topo_link_count(t);
    ns = lcan_topo_switch_count(t);
    lk = calloc(nl, 1);
    sw = calloc(ns, 1);
    w1 = lcan_topo_w(t, 1);
    p1 = lcan_topo_p(t, 1);
    amask = (1u << lcan_topo_addr_width(t)) - 1u;
    for (k = 0; k < ticks && bad < 0; k++) {
        int quiet = ((k >> 7) & 3) == 3, pins = tr->faults && ((k >> 6) & 3) == 1;
        netio_idle(&a);
        a.in.rst = k == 0 || k == ticks / 2;
        a.in.seed = (uint32_t)(seed + (unsigned long long)k);
        a.in.clear = circ && k % 53 == 0;
        if (pins) /* spec 14.1: a few links and switches off, changing every tick */
            for (e = 0; e < nl + ns; e++)
                (e < nl ? lk : sw)[e < nl ? e : e - nl] = (uint8_t)(test_rng(&seed) % (e < nl ? 23 : 41) == 0);
        a.in.link_off = pins ? lk : NULL;
        a.in.sw_off = pins ? sw : NULL;
        for (q = 0; q < a.NP && !a.in.rst && !quiet; q++) {
            unsigned long long v = test_rng(&seed);
            double u = (double)(v >> 11) / 9007199254740992.0;
            int lp = (int)(q % (uint32_t)a.U0), head = (int)(test_rng(&seed) & 1u);
            uint32_t dest;
            a.ej_ack[q] = (uint8_t)(circ && (v & 1u));
            if (!a.inj_ready[q] || u >= tr->rate)
                continue;
            a.inj_valid[q] = 1;
            v = test_rng(&seed);
            u = (double)(v >> 11) / 9007199254740992.0;
            if (u < tr->brate) { /* a broadcast: on its own tree (spec 8.5) mostly, else anywhere */
                dest = (v >> 8) % 4 != 0 && lp % p1 == 0 && lp / p1 < w1 ? (uint32_t)(lp / p1) : (uint32_t)(v >> 16) & amask;
                a.inj_flit[q] = lcan_flit(a.net, head, 1, dest, (uint32_t)(v >> 40));
            } else {
                dest = lcan_topo_pack(t, (uint32_t)((v >> 16) % a.N));
                if ((v >> 8) % 500 == 0) /* now and then every dest bit set: impossible digits */
                    dest = amask;
                a.inj_flit[q] = lcan_flit(a.net, head, 0, dest, (uint32_t)(v >> 40));
            }
        }
        b.in.rst = a.in.rst;
        b.in.seed = a.in.seed;
        b.in.clear = a.in.clear;
        b.in.link_off = a.in.link_off;
        b.in.sw_off = a.in.sw_off;
        memcpy(b.inj_valid, a.inj_valid, a.NP);
        memcpy(b.inj_flit, a.inj_flit, a.NP * sizeof *a.inj_flit);
        memcpy(b.ej_ack, a.ej_ack, a.NP);
        if (netio_tick(&a) != LCAN_OK || netio_tick(&b) != LCAN_OK) {
            bad = k;
            break;
        }
        lcan_net_debug_dump(a.net, da, nd);
        lcan_net_debug_dump(b.net, db, nd);
        if (memcmp(a.inj_ready, b.inj_ready, a.NP) || memcmp(a.inj_ack, b.inj_ack, a.NP) ||
            memcmp(a.ej_valid, b.ej_valid, a.NP) || memcmp(a.ej_flit, b.ej_flit, a.NP * sizeof *a.ej_flit) ||
            memcmp(da, db, nd))
            bad = k;
        for (l = 0; l < a.h; l++)
            if (a.cnt_up[l] != b.cnt_up[l] || a.cnt_down[l] != b.cnt_down[l] || a.cnt_drop[l] != b.cnt_drop[l])
                bad = k;
    }
    free(da);
    free(db);
    free(lk);
    free(sw);
    netio_close(&a);
    netio_close(&b);
    lcan_topo_free(t);
    return bad;
}

/* Unicast traffic: UNICAST_ONLY 1 equals 0 (spec 8.8), on the fast and the full-scan tick; in
 * circuit mode with broadcast bits too. */
static void same_on_unicasts(const char *spec, int depth, lcan_up_choice uc, unsigned long long seed)
{
    static const traffic tr[] = {{0.05, 0, 0}, {0.9, 0, 0}, {0.4, 0, 1}};
    lcan_cfg c0, c1;
    int slow, k;
    long bad;
    cfg_make(&c0, LCAN_PACKET, depth, uc, 0);
    cfg_make(&c1, LCAN_PACKET, depth, uc, 1);
    for (slow = 0; slow <= 1; slow++)
        for (k = 0; k < 3; k++) {
            bad = run_pair(spec, &c0, slow, &c1, slow, &tr[k], 1200, seed + (unsigned long long)k);
            check(&C, bad < 0, "%s DEPTH %d uc %d rate %g faults %d %s: UNICAST_ONLY 1 differs from 0 at tick %ld",
                  spec, depth, uc, tr[k].rate, tr[k].faults, slow ? "full-scan" : "fast", bad);
        }
    { /* circuit mode: no effect, broadcast bits and all */
        static const traffic trc = {0.3, 0.3, 1};
        cfg_make(&c0, LCAN_CIRCUIT, depth, uc, 0);
        cfg_make(&c1, LCAN_CIRCUIT, depth, uc, 1);
        bad = run_pair(spec, &c0, 0, &c1, 0, &trc, 800, seed + 7u);
        check(&C, bad < 0, "%s uc %d circuit mode: UNICAST_ONLY 1 differs from 0 at tick %ld", spec, uc, bad);
    }
}

/* Broadcast bits on a UNICAST_ONLY network: the fast tick equals the full-scan tick. */
static void fast_equals_full(const char *spec, int depth, lcan_up_choice uc, unsigned long long seed)
{
    static const traffic tr[] = {{0.05, 0.3, 0}, {0.9, 0.2, 0}, {0.5, 0.5, 1}, {0.3, 1.0, 0}};
    lcan_cfg c1;
    int k;
    cfg_make(&c1, LCAN_PACKET, depth, uc, 1);
    for (k = 0; k < 4; k++) {
        long bad = run_pair(spec, &c1, 0, &c1, 1, &tr[k], 1200, seed + (unsigned long long)k);
        check(&C, bad < 0, "%s DEPTH %d uc %d rate %g bcast %g faults %d UNICAST_ONLY 1: fast and full-scan ticks "
                           "differ at tick %ld",
              spec, depth, uc, tr[k].rate, tr[k].brate, tr[k].faults, bad);
    }
}

/* ------------------------------------------------------------------ parameters */

static void args(void)
{
    lcan_topo *t = netio_parse(&C, "kary(4,2)");
    static const int uo_bad[] = {2, -1, 1, 1, 1};
    static const int fq_bad[] = {0, 0, 4, 255, 1};
    lcan_cfg cfg;
    lcan_net *n;
    int mode, k, l;
    size_t np = 0;
    if (t == NULL)
        return;
    for (l = 1; l <= lcan_topo_levels(t); l++) /* DBG_BYTES: every switch port (spec 9) */
        np += (size_t)lcan_topo_switches(t, l) * (size_t)(lcan_topo_downers(t, l) + lcan_topo_uppers(t, l));
    memset(&cfg, 0xA5, sizeof cfg);
    lcan_cfg_default(&cfg);
    check(&C, cfg.unicast_only == 0, "lcan_cfg_default: UNICAST_ONLY 0");
    for (mode = 0; mode <= 1; mode++) {
        for (k = 0; k < 5; k++) {
            cfg_make(&cfg, (lcan_mode)mode, 4, LCAN_UP_UNIFORM, uo_bad[k]);
            cfg.flood_q = fq_bad[k];
            n = (lcan_net *)&cfg; /* must be reset to NULL */
            check(&C, lcan_net_new(t, &cfg, &n) == LCAN_ERR_PARAM && n == NULL,
                  "mode %d UNICAST_ONLY %d FLOOD_Q %d refused with LCAN_ERR_PARAM", mode, uo_bad[k], fq_bad[k]);
        }
        cfg_make(&cfg, (lcan_mode)mode, 4, LCAN_UP_UNIFORM, 1);
        cfg.flood_q = 256; /* out of range: LCAN_ERR_ARG as before */
        n = (lcan_net *)&cfg;
        check(&C, lcan_net_new(t, &cfg, &n) == LCAN_ERR_ARG && n == NULL, "mode %d UNICAST_ONLY 1 FLOOD_Q 256", mode);
        cfg.flood_q = 0;
        n = NULL;
        check(&C, lcan_net_new(t, &cfg, &n) == LCAN_OK && n != NULL &&
                      lcan_net_debug_dump(n, NULL, 0) == np,
              "mode %d UNICAST_ONLY 1 FLOOD_Q 0 taken (one debug block)", mode);
        lcan_net_free(n);
    }
    lcan_topo_free(t);
}

int main(void)
{
    static const char *specs[] = {"kary(4,2)", "xgft(2;4,4;2,3)", "pgft(2;3,4;2,3;2,1)", "lcan(2,2,16)"};
    size_t i;
    int uc;
    args();
    lone_bcast("lcan(2,2,16)", 2);
    lone_bcast("xgft(2;4,4;2,3)", 4);
    lone_bcast("pgft(2;3,4;2,3;2,1)", 1);
    lone_bcast("pgft(3;3,3,2;2,3,2;3,2,2)", 4);
    lone_bcast("xgft(2;3,2;4,1)", 2); /* w1 = 4 > m1 = 3: tree 3's digit 1 is impossible */
    for (uc = LCAN_UP_ROTATE; uc <= LCAN_UP_UNIFORM; uc++)
        for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
            same_on_unicasts(specs[i], 1, (lcan_up_choice)uc, 100 + i);
            same_on_unicasts(specs[i], 4, (lcan_up_choice)uc, 200 + i);
            fast_equals_full(specs[i], 1, (lcan_up_choice)uc, 300 + i);
            fast_equals_full(specs[i], 4, (lcan_up_choice)uc, 400 + i);
        }
    return check_done(&C);
}
