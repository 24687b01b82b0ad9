/*
 * test_net_circuit.c - circuit mode (spec 7) of lcan_net_tick, plus the model's wiring.
 *
 *  - wiring: the model's internal port map agrees with lcan_topo_neighbor (spec 2.3) everywhere;
 *  - flit fields are packed as in spec 3's table;
 *  - every source-destination pair (sampled on cm5): a lone header injected on tick 1 appears on
 *    the destination's ej as an output of tick 2L (= t + 2L - 1), L the LCA level computed here
 *    from digits, on a leaf port with the same parent choice; an ack presented at tick c reaches
 *    the source's inj_ack as an output of tick c + 2L - 2; data flits follow the circuit with the
 *    same latency; clear releases it (later data vanish, debug view all 0); counters count L - 1
 *    up, L down, 0 drops; the debug view shows 2L - 1 set outputs;
 *  - a header to a set downer is dropped and counted; two headers meeting at one downer on one
 *    tick: one passes, one is dropped; a second header from an input that owns a circuit makes a
 *    new circuit and data then follow both.
 */
#include <stdio.h>

#include "check.h"
#include "geom.h"
#include "netio.h"
#include "sigma_ref.h"

static check_ctx C = {"test_net_circuit", 0, 0};

static lcan_topo *parse(const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    check(&C, lcan_topo_parse(spec, &t, err, sizeof err) == LCAN_OK, "parse %s: %s", spec, err);
    return t;
}

static void wiring(const lcan_topo *t, const char *spec)
{
    lcan_geom g;
    int l, j;
    uint32_t x;
    long bad = 0;
    if (lcan_geom_init(&g, t) != LCAN_OK) {
        check(&C, 0, "%s: geom init", spec);
        return;
    }
    for (l = 1; l <= g.h; l++)
        for (x = 0; x < g.S[l]; x++)
            for (j = 0; j < g.P[l]; j++) {
                lcan_end from, to;
                uint32_t pr = g.peer[g.port_base[l] + x * (uint32_t)g.P[l] + (uint32_t)j];
                from.level = l;
                from.node = x;
                from.port = j;
                if (lcan_topo_neighbor(t, from, &to) != LCAN_OK) {
                    bad++;
                    continue;
                }
                if (pr & LCAN_PEER_LEAF) {
                    uint32_t q = pr & ~LCAN_PEER_LEAF;
                    bad += !(to.level == 0 && to.node == q / (uint32_t)g.U0 && (uint32_t)to.port == q % (uint32_t)g.U0);
                } else {
                    int l2 = lcan_geom_port_level(&g, pr);
                    uint32_t rel = pr - g.port_base[l2];
                    bad += !(to.level == l2 && to.node == rel / (uint32_t)g.P[l2] && (uint32_t)to.port == rel % (uint32_t)g.P[l2]);
                }
            }
    check(&C, bad == 0, "%s: %ld ports wired differently from lcan_topo_neighbor", spec, bad);
    lcan_geom_free(&g);
}

static void fields(netio *io, const char *spec)
{
    int aw = 0, l;
    uint64_t f;
    for (l = 1; l <= io->h; l++) {
        int b = 0;
        while ((1 << b) < lcan_topo_m(io->t, l))
            b++;
        aw += b;
    }
    check(&C, lcan_net_flit_width(io->net) == 2 + aw + 16, "%s: FW %d", spec, lcan_net_flit_width(io->net));
    f = lcan_flit(io->net, 1, 0, 5, 0xBEEF);
    check(&C, f == (0xBEEFull | (5ull << 16) | (1ull << (16 + aw + 1))), "%s: header packing %llx", spec,
          (unsigned long long)f);
    f = lcan_flit(io->net, 0, 1, 3, 0x12345);
    check(&C, f == (0x2345ull | (3ull << 16) | (1ull << (16 + aw))), "%s: bcast packing, payload truncated", spec);
    check(&C, lcan_flit_head(io->net, f) == 0 && lcan_flit_bcast(io->net, f) == 1 && lcan_flit_dest(io->net, f) == 3 &&
                  lcan_flit_payload(io->net, f) == 0x2345,
          "%s: field accessors", spec);
}

static int count_set(netio *io)
{
    size_t n = lcan_net_debug_dump(io->net, NULL, 0), i;
    uint8_t *b = malloc(n);
    int c = 0;
    lcan_net_debug_dump(io->net, b, n);
    for (i = 0; i < n; i++)
        c += b[i] >> 7;
    free(b);
    return c;
}

static void pair(netio *io, const char *spec, uint32_t s, uint32_t d, int lp)
{
    const lcan_topo *t = io->t;
    int L = test_lca(t, s, d), p1 = lcan_topo_p(t, 1), tau, l;
    int tA = 2 * L + 1, tD = 4 * L, tC = 6 * L + 1, end = tC + 2 * L + 2;
    uint32_t qs = s * (uint32_t)io->U0 + (uint32_t)lp, qd = UINT32_MAX, q;
    uint64_t hdr = lcan_flit(io->net, 1, 0, test_pack(t, d), s);
    uint64_t dat[3];
    int ok = 1;

    dat[0] = lcan_flit(io->net, 0, 0, test_pack(t, d), 0x1111u + s);
    dat[1] = lcan_flit(io->net, 0, 0, test_pack(t, d), 0x2222u + s);
    dat[2] = lcan_flit(io->net, 0, 0, test_pack(t, d), 0x3333u + s);
    netio_reset(io, s * 7919u + d);
    for (tau = 1; tau <= end && ok; tau++) {
        uint64_t want = 0;
        netio_idle(io);
        if (tau == 1) { io->inj_valid[qs] = 1; io->inj_flit[qs] = hdr; }
        if (tau == tA && qd != UINT32_MAX) io->ej_ack[qd] = 1;
        if (tau == tD) { io->inj_valid[qs] = 1; io->inj_flit[qs] = dat[0]; }
        if (tau == tD + 1) { io->inj_valid[qs] = 1; io->inj_flit[qs] = dat[1]; }
        if (tau == tC) io->in.clear = 1;
        if (tau == tC + 1) { io->inj_valid[qs] = 1; io->inj_flit[qs] = dat[2]; }
        netio_tick(io);
        if (tau == 2 * L) want = hdr;
        if (tau == tD + 2 * L - 1) want = dat[0];
        if (tau == tD + 2 * L) want = dat[1];
        for (q = 0; q < io->NP; q++) {
            int here = 0;
            if (want != 0 && io->ej_valid[q]) {
                if (tau == 2 * L && qd == UINT32_MAX && q / (uint32_t)io->U0 == d &&
                    (int)(q % (uint32_t)io->U0) / p1 == lp / p1)
                    qd = q;
                here = q == qd;
            }
            if (io->ej_valid[q] != here || (here && io->ej_flit[q] != want) || (!here && io->ej_flit[q] != 0)) {
                check(&C, 0, "%s %u->%u (L=%d): tick %d ej port %u valid %d flit %llx", spec, s, d, L, tau, q,
                      io->ej_valid[q], (unsigned long long)io->ej_flit[q]);
                ok = 0;
            }
            if (io->inj_ack[q] != (tau == tA + 2 * L - 2 && q == qs)) {
                check(&C, 0, "%s %u->%u (L=%d): tick %d inj_ack port %u = %d", spec, s, d, L, tau, q, io->inj_ack[q]);
                ok = 0;
            }
            if (io->inj_ready[q] != 1) {
                check(&C, 0, "%s: inj_ready 0 in circuit mode", spec);
                ok = 0;
            }
        }
        if (want != 0 && qd == UINT32_MAX) {
            check(&C, 0, "%s %u->%u (L=%d): nothing on ej at tick %d", spec, s, d, L, tau);
            ok = 0;
        }
        if (tau == 2 * L && ok) {
            ok = count_set(io) == 2 * L - 1;
            check(&C, ok, "%s %u->%u: %d set outputs, expected %d", spec, s, d, count_set(io), 2 * L - 1);
        }
        if (tau == tC && ok) {
            ok = count_set(io) == 0;
            check(&C, ok, "%s %u->%u: clear left set outputs", spec, s, d);
        }
    }
    for (l = 1; l <= io->h && ok; l++) {
        ok = io->cnt_up[l - 1] == (uint32_t)(l < L) && io->cnt_down[l - 1] == (uint32_t)(l <= L) && io->cnt_drop[l - 1] == 0;
        check(&C, ok, "%s %u->%u (L=%d): level %d counters up %u down %u drop %u", spec, s, d, L, l,
              io->cnt_up[l - 1], io->cnt_down[l - 1], io->cnt_drop[l - 1]);
    }
    check(&C, ok, "%s %u->%u: lone header, ack, data, clear", spec, s, d);
}

static void pairs(const char *spec, long sample)
{
    lcan_topo *t = parse(spec);
    netio io;
    unsigned long long rng = 42;
    uint32_t s, d;
    long k;
    if (t == NULL)
        return;
    wiring(t, spec);
    if (!netio_open(&io, t, NULL)) {
        check(&C, 0, "%s: lcan_net_new", spec);
        return;
    }
    fields(&io, spec);
    if (sample == 0) {
        for (s = 0; s < io.N; s++)
            for (d = 0; d < io.N; d++)
                pair(&io, spec, s, d, (int)((s + d) % (uint32_t)io.U0));
    } else {
        for (k = 0; k < sample; k++) {
            s = (uint32_t)(test_rng(&rng) % io.N);
            d = k < 16 ? s ^ (uint32_t)k : (uint32_t)(test_rng(&rng) % io.N);
            if (d >= io.N)
                d = s;
            pair(&io, spec, s, d, (int)(test_rng(&rng) % (uint32_t)io.U0));
        }
    }
    netio_close(&io);
    lcan_topo_free(t);
}

static uint32_t drops(netio *io)
{
    uint32_t s = 0;
    int l;
    for (l = 0; l < io->h; l++)
        s += io->cnt_drop[l];
    return s;
}

/* Inject hdr/data flits from leaf s (port 0) at the next tick, then run n idle ticks; returns the
 * number of valid ej flits at leaf d seen meanwhile. */
static int send(netio *io, uint32_t s, uint32_t d, int head, int n, uint32_t *at)
{
    int tau, seen = 0;
    uint32_t q;
    for (tau = 0; tau <= n; tau++) {
        netio_idle(io);
        if (tau == 0) {
            io->inj_valid[s * (uint32_t)io->U0] = 1;
            io->inj_flit[s * (uint32_t)io->U0] = lcan_flit(io->net, head, 0, test_pack(io->t, d), s);
        }
        netio_tick(io);
        for (q = 0; q < io->NP; q++)
            if (io->ej_valid[q] && q / (uint32_t)io->U0 == d) {
                seen++;
                if (at)
                    *at = q;
            }
    }
    return seen;
}

static void drop_cases(void)
{
    lcan_topo *t = parse("lcan(2,2,16)");
    netio io;
    uint32_t q;
    int tau, got;
    if (t == NULL || !netio_open(&io, t, NULL))
        return;
    /* 0 -> 1 (L = 1) sets the level-1 downer to leaf 1; 2 -> 1 (L = 2) is then dropped there */
    netio_reset(&io, 1);
    check(&C, send(&io, 0, 1, 1, 4, NULL) == 1, "circuit 0->1 delivered");
    check(&C, send(&io, 2, 1, 1, 6, NULL) == 0, "header 2->1 to a set downer not delivered");
    check(&C, drops(&io) == 1 && io.cnt_drop[0] == 1, "drop counted at level 1 (%u)", drops(&io));
    check(&C, send(&io, 0, 1, 0, 4, NULL) == 1, "circuit 0->1 still carries data after the drop");
    /* a second header from input 0 (leaf 0): 0 -> 2 makes a new circuit; data from 0 reach 1 and 2 */
    check(&C, send(&io, 0, 2, 1, 6, NULL) == 1, "second circuit 0->2 from the same input");
    {
        int seen1 = 0, seen2 = 0;
        for (tau = 0; tau <= 6; tau++) {
            netio_idle(&io);
            if (tau == 0) {
                io.inj_valid[0] = 1;
                io.inj_flit[0] = lcan_flit(io.net, 0, 0, test_pack(t, 1), 77);
            }
            netio_tick(&io);
            for (q = 0; q < io.NP; q++) {
                seen1 += io.ej_valid[q] && q == 1;
                seen2 += io.ej_valid[q] && q == 2;
            }
        }
        check(&C, seen1 == 1 && seen2 == 1, "data from an input with two circuits reach both (%d, %d)", seen1, seen2);
    }
    /* two headers (from 2 and 3) for leaf 0 meet at its level-1 downer on the same tick */
    netio_reset(&io, 5);
    got = 0;
    for (tau = 1; tau <= 6; tau++) {
        netio_idle(&io);
        if (tau == 1) {
            io.inj_valid[2] = io.inj_valid[3] = 1;
            io.inj_flit[2] = lcan_flit(io.net, 1, 0, 0, 2);
            io.inj_flit[3] = lcan_flit(io.net, 1, 0, 0, 3);
        }
        netio_tick(&io);
        for (q = 0; q < io.NP; q++)
            if (io.ej_valid[q]) {
                got++;
                check(&C, q == 0 && tau == 4, "contending headers: arrival at port %u tick %d", q, tau);
            }
    }
    check(&C, got == 1 && drops(&io) == 1 && io.cnt_drop[0] == 1, "contention at a downer: %d delivered, %u dropped",
          got, drops(&io));
    /* reset clears counters and circuits */
    netio_reset(&io, 9);
    check(&C, drops(&io) == 0 && count_set(&io) == 0, "reset clears counters and set bits");
    netio_close(&io);
    lcan_topo_free(t);
}

/* LFSR offsets end to end (spec 5): the first request a level-1 switch ever sees uses
 * s = the reset value of spec 5 (seed hashes rotated by salt(1, x) bits, XOR salt), salt, hashes and
 * field extraction computed here. A lone header going up takes upper
 * r_up = red(s[15:8] & (2^clog2(U1)-1), U1); a lone header turning at level 1 leaves on parallel link
 * r_dn = red(s[23:16] & (2^clog2(p1)-1), p1); two headers from inputs 0 and 1 going up: input 1 goes
 * first iff it comes before input 0 in the order r_in, r_in+1, .. (r_in = red(s[7:0] & .., P1)). */
static uint32_t t_rotl(uint32_t x, unsigned r) { r &= 31u; return r ? (x << r) | (x >> (32u - r)) : x; }
static uint32_t t_mix(uint32_t x)
{
    uint32_t t = x + (t_rotl(x, 7) ^ t_rotl(x, 19));
    uint32_t y = t + (t_rotl(t, 13) ^ t_rotl(t, 27));
    return y ^ (y >> 16);
}

/* spec 5's reset value of switch (level 1, index x), written here from the spec */
static uint32_t t_seeded(uint32_t seed, uint32_t x)
{
    uint32_t salt = 0x9E3779B9u + x * 0x85EBCA6Bu + 0x6A09E667u;
    uint32_t h1 = t_mix(seed), h2 = t_mix(h1), h3 = t_mix(h2);
    return t_rotl(h1, salt & 31u) ^ t_rotl(h2, (salt >> 5) & 31u) ^ t_rotl(h3, (salt >> 10) & 31u) ^ salt;
}

static int red_field(uint32_t s, int shift, int n)
{
    int b = 0;
    uint32_t r;
    while ((1 << b) < n)
        b++;
    r = (s >> shift) & ((1u << b) - 1u);
    return (int)(r >= (uint32_t)n ? r - (uint32_t)n : r);
}

static void offsets(const char *spec, lcan_up_choice uc)
{
    lcan_topo *t = parse(spec);
    netio io;
    lcan_cfg cfg;
    int m1, w1, p1, D1, U1, P1, h;
    uint32_t seed;
    lcan_cfg_default(&cfg);
    cfg.up_choice = uc;
    if (t == NULL || !netio_open(&io, t, &cfg))
        return;
    m1 = lcan_topo_m(t, 1); w1 = lcan_topo_w(t, 1); p1 = lcan_topo_p(t, 1); h = io.h;
    D1 = m1 * p1; U1 = h > 1 ? lcan_topo_w(t, 2) * lcan_topo_p(t, 2) : 0; P1 = D1 + U1;
    for (seed = 0; seed < 300; seed++) {
        uint32_t s = (seed * 37u) % io.N, lp = seed % (uint32_t)io.U0, y = lp / (uint32_t)p1, k = lp % (uint32_t)p1;
        uint32_t x = y + (uint32_t)w1 * (s / (uint32_t)m1), st, far = (s + io.N / 2) % io.N, near, q;
        int in0 = (int)(s % (uint32_t)m1) * p1 + (int)k, j, r_up, r_dn, r_in, ok = 1, up1, up2;
        int sigma[128] = {0};
        st = t_seeded(seed, x);
        if (st == 0)
            st = 1;
        r_in = red_field(st, 0, P1);
        r_up = red_field(st, 8, U1);
        r_dn = red_field(st, 16, p1);
        /* the first and second upper of class UP's scan (spec 6): sigma order or a rotation */
        ref_sigma(st, U1, sigma);
        up1 = uc == LCAN_UP_UNIFORM ? sigma[0] : r_up;
        up2 = U1 < 2 ? -1 : uc == LCAN_UP_UNIFORM ? sigma[1] : (r_up + 1) % U1;
        /* up: a lone header to a leaf in the other top subtree */
        netio_reset(&io, seed);
        netio_idle(&io);
        io.inj_valid[s * (uint32_t)io.U0 + lp] = 1;
        io.inj_flit[s * (uint32_t)io.U0 + lp] = lcan_flit(io.net, 1, 0, test_pack(t, far), s);
        netio_tick(&io);
        netio_idle(&io);
        netio_tick(&io);
        for (j = 0; j < U1; j++)
            ok = ok && lcan_net_debug(io.net, 1, x, D1 + j) == (j == up1 ? 0x80 | in0 : 0);
        check(&C, ok, "%s uc %d seed %u: lone header from leaf %u took an upper other than %d", spec, uc, seed, s, up1);
        /* turning at level 1 (another leaf under the same level-1 switch): parallel link r_dn */
        near = s - s % (uint32_t)m1 + (s % (uint32_t)m1 + 1u) % (uint32_t)m1;
        netio_reset(&io, seed);
        netio_idle(&io);
        io.inj_valid[s * (uint32_t)io.U0 + lp] = 1;
        io.inj_flit[s * (uint32_t)io.U0 + lp] = lcan_flit(io.net, 1, 0, test_pack(t, near), s);
        netio_tick(&io);
        netio_idle(&io);
        netio_tick(&io);
        for (q = 0; q < io.NP; q++)
            ok = ok && io.ej_valid[q] == (q == near * (uint32_t)io.U0 + y * (uint32_t)p1 + (uint32_t)r_dn);
        check(&C, ok, "%s seed %u: header %u->%u not on parallel link r_dn = %d", spec, seed, s, near, r_dn);
        /* two headers from leaves a_1 = 0 and 1 (same level-1 switch, inputs 0 and p1 on link k=0) going up */
        if (U1 >= 2 && lp % (uint32_t)p1 == 0) {
            uint32_t s0 = s - s % (uint32_t)m1, s1 = s0 + 1, first, second;
            int i0 = 0, i1 = p1, k2, pos0 = -1, pos1 = -1;
            for (k2 = 0; k2 < P1; k2++) {
                int i = (r_in + k2) % P1;
                if (i == i0) pos0 = k2;
                if (i == i1) pos1 = k2;
            }
            first = pos1 < pos0 ? (uint32_t)i1 : (uint32_t)i0;
            second = first == (uint32_t)i0 ? (uint32_t)i1 : (uint32_t)i0;
            netio_reset(&io, seed);
            netio_idle(&io);
            io.inj_valid[s0 * (uint32_t)io.U0 + lp] = io.inj_valid[s1 * (uint32_t)io.U0 + lp] = 1;
            io.inj_flit[s0 * (uint32_t)io.U0 + lp] = lcan_flit(io.net, 1, 0, test_pack(t, (s0 + io.N / 2) % io.N), s0);
            io.inj_flit[s1 * (uint32_t)io.U0 + lp] = lcan_flit(io.net, 1, 0, test_pack(t, (s1 + io.N / 2) % io.N), s1);
            netio_tick(&io);
            netio_idle(&io);
            netio_tick(&io);
            ok = lcan_net_debug(io.net, 1, x, D1 + up1) == (0x80 | first) &&
                 lcan_net_debug(io.net, 1, x, D1 + up2) == (0x80 | second);
            check(&C, ok, "%s uc %d seed %u: rotated requester order (r_in %d, uppers %d %d)", spec, uc, seed, r_in,
                  up1, up2);
        }
    }
    netio_close(&io);
    lcan_topo_free(t);
}

int main(void)
{
    {
        int uc;
        for (uc = LCAN_UP_ROTATE; uc <= LCAN_UP_UNIFORM; uc++) {
            offsets("lcan(2,2,16)", (lcan_up_choice)uc);
            offsets("lcan(4,4,64)", (lcan_up_choice)uc);
            offsets("lcan(2,5,16)", (lcan_up_choice)uc);
            offsets("pgft(2;3,4;2,3;2,1)", (lcan_up_choice)uc);
            offsets("cm5", (lcan_up_choice)uc);
            offsets("pgft(3;3,3,2;2,3,2;3,2,2)", (lcan_up_choice)uc);
        }
    }
    pairs("lcan(2,2,16)", 0);
    pairs("lcan(4,2,64)", 0);
    pairs("lcan(2,4,16)", 0);
    pairs("bft(3;1,2,4)", 0);
    pairs("pgft(2;3,4;2,3;2,1)", 0);
    pairs("xgft(2;4,4;1,2)", 0);
    pairs("cm5", 300);
    pairs("lcan(3,2,81)", 400);
    drop_cases();
    return check_done(&C);
}
