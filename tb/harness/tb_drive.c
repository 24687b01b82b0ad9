/*
 * tb_drive.c - the traffic drivers of the lockstep harness. Each is a plain loop over
 * tb_engine_tick (which clocks the RTL once and checks it against the model); they look only at
 * the RTL's outputs, so their own checks (wiring, delivery) do not depend on the model.
 *
 *   wiring check (before traffic): one lone header / packet per network port towards a leaf whose
 *     LCA level is h; every hop seen in the RTL's debug view must be the switch that
 *     lcan_topo_neighbor says the previous hop's output leads to (spec 2.3), the flit must leave at
 *     the destination leaf after 2h-1 edges (spec 7.4 / 8.4), the ack must come back to the source
 *     port after 2h-2 more (circuit), every credit must come home (packet).
 *   circuit lockstep: permutations of the pattern through the spec 7.5 pass driver
 *     (lcan_route_perm) with trial seeds k = 0, 1, .. until the cycle budget is spent.
 *   packet lockstep: unicast traffic (random: uniform destinations; else pi(s)) at rate +rate per
 *     port per tick where inj_ready, plus broadcasts on every tree t < w1, a share +flood_share
 *     (default half) of them flooding (head = 1, spec 8.6; with flood queues spec 8.7); then a drain that must deliver every packet (unicast: at its
 *     destination; tree broadcast: at every leaf; flooding broadcast: at every leaf but the source;
 *     with UNICAST_ONLY, spec 8.8, a broadcast of tree t once at the leaf whose packed address is t).
 *   route: spec 10.1 trials through lcan_study_route, printed exactly like `lcan route`; with
 *     +faults through lcan_route_perm_faults, with cmd_route.c's arithmetic and its keys faults, cut.
 *   traffic: open-loop load points through lcan_traffic_run (lcan_traffic.h) on the lockstep tick,
 *     printed exactly like `lcan traffic` (lcan_traffic_print) with the engine name.
 *   collective: one collective operation through lcan_collective_run (lcan_collective.h) on the
 *     lockstep tick, max_queue read from the RTL's debug view; printed exactly like
 *     `lcan collective` (lcan_collective_print, the tool's own printer) with the engine name.
 *   embed: a guest's nearest-neighbour exchange through lcan_embed_exchange_run (lcan_embed.h) on
 *     the lockstep tick, with the embedding's first hops; printed exactly like `lcan embed`
 *     (lcan_embed_print) with the engine name.
 */
#include "tb_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lcan_collective.h"
#include "lcan_embed.h"
#include "lcan_faults.h"
#include "lcan_study.h"
#include "lcan_traffic.h"

typedef struct {
    tb_ctx *c;
    lcan_in in;
    lcan_out out;
    uint8_t *iv, *ack, *ready, *iack, *ejv;
    uint64_t *if_, *ejf;
    uint32_t cu[LCAN_MAX_LEVELS], cd[LCAN_MAX_LEVELS], cdrop[LCAN_MAX_LEVELS];
} pins;

static void pins_init(pins *p, tb_ctx *c)
{
    memset(p, 0, sizeof *p);
    p->c = c;
    p->iv = calloc(c->NP, 1);
    p->ack = calloc(c->NP, 1);
    p->ready = calloc(c->NP, 1);
    p->iack = calloc(c->NP, 1);
    p->ejv = calloc(c->NP, 1);
    p->if_ = calloc(c->NP, 8);
    p->ejf = calloc(c->NP, 8);
    p->in.inj_valid = p->iv;
    p->in.inj_flit = p->if_;
    p->in.ej_ack = p->ack;
    p->out.inj_ready = p->ready;
    p->out.inj_ack = p->iack;
    p->out.ej_valid = p->ejv;
    p->out.ej_flit = p->ejf;
    p->out.cnt_up = p->cu;
    p->out.cnt_down = p->cd;
    p->out.cnt_drop = p->cdrop;
}

static void pins_free(pins *p)
{
    free(p->iv);
    free(p->ack);
    free(p->ready);
    free(p->iack);
    free(p->ejv);
    free(p->if_);
    free(p->ejf);
}

/* Clear the inputs (after a tick, so the next one starts idle). */
static void pins_idle(pins *p)
{
    p->in.rst = 0;
    p->in.clear = 0;
    memset(p->iv, 0, p->c->NP);
    memset(p->ack, 0, p->c->NP);
    memset(p->if_, 0, p->c->NP * 8);
}

static void tick(pins *p)
{
    tb_engine_tick(p->c, &p->in, &p->out);
    pins_idle(p);
}

/* Flit packing of spec 3, written here independently of the model. */
static uint64_t mkflit(const tb_ctx *c, int head, int bcast, uint32_t dest, uint32_t payload)
{
    int pw = c->prm.payload_w;
    uint64_t pm = ((uint64_t)1 << pw) - 1u;
    return ((uint64_t)payload & pm) | ((uint64_t)dest << pw) | ((uint64_t)(bcast != 0) << (pw + c->AW)) |
           ((uint64_t)(head != 0) << (pw + c->AW + 1));
}

static uint32_t flit_dest(const tb_ctx *c, uint64_t f)
{
    return (uint32_t)((f >> c->prm.payload_w) & (((uint64_t)1 << c->AW) - 1u));
}

/* Debug byte b -> (level, switch index, local port); the second block (flood queue counts, spec
 * 8.7 / 9) has the first's order. */
static void dbg_pos(const tb_ctx *c, size_t b, int *level, uint32_t *idx, int *port)
{
    int l = 1;
    if (b >= c->dbg_block)
        b -= c->dbg_block;
    while (l < c->h && b >= c->dbg_base[l + 1])
        l++;
    size_t rel = b - c->dbg_base[l];
    *level = l;
    *idx = (uint32_t)(rel / (size_t)c->Pl[l]);
    *port = (int)(rel % (size_t)c->Pl[l]);
}

/* A destination whose LCA level with s is h: s with its top digit moved by one. */
static uint32_t far_leaf(const tb_ctx *c, uint32_t s)
{
    uint32_t top = c->N / (uint32_t)lcan_topo_m(c->topo, c->h); /* weight of digit h */
    uint32_t a = s / top, mh = (uint32_t)lcan_topo_m(c->topo, c->h);
    return (s % top) + ((a + 1) % mh) * top;
}

static void probe_ports(const tb_ctx *c, uint32_t *first, uint32_t *stride)
{
    *first = 0;
    *stride = 1;
    if (c->wire_ports > 0 && (uint32_t)c->wire_ports < c->NP) {
        *stride = c->NP / (uint32_t)c->wire_ports;
        *first = 0;
    }
}

/* After a wiring check: how many upper links its probes exercised (used[] per debug byte). */
static void wiring_summary(const tb_ctx *c, const char *mode, unsigned probes, const uint8_t *used)
{
    size_t ups = 0, ups_used = 0;
    for (size_t b = 0; b < c->dbg_block; b++) {
        int l, o;
        uint32_t x;
        dbg_pos(c, b, &l, &x, &o);
        if (o >= lcan_topo_downers(c->topo, l)) {
            ups++;
            ups_used += used[b];
        }
    }
    if (!c->quiet)
        fprintf(stderr, "tb: wiring check (%s): %u probes passed, %zu of %zu upper links exercised, %llu cycles\n",
                mode, probes, ups_used, ups, (unsigned long long)c->cycle);
}

/* ------------------------------------------------------------------ wiring check, circuit */

static void wire_circuit(tb_ctx *c, pins *p, uint32_t seed)
{
    uint8_t *prev = calloc(c->dbg_bytes, 1);
    uint8_t *used = calloc(c->dbg_bytes, 1);
    uint32_t first, stride, probes = 0;
    char sw[TB_STR];
    probe_ports(c, &first, &stride);

    p->in.rst = 1;
    p->in.seed = seed;
    tick(p);
    for (uint32_t q = first; q < c->NP; q += stride) {
        uint32_t s = q / (uint32_t)c->U0, t = far_leaf(c, s);
        uint64_t hdr = mkflit(c, 1, 0, lcan_topo_pack(c->topo, t), s);
        lcan_end e = {0, s, (int)(q % (uint32_t)c->U0)}, nx;
        p->in.clear = 1;
        tick(p);
        for (size_t b = 0; b < c->dbg_bytes; b++)
            if (c->r_dbg[b])
                tb_fail(c, "wiring: debug byte %zu is 0x%02x after clear (expected 0)", b, c->r_dbg[b]);
        p->iv[q] = 1;
        p->if_[q] = hdr;
        tick(p); /* the header sits in the injection register */
        memcpy(prev, c->r_dbg, c->dbg_bytes);
        if (lcan_topo_neighbor(c->topo, e, &nx) != LCAN_OK)
            tb_fail(c, "wiring: lcan_topo_neighbor failed for leaf %u port %d", s, e.port);
        e = nx; /* the level-1 switch and the downer the header enters on */
        for (int k = 1; k <= 2 * c->h - 1; k++) {
            tick(p);
            long hit = -1;
            for (size_t b = 0; b < c->dbg_bytes; b++)
                if ((c->r_dbg[b] & 0x80u) && !(prev[b] & 0x80u)) {
                    if (hit >= 0)
                        tb_fail(c, "wiring: probe from network port %u: two crosspoints set on one tick (debug bytes %ld, %zu)",
                                q, hit, b);
                    hit = (long)b;
                }
            memcpy(prev, c->r_dbg, c->dbg_bytes);
            int want_level = k <= c->h ? k : 2 * c->h - k;
            tb_switch_label(c, e.level, e.node, sw, sizeof sw);
            if (hit < 0)
                tb_fail(c, "wiring: probe from network port %u (towards leaf %u), hop %d: no crosspoint set; the header "
                        "should have entered %s on local port %d", q, t, k, sw, e.port);
            int l, o;
            uint32_t x;
            dbg_pos(c, (size_t)hit, &l, &x, &o);
            int src = c->r_dbg[hit] & 0x7f;
            if (l != e.level || x != e.node || src != e.port || l != want_level) {
                char got[TB_STR];
                tb_switch_label(c, l, x, got, sizeof got);
                tb_fail(c, "wiring: probe from network port %u (towards leaf %u), hop %d: crosspoint set at %s output %d "
                        "from input %d; by the adjacency the header arrives at %s input %d (level %d expected)",
                        q, t, k, got, o, src, sw, e.port, want_level);
            }
            used[hit] = 1;
            lcan_end from = {l, x, o};
            if (lcan_topo_neighbor(c->topo, from, &e) != LCAN_OK)
                tb_fail(c, "wiring: lcan_topo_neighbor failed for level %d switch %u port %d", l, x, o);
            for (uint32_t r = 0; r < c->NP; r++)
                if (c->r_ejv[r] && (k < 2 * c->h - 1 || r != e.node * (uint32_t)c->U0 + (uint32_t)e.port))
                    tb_fail(c, "wiring: probe from network port %u: unexpected flit on ej port %u at hop %d", q, r, k);
        }
        if (e.level != 0 || e.node != t)
            tb_fail(c, "wiring: probe from network port %u: path ends at level %d node %u, not at leaf %u", q, e.level,
                    e.node, t);
        uint32_t qe = t * (uint32_t)c->U0 + (uint32_t)e.port;
        if (!c->r_ejv[qe] || c->r_ejf[qe] != hdr)
            tb_fail(c, "wiring: probe from network port %u: header not on ej port %u after %d ticks (spec 7.4)", q, qe,
                    2 * c->h);
        /* the ack travels back over the same circuit: 2h-1 switches, spec 7.4 */
        p->ack[qe] = 1;
        for (int k = 0; k <= 2 * c->h - 2; k++) {
            tick(p);
            for (uint32_t r = 0; r < c->NP; r++)
                if (c->r_ack[r] && (r != q || k != 2 * c->h - 2))
                    tb_fail(c, "wiring: probe from network port %u: inj_ack on port %u %d ticks after ej_ack on %u "
                            "(expected only port %u after %d)", q, r, k, qe, q, 2 * c->h - 2);
        }
        if (!c->r_ack[q])
            tb_fail(c, "wiring: probe from network port %u: no inj_ack %d ticks after ej_ack on port %u", q,
                    2 * c->h - 2, qe);
        probes++;
        c->packets++;
    }
    wiring_summary(c, "circuit", probes, used);
    free(prev);
    free(used);
}

/* ------------------------------------------------------------------ wiring check, packet */

static void wire_packet(tb_ctx *c, pins *p, uint32_t seed)
{
    int depth = c->prm.depth;
    uint8_t *home = calloc(c->dbg_bytes, 1), *prev = calloc(c->dbg_bytes, 1), *used = calloc(c->dbg_bytes, 1);
    uint32_t first, stride, probes = 0;
    char sw[TB_STR];
    probe_ports(c, &first, &stride);

    p->in.rst = 1;
    p->in.seed = seed;
    tick(p);
    for (size_t b = 0; b < c->dbg_bytes; b++) { /* spec 8.3: cr = DEPTH, 0 on level-1 downers; 8.7: q = 0 */
        int l, o;
        uint32_t x;
        dbg_pos(c, b, &l, &x, &o);
        home[b] = (uint8_t)((b >= c->dbg_block || (l == 1 && o < lcan_topo_downers(c->topo, 1))) ? 0 : depth);
        if (c->r_dbg[b] != home[b]) {
            tb_switch_label(c, l, x, sw, sizeof sw);
            tb_fail(c, "wiring: after reset %s output %d shows %s %d, expected %d", sw, o,
                    b >= c->dbg_block ? "flood queue q" : "cr", c->r_dbg[b], home[b]);
        }
    }
    for (uint32_t q = first; q < c->NP; q += stride) {
        uint32_t s = q / (uint32_t)c->U0, t = far_leaf(c, s);
        uint64_t f = mkflit(c, 0, 0, lcan_topo_pack(c->topo, t), s);
        lcan_end e = {0, s, (int)(q % (uint32_t)c->U0)}, nx;
        if (!c->r_ready[q])
            tb_fail(c, "wiring: network port %u not ready on an idle network", q);
        p->iv[q] = 1;
        p->if_[q] = f;
        tick(p);
        memcpy(prev, c->r_dbg, c->dbg_bytes);
        lcan_topo_neighbor(c->topo, e, &nx);
        e = nx;
        for (int k = 1; k <= 2 * c->h - 2; k++) {
            tick(p);
            long hit = -1;
            for (size_t b = 0; b < c->dbg_block; b++)
                if (c->r_dbg[b] < prev[b]) {
                    if (hit >= 0)
                        tb_fail(c, "wiring: packet probe from network port %u: two credits spent on one tick", q);
                    hit = (long)b;
                }
            memcpy(prev, c->r_dbg, c->dbg_bytes);
            tb_switch_label(c, e.level, e.node, sw, sizeof sw);
            if (hit < 0)
                tb_fail(c, "wiring: packet probe from network port %u (towards leaf %u), hop %d: no credit spent; the "
                        "packet should be in %s", q, t, k, sw);
            int l, o;
            uint32_t x;
            dbg_pos(c, (size_t)hit, &l, &x, &o);
            int want_level = k <= c->h ? k : 2 * c->h - k;
            if (l != e.level || x != e.node || l != want_level) {
                char got[TB_STR];
                tb_switch_label(c, l, x, got, sizeof got);
                tb_fail(c, "wiring: packet probe from network port %u (towards leaf %u), hop %d: sent by %s output %d; by "
                        "the adjacency the packet is in %s (input %d)", q, t, k, got, o, sw, e.port);
            }
            used[hit] = 1;
            lcan_end from = {l, x, o};
            lcan_topo_neighbor(c->topo, from, &e);
        }
        tick(p); /* the level-1 switch hands the packet to the leaf */
        uint32_t qe = UINT32_MAX;
        for (uint32_t r = 0; r < c->NP; r++)
            if (c->r_ejv[r]) {
                if (qe != UINT32_MAX)
                    tb_fail(c, "wiring: packet probe from network port %u: two ejections", q);
                qe = r;
            }
        if (qe == UINT32_MAX || c->r_ejf[qe] != f)
            tb_fail(c, "wiring: packet probe from network port %u: not delivered after %d ticks (spec 8.4)", q, 2 * c->h);
        lcan_end leaf = {0, qe / (uint32_t)c->U0, (int)(qe % (uint32_t)c->U0)}, sw1;
        lcan_topo_neighbor(c->topo, leaf, &sw1);
        if (leaf.node != t || sw1.node != e.node || e.level != 1)
            tb_fail(c, "wiring: packet probe from network port %u: delivered on port %u (leaf %u, level-1 switch %u), "
                    "expected leaf %u via level-1 switch %u", q, qe, leaf.node, sw1.node, t, e.node);
        /* every credit comes home within a few ticks */
        int k;
        for (k = 0; k < 8; k++) {
            if (memcmp(c->r_dbg, home, c->dbg_bytes) == 0 && c->r_ready[q])
                break;
            tick(p);
        }
        if (k == 8) {
            for (size_t b = 0; b < c->dbg_bytes; b++)
                if (c->r_dbg[b] != home[b]) {
                    int l, o;
                    uint32_t x;
                    dbg_pos(c, b, &l, &x, &o);
                    tb_switch_label(c, l, x, sw, sizeof sw);
                    tb_fail(c, "wiring: packet probe from network port %u: %s output %d holds %s %d, not %d, 8 ticks "
                            "after delivery (credit wired to the wrong sender?)", q, sw, o,
                            b >= c->dbg_block ? "flood queue q" : "cr", c->r_dbg[b], home[b]);
                }
            tb_fail(c, "wiring: packet probe from network port %u: inj_ready not back (injection credit lost)", q);
        }
        probes++;
        c->packets++;
    }
    wiring_summary(c, "packet", probes, used);
    free(home);
    free(prev);
    free(used);
}

/* ------------------------------------------------------------------ circuit lockstep */

static void lockstep_circuit(tb_ctx *c)
{
    uint32_t *perm = calloc(c->N, 4);
    double *occ = calloc((size_t)c->h, sizeof *occ);
    char err[TB_STR];
    int file = strncmp(c->pattern, "file:", 5) == 0 || strncmp(c->pattern, "FILE:", 5) == 0;
    for (uint32_t k = 0; c->cycle < c->cycles_target; k++) {
        uint64_t rng = lcan_trial_rng(c->seed, k);
        /* a file pattern is the same permutation every time: read it once (as src/study.c) */
        lcan_status st = file && k > 0 ? LCAN_OK : lcan_pattern(c->topo, c->pattern, &rng, perm, err, sizeof err);
        if (st != LCAN_OK)
            tb_fail(c, "pattern '%s': %s", c->pattern, err[0] ? err : lcan_strerror(st));
        lcan_route_result res;
        memset(&res, 0, sizeof res);
        res.stage_occ = occ;
        st = lcan_route_perm(c->topo, c->prm.payload_w, tb_engine_tick, c, perm, lcan_trial_net_seed(c->seed, k),
                             10000, &res);
        if (st != LCAN_OK)
            tb_fail(c, "permutation %u: lcan_route_perm: %s", k, lcan_strerror(st));
        if (res.data_errors)
            tb_fail(c, "permutation %u: %llu data flits missing, misplaced or wrong (spec 7.5)", k,
                    (unsigned long long)res.data_errors);
        c->packets += c->N;
    }
    free(perm);
    free(occ);
}

/* ------------------------------------------------------------------ packet lockstep */

static double urand(uint64_t *rng)
{
    return (double)(lcan_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

static void lockstep_packet(tb_ctx *c, pins *p)
{
    uint32_t *perm = calloc(c->N, 4);
    uint64_t rng = lcan_trial_rng(c->seed, 0);
    char err[TB_STR];
    int uniform = strcmp(c->pattern, "random") == 0;
    if (!uniform) {
        lcan_status st = lcan_pattern(c->topo, c->pattern, &rng, perm, err, sizeof err);
        if (st != LCAN_OK)
            tb_fail(c, "pattern '%s': %s", c->pattern, err[0] ? err : lcan_strerror(st));
    }
    int w1 = lcan_topo_w(c->topo, 1), p1 = lcan_topo_p(c->topo, 1);
    double brate = c->bcast_rate >= 0 ? c->bcast_rate : 0.25 / (double)c->N;
    uint64_t sent_uni = 0, sent_bc = 0, sent_flood = 0, got_uni = 0, got_bc = 0, want_bc = 0;
    /* flood queues (spec 8.7): the largest q_o seen in the RTL's view and the output-ticks with a full queue */
    int q_max = 0;
    uint64_t q_full = 0;
    uint32_t seq = 0;
    /* exactly once: a packet's payload is its sequence number; owed[slot] counts the deliveries still
     * owed to the packets whose sequence number falls in the slot (1 per unicast, N per tree
     * broadcast: every leaf, the source included, spec 8.5; N - 1 per flooding broadcast: every leaf
     * but the source, spec 8.6). A delivery to a slot that is owed nothing is a duplicate (or a
     * corrupted payload); the drain ends with every slot at 0, so nothing is lost either. src[slot]:
     * the source leaf of the last flooding broadcast in the slot, which must never receive it. */
    int slot_bits = c->prm.payload_w < 20 ? c->prm.payload_w : 20;
    uint32_t slot_mask = ((uint32_t)1 << slot_bits) - 1u;
    uint32_t *owed = calloc((size_t)slot_mask + 1u, sizeof *owed);
    uint32_t *src = calloc((size_t)slot_mask + 1u, sizeof *src);
    if (!perm || !owed || !src)
        tb_fail(c, "out of memory for the packet lockstep");

    p->in.rst = 1;
    p->in.seed = lcan_trial_net_seed(c->seed, 0);
    tick(p);
    /* traffic until the budget is spent, then a drain that must deliver everything */
    uint64_t drain_start = 0;
    for (;;) {
        int traffic = c->cycle < c->cycles_target;
        if (!traffic && drain_start == 0)
            drain_start = c->cycle;
        if (!traffic && got_uni == sent_uni && got_bc == want_bc)
            break;
        if (!traffic && c->cycle - drain_start > 20000)
            tb_fail(c, "packet drain: %llu of %llu unicast and %llu of %llu broadcast deliveries after 20000 idle ticks",
                    (unsigned long long)got_uni, (unsigned long long)sent_uni, (unsigned long long)got_bc,
                    (unsigned long long)want_bc);
        if (traffic) {
            /* some phases idle: bursts of load and of silence exercise empty FIFOs and bypass */
            int quiet_phase = ((c->cycle >> 9) & 7u) == 7u;
            for (uint32_t s = 0; s < c->N && !quiet_phase; s++) {
                uint32_t base = s * (uint32_t)c->U0;
                if (w1 > 0 && urand(&rng) < brate) {
                    uint32_t t = (uint32_t)(lcan_rng_next(&rng) % (uint64_t)w1);
                    uint32_t q = base + t * (uint32_t)p1;
                    /* a share flooding (head = 1, spec 8.6; default half), the rest tree broadcasts (spec
                     * 8.5); the default draws one random bit, as before +flood_share existed */
                    int flood = c->flood_share < 0 ? (int)(lcan_rng_next(&rng) & 1u)
                                                   : urand(&rng) < c->flood_share;
                    if (c->r_ready[q]) {
                        uint32_t copies = flood ? c->N - 1u : c->N;
                        if (c->prm.unicast_only) /* spec 8.8: a unicast to the leaf at packed address t,
                                                  * none when t is no address (an impossible digit) */
                            copies = lcan_topo_unpack(c->topo, t) != UINT32_MAX;
                        p->iv[q] = 1;
                        owed[seq & slot_mask] += copies;
                        src[seq & slot_mask] = s;
                        want_bc += copies;
                        p->if_[q] = mkflit(c, flood, 1, t, seq++);
                        sent_bc++;
                        sent_flood += (uint64_t)flood;
                    }
                }
                for (int j = 0; j < c->U0; j++) {
                    uint32_t q = base + (uint32_t)j;
                    if (!p->iv[q] && !c->r_ready[q] && urand(&rng) < 0.25) {
                        /* spec 8.4: a flit offered while inj_ready = 0 is not taken. Offer one now
                         * and then; it is never counted or owed, so a delivery of it is a duplicate */
                        p->iv[q] = 1;
                        p->if_[q] = mkflit(c, 0, 0, lcan_topo_pack(c->topo, (uint32_t)(lcan_rng_next(&rng) % c->N)),
                                           seq);
                        continue;
                    }
                    if (p->iv[q] || !c->r_ready[q] || urand(&rng) >= c->rate)
                        continue;
                    uint32_t d = uniform ? (uint32_t)(lcan_rng_next(&rng) % c->N) : perm[s];
                    p->iv[q] = 1;
                    owed[seq & slot_mask]++;
                    p->if_[q] = mkflit(c, 0, 0, lcan_topo_pack(c->topo, d), seq++);
                    sent_uni++;
                }
            }
            c->packets = sent_uni + sent_bc;
        }
        tick(p);
        for (size_t b = c->dbg_block; b < c->dbg_bytes; b++) {
            q_max = c->r_dbg[b] > q_max ? c->r_dbg[b] : q_max;
            q_full += (uint64_t)(c->r_dbg[b] == c->prm.flood_q);
        }
        for (uint32_t r = 0; r < c->NP; r++) {
            if (!c->r_ejv[r])
                continue;
            uint64_t f = c->r_ejf[r];
            int bc = (int)((f >> (c->prm.payload_w + c->AW)) & 1u);
            uint32_t leaf = r / (uint32_t)c->U0;
            uint32_t slot = (uint32_t)f & slot_mask;
            if (owed[slot] == 0)
                tb_fail(c, "packet with sequence number %u (mod 2^%d) delivered on network port %u more often than "
                        "it was sent: a duplicate", slot, slot_bits, r);
            owed[slot]--;
            if (bc && !c->prm.unicast_only) {
                uint32_t t = flit_dest(c, f);
                int fl = (int)((f >> (c->prm.payload_w + c->AW + 1)) & 1u);
                if (r != leaf * (uint32_t)c->U0 + t * (uint32_t)p1)
                    tb_fail(c, "%s broadcast of tree %u delivered on network port %u (spec 8.5/8.6: leaf port %u)",
                            fl ? "flooding" : "tree", t, r, t * (uint32_t)p1);
                if (fl && src[slot] == leaf)
                    tb_fail(c, "flooding broadcast %u (mod 2^%d) delivered to its own source leaf %u (spec 8.6)", slot,
                            slot_bits, leaf);
                got_bc++;
            } else { /* a unicast, or with UNICAST_ONLY a broadcast travelling as one (spec 8.8) */
                if (flit_dest(c, f) != lcan_topo_pack(c->topo, leaf))
                    tb_fail(c, "packet for 0x%x delivered on network port %u (leaf %u)", flit_dest(c, f), r, leaf);
                got_uni += (uint64_t)!bc;
                got_bc += (uint64_t)bc;
            }
        }
    }
    if (!c->quiet)
        fprintf(stderr, "tb: packet traffic: %llu unicast and %llu broadcast packets (%llu flooding), each delivered exactly once (%llu + %llu deliveries)\n",
                (unsigned long long)sent_uni, (unsigned long long)sent_bc, (unsigned long long)sent_flood,
                (unsigned long long)got_uni, (unsigned long long)got_bc);
    if (!c->quiet && c->dbg_bytes > c->dbg_block)
        fprintf(stderr, "tb: flood queues (FLOOD_Q %d): largest q_o %d, %llu output-ticks with a full queue\n",
                c->prm.flood_q, q_max, (unsigned long long)q_full);
    free(src);
    free(owed);
    free(perm);
}

/* ------------------------------------------------------------------ route study */

static void route_progress(void *ctx, long done, long total)
{
    tb_ctx *c = ctx;
    c->prog_done = (double)done;
    c->prog_total = (double)total;
}

static void route(tb_ctx *c)
{
    lcan_study_route_stats s;
    char err[TB_STR];
    c->prog_total = (double)c->trials;
    /* the RTL's UP_CHOICE is its build parameter; the model inside tb_engine_tick has the same, and
     * the study records it (printed as "up_choice", as the model engine's run prints its own);
     * --faults (spec 14.5): the same study under the fault set, printed with faults and cut */
    lcan_status st = lcan_study_route_faults(c->topo, c->prm.payload_w, c->pattern, (long)c->trials, c->seed,
                                             (int)c->max_passes, c->prm.up_choice ? LCAN_UP_UNIFORM : LCAN_UP_ROTATE,
                                             c->faults, tb_engine_tick, c, &s, err, sizeof err, route_progress, c);
    if (st != LCAN_OK) {
        lcan_study_route_free(&s);
        tb_fail(c, "route: %s", err[0] ? err : lcan_strerror(st));
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    lcan_study_route_print(f, c->topo, c->pattern, c->engine, &s, c->json);
    fclose(f);
    c->result = buf;
    lcan_study_route_free(&s);
}

/* ------------------------------------------------------------------ collective */

/* lcan_debug_fn on the RTL: its debug view after the last tick (spec 9 order). */
static size_t rtl_debug(void *engine, uint8_t *buf, size_t len)
{
    tb_ctx *c = engine;
    if (buf != NULL)
        memcpy(buf, c->r_dbg, len < c->dbg_bytes ? len : c->dbg_bytes);
    return c->dbg_bytes;
}

static void collective(tb_ctx *c)
{
    lcan_coll_op op;
    lcan_coll_opts o;
    lcan_coll_result res;
    int pw, depth, flood_q;
    if (c->prm.mode != LCAN_PACKET)
        tb_usage_error(c, "collective: the simulation must be built in packet mode");
    if (!lcan_coll_op_parse(c->op, &op))
        tb_usage_error(c, "collective: +op='%s' is not one of bcast scatter gather mnb alltoall reduce prefix", c->op);
    if (strcmp(c->algo, "hw") != 0 && strcmp(c->algo, "leaves") != 0 && strcmp(c->algo, "binomial") != 0 &&
        strcmp(c->algo, "recursive") != 0)
        tb_usage_error(c, "collective: +algo='%s' is not one of hw, leaves, binomial, recursive", c->algo);
    if (strcmp(c->combine, "sum") != 0 && strcmp(c->combine, "max") != 0)
        tb_usage_error(c, "collective: +combine='%s' is not one of sum, max", c->combine);
    if (strcmp(c->broadcast, "flood") != 0 && strcmp(c->broadcast, "tree") != 0)
        tb_usage_error(c, "collective: +broadcast='%s' is not one of flood, tree", c->broadcast);
    if (c->root >= c->N)
        tb_usage_error(c, "collective: --root %llu is not a leaf of %s (0..%u)", (unsigned long long)c->root,
                       lcan_topo_canonical(c->topo), c->N - 1);
    if (c->flits < 1 || c->flits > 1000000 || c->trees < 1 || c->trees > 64 || c->compact > 20 ||
        c->depth_req > 255 || c->flood_q_req > 255 || c->seed > 0xffffffffull)
        tb_usage_error(c, "collective: an option is out of range (flits 1..1000000, trees 1..64, compact 0..20, "
                          "depth 1..255, flood queue 0..255, seed 0..2^32-1)");
    /* the options exactly as cmd_collective.c sets them for the model engine */
    lcan_coll_opts_default(&o);
    o.root = (uint32_t)c->root;
    o.flits = (int)c->flits;
    o.trees = (int)c->trees;
    o.sw_bcast = strcmp(c->algo, "hw") != 0;
    o.recursive = strcmp(c->algo, "recursive") == 0;
    o.phased = c->phased;
    o.combine = strcmp(c->combine, "max") == 0 ? LCAN_COMB_MAX : LCAN_COMB_SUM;
    o.compact = (int)c->compact;
    o.net_seed = (uint32_t)c->seed;
    o.flood = strcmp(c->broadcast, "tree") != 0; /* --broadcast flood (default) | tree: the head bit */
    o.up_choice = c->prm.up_choice ? LCAN_UP_UNIFORM : LCAN_UP_ROTATE;
    o.flood_q = (int)c->flood_q_req; /* --flood-queue as given, -1: the driver's choice */
    /* the engine must be the model engine's: PAYLOAD_W, DEPTH and FLOOD_Q (lcan_collective_run_model) */
    lcan_collective_engine_cfg(c->topo, op, &o, &pw, &depth, &flood_q);
    if ((int)c->depth_req > depth)
        depth = (int)c->depth_req;
    if (pw != c->prm.payload_w || depth != c->prm.depth || flood_q != c->prm.flood_q)
        tb_usage_error(c, "collective: --op %s on %s needs PAYLOAD_W %d, DEPTH %d and FLOOD_Q %d, but this simulation "
                          "was built with PAYLOAD_W %d, DEPTH %d and FLOOD_Q %d", c->op, lcan_topo_canonical(c->topo),
                       pw, depth, flood_q, c->prm.payload_w, c->prm.depth, c->prm.flood_q);
    o.payload_w = pw;
    o.depth = depth;
    o.flood_q = flood_q;
    o.debug = rtl_debug;
    o.faults = c->faults; /* --faults: bcast on every usable tree (spec 14.5) */
    memset(&res, 0, sizeof res);
    lcan_status st = lcan_collective_run(c->topo, op, &o, tb_engine_tick, c, &res);
    c->packets = res.messages;
    if (st == LCAN_ERR_PATTERN)
        tb_usage_error(c, "collective: %s", res.err[0] ? res.err : lcan_strerror(st));
    if (st != LCAN_OK)
        tb_fail(c, "collective: %s%s%s", lcan_strerror(st), res.err[0] ? ": " : "", res.err);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    lcan_collective_print(f, c->topo, op, c->engine, &o, &res, c->json);
    fclose(f);
    c->result = buf;
    if (!res.correct)
        c->status = 1; /* printed like the model engine's incorrect result, exit 1 */
}

/* ------------------------------------------------------------------ traffic */

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The file of a file:PATH pattern (malloc'd), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) != NULL) {
        size_t r = fread(buf, 1, (size_t)n, f);
        buf[r] = 0;
    }
    fclose(f);
    return buf;
}

/* One load point or a sweep through lcan_traffic_run (lcan_traffic.h) on the lockstep tick, with the
 * options exactly as cmd_traffic.c sets them for the model engine; printed by lcan_traffic_print. */
static void traffic(tb_ctx *c)
{
    lcan_traffic_pattern *pat = NULL;
    lcan_traffic_opts o;
    lcan_traffic_result *pts;
    double *loads, one = c->load, burst;
    char err[TB_STR], *text = NULL, *end;
    int n = 1, bad = 0;
    if (c->prm.mode != LCAN_PACKET)
        tb_usage_error(c, "traffic: the simulation must be built in packet mode");
    if (strncmp(c->pattern, "file:", 5) == 0 &&
        (text = slurp(c->pattern_file[0] ? c->pattern_file : c->pattern + 5)) == NULL)
        tb_usage_error(c, "traffic: cannot read pattern file '%s'", c->pattern + 5);
    lcan_status st = lcan_traffic_pattern_new(c->topo, c->pattern, text, &pat, err, sizeof err);
    free(text);
    if (st != LCAN_OK)
        tb_usage_error(c, "traffic: %s", err);
    burst = strtod(c->burst, &end);
    if (c->sweep[0]) {
        n = lcan_traffic_sweep_loads(c->sweep, NULL, 0);
        if (n < 1)
            tb_usage_error(c, "traffic: --sweep '%s': expected A:B:STEP with 0 < A <= B <= 1, STEP > 0", c->sweep);
        loads = calloc((size_t)n, sizeof *loads);
        lcan_traffic_sweep_loads(c->sweep, loads, n);
    } else {
        loads = &one;
    }
    lcan_traffic_opts_default(&o);
    o.bcast = c->bcast;
    o.burst = burst;
    o.warmup = c->warmup;
    o.measure = c->measure;
    o.drain_max = c->drain_max;
    o.drain_all = c->drain;
    o.seed = c->seed;
    o.payload_w = c->prm.payload_w;
    o.depth = c->prm.depth;
    o.up_choice = c->prm.up_choice ? LCAN_UP_UNIFORM : LCAN_UP_ROTATE;
    o.faults = c->faults; /* --faults / --fault-at (spec 14.5) */
    o.fault_at = c->fault_at;
    if (c->depth_req != 0 && (int)c->depth_req != c->prm.depth)
        tb_usage_error(c, "traffic: --depth %llu, but this simulation was built with DEPTH %d",
                       (unsigned long long)c->depth_req, c->prm.depth);
    pts = calloc((size_t)n, sizeof *pts);
    c->prog_total = (double)n * (double)(o.warmup + o.measure);
    for (int k = 0; k < n; k++) {
        double t0 = cpu_now(), dt;
        o.load = loads[k];
        c->prog_base = (double)k * (double)(o.warmup + o.measure);
        c->prog_window = o.warmup + o.measure;
        c->prog_cycle0 = c->cycle;
        st = lcan_traffic_run(c->topo, pat, &o, tb_engine_tick, c, &pts[k]);
        dt = cpu_now() - t0;
        pts[k].cycles_per_s = dt > 0 ? (double)pts[k].cycles / dt : 0.0;
        c->packets += pts[k].delivered;
        if (st == LCAN_ERR_ARG)
            tb_usage_error(c, "traffic: an option is out of range (load 0..1, bcast 0..1, burst >= 1 with load < 1)");
        if (st != LCAN_OK && st != LCAN_ERR_STALL)
            tb_fail(c, "traffic: %s", lcan_strerror(st));
        if (st == LCAN_ERR_STALL || pts[k].lost || pts[k].duplicated || pts[k].misrouted)
            bad = 1;
        if (pts[k].queue_overflow) { /* as cmd_traffic.c: the sweep stops here */
            n = k + 1;
            break;
        }
    }
    o.load = loads[0];
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    lcan_traffic_print(f, c->topo, pat, c->engine, &o, pts, n, c->sweep[0] != 0,
                       c->json ? LCAN_TRAFFIC_JSON : c->csv ? LCAN_TRAFFIC_CSV : LCAN_TRAFFIC_TEXT);
    fclose(f);
    c->result = buf;
    if (bad && pts[n - 1].queue_overflow) {
        fprintf(stderr, "lcan: traffic: at load %g the source queues exceeded 2^24 packets (far above saturation): "
                        "stopped; use a shorter --warmup / --measure\n", pts[n - 1].load);
        c->status = 1;
    } else if (bad) {
        fprintf(stderr, "lcan: traffic: packets lost, duplicated or misrouted, or a drain did not finish\n");
        c->status = 1; /* printed like the model engine's result, exit 1 */
    }
    if (loads != &one)
        free(loads);
    free(pts);
    lcan_traffic_pattern_free(pat);
}

/* ------------------------------------------------------------------ embed */

/* `lcan embed HOST --guest G ... --engine rtl|icarus`: the guest, the map and the paths exactly as
 * cmd_embed.c computes them (the same library calls), then the exchange driver
 * lcan_embed_exchange_run on the lockstep tick; printed by lcan_embed_print with the engine name.
 * tb/lcan-rtl has had every option checked by `lcan embed ... --check` before. */
static void embed(tb_ctx *c)
{
    lcan_guest *g = NULL;
    lcan_embed_result r;
    lcan_embed_exchange_result x;
    const char *map_ref = "the user's map";
    char err[TB_STR], *text = NULL;
    int pw, depth;
    if (c->prm.mode != LCAN_PACKET)
        tb_usage_error(c, "embed: the simulation must be built in packet mode");
    if (strcmp(c->inject, "path") != 0 && strcmp(c->inject, "any") != 0)
        tb_usage_error(c, "embed: +inject='%s': expected path or any", c->inject);
    if (c->seed > 0xffffffffull)
        tb_usage_error(c, "embed: --seed %llu is out of range (0..2^32-1)", (unsigned long long)c->seed);
    if (lcan_guest_parse(c->guest, &g, err, sizeof err) != LCAN_OK)
        tb_usage_error(c, "embed: --guest %s", err);
    if (lcan_guest_nodes(g) > c->N)
        tb_usage_error(c, "embed: guest %s has %lu nodes but the host %s only %lu leaves", lcan_guest_name(g),
                       (unsigned long)lcan_guest_nodes(g), c->spec, (unsigned long)c->N);
    uint32_t *map = malloc((size_t)lcan_guest_nodes(g) * sizeof *map);
    uint16_t *port = malloc(2 * ((size_t)lcan_guest_edges(g) + 1) * sizeof *port);
    if (map == NULL || port == NULL)
        tb_fail(c, "embed: out of memory");
    if (strcmp(c->map, "default") == 0) {
        if (lcan_embed_default_map(c->topo, g, map, &map_ref, err, sizeof err) != LCAN_OK)
            tb_usage_error(c, "embed: %s", err);
    } else {
        if (strncmp(c->map, "file:", 5) != 0 || (text = slurp(c->map_file[0] ? c->map_file : c->map + 5)) == NULL)
            tb_usage_error(c, "embed: --map %s: cannot read the file", c->map);
        if (lcan_embed_parse_map(text, c->topo, g, map, err, sizeof err) != LCAN_OK)
            tb_usage_error(c, "embed: --map %s: %s", c->map, err);
    }
    if (lcan_embed_route(c->topo, g, map, &r, port, err, sizeof err) != LCAN_OK)
        tb_usage_error(c, "embed: %s", err);
    /* the engine must be the model engine's (lcan_embed_exchange): PAYLOAD_W and DEPTH */
    lcan_embed_exchange_cfg(g, map, &pw, &depth);
    if (pw != c->prm.payload_w || depth != c->prm.depth)
        tb_usage_error(c, "embed: the exchange of %s on %s needs PAYLOAD_W %d and DEPTH %d, but this simulation was "
                          "built with PAYLOAD_W %d and DEPTH %d", lcan_guest_name(g), c->spec, pw, depth,
                       c->prm.payload_w, c->prm.depth);
    lcan_status st = lcan_embed_exchange_run(c->topo, g, map, strcmp(c->inject, "path") == 0 ? port : NULL, pw,
                                             (uint32_t)c->seed, 0, tb_engine_tick, c, &x);
    c->packets = x.packets;
    if (st != LCAN_OK)
        tb_fail(c, "embed: the exchange of %s: %s (%llu of %llu packets delivered correctly)", lcan_guest_name(g),
                lcan_strerror(st), (unsigned long long)(x.packets - (x.errors < x.packets ? x.errors : x.packets)),
                (unsigned long long)x.packets);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    lcan_embed_print(f, c->topo, g, c->map, map_ref, &r, &x, c->inject, c->engine, c->json);
    fclose(f);
    c->result = buf;
    if (x.errors)
        c->status = 1; /* printed like the model engine's result, exit 1 */
    free(text);
    free(map);
    free(port);
    lcan_guest_free(g);
}

void tb_drive_main(tb_ctx *c)
{
    pins p;
    pins_init(&p, c);
    if (strcmp(c->cmd, "route") == 0) {
        route(c);
    } else if (strcmp(c->cmd, "collective") == 0) {
        collective(c);
    } else if (strcmp(c->cmd, "traffic") == 0) {
        traffic(c);
    } else if (strcmp(c->cmd, "embed") == 0) {
        embed(c);
    } else {
        uint32_t wseed = lcan_trial_net_seed(c->seed, 0xffffffffu);
        if (c->wire && c->prm.mode == LCAN_CIRCUIT)
            wire_circuit(c, &p, wseed);
        else if (c->wire)
            wire_packet(c, &p, wseed);
        if (c->prm.mode == LCAN_CIRCUIT)
            lockstep_circuit(c);
        else
            lockstep_packet(c, &p);
    }
    pins_free(&p);
}
