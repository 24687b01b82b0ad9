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
 *  - a unicast with an impossible destination digit (spec 4) is discarded and counted in cnt_drop;
 *  - faults (spec 14), expected values derived here from the spec's numbering: an off upper is
 *    never granted while the other is (also with parallel links); an unroutable candidate (uppers
 *    off or unreached by the reach rows, its switch off) makes no request (the LFSR holds), is
 *    consumed (credit returned) and counted; a row written through cfg_we is used from the next
 *    tick; reset restores all-ones rows; a switch turned off empties itself, counting every packet
 *    (injected = delivered + dropped); a packet already on a link turned off arrives; tree and
 *    flooding broadcasts skip off children (not counted), a climbing broadcast with upper 0 off is
 *    counted; and the event-driven tick equals the full-scan tick under random faults and row
 *    writes (every output, cnt_drop and the debug view), and zero pins equal NULL pins.
 *  - flood queues (spec 8.7): lcan_net_new refuses FLOOD_Q -1, 256 (both modes) and, in packet mode,
 *    a FLOOD_Q below the largest m_l (1 on a binary tree); the debug view has
 *    2 * DBG_BYTES bytes in packet mode with FLOOD_Q > 0; a lone flooding broadcast keeps 8.6's
 *    latency with FLOOD_Q 4 and 8; seed 000's multinode broadcast on bft(h;1,..,1), h = 2..8, with
 *    FLOOD_Q = min(255, N), DEPTH = min(255, max(4, N)): N(N-1) copies, none lost or duplicated,
 *    the peak q_o at level-i uppers is 2^(i-1) (seed 000 4.1), the last delivery (printed) is at
 *    least N - 1 ticks after the injection; FLOOD_Q 2 (h <= 6): the same copies, q_o <= 2; the
 *    smallest FLOOD_Q (max m_l) with one source streaming floods at DEPTH 1: all delivered in order,
 *    q_o <= FLOOD_Q; without flooding a FLOOD_Q 4 network equals a FLOOD_Q 0 one output by output; random traffic with
 *    flooding broadcasts and FLOOD_Q 8 loses and duplicates nothing and drains.
 */
#include <stdio.h>

#include "check.h"
#include "lcan_faults.h"
#include "net_internal.h"
#include "netio.h"

static check_ctx C = {"test_net_packet", 0, 0};

static lcan_topo *parse(const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    check(&C, lcan_topo_parse(spec, &t, err, sizeof err) == LCAN_OK, "parse %s: %s", spec, err);
    return t;
}

static int g_flood_q; /* FLOOD_Q of the networks open_packet makes (spec 8.7) */

static int open_packet(netio *io, const lcan_topo *t, int depth, int payload_w)
{
    lcan_cfg cfg;
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    cfg.depth = depth;
    cfg.payload_w = payload_w;
    cfg.flood_q = g_flood_q;
    if (netio_open(io, t, &cfg))
        return 1;
    check(&C, 0, "%s DEPTH %d FLOOD_Q %d: lcan_net_new failed", lcan_topo_canonical(t), depth, g_flood_q);
    return 0;
}

/* Every flood queue of the network empty (spec 8.7; the debug view's second block), or, when
 * fq = 0 (the network's FLOOD_Q), no second block at all. */
static int queues_empty(netio *io, int fq)
{
    size_t np = 0, len, b;
    uint8_t *buf;
    int l, ok = 1;
    for (l = 1; l <= io->h; l++)
        np += (size_t)lcan_topo_switches(io->t, l) * (size_t)(lcan_topo_downers(io->t, l) + lcan_topo_uppers(io->t, l));
    len = lcan_net_debug_dump(io->net, NULL, 0);
    if (len != (fq > 0 ? 2 * np : np))
        return 0;
    buf = malloc(len);
    lcan_net_debug_dump(io->net, buf, len);
    for (b = np; b < len; b++)
        ok = ok && buf[b] == 0;
    free(buf);
    return ok;
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
    check(&C, credits_ok(&io, depth, 1) && queues_empty(&io, g_flood_q),
          "%s DEPTH %d FLOOD_Q %d: credits back to DEPTH, flood queues empty after draining", spec, depth, g_flood_q);
    check(&C, injected > (long)T * (long)io.NP / 20, "%s DEPTH %d: load too light (%ld)", spec, depth, injected);
    (void)w1;
    printf("test_net_packet: %s DEPTH %d FLOOD_Q %d uniform random: %.3f flits/port/tick accepted, %ld broadcasts\n",
           spec, depth, g_flood_q, (double)(injected - bc_inj) / ((double)T * io.NP), bc_inj);
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
            ok = bad == 0 && seen == (long)io.N - 1 && credits_ok(&io, 2, 1) && queues_empty(&io, g_flood_q);
            for (l = io.h; l >= 1; l--) {
                prod *= (uint32_t)lcan_topo_m(t, l);
                ok = ok && io.cnt_down[l - 1] == prod - 1 && io.cnt_up[l - 1] == (uint32_t)(l < io.h);
            }
            check(&C, ok,
                  "%s FLOOD_Q %d: flooding broadcast tree %d from leaf %u: %ld arrivals (N-1=%u), %ld misplaced/mistimed",
                  spec, g_flood_q, tree, s, seen, io.N - 1, bad);
        }
    netio_close(&io);
    lcan_topo_free(t);
}

/* ------------------------------------------------------------------ faults (spec 14) */

static int g_slow; /* run the fault tests on the full-scan tick (n->fast = 0) instead */

static int open_fpacket(netio *io, const lcan_topo *t, int depth)
{
    if (!open_packet(io, t, depth, 16))
        return 0;
    if (g_slow)
        io->net->fast = 0;
    return 1;
}

/* Fault pins for the small networks below (NL, NS <= 64, RW <= 64 bits: one row word). */
typedef struct { uint8_t link[64], sw[64]; uint64_t row; } fpins;

static void pins_attach(netio *io, fpins *f)
{
    memset(f, 0, sizeof *f);
    io->in.link_off = f->link;
    io->in.sw_off = f->sw;
    io->in.cfg_row = &f->row;
    io->in.cfg_we = 0;
}

static void pins_clear(fpins *f)
{
    memset(f->link, 0, sizeof f->link);
    memset(f->sw, 0, sizeof f->sw);
}

/* One tick: a flit from network port qs (if >= 0) with the given head/bcast/dest (dest: a leaf
 * number for a unicast, packed here; the tree for a broadcast); a row write when addr >= 0. */
static void ftick(netio *io, fpins *f, int qs, int head, int bc, uint32_t d, uint32_t payload, long addr, uint64_t row)
{
    netio_idle(io);
    if (qs >= 0) {
        io->inj_valid[qs] = 1;
        io->inj_flit[qs] = lcan_flit(io->net, head, bc, bc ? d : test_pack(io->t, d), payload);
    }
    io->in.cfg_we = addr >= 0;
    io->in.cfg_addr = addr >= 0 ? (uint32_t)addr : 0;
    f->row = row;
    netio_tick(io);
    io->in.cfg_we = 0;
}

static uint32_t sum3(const uint32_t *c, int h)
{
    uint32_t s = 0;
    int l;
    for (l = 0; l < h; l++)
        s += c[l];
    return s;
}

/* Leaf 0 (port 0) sends to leaf 2 on tick 1; level-1 switch 0 forwards it on tick 2 through upper
 * 0 or 1 (local port D1 or D1 + 1; its credit counter drops from 4 to 3); it reaches leaf 2's
 * port 0 as an output of tick 4. off_link / off_sw: the link / parent of upper 1 (-1: none). */
static void f_upper(const char *spec, int D1, int off_link, int off_sw)
{
    lcan_topo *t = parse(spec);
    netio io;
    fpins f;
    int variant, uc, tau;
    uint32_t seed;
    if (t == NULL)
        return;
    for (variant = 0; variant < 3; variant++) {
        long used0 = 0, used1 = 0, both = 0, lost = 0, drop = 0;
        if (variant == 2 && off_sw < 0)
            break;
        for (uc = LCAN_UP_ROTATE; uc <= LCAN_UP_UNIFORM; uc++) {
            lcan_cfg cfg;
            lcan_cfg_default(&cfg);
            cfg.mode = LCAN_PACKET;
            cfg.up_choice = (lcan_up_choice)uc;
            if (!netio_open(&io, t, &cfg))
                break;
            if (g_slow)
                io.net->fast = 0;
            pins_attach(&io, &f);
            for (seed = 1; seed <= 32; seed++) {
                int u0, u1, got = 0;
                netio_reset(&io, seed);
                pins_clear(&f);
                if (variant == 1)
                    f.link[off_link] = 1;
                if (variant == 2)
                    f.sw[off_sw] = 1;
                ftick(&io, &f, 0, 0, 0, 2, 0, -1, 0);
                ftick(&io, &f, -1, 0, 0, 0, 0, -1, 0);
                u0 = lcan_net_debug(io.net, 1, 0, D1) == 3;
                u1 = lcan_net_debug(io.net, 1, 0, D1 + 1) == 3;
                used0 += u0;
                used1 += u1;
                both += u0 == u1;
                for (tau = 3; tau <= 6; tau++) {
                    ftick(&io, &f, -1, 0, 0, 0, 0, -1, 0);
                    got += io.ej_valid[2 * (uint32_t)io.U0] && tau == 4;
                    got += 10 * (io.ej_valid[2 * (uint32_t)io.U0] && tau != 4);
                }
                lost += got != 1 || !credits_ok(&io, 4, 1);
                drop += sum3(io.cnt_drop, io.h);
            }
            netio_close(&io);
        }
        if (variant == 0)
            check(&C, used0 > 0 && used1 > 0 && both == 0 && lost == 0 && drop == 0,
                  "%s no faults: upper 0 taken %ld times, upper 1 %ld, %ld lost, %ld dropped", spec, used0, used1, lost,
                  drop);
        else
            check(&C, used0 == 64 && used1 == 0 && both == 0 && lost == 0 && drop == 0,
                  "%s %s of upper 1 off: upper 0 taken %ld/64 times, upper 1 %ld, %ld lost, %ld dropped", spec,
                  variant == 1 ? "link" : "far switch", used0, used1, lost, drop);
    }
    lcan_topo_free(t);
}

/* gft(2,2,2) = PGFT(2; 2,2; 2,2; 1,1): N = 4, U0 = 2, S1 = S2 = 4, D1 = U1 = D2 = 2, RW = 4 bits.
 * Level-1 switch x = b1 + 2 a2, its upper y goes to level-2 switch b1 + 2y (downer a2). Links:
 * level 1 2x + o, level 2 8 + 2x + o; switches: level 1 0..3, level 2 4..7; rows 2x + j.
 * L1:0's uppers: links 8 (L2:0) and 12 (L2:2), rows 0 and 1; leaf 0 -> leaf 2: packed dest 2,
 * row 0xB lacks it. DEPTH 1: inj_ready of port 0 is 0 as an output of ticks 1 and 2 and 1 again
 * on tick 3, whether the packet was forwarded or dropped on tick 2 (credit returned). */
static void f_unroutable(void)
{
    lcan_topo *t = parse("gft(2,2,2)");
    netio io;
    fpins f;
    int c, tau;
    uint32_t s, before;
    if (t == NULL || !open_fpacket(&io, t, 1))
        return;
    pins_attach(&io, &f);
    /* 0: both upper links off; 1: rows 1 and 0 := 0xB, row 1 on tick 1 and row 0 on tick 2 (with
     * a first packet, which row 0 must not affect yet), then a second packet finds both; 2: L1:0
     * off; 3: L2:0 off (the far end of upper 0) and link 12 */
    for (c = 0; c < 4; c++)
        for (s = 1; s <= 8; s++) {
            int rd[4], got = 0;
            netio_reset(&io, s);
            pins_clear(&f);
            f.link[8] = c == 0;
            f.link[12] = c == 0 || c == 3;
            f.sw[0] = c == 2;
            f.sw[4] = c == 3;
            if (c == 1) { /* row 1 on tick 1, row 0 on tick 2 (with the header: too late for it) */
                ftick(&io, &f, 0, 0, 0, 2, 0, 1, 0xB);
                rd[1] = io.inj_ready[0];
                before = io.net->lfsr[0];
                ftick(&io, &f, -1, 0, 0, 0, 0, 0, 0xB);
                check(&C, io.cnt_up[0] == 1 && io.cnt_drop[0] == 0 && lcan_net_debug(io.net, 1, 0, 2) == 0,
                      "seed %u: row 1 (tick 1) used on tick 2, row 0 (tick 2) not: upper 0 (%u up, %u dropped)", s,
                      io.cnt_up[0], io.cnt_drop[0]);
                for (tau = 3; tau <= 5; tau++) /* let the credit of upper 0 come back */
                    ftick(&io, &f, -1, 0, 0, 0, 0, -1, 0);
            }
            ftick(&io, &f, 0, 0, 0, 2, 1, -1, 0);
            rd[1] = io.inj_ready[0];
            before = io.net->lfsr[0];
            ftick(&io, &f, -1, 0, 0, 0, 0, -1, 0);
            rd[2] = io.inj_ready[0];
            check(&C, io.cnt_drop[0] == 1 && sum3(io.cnt_drop, 2) == 1 && io.cnt_up[0] == (uint32_t)(c == 1) &&
                      io.net->lfsr[0] == before,
                  "case %d seed %u: unroutable packet discarded, counted (%u), no request (LFSR held)", c, s,
                  io.cnt_drop[0]);
            ftick(&io, &f, -1, 0, 0, 0, 0, -1, 0);
            rd[3] = io.inj_ready[0];
            check(&C, rd[1] == 0 && rd[2] == 0 && rd[3] == 1, "case %d seed %u: credit returned (inj_ready %d %d %d)", c,
                  s, rd[1], rd[2], rd[3]);
            for (tau = 0; tau < 4; tau++) {
                ftick(&io, &f, -1, 0, 0, 0, 0, -1, 0);
                got += io.ej_valid[4];
            }
            check(&C, got == 0 && credits_ok(&io, 1, 1), "case %d seed %u: not delivered, credits full", c, s);
        }
    /* reset restores all-ones rows; a write to row NR = 8 is ignored */
    for (c = 0; c < 2; c++) {
        netio_reset(&io, 5);
        pins_clear(&f);
        ftick(&io, &f, -1, 0, 0, 0, 0, c ? 8 : 0, 0);
        ftick(&io, &f, -1, 0, 0, 0, 0, c ? 9 : 1, 0);
        if (c == 0)
            netio_reset(&io, 5);
        ftick(&io, &f, 0, 0, 0, 2, 0, -1, 0);
        ftick(&io, &f, -1, 0, 0, 0, 0, -1, 0);
        check(&C, io.cnt_up[0] == 1 && io.cnt_drop[0] == 0, "%s",
              c ? "packet: writes to rows >= NR ignored" : "packet: reset restores all-ones rows");
    }
    netio_close(&io);
    lcan_topo_free(t);
}

/* An impossible destination digit (spec 4): xgft(2;3,2;1,2) has m1 = 3 (B1 = 2 bits), so digit
 * value 3 is impossible. From leaf 0: dest 3 (a2 = 0) is discarded at its level-1 switch at once;
 * dest 7 (a2 = 1) climbs, turns at the top and is discarded at the other level-1 switch. Both are
 * counted in cnt_drop at level 1; the LFSR of the discarding switch holds. */
static void f_baddigit(void)
{
    lcan_topo *t = parse("xgft(2;3,2;1,2)");
    netio io;
    fpins f;
    int c, tau;
    if (t == NULL || !open_fpacket(&io, t, 4))
        return;
    pins_attach(&io, &f);
    io.in.link_off = io.in.sw_off = NULL; /* no faults at all */
    for (c = 0; c < 2; c++) {
        uint32_t before = io.net->lfsr[0];
        long got = 0;
        netio_reset(&io, 9);
        before = io.net->lfsr[0];
        netio_idle(&io);
        io.inj_valid[0] = 1;
        io.inj_flit[0] = lcan_flit(io.net, 0, 0, c ? 7 : 3, 1);
        netio_tick(&io);
        for (tau = 2; tau <= 8; tau++) {
            netio_idle(&io);
            netio_tick(&io);
            if (tau == 2)
                check(&C, c == 1 || io.net->lfsr[0] == before, "impossible digit: no request, LFSR held");
            for (uint32_t q = 0; q < io.NP; q++)
                got += io.ej_valid[q];
        }
        check(&C, got == 0 && io.cnt_drop[0] == 1 && io.cnt_drop[1] == 0 && io.cnt_up[0] == (uint32_t)c &&
                  io.cnt_down[1] == (uint32_t)c && credits_ok(&io, 4, 1),
              "impossible digit to %u: discarded and counted in packet mode (drop %u %u, up %u, down %u)", c ? 7 : 3,
              io.cnt_drop[0], io.cnt_drop[1], io.cnt_up[0], io.cnt_down[1]);
    }
    netio_close(&io);
    lcan_topo_free(t);
}

/* gft(2,2,2), DEPTH 4: leaves 1, 2, 3 send to leaf 0 (port 0) on every tick they may, so the
 * inputs of L1:0 contend for its downer 0 and its FIFOs fill. From tick 31 on L1:0 is off and
 * nothing more is injected: L1:0 discards what it holds and what still arrives (counted at level
 * 1), the level-2 switches discard what they hold for it (their downer to L1:0 is off: level 2),
 * nothing reaches leaf 0 after tick 30, and injected = delivered + dropped; credits all return. */
static void f_swoff(void)
{
    lcan_topo *t = parse("gft(2,2,2)");
    netio io;
    fpins f;
    int tau, late = 0;
    uint32_t held = 0, delivered = 0, injected = 0, q, i;
    if (t == NULL || !open_fpacket(&io, t, 4))
        return;
    pins_attach(&io, &f);
    netio_reset(&io, 21);
    for (tau = 1; tau <= 90; tau++) {
        netio_idle(&io);
        f.sw[0] = tau >= 31;
        if (tau == 31)
            for (i = 0; i < 4; i++)
                held += io.net->fcount[i]; /* L1:0's inputs are global ports 0..3 */
        for (q = 2; q < io.NP && tau <= 30; q += 2)
            if (io.inj_ready[q]) {
                io.inj_valid[q] = 1;
                io.inj_flit[q] = lcan_flit(io.net, 0, 0, 0, (uint32_t)tau);
                injected++;
            }
        netio_tick(&io);
        for (q = 0; q < io.NP; q++)
            if (io.ej_valid[q]) {
                delivered++;
                late += tau > 30 || q != 0;
            }
    }
    check(&C, held >= 4 && late == 0 && injected == delivered + sum3(io.cnt_drop, 2) && io.cnt_drop[0] >= held &&
              io.net->fcount[0] + io.net->fcount[1] + io.net->fcount[2] + io.net->fcount[3] == 0 &&
              credits_ok(&io, 4, 1),
          "switch turned off: %u held, %u injected = %u delivered + %u + %u dropped, %d late", held, injected, delivered,
          io.cnt_drop[0], io.cnt_drop[1], late);
    /* a lone packet meeting an off switch: L1:0 off from tick 2, the packet from leaf 0 enters on 1 */
    netio_reset(&io, 22);
    pins_clear(&f);
    ftick(&io, &f, 0, 0, 0, 2, 0, -1, 0);
    f.sw[0] = 1;
    ftick(&io, &f, -1, 0, 0, 0, 0, -1, 0);
    check(&C, io.cnt_drop[0] == 1 && io.cnt_up[0] == 0, "packet entering an off switch discarded and counted");
    netio_close(&io);
    lcan_topo_free(t);
}

/* A packet already on a link when it turns off arrives (spec 14.1): gft(2,2,2), leaf 0 -> leaf 2
 * on tick 1 with link 12 off, so L1:0 sends it on link 8 on tick 2; link 8 is off from tick 3,
 * when L2:0 receives it. It reaches leaf 2 as an output of tick 4, nothing is dropped, and the
 * credit of L1:0's upper 0 returns over the off link. */
static void f_inflight(void)
{
    lcan_topo *t = parse("gft(2,2,2)");
    netio io;
    fpins f;
    int tau, at = -1, n = 0;
    if (t == NULL || !open_fpacket(&io, t, 4))
        return;
    pins_attach(&io, &f);
    netio_reset(&io, 23);
    f.link[12] = 1;
    for (tau = 1; tau <= 8; tau++) {
        f.link[8] = tau >= 3;
        ftick(&io, &f, tau == 1 ? 0 : -1, 0, 0, 2, 5, -1, 0);
        if (io.ej_valid[4]) {
            at = tau;
            n++;
        }
    }
    check(&C, at == 4 && n == 1 && sum3(io.cnt_drop, 2) == 0 && credits_ok(&io, 4, 1),
          "packet on a link turned off arrives (tick %d, %d copies), credit back", at, n);
    netio_close(&io);
    lcan_topo_free(t);
}

/* Broadcasts on gft(2,2,2), tree 0 from leaf 0 (port 0), top L2:0 (level 2 = h):
 *  a: link 5 (L1:2 downer 1 -> leaf 3 port 0) off: leaves 0, 1, 2 get it (ports 0, 2, 4) as outputs
 *     of tick 2h = 4; level 1 writes 3 down copies, level 2 two; nothing counted;
 *  b: link 9 (L2:0 downer 1 -> L1:2) off: leaves 0 and 1 only; down copies 2 and 1;
 *  c: flooding with link 9 off: leaf 1 at tick 2 (L = 1); L2:0 has nothing left to copy (consumed,
 *     not counted): up 1, down 1 at level 1, 0 at level 2;
 *  d: tree broadcast with link 8 (upper 0 of L1:0) off: the climbing ONE request is unroutable:
 *     counted at level 1, nothing arrives. */
static void f_bcast(void)
{
    lcan_topo *t = parse("gft(2,2,2)");
    netio io;
    fpins f;
    int c, tau;
    static const int off[4] = {5, 9, 9, 8};
    static const uint32_t exp_mask[4] = {0x15u, 0x5u, 0x4u, 0}; /* ports receiving (bit q) */
    static const int exp_at[4] = {4, 4, 2, 0};
    static const uint32_t dn1[4] = {3, 2, 1, 0}, dn2[4] = {2, 1, 0, 0}, drop1[4] = {0, 0, 0, 1};
    if (t == NULL || !open_fpacket(&io, t, 4))
        return;
    pins_attach(&io, &f);
    for (c = 0; c < 4; c++) {
        uint32_t got = 0, q;
        int bad = 0;
        netio_reset(&io, 30u + (uint32_t)c);
        pins_clear(&f);
        f.link[off[c]] = 1;
        for (tau = 1; tau <= 8; tau++) {
            ftick(&io, &f, tau == 1 ? 0 : -1, c == 2, 1, 0, 7, -1, 0);
            for (q = 0; q < io.NP; q++)
                if (io.ej_valid[q]) {
                    got |= 1u << q;
                    bad += tau != exp_at[c] || io.ej_flit[q] != lcan_flit(io.net, c == 2, 1, 0, 7);
                }
        }
        check(&C, got == exp_mask[c] && bad == 0 && io.cnt_down[0] == dn1[c] && io.cnt_down[1] == dn2[c] &&
                  io.cnt_up[0] == (uint32_t)(c != 3) && io.cnt_drop[0] == drop1[c] && io.cnt_drop[1] == 0 &&
                  credits_ok(&io, 4, 1),
              "broadcast case %c: ports 0x%x (expected 0x%x), %d mistimed, down %u %u, up %u, drop %u %u", 'a' + c, got,
              exp_mask[c], bad, io.cnt_down[0], io.cnt_down[1], io.cnt_up[0], io.cnt_drop[0], io.cnt_drop[1]);
    }
    netio_close(&io);
    lcan_topo_free(t);
}

/* The event-driven tick (net_packet.c fast path) against the full-scan tick under random faults
 * (re-drawn now and then), random row writes (some to rows >= NR, some all ones), resets, unicast
 * (some with impossible digits) and tree / flooding broadcasts: every output, cnt_drop and the
 * debug view on every tick. First phase: pins given but all 0 (a, b) against NULL pins (c). */
static void f_diff(const char *spec, int depth, double rate, int ticks, unsigned long long seed, lcan_up_choice uc)
{
    lcan_topo *t = parse(spec);
    lcan_net *nt[3];
    lcan_cfg cfg;
    lcan_in in, in0;
    lcan_out o[3];
    uint8_t *iv, *rd[3], *ev[3], *lk, *sw, *dbg[3];
    uint64_t *fl, *ef[3], *row, nl, ns, nr, rww;
    uint32_t cu[3][16], cd[3][16], cx[3][16], NP, N, q;
    int U0, w1, p1, h, k, j, bad = 0, aw;
    size_t nd;
    if (t == NULL)
        return;
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    cfg.depth = depth;
    cfg.up_choice = uc;
    NP = lcan_topo_ports(t);
    N = lcan_topo_leaves(t);
    U0 = lcan_topo_leaf_ports(t);
    w1 = lcan_topo_w(t, 1);
    p1 = lcan_topo_p(t, 1);
    h = lcan_topo_levels(t);
    aw = lcan_topo_addr_width(t);
    nl = lcan_topo_link_count(t);
    ns = lcan_topo_switch_count(t);
    nr = lcan_topo_reach_rows(t);
    rww = (lcan_topo_row_bits(t) + 63u) / 64u;
    iv = calloc(NP, 1);
    fl = calloc(NP, 8);
    lk = calloc(nl, 1);
    sw = calloc(ns, 1);
    row = calloc(rww, 8);
    memset(&in, 0, sizeof in);
    in.inj_valid = iv;
    in.inj_flit = fl;
    in.link_off = lk;
    in.sw_off = sw;
    in.cfg_row = row;
    for (k = 0; k < 3; k++) {
        lcan_net_new(t, &cfg, &nt[k]);
        rd[k] = calloc(NP, 1);
        ev[k] = calloc(NP, 1);
        ef[k] = calloc(NP, 8);
        memset(&o[k], 0, sizeof o[k]);
        o[k].inj_ready = rd[k];
        o[k].ej_valid = ev[k];
        o[k].ej_flit = ef[k];
        o[k].cnt_up = cu[k];
        o[k].cnt_down = cd[k];
        o[k].cnt_drop = cx[k];
    }
    nt[1]->fast = 0; /* the reference: every switch every tick */
    nd = lcan_net_debug_dump(nt[0], NULL, 0);
    for (k = 0; k < 3; k++)
        dbg[k] = calloc(nd, 1);
    for (k = 0; k < ticks && !bad; k++) {
        int phase2 = k >= ticks / 4;
        in.rst = k == 0 || k == ticks / 2;
        in.seed = (uint32_t)(seed + (unsigned long long)k);
        memset(iv, 0, NP);
        memset(fl, 0, NP * 8);
        if (phase2 && k % 97 == 0) { /* a new fault set: a few links and switches, sometimes none */
            int dense = (int)(test_rng(&seed) % 3);
            uint64_t e;
            for (e = 0; e < nl; e++)
                lk[e] = dense && test_rng(&seed) % 100 < (uint64_t)(3 * dense);
            for (e = 0; e < ns; e++)
                sw[e] = dense && test_rng(&seed) % 100 < (uint64_t)(2 * dense);
        }
        in.cfg_we = phase2 && test_rng(&seed) % 4 == 0;
        if (in.cfg_we) {
            uint64_t r = test_rng(&seed) % 10, e;
            in.cfg_addr = (uint32_t)(test_rng(&seed) % (nr + 2));
            for (e = 0; e < rww; e++) {
                row[e] = ~(uint64_t)0;
                if (r >= 3) /* else all ones */
                    for (j = 0; j < 64; j++)
                        if (test_rng(&seed) % 4 == 0)
                            row[e] &= ~((uint64_t)1 << j);
            }
        }
        if (!in.rst && ((k >> 7) & 3) != 3)
            for (q = 0; q < NP; q++) {
                double u = (double)(test_rng(&seed) >> 11) / 9007199254740992.0;
                if (!rd[0][q] || u >= rate)
                    continue;
                iv[q] = 1;
                u = (double)(test_rng(&seed) >> 11) / 9007199254740992.0;
                if (u < 0.05 && (int)(q % (uint32_t)U0) % p1 == 0 && (int)(q % (uint32_t)U0) / p1 < w1)
                    fl[q] = lcan_flit(nt[0], (int)(test_rng(&seed) & 1u), 1, (q % (uint32_t)U0) / (uint32_t)p1,
                                      (uint32_t)k);
                else
                    fl[q] = lcan_flit(nt[0], 0, 0, lcan_topo_pack(t, (uint32_t)(test_rng(&seed) % N)), q ^ (uint32_t)k);
                if (test_rng(&seed) % 500 == 0)
                    fl[q] |= ((uint64_t)1 << (16 + aw)) - ((uint64_t)1 << 16);
            }
        in0 = in;
        if (!phase2) {
            in0.link_off = in0.sw_off = NULL;
            in0.cfg_row = NULL;
            in0.cfg_we = 0;
        }
        for (j = 0; j < 3; j++) {
            if (lcan_net_tick(nt[j], j == 2 ? &in0 : &in, &o[j]) != LCAN_OK)
                bad = 1;
            lcan_net_debug_dump(nt[j], dbg[j], nd);
        }
        for (j = 1; j < (phase2 ? 2 : 3); j++)
            if (memcmp(rd[0], rd[j], NP) || memcmp(ev[0], ev[j], NP) || memcmp(ef[0], ef[j], NP * 8) ||
                memcmp(dbg[0], dbg[j], nd) || memcmp(cu[0], cu[j], (size_t)h * 4) ||
                memcmp(cd[0], cd[j], (size_t)h * 4) || memcmp(cx[0], cx[j], (size_t)h * 4))
                bad = j;
        check(&C, !bad, "%s depth %d rate %g uc %d: %s differ at tick %d", spec, depth, rate, uc,
              bad == 1 ? "fast and full-scan ticks under faults" : "zero and NULL fault pins", k);
    }
    check(&C, sum3(cx[0], h) > 0 || rate == 0, "%s: some packets dropped under faults", spec);
    for (k = 0; k < 3; k++) {
        lcan_net_free(nt[k]);
        free(rd[k]);
        free(ev[k]);
        free(ef[k]);
        free(dbg[k]);
    }
    free(iv);
    free(fl);
    free(lk);
    free(sw);
    free(row);
    lcan_topo_free(t);
}


/* ------------------------------------------------------------------ flood queues (spec 8.7) */

/* Multinode broadcast by flooding on seed 000's CBFT bft(h;1,..,1) (N = 2^h leaves, one port each):
 * every leaf injects one flooding broadcast on tree 0 at tick 1, payload = its leaf number. Checks
 * that the N(N-1) copies arrive, each (receiver, source) pair once, never at the source, and that
 * no flood queue ever holds more than FLOOD_Q flits (debug view, second block). Returns the tick
 * of the last delivery relative to the injection tick (as spec 8.6: a copy that is an output of
 * tick t0 + k is k), or -1 when some copy never came; peak[i] (i = 1..h-1) is the largest q_o
 * seen at the upper output (local port 2) of a level-i switch over all ticks. */
static int mnb_cbft(int h, int fq, int depth, int peak[LCAN_MAX_LEVELS + 1], long *too_full)
{
    char spec[64];
    lcan_topo *t;
    netio io;
    uint8_t *got, *buf;
    size_t np, len;
    long delivered = 0, bad = 0;
    int k, l, tau, last = -1, old = g_flood_q;
    uint32_t q, x;
    snprintf(spec, sizeof spec, "bft(%d", h);
    for (k = 0; k < h; k++)
        strcat(spec, k == 0 ? ";1" : ",1");
    strcat(spec, ")");
    t = parse(spec);
    g_flood_q = fq;
    if (t == NULL || !open_packet(&io, t, depth, 16)) {
        g_flood_q = old;
        return -1;
    }
    g_flood_q = old;
    np = lcan_net_debug_dump(io.net, NULL, 0);
    buf = malloc(np);
    got = calloc((size_t)io.N * io.N, 1);
    for (l = 0; l <= LCAN_MAX_LEVELS; l++)
        peak[l] = 0;
    *too_full = 0;
    netio_reset(&io, 5u + (uint32_t)h);
    for (tau = 1; tau <= 8 * (int)io.N + 64 && delivered < (long)io.N * (io.N - 1); tau++) {
        netio_idle(&io);
        if (tau == 1)
            for (q = 0; q < io.NP; q++) {
                io.inj_valid[q] = 1;
                io.inj_flit[q] = lcan_flit(io.net, 1, 1, 0, q);
            }
        netio_tick(&io);
        for (q = 0; q < io.NP; q++) {
            uint32_t src = lcan_flit_payload(io.net, io.ej_flit[q]);
            if (!io.ej_valid[q])
                continue;
            if (src >= io.N || src == q || got[(size_t)q * io.N + src] || !lcan_flit_head(io.net, io.ej_flit[q]) ||
                !lcan_flit_bcast(io.net, io.ej_flit[q]) || lcan_flit_dest(io.net, io.ej_flit[q]) != 0) {
                bad++;
                continue;
            }
            got[(size_t)q * io.N + src] = 1;
            delivered++;
            last = tau - 1;
        }
        len = lcan_net_debug_dump(io.net, buf, np);
        for (k = (int)(len / 2); k < (int)len; k++)
            *too_full += buf[k] > fq;
        for (l = 1; l < h; l++)
            for (x = 0; x < lcan_topo_switches(t, l); x++) {
                int v = lcan_net_flood_q(io.net, l, x, 2);
                peak[l] = v > peak[l] ? v : peak[l];
            }
    }
    for (tau = 0; tau < 4 * h; tau++) { /* drain: nothing more may arrive */
        netio_idle(&io);
        netio_tick(&io);
        for (q = 0; q < io.NP; q++)
            bad += io.ej_valid[q];
    }
    check(&C, np == 2 * (size_t)(3 * (io.N - 2) + 2), "%s FLOOD_Q %d: debug view of 2 * DBG_BYTES bytes (%zu)", spec,
          fq, np);
    check(&C, delivered == (long)io.N * (io.N - 1) && bad == 0,
          "%s FLOOD_Q %d DEPTH %d: multinode broadcast delivered %ld of N(N-1) = %ld, %ld wrong or duplicated", spec, fq,
          depth, delivered, (long)io.N * (io.N - 1), bad);
    check(&C, *too_full == 0 && credits_ok(&io, depth, 1) && queues_empty(&io, fq),
          "%s FLOOD_Q %d: q_o within FLOOD_Q (%ld over), credits and queues back after the drain", spec, fq, *too_full);
    free(buf);
    free(got);
    netio_close(&io);
    lcan_topo_free(t);
    return delivered == (long)io.N * (io.N - 1) ? last : -1;
}

/* Seed 000 §4: flooding completes a multinode broadcast on a CBFT with outgoing queues of 2^(i-1)
 * flits at level i. With FLOOD_Q = min(255, N) and DEPTH = min(255, max(4, N)) the largest q_o at a
 * level-i upper must be 2^(i-1) (queue length counted as spec 8.7 says); the last delivery, at
 * least N - 1 ticks after the injection (each leaf takes one copy per tick on its one down link,
 * the first at tick 1), is printed for N = 4..256. FLOOD_Q = 2 (= the most inputs whose flood
 * sets share an output in a switch of bft(h;1,..,1), so acceptance never waits forever) blocks
 * acceptance; no copy is lost or duplicated and q_o never exceeds 2. */
static void flood_queues(void)
{
    int h, i, peak[LCAN_MAX_LEVELS + 1];
    long too_full;
    for (h = 2; h <= 8; h++) {
        int N = 1 << h, fq = N < 255 ? N : 255, depth = N < 4 ? 4 : N < 255 ? N : 255;
        int last = mnb_cbft(h, fq, depth, peak, &too_full), ok = 1, last2;
        char line[256];
        int len = snprintf(line, sizeof line,
                           "test_net_packet: mnb bft(%d;1..1) N = %d FLOOD_Q %d DEPTH %d: last delivery t0 + %d, "
                           "peak q at the level-i upper", h, N, fq, depth, last);
        for (i = 1; i < h; i++) {
            ok = ok && peak[i] == 1 << (i - 1);
            len += snprintf(line + len, sizeof line - (size_t)len, " %d", peak[i]);
        }
        printf("%s (seed 000: 1 2 4 ..)\n", line);
        check(&C, ok, "bft(%d;1..1): peak q_o at level-i uppers is 2^(i-1) (seed 000 4.1)", h);
        check(&C, last >= N - 1, "bft(%d;1..1): last delivery t0 + %d, at least N - 1 = %d", h, last, N - 1);
        if (h <= 6) {
            last2 = mnb_cbft(h, 2, 4, peak, &too_full);
            printf("test_net_packet: mnb bft(%d;1..1) N = %d FLOOD_Q 2 DEPTH 4: last delivery t0 + %d, peak q", h, N,
                   last2);
            for (i = 1; i < h; i++)
                printf(" %d", peak[i]);
            printf("\n");
            check(&C, last2 >= last, "bft(%d;1..1) FLOOD_Q 2: no earlier than with FLOOD_Q %d (%d, %d)", h, fq, last2,
                  last);
        }
    }
}

/* The smallest FLOOD_Q the network takes (the largest m_l, spec 8.7) with one source streaming
 * flooding broadcasts (every switch sees floods on one input only, so acceptance waits only for q_o)
 * and DEPTH 1 (credits stall the queues): every broadcast reaches every leaf but the source once, in
 * order, q_o never above FLOOD_Q. */
static void flood_stream(const char *spec, int count)
{
    lcan_topo *t = parse(spec);
    netio io;
    uint32_t *next_id, q, src = 1;
    uint8_t *buf;
    size_t np, k;
    long sent = 0, arrivals = 0, bad = 0, over = 0;
    int tau, fq = t != NULL ? lcan_net_flood_q_min(t) : 1;
    g_flood_q = fq;
    if (t == NULL || !open_packet(&io, t, 1, 16)) {
        g_flood_q = 0;
        return;
    }
    g_flood_q = 0;
    np = lcan_net_debug_dump(io.net, NULL, 0);
    buf = malloc(np);
    next_id = calloc(io.N, sizeof *next_id);
    netio_reset(&io, 3);
    for (tau = 1; tau <= 20 * count + 100; tau++) {
        uint32_t qs = src * (uint32_t)io.U0;
        netio_idle(&io);
        if (sent < count && io.inj_ready[qs]) {
            io.inj_valid[qs] = 1;
            io.inj_flit[qs] = lcan_flit(io.net, 1, 1, 0, (uint32_t)sent++);
        }
        netio_tick(&io);
        for (q = 0; q < io.NP; q++) {
            uint32_t r = q / (uint32_t)io.U0;
            if (!io.ej_valid[q])
                continue;
            arrivals++;
            if (r == src || q % (uint32_t)io.U0 != 0 || lcan_flit_payload(io.net, io.ej_flit[q]) != next_id[r])
                bad++;
            next_id[r]++;
        }
        lcan_net_debug_dump(io.net, buf, np);
        for (k = np / 2; k < np; k++)
            over += buf[k] > fq;
    }
    check(&C, sent == count && arrivals == count * (long)(io.N - 1) && bad == 0 && over == 0 && queues_empty(&io, fq),
          "%s FLOOD_Q %d DEPTH 1: %ld floods streamed, %ld arrivals of %ld, %ld out of order or misplaced, "
          "q_o > FLOOD_Q %ld times",
          spec, fq, sent, arrivals, count * (long)(io.N - 1), bad, over);
    free(buf);
    free(next_id);
    netio_close(&io);
    lcan_topo_free(t);
}

/* lcan_net_new refuses FLOOD_Q outside 0..255 (in both modes); 255 is taken; without flood queues
 * (FLOOD_Q = 0, or circuit mode) the debug view has DBG_BYTES bytes and lcan_net_flood_q is 0. */
static void flood_q_args(void)
{
    lcan_topo *t = parse("bft(3;1,1,1)");
    static const int bad[] = {-1, 256, 100000};
    int mode, k;
    if (t == NULL)
        return;
    for (mode = 0; mode <= 1; mode++) {
        lcan_cfg cfg;
        lcan_net *n = NULL;
        lcan_cfg_default(&cfg);
        cfg.mode = (lcan_mode)mode;
        for (k = 0; k < 3; k++) {
            cfg.flood_q = bad[k];
            n = (lcan_net *)&cfg;
            check(&C, lcan_net_new(t, &cfg, &n) == LCAN_ERR_ARG && n == NULL, "mode %d: FLOOD_Q %d refused", mode,
                  bad[k]);
        }
        cfg.flood_q = 1; /* below m_l = 2: refused in packet mode (spec 8.7's limit), taken in circuit mode */
        check(&C, lcan_net_new(t, &cfg, &n) == (mode == LCAN_PACKET ? LCAN_ERR_PARAM : LCAN_OK) &&
                      (mode == LCAN_PACKET) == (n == NULL) && lcan_net_flood_q_min(t) == 2,
              "mode %d: FLOOD_Q 1 below max m_l = 2", mode);
        lcan_net_free(n);
        n = NULL;
        cfg.flood_q = 255;
        check(&C, lcan_net_new(t, &cfg, &n) == LCAN_OK, "mode %d: FLOOD_Q 255 taken", mode);
        /* 6 switch ports at level 1... : DBG_BYTES = 4*3 + 2*3 + 1*2 = 20 */
        check(&C, lcan_net_debug_dump(n, NULL, 0) == (mode == LCAN_PACKET ? 40u : 20u) &&
                      lcan_net_flood_q(n, 1, 0, 2) == 0 && lcan_net_flood_q(n, 0, 0, 0) == 0 &&
                      lcan_net_flood_q(n, 1, 4, 0) == 0 && lcan_net_flood_q(NULL, 1, 0, 0) == 0,
              "mode %d FLOOD_Q 255: debug view length, accessor", mode);
        lcan_net_free(n);
        cfg.flood_q = 0;
        check(&C, lcan_net_new(t, &cfg, &n) == LCAN_OK && lcan_net_debug_dump(n, NULL, 0) == 20u, "mode %d FLOOD_Q 0",
              mode);
        lcan_net_free(n);
    }
    lcan_topo_free(t);
}

/* Without flooding broadcasts the flood queues stay empty and a network with FLOOD_Q > 0 (full-scan
 * tick) gives every output of a FLOOD_Q = 0 network (spec 8.7: everything else is 8.3's), on random
 * unicasts and tree broadcasts. */
static void flood_q_inert(const char *spec, int depth, int ticks)
{
    lcan_topo *t = parse(spec);
    netio a, b;
    unsigned long long rng = 4242;
    long diff = 0;
    int tau, l, p1;
    uint32_t q;
    if (t == NULL || !open_packet(&a, t, depth, 16))
        return;
    g_flood_q = 4; /* (at least every m_l of the networks below) */
    if (!open_packet(&b, t, depth, 16)) {
        g_flood_q = 0;
        netio_close(&a);
        return;
    }
    g_flood_q = 0;
    p1 = lcan_topo_p(t, 1);
    netio_reset(&a, 9);
    netio_reset(&b, 9);
    for (tau = 1; tau <= ticks; tau++) {
        netio_idle(&a);
        netio_idle(&b);
        for (q = 0; q < a.NP; q++) {
            unsigned long long v = test_rng(&rng);
            int lp = (int)(q % (uint32_t)a.U0), bc = v % 50 == 0 && lp % p1 == 0;
            if (v % 3 != 0 || !a.inj_ready[q])
                continue;
            a.inj_valid[q] = b.inj_valid[q] = 1;
            a.inj_flit[q] = b.inj_flit[q] = lcan_flit(a.net, (int)((v >> 8) & 1u) && !bc, bc,
                                                      bc ? (uint32_t)(lp / p1) : test_pack(t, (uint32_t)((v >> 16) % a.N)),
                                                      (uint32_t)(v >> 40));
        }
        netio_tick(&a);
        netio_tick(&b);
        for (q = 0; q < a.NP; q++)
            diff += a.ej_valid[q] != b.ej_valid[q] || a.ej_flit[q] != b.ej_flit[q] || a.inj_ready[q] != b.inj_ready[q];
        for (l = 0; l < a.h; l++)
            diff += a.cnt_up[l] != b.cnt_up[l] || a.cnt_down[l] != b.cnt_down[l] || a.cnt_drop[l] != b.cnt_drop[l];
    }
    g_flood_q = 4;
    check(&C, diff == 0 && queues_empty(&b, g_flood_q), "%s: FLOOD_Q 4 without flooding equals FLOOD_Q 0 (%ld differences)",
          spec, diff);
    g_flood_q = 0;
    netio_close(&a);
    netio_close(&b);
    lcan_topo_free(t);
}

int main(void)
{
    /* faults (spec 14): gft(2,2,2) upper 1 of L1:0 = link 8 + 2*2 = 12, parent L2:2 = switch 6;
     * lcan(2,2,4) (S1 = S2 = 2, D = U = 2): link 4 + 2*1 = 6, parent L2:1 = switch 3;
     * pgft(2;2,2;1,1;1,2) (S1 = 2, S2 = 1, D2 = 4, both uppers to L2:0): L2:0 downer 1 = link 5 */
    for (g_slow = 0; g_slow < 2; g_slow++) { /* the event-driven tick, then the full-scan tick */
        f_upper("gft(2,2,2)", 2, 12, 6);
        f_upper("xgft(2;2,2;2,2)", 2, 12, 6);
        f_upper("lcan(2,2,4)", 2, 6, 3);
        f_upper("pgft(2;2,2;1,1;1,2)", 2, 5, -1);
        f_unroutable();
        f_baddigit();
        f_swoff();
        f_inflight();
        f_bcast();
    }
    {
        int uc;
        for (uc = LCAN_UP_ROTATE; uc <= LCAN_UP_UNIFORM; uc++) {
            f_diff("gft(2,2,2)", 2, 0.5, 3000, 1, (lcan_up_choice)uc);
            f_diff("pgft(2;3,4;2,3;2,1)", 3, 0.4, 3000, 2, (lcan_up_choice)uc);
            f_diff("xgft(2;4,4;1,2)", 4, 0.7, 3000, 3, (lcan_up_choice)uc);
            f_diff("pgft(3;3,3,2;2,3,2;3,2,2)", 2, 0.3, 2000, 4, (lcan_up_choice)uc);
            f_diff("lcan(2,4,16)", 1, 0.9, 2000, 5, (lcan_up_choice)uc);
        }
    }

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

    /* flood queues (spec 8.7) */
    flood_q_args();
    flood_queues();
    flood_stream("bft(4;1,1,1,1)", 40);
    flood_stream("pgft(3;3,3,2;2,3,2;3,2,2)", 30);
    flood_stream("cm5", 10);
    flood_q_inert("pgft(2;3,4;2,3;2,1)", 3, 1500);
    flood_q_inert("bft(4;1,2,4,8)", 2, 1500);
    for (g_flood_q = 4; g_flood_q <= 8; g_flood_q += 4) { /* a lone flood keeps 8.6's latency (4 = cm5's m_l) */
        flood("bft(4;1,1,1,1)");
        flood("bft(4;1,2,4,8)");
        flood("pgft(3;3,3,2;2,3,2;3,2,2)");
        flood("xgft(2;4,4;1,2)");
        flood("cm5");
    }
    g_flood_q = 8; /* random unicasts, tree and flooding broadcasts with flood queues: FLOOD_Q 8 is at
                      least the most flooding inputs sharing one output in these switches (P - 1) */
    heavy("pgft(2;3,4;2,3;2,1)", 2, 100, 1500);
    heavy("xgft(2;4,4;1,2)", 4, 100, 1500);
    heavy("bft(4;1,1,1,1)", 4, 300, 600);
    g_flood_q = 0;
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
