/*
 * test_net_packet.c - packet mode (spec 8) of lcan_net_tick.
 *
 *  - a lone unicast injected at tick t appears on its destination's ej as an output of tick
 *    t + 2L - 1 (L from digits, computed here), nowhere else; counters L - 1 up, L down; credits
 *    all return (debug view back to DEPTH, 0 for level-1 downers); inj_ack stays 0;
 *  - identity traffic, every port offering a flit every tick: with DEPTH >= 3 one flit per port per
 *    tick is sustained; with DEPTH = 2 / 1 the 3-tick credit loop allows 2/3 / 1/3;
 *  - heavy uniform random traffic (with some broadcasts): credits never exceed DEPTH nor go
 *    negative, every unicast arrives exactly once at its destination with its payload, every
 *    broadcast reaches every leaf exactly once, and the network drains back to full credit;
 *  - broadcast on tree t < w1 from any leaf reaches every leaf, on leaf port t*p1, as an output of
 *    tick t_inj + 2h - 1 (2h ticks in the network, like a unicast with L = h); a flooding broadcast
 *    (head = 1) reaches every leaf but the source, at t_inj + 2L - 1 (heavy traffic mixes both).
 */
#include <stdio.h>

#include "check.h"
#include "netio.h"

static check_ctx C = {"test_net_packet", 0, 0};

static lcan_topo *parse(const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    check(&C, lcan_topo_parse(spec, &t, err, sizeof err) == LCAN_OK, "parse %s: %s", spec, err);
    return t;
}

static int open_packet(netio *io, const lcan_topo *t, int depth, int payload_w)
{
    lcan_cfg cfg;
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    cfg.depth = depth;
    cfg.payload_w = payload_w;
    return netio_open(io, t, &cfg);
}

/* Debug view: level-1 downers 0, every other output 0..depth; if full, every other output = depth. */
static int credits_ok(netio *io, int depth, int full)
{
    int l, o;
    uint32_t x;
    for (l = 1; l <= io->h; l++) {
        int D = lcan_topo_downers(io->t, l), P = D + lcan_topo_uppers(io->t, l);
        for (x = 0; x < lcan_topo_switches(io->t, l); x++)
            for (o = 0; o < P; o++) {
                int v = lcan_net_debug(io->net, l, x, o);
                if (l == 1 && o < D) {
                    if (v != 0)
                        return 0;
                } else if (v > depth || (full && v != depth)) {
                    return 0;
                }
            }
    }
    return 1;
}

static void lone(const char *spec, long sample)
{
    lcan_topo *t = parse(spec);
    netio io;
    unsigned long long rng = 7;
    long k, npairs;
    int depth = 4;
    if (t == NULL || !open_packet(&io, t, depth, 16))
        return;
    npairs = sample ? sample : (long)io.N * io.N;
    for (k = 0; k < npairs; k++) {
        uint32_t s = sample ? (uint32_t)(test_rng(&rng) % io.N) : (uint32_t)(k / io.N);
        uint32_t d = sample ? (uint32_t)(test_rng(&rng) % io.N) : (uint32_t)(k % io.N);
        int lp = (int)((s + d) % (uint32_t)io.U0), L = test_lca(t, s, d), p1 = lcan_topo_p(t, 1), tau, l, ok = 1;
        uint32_t qs = s * (uint32_t)io.U0 + (uint32_t)lp, q;
        uint64_t f = lcan_flit(io.net, 0, 0, test_pack(t, d), 0xA000u + s);
        int seen = 0;
        netio_reset(&io, (uint32_t)k);
        for (tau = 1; tau <= 2 * L + 4 && ok; tau++) {
            netio_idle(&io);
            if (tau == 1) {
                ok = io.inj_ready[qs] == 1;
                io.inj_valid[qs] = 1;
                io.inj_flit[qs] = f;
            }
            netio_tick(&io);
            for (q = 0; q < io.NP; q++) {
                int exp = tau == 2 * L && q / (uint32_t)io.U0 == d && (int)(q % (uint32_t)io.U0) / p1 == lp / p1;
                if (io.ej_valid[q]) {
                    seen++;
                    if (!exp || io.ej_flit[q] != f)
                        ok = 0;
                } else if (io.ej_flit[q] != 0) {
                    ok = 0;
                }
                if (io.inj_ack[q])
                    ok = 0;
            }
        }
        ok = ok && seen == 1 && credits_ok(&io, depth, 1);
        for (l = 1; l <= io.h; l++)
            ok = ok && io.cnt_up[l - 1] == (uint32_t)(l < L) && io.cnt_down[l - 1] == (uint32_t)(l <= L) &&
                 io.cnt_drop[l - 1] == 0;
        for (q = 0; q < io.NP; q++)
            ok = ok && io.inj_ready[q];
        check(&C, ok, "%s: lone unicast %u->%u (L=%d): latency/uniqueness/credits/counters", spec, s, d, L);
    }
    netio_close(&io);
    lcan_topo_free(t);
}

/* Identity traffic, every port offers a flit on every tick: accepted flits per port per tick. */
static double identity_rate(const char *spec, int depth)
{
    lcan_topo *t = parse(spec);
    netio io;
    long acc = 0, ej = 0, bad = 0;
    int tau, T = 300;
    uint32_t q;
    if (t == NULL || !open_packet(&io, t, depth, 16))
        return -1;
    netio_reset(&io, 3);
    for (tau = 1; tau <= T; tau++) {
        netio_idle(&io);
        for (q = 0; q < io.NP; q++) {
            io.inj_valid[q] = 1;
            io.inj_flit[q] = lcan_flit(io.net, 0, 0, test_pack(t, q / (uint32_t)io.U0), (uint32_t)tau);
            if (tau > 50)
                acc += io.inj_ready[q];
        }
        netio_tick(&io);
        for (q = 0; q < io.NP; q++) {
            if (tau > 50)
                ej += io.ej_valid[q];
            bad += io.ej_valid[q] && lcan_flit_dest(io.net, io.ej_flit[q]) != test_pack(t, q / (uint32_t)io.U0);
        }
    }
    check(&C, bad == 0, "%s identity: %ld flits at a wrong leaf", spec, bad);
    check(&C, labs(acc - ej) <= (long)io.NP * (depth + 2), "%s identity: accepted %ld vs delivered %ld", spec, acc, ej);
    netio_close(&io);
    lcan_topo_free(t);
    return (double)ej / ((double)(T - 50) * io.NP);
}

/* Heavy uniform random traffic with unique payloads; bcast_per_mille broadcasts. */
static void heavy(const char *spec, int depth, int bcast_per_mille, int T)
{
    lcan_topo *t = parse(spec);
    netio io;
    unsigned long long rng = 99;
    uint32_t *dest, *got, *src, next = 0, q, id;
    uint8_t *isb;
    long injected = 0, ejected = 0, lost = 0, dup = 0, wrong = 0, credit_bad = 0, bc_inj = 0;
    int tau, w1, p1;
    const uint32_t MAXID = 4000000;
    if (t == NULL || !open_packet(&io, t, depth, 32))
        return;
    w1 = lcan_topo_w(t, 1);
    p1 = lcan_topo_p(t, 1);
    dest = malloc(MAXID * sizeof *dest);
    src = malloc(MAXID * sizeof *src);
    got = calloc(MAXID, sizeof *got);
    isb = calloc(MAXID, 1);
    netio_reset(&io, 11);
    for (tau = 1; tau <= T + 400; tau++) {
        netio_idle(&io);
        for (q = 0; q < io.NP && tau <= T; q++) {
            int b = (int)(test_rng(&rng) % 1000) < bcast_per_mille, tree = (int)(q % (uint32_t)io.U0) / p1;
            int fl = b && (test_rng(&rng) & 1u); /* half of the broadcasts flood (spec 8.6) */
            if (b && (int)(q % (uint32_t)io.U0) != tree * p1)
                b = fl = 0; /* broadcasts only on a tree's port t*p1 */
            if (!io.inj_ready[q] || next >= MAXID)
                continue; /* offered only when ready, so every offered flit is taken */
            id = next++;
            isb[id] = (uint8_t)(b + fl); /* 1 tree, 2 flooding */
            src[id] = q / (uint32_t)io.U0;
            dest[id] = b ? (uint32_t)tree : (uint32_t)(test_rng(&rng) % io.N);
            io.inj_valid[q] = 1;
            io.inj_flit[q] = lcan_flit(io.net, fl, b, b ? dest[id] : test_pack(t, dest[id]), id);
            injected++;
            bc_inj += b;
        }
        netio_tick(&io);
        for (q = 0; q < io.NP; q++) {
            uint32_t leaf = q / (uint32_t)io.U0;
            if (!io.ej_valid[q])
                continue;
            ejected++;
            id = lcan_flit_payload(io.net, io.ej_flit[q]);
            if (id >= next) {
                wrong++;
                continue;
            }
            if (isb[id]) {
                if (!lcan_flit_bcast(io.net, io.ej_flit[q]) || lcan_flit_dest(io.net, io.ej_flit[q]) != dest[id] ||
                    q % (uint32_t)io.U0 != dest[id] * (uint32_t)p1 ||
                    lcan_flit_head(io.net, io.ej_flit[q]) != (isb[id] == 2) || (isb[id] == 2 && leaf == src[id]))
                    wrong++;
            } else if (leaf != dest[id] || lcan_flit_dest(io.net, io.ej_flit[q]) != test_pack(t, dest[id]) ||
                       lcan_flit_bcast(io.net, io.ej_flit[q])) {
                wrong++;
            }
            got[id]++;
        }
        credit_bad += !credits_ok(&io, depth, 0);
    }
    for (id = 0; id < next; id++) {
        uint32_t want = isb[id] == 2 ? io.N - 1 : isb[id] ? io.N : 1;
        lost += got[id] < want;
        dup += got[id] > want;
    }
    check(&C, credit_bad == 0, "%s DEPTH %d: credits out of 0..DEPTH on %ld ticks", spec, depth, credit_bad);
    check(&C, wrong == 0 && lost == 0 && dup == 0,
          "%s DEPTH %d: %ld injected (%ld bcast), %ld ejected, %ld wrong, %ld lost, %ld duplicated", spec, depth,
          injected, bc_inj, ejected, wrong, lost, dup);
    check(&C, credits_ok(&io, depth, 1), "%s DEPTH %d: credits back to DEPTH after draining", spec, depth);
    check(&C, injected > (long)T * (long)io.NP / 20, "%s DEPTH %d: load too light (%ld)", spec, depth, injected);
    (void)w1;
    printf("test_net_packet: %s DEPTH %d uniform random: %.3f flits/port/tick accepted, %ld broadcasts\n", spec, depth,
           (double)(injected - bc_inj) / ((double)T * io.NP), bc_inj);
    free(dest);
    free(src);
    free(got);
    free(isb);
    netio_close(&io);
    lcan_topo_free(t);
}

static void bcast(const char *spec)
{
    lcan_topo *t = parse(spec);
    netio io;
    int w1, p1, tree, tau, l;
    uint32_t s, q;
    if (t == NULL || !open_packet(&io, t, 2, 16))
        return;
    w1 = lcan_topo_w(t, 1);
    p1 = lcan_topo_p(t, 1);
    for (tree = 0; tree < w1; tree++)
        for (s = 0; s < io.N; s += 1 + io.N / 7) {
            uint32_t qs = s * (uint32_t)io.U0 + (uint32_t)(tree * p1);
            uint64_t f = lcan_flit(io.net, 0, 1, (uint32_t)tree, 0x5000u + s);
            long seen = 0, bad = 0;
            int ok;
            uint32_t prod = 1;
            netio_reset(&io, s + 1u);
            for (tau = 1; tau <= 2 * io.h + 3; tau++) {
                netio_idle(&io);
                if (tau == 1) {
                    io.inj_valid[qs] = 1;
                    io.inj_flit[qs] = f;
                }
                netio_tick(&io);
                for (q = 0; q < io.NP; q++) {
                    int exp = tau == 2 * io.h && q % (uint32_t)io.U0 == (uint32_t)(tree * p1);
                    seen += io.ej_valid[q];
                    bad += io.ej_valid[q] != exp || (exp && io.ej_flit[q] != f);
                }
            }
            ok = bad == 0 && seen == (long)io.N && credits_ok(&io, 2, 1);
            for (l = io.h; l >= 1; l--) { /* copies at level l: m_l * .. * m_h */
                prod *= (uint32_t)lcan_topo_m(t, l);
                ok = ok && io.cnt_down[l - 1] == prod && io.cnt_up[l - 1] == (uint32_t)(l < io.h);
            }
            check(&C, ok, "%s: broadcast tree %d from leaf %u: %ld arrivals (N=%u), %ld misplaced/mistimed", spec, tree,
                  s, seen, io.N, bad);
        }
    netio_close(&io);
    lcan_topo_free(t);
}

/* Flooding broadcast (spec 8.6) on tree t from leaf s, idle network: every leaf r != s receives it
 * once, on leaf port t*p1, as an output of tick t_inj + 2L - 1 (L = LCA level of s and r, from
 * digits here), the source never; one copy climbs per level below the top and level l writes
 * m_l*..*m_h - 1 down copies; credits all return. */
static void flood(const char *spec)
{
    lcan_topo *t = parse(spec);
    netio io;
    int w1, p1, tree, tau, l;
    uint32_t s, q;
    if (t == NULL || !open_packet(&io, t, 2, 16))
        return;
    w1 = lcan_topo_w(t, 1);
    p1 = lcan_topo_p(t, 1);
    for (tree = 0; tree < w1; tree++)
        for (s = 0; s < io.N; s += 1 + io.N / 7) {
            uint32_t qs = s * (uint32_t)io.U0 + (uint32_t)(tree * p1);
            uint64_t f = lcan_flit(io.net, 1, 1, (uint32_t)tree, 0x6000u + s);
            long seen = 0, bad = 0;
            int ok;
            uint32_t prod = 1;
            netio_reset(&io, s + 7u);
            for (tau = 1; tau <= 2 * io.h + 3; tau++) {
                netio_idle(&io);
                if (tau == 1) {
                    io.inj_valid[qs] = 1;
                    io.inj_flit[qs] = f;
                }
                netio_tick(&io);
                for (q = 0; q < io.NP; q++) {
                    uint32_t r = q / (uint32_t)io.U0;
                    int exp = r != s && tau == 2 * test_lca(t, s, r) && q % (uint32_t)io.U0 == (uint32_t)(tree * p1);
                    seen += io.ej_valid[q];
                    bad += io.ej_valid[q] != exp || (exp && io.ej_flit[q] != f);
                }
            }
            ok = bad == 0 && seen == (long)io.N - 1 && credits_ok(&io, 2, 1);
            for (l = io.h; l >= 1; l--) {
                prod *= (uint32_t)lcan_topo_m(t, l);
                ok = ok && io.cnt_down[l - 1] == prod - 1 && io.cnt_up[l - 1] == (uint32_t)(l < io.h);
            }
            check(&C, ok, "%s: flooding broadcast tree %d from leaf %u: %ld arrivals (N-1=%u), %ld misplaced/mistimed",
                  spec, tree, s, seen, io.N - 1, bad);
        }
    netio_close(&io);
    lcan_topo_free(t);
}

int main(void)
{
    static const char *specs[] = {"lcan(2,2,16)", "lcan(4,2,64)", "lcan(2,4,16)", "bft(3;1,2,4)",
                                  "pgft(2;3,4;2,3;2,1)", "xgft(2;4,4;1,2)", "cm5"};
    size_t i;
    double r;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++)
        lone(specs[i], i + 1 < sizeof specs / sizeof specs[0] ? 0 : 300);
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        r = identity_rate(specs[i], 3);
        check(&C, r == 1.0, "%s identity DEPTH 3: %.4f flits/port/tick (expected 1)", specs[i], r);
        r = identity_rate(specs[i], 4);
        check(&C, r == 1.0, "%s identity DEPTH 4: %.4f flits/port/tick (expected 1)", specs[i], r);
        r = identity_rate(specs[i], 2);
        check(&C, r > 0.66 && r < 0.67, "%s identity DEPTH 2: %.4f flits/port/tick (expected 2/3)", specs[i], r);
        r = identity_rate(specs[i], 1);
        check(&C, r > 0.33 && r < 0.34, "%s identity DEPTH 1: %.4f flits/port/tick (expected 1/3)", specs[i], r);
        bcast(specs[i]);
        flood(specs[i]);
    }
    flood("bft(4;1,2,4,8)");
    flood("pgft(3;3,3,2;2,3,2;3,2,2)");
    heavy("lcan(2,2,64)", 4, 0, 2000);
    heavy("lcan(4,2,64)", 1, 0, 1000);
    heavy("pgft(2;3,4;2,3;2,1)", 2, 20, 2000);
    heavy("cm5", 3, 0, 400);
    heavy("cm5", 4, 2, 300);
    heavy("xgft(2;4,4;1,2)", 4, 30, 2000);
    heavy("bft(4;1,1,1,1)", 4, 300, 600);
    heavy("pgft(3;3,3,2;2,3,2;3,2,2)", 3, 100, 600);
    return check_done(&C);
}
