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
 *  - faults (spec 14), expected values derived here from the spec's numbering (links LK_OFF(l) +
 *    x*D_l + o, switches SW_OFF(l) + x, rows ROW_OFF(l) + x*U_l + j): an upper whose link or far
 *    switch is off is never granted while the other upper is (gft(2,2,2), lcan(2,2,4), and
 *    pgft(2;2,2;1,1;1,2) with parallel links); a header whose uppers are all off or unreached, or
 *    whose downer is off, or that meets an off switch, is dropped, counted in cnt_drop, and still
 *    steps the LFSR; a reach row written through cfg_we is used from the next tick, not the same
 *    one; reset restores all-ones rows, clear does not; a write to a row >= NR is ignored; a
 *    circuit set before its link goes off still carries data and acks (off = disabled, not broken).
 */
#include <stdio.h>

#include "check.h"
#include "geom.h"
#include "lcan_faults.h"
#include "net_internal.h"
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

/* ------------------------------------------------------------------ faults (spec 14) */

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

/* One tick: a flit (head) from network port qs (if >= 0) for leaf d; a row write (addr >= 0). */
static void ftick(netio *io, fpins *f, int qs, int head, uint32_t d, uint32_t payload, long addr, uint64_t row)
{
    netio_idle(io);
    if (qs >= 0) {
        io->inj_valid[qs] = 1;
        io->inj_flit[qs] = lcan_flit(io->net, head, 0, test_pack(io->t, d), payload);
    }
    io->in.cfg_we = addr >= 0;
    io->in.cfg_addr = addr >= 0 ? (uint32_t)addr : 0;
    f->row = row;
    netio_tick(io);
    io->in.cfg_we = 0;
}

/* spec 5's LFSR step, written here */
static uint32_t t_step(uint32_t s) { return (s >> 1) ^ ((0u - (s & 1u)) & 0x80200003u); }

/* Leaf 0 (port 0) sends a header to leaf 2 (LCA level 2) on tick 1; level-1 switch 0 routes it on
 * tick 2 through upper 0 or 1 (local port D1 or D1 + 1; the debug view shows {set, src = 0}); it
 * reaches leaf 2's port 0 (tree b1 = 0) as an output of tick 4. off_link: the link of upper 1
 * (the parent's downer), off_sw: the parent on upper 1 (-1: none, parallel links). */
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
            cfg.up_choice = (lcan_up_choice)uc;
            if (!netio_open(&io, t, &cfg))
                break;
            pins_attach(&io, &f);
            for (seed = 1; seed <= 32; seed++) {
                int u0, u1, got = 0;
                netio_reset(&io, seed);
                memset(f.link, 0, sizeof f.link);
                memset(f.sw, 0, sizeof f.sw);
                if (variant == 1)
                    f.link[off_link] = 1;
                if (variant == 2)
                    f.sw[off_sw] = 1;
                ftick(&io, &f, 0, 1, 2, 0, -1, 0);
                ftick(&io, &f, -1, 0, 0, 0, -1, 0);
                u0 = lcan_net_debug(io.net, 1, 0, D1) == 0x80;
                u1 = lcan_net_debug(io.net, 1, 0, D1 + 1) == 0x80;
                used0 += u0;
                used1 += u1;
                both += u0 == u1;
                for (tau = 3; tau <= 5; tau++) {
                    ftick(&io, &f, -1, 0, 0, 0, -1, 0);
                    got += io.ej_valid[2 * (uint32_t)io.U0] && tau == 4;
                    got += 10 * (io.ej_valid[2 * (uint32_t)io.U0] && tau != 4);
                }
                lost += got != 1;
                drop += io.cnt_drop[0] + io.cnt_drop[1];
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

/* gft(2,2,2) = PGFT(2; 2,2; 2,2; 1,1): N = 4, U0 = 2, S1 = S2 = 4, D1 = U1 = D2 = 2, ADDR_W = 2
 * (RW = 4 bits). Level-1 switch x = b1 + 2 a2; its upper y goes to level-2 switch b1 + 2y, downer
 * a2. Links: level 1: 2x + o (0..7), level 2: 8 + 2x + o; switches: level 1 0..3, level 2 4..7;
 * rows: 2x + j (NR = 8). Level-1 switch 0's uppers: link 8 (to L2:0) and 12 (to L2:2); its rows 0
 * and 1. Leaf 0 port 0 -> leaf 2: packed dest 2; row value 0xB has bit 2 = 0. */
static void f_unroutable(void)
{
    lcan_topo *t = parse("gft(2,2,2)");
    netio io;
    fpins f;
    int c, tau;
    uint32_t sw0_before, s;
    if (t == NULL || !netio_open(&io, t, NULL))
        return;
    check(&C, lcan_topo_link_count(t) == 16 && lcan_topo_switch_count(t) == 8 && lcan_topo_reach_rows(t) == 8 &&
              lcan_topo_row_bits(t) == 4, "gft(2,2,2): NL 16, NS 8, NR 8, RW 4");
    pins_attach(&io, &f);
    /* c: 0 both upper links off, 1 both rows without dest 2 (written on tick 1, used on tick 2),
     * 2 level-1 switch 0 off, 3 the far end L2:0 and link 12 off */
    for (c = 0; c < 4; c++)
        for (s = 1; s <= 8; s++) {
            long got = 0;
            netio_reset(&io, s);
            memset(f.link, 0, sizeof f.link);
            memset(f.sw, 0, sizeof f.sw);
            f.link[8] = c == 0;
            f.link[12] = c == 0 || c == 3;
            f.sw[0] = c == 2;
            f.sw[4] = c == 3;
            ftick(&io, &f, 0, 1, 2, 0, c == 1 ? 0 : -1, 0xB);
            if (c == 1)
                ftick(&io, &f, -1, 0, 0, 0, 1, 0xB); /* row 1 too, written on tick 2: not yet used */
            sw0_before = io.net->lfsr[0];
            ftick(&io, &f, -1, 0, 0, 0, -1, 0);
            if (c == 1) { /* tick 2 used row 0 = 0xB, row 1 still all ones: upper 1 */
                check(&C, lcan_net_debug(io.net, 1, 0, 3) == 0x80 && lcan_net_debug(io.net, 1, 0, 2) == 0 &&
                          io.cnt_up[0] == 1,
                      "seed %u: row 0 (written on tick 1) used on tick 2, row 1 (written on tick 2) not", s);
                /* a second header from leaf 0 on port 0 now finds both rows without dest 2 */
                ftick(&io, &f, 0, 1, 2, 1, -1, 0);
                sw0_before = io.net->lfsr[0];
                ftick(&io, &f, -1, 0, 0, 0, -1, 0);
                check(&C, io.cnt_drop[0] == 1 && io.cnt_up[0] == 1 && io.net->lfsr[0] == t_step(sw0_before),
                      "seed %u: header with both rows 0xB dropped, counted, LFSR stepped", s);
                continue;
            }
            check(&C, io.cnt_drop[0] == 1 && io.cnt_up[0] == 0 && io.net->lfsr[0] == t_step(sw0_before) &&
                      lcan_net_debug(io.net, 1, 0, 2) == 0 && lcan_net_debug(io.net, 1, 0, 3) == 0,
                  "case %d seed %u: unroutable header dropped at level 1, counted (%u), LFSR stepped", c, s,
                  io.cnt_drop[0]);
            for (tau = 0; tau < 4; tau++) {
                ftick(&io, &f, -1, 0, 0, 0, -1, 0);
                got += io.ej_valid[4];
            }
            check(&C, got == 0, "case %d seed %u: dropped header not delivered", c, s);
        }
    /* a downer off: leaf 0 -> leaf 1 turns at level-1 switch 0, downer 1 = link 1 */
    netio_reset(&io, 3);
    memset(f.link, 0, sizeof f.link);
    memset(f.sw, 0, sizeof f.sw);
    f.link[1] = 1;
    ftick(&io, &f, 0, 1, 1, 0, -1, 0);
    ftick(&io, &f, -1, 0, 0, 0, -1, 0);
    check(&C, io.cnt_drop[0] == 1 && io.cnt_down[0] == 0, "header to an off level-1 downer dropped and counted");
    f.link[1] = 0;
    /* the row write of the same tick is not used; reset restores all ones; clear does not; a write
     * to row NR (= 8) is ignored */
    for (c = 0; c < 4; c++) {
        netio_reset(&io, 5);
        if (c == 0) { /* rows 0, 1 := 0xB on ticks 1 and 2; the header reaches the switch on tick 2 */
            ftick(&io, &f, 0, 1, 2, 0, 0, 0xB);
            ftick(&io, &f, -1, 0, 0, 0, 1, 0xB);
            check(&C, io.cnt_up[0] == 1 && io.cnt_drop[0] == 0, "row written on the header's own tick is not used");
            continue;
        }
        ftick(&io, &f, -1, 0, 0, 0, c == 3 ? 8 : 0, c == 3 ? 0 : 0xB);
        ftick(&io, &f, -1, 0, 0, 0, c == 3 ? 9 : 1, c == 3 ? 0 : 0xB);
        if (c == 1)
            netio_reset(&io, 5);
        if (c == 2) {
            netio_idle(&io);
            io.in.clear = 1;
            netio_tick(&io);
            io.in.clear = 0;
        }
        ftick(&io, &f, 0, 1, 2, 0, -1, 0);
        ftick(&io, &f, -1, 0, 0, 0, -1, 0);
        if (c == 2)
            check(&C, io.cnt_drop[0] == 1 && io.cnt_up[0] == 0, "clear does not restore the rows");
        else
            check(&C, io.cnt_drop[0] == 0 && io.cnt_up[0] == 1, "%s: header goes up",
                  c == 1 ? "reset restores all-ones rows" : "writes to rows >= NR are ignored");
    }
    /* cfg_we with no row: an argument error, nothing ticks */
    io.in.cfg_we = 1;
    io.in.cfg_addr = 0;
    io.in.cfg_row = NULL;
    check(&C, lcan_net_tick(io.net, &io.in, &io.out) == LCAN_ERR_ARG, "cfg_we = 1 without cfg_row: LCAN_ERR_ARG");
    io.in.cfg_we = 0;
    netio_close(&io);
    lcan_topo_free(t);
}

/* A circuit set before its link goes off keeps working (spec 14.1: off = disabled, not broken).
 * gft(2,2,2): leaf 0 port 0 -> leaf 2 on tick 1, link 12 off (upper 1 of L1:0) so it climbs on
 * link 8 (to L2:0); from tick 3 on link 8 is off too. The header reaches leaf 2 (port 4) as an
 * output of tick 4; the ack presented on tick 5 reaches inj_ack[0] as an output of tick
 * 5 + 2L - 2 = 7; data flits injected on ticks 6, 7, 8 arrive on ticks 9, 10, 11 in order; a new
 * header on tick 12 (circuits still set) finds both uppers off and is dropped. */
static void f_inflight(void)
{
    lcan_topo *t = parse("gft(2,2,2)");
    netio io;
    fpins f;
    int tau, ok = 1, ack_at = -1;
    uint32_t got = 0;
    if (t == NULL || !netio_open(&io, t, NULL))
        return;
    pins_attach(&io, &f);
    netio_reset(&io, 17);
    f.link[12] = 1;
    for (tau = 1; tau <= 13; tau++) {
        int qs = tau == 1 || tau == 12 || (tau >= 6 && tau <= 8) ? 0 : -1;
        f.link[8] = tau >= 3;
        netio_idle(&io);
        io.ej_ack[4] = tau == 5;
        if (qs >= 0) {
            io.inj_valid[0] = 1;
            io.inj_flit[0] = lcan_flit(io.net, tau == 1 || tau == 12, 0, 2, (uint32_t)(100 + tau));
        }
        netio_tick(&io);
        if (io.ej_valid[4]) {
            ok = ok && ((tau == 4 && io.ej_flit[4] == lcan_flit(io.net, 1, 0, 2, 101)) ||
                        (tau >= 9 && tau <= 11 && io.ej_flit[4] == lcan_flit(io.net, 0, 0, 2, (uint32_t)(100 + tau - 3))));
            got++;
        }
        if (io.inj_ack[0] && ack_at < 0)
            ack_at = tau;
    }
    check(&C, ok && got == 4 && ack_at == 7 && io.cnt_drop[0] == 1 && io.cnt_drop[1] == 0 && io.cnt_up[0] == 1,
          "circuit over a link turned off: header + 3 data delivered (%u, ok %d), ack at %d, new header dropped (%u)",
          got, ok, ack_at, io.cnt_drop[0]);
    netio_close(&io);
    lcan_topo_free(t);
}

int main(void)
{
    /* faults (spec 14): gft(2,2,2) upper 1 of L1:0 = link 8 + 2*2 = 12, parent L2:2 = switch 6;
     * lcan(2,2,4) (S1 = S2 = 2, D = U = 2): link 4 + 2*1 = 6, parent L2:1 = switch 3;
     * pgft(2;2,2;1,1;1,2) (S1 = 2, S2 = 1, D2 = 4, both uppers to L2:0): L2:0 downer 1 = link 5 */
    f_upper("gft(2,2,2)", 2, 12, 6);
    f_upper("xgft(2;2,2;2,2)", 2, 12, 6);
    f_upper("lcan(2,2,4)", 2, 6, 3);
    f_upper("pgft(2;2,2;1,1;1,2)", 2, 5, -1);
    f_unroutable();
    f_inflight();

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
