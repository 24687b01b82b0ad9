/*
 * test_collective.c - collective operations in packet mode on the model (lcan_collective.h).
 *
 * Expected step counts come from the papers' formulas, evaluated here:
 *   seed 000: broadcast 2 log n (Table 1); scatter / gather max_i (n - 2^(i-1) + 2i - 1) = n + 1
 *   (Thm 1); total exchange formula (2) sum ceil(4^(i-1)/c_i) + 2 log n - 1 (pipelined) and (1)
 *   sum ceil(4^(i-1)/c_i) + (log n)^2 (phased), for CBFT, EBFT and other capacities;
 * and, where our networks differ from the papers, from our own derivation (written out here):
 *   mnb through the top of the broadcast tree (--broadcast tree): ceil(N/w1) + 2h - 1 (the top
 *   switch forwards one broadcast per tick) = n + 2 log2 n - 1 on a BFT; mnb by flooding with the
 *   driver's flood queues (spec 8.7, the default): seed 000 Thm 2's n + 1 and 4.1's up-queue peaks
 *   2^(i-1); with FLOOD_Q = 0 (spec 8.6, floods wait in input FIFOs): n(n-1) deliveries, never below
 *   the lower bound n + 1, within the measured n + 6; K flits over T trees:
 *   2h + ceil(K/T) - 1 (tree or flooding: the leaves at LCA level h get the flits last);
 *   round programs (seed 001's round model): sum over rounds of 2 x round height = h(h+1) for the
 *   binomial reduce / leaf broadcast and 2h^2 for the prefix up/down sweep on binary trees.
 * max_queue and queue_peak per level (from the debug view) are checked against the model's real
 * FIFO counts.
 * Seed 003's simulator: its proved broadcast counts (Results 1, 3, 4, 6) and Table 1's bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan_collective.h"
#include "net_internal.h"

static lcan_topo *topo(check_ctx *c, const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    check(c, lcan_topo_parse(spec, &t, err, sizeof err) == LCAN_OK, "parse %s: %s", spec, err);
    return t;
}

static lcan_coll_result run(check_ctx *c, const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o)
{
    lcan_coll_result r;
    lcan_status st = lcan_collective_run_model(t, op, o, &r);
    check(c, st == LCAN_OK, "%s %s: status %s (%s)", lcan_topo_canonical(t), lcan_coll_op_name(op), lcan_strerror(st),
          r.err);
    check(c, r.correct && r.errors == 0, "%s %s: not correct (%llu errors)", lcan_topo_canonical(t),
          lcan_coll_op_name(op), (unsigned long long)r.errors);
    return r;
}

static void expect_steps(check_ctx *c, const lcan_topo *t, const char *what, uint64_t got, int64_t want)
{
    check(c, (int64_t)got == want, "%s %s: steps %llu, expected %lld", lcan_topo_canonical(t), what,
          (unsigned long long)got, (long long)want);
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* seed 000 formulas for bft(h; c) */
static int64_t f_scatter(int64_t n, int h)
{
    int64_t best = 0;
    int i;
    for (i = 1; i <= h; i++) {
        int64_t Ti = n - ((int64_t)1 << (i - 1)) + 2 * i - 1;
        if (Ti > best)
            best = Ti;
    }
    return best;
}

static int64_t f_te(const int *cap, int h, int pipelined)
{
    int64_t s = 0;
    int i;
    for (i = 1; i <= h; i++)
        s += ceil_div((int64_t)1 << (2 * (i - 1)), cap[i]);
    return pipelined ? s + 2 * h - 1 : s + (int64_t)h * h;
}

static void bft_spec(char *buf, size_t len, int h, const int *cap)
{
    int i;
    size_t k = (size_t)snprintf(buf, len, "bft(%d;", h);
    for (i = 1; i <= h; i++)
        k += (size_t)snprintf(buf + k, len - k, "%d%s", cap[i], i < h ? "," : ")");
}

/* The paper's cases on binary fat trees: CBFT and EBFT, n = 4 .. 64 (and larger with `big`). */
static void test_bft(check_ctx *c, int h, const int *cap, int big)
{
    int i;
    char spec[256];
    lcan_topo *t;
    lcan_coll_opts o;
    lcan_coll_result r;
    int64_t n = (int64_t)1 << h;
    bft_spec(spec, sizeof spec, h, cap);
    t = topo(c, spec);
    if (t == NULL)
        return;
    lcan_coll_opts_default(&o);

    r = run(c, t, LCAN_COLL_BCAST, &o); /* flooding (the default): every leaf but the root */
    expect_steps(c, t, "bcast", r.steps, 2 * h);
    check(c, r.paper_steps == 2 * h && r.deliveries == (uint64_t)n - 1, "%s bcast flood: paper %lld deliveries %llu",
          spec, (long long)r.paper_steps, (unsigned long long)r.deliveries);
    o.flood = 0;
    r = run(c, t, LCAN_COLL_BCAST, &o); /* tree: every leaf, the root included */
    expect_steps(c, t, "bcast tree", r.steps, 2 * h);
    check(c, r.deliveries == (uint64_t)n, "%s bcast tree: deliveries %llu", spec, (unsigned long long)r.deliveries);
    o.flood = 1;

    r = run(c, t, LCAN_COLL_SCATTER, &o);
    expect_steps(c, t, "scatter", r.steps, f_scatter(n, h));
    check(c, n < 4 || r.steps == (uint64_t)n + 1, "%s scatter: %llu != n+1", spec, (unsigned long long)r.steps);
    check(c, r.max_queue == 0, "%s scatter: max_queue %d (farthest-first never queues)", spec, r.max_queue);

    r = run(c, t, LCAN_COLL_GATHER, &o);
    expect_steps(c, t, "gather", r.steps, f_scatter(n, h));
    check(c, r.max_queue == 0, "%s gather: max_queue %d", spec, r.max_queue);

    o.root = (uint32_t)(n - 1); /* any root: the tree is symmetric */
    r = run(c, t, LCAN_COLL_SCATTER, &o);
    expect_steps(c, t, "scatter root n-1", r.steps, f_scatter(n, h));
    r = run(c, t, LCAN_COLL_BCAST, &o);
    expect_steps(c, t, "bcast root n-1", r.steps, 2 * h);
    o.root = 0;

    if (!big || h <= 8) {
        r = run(c, t, LCAN_COLL_ALLTOALL, &o);
        expect_steps(c, t, "alltoall pipelined", r.steps, f_te(cap, h, 1));
        check(c, r.paper_steps == f_te(cap, h, 1), "%s alltoall: paper_steps %lld", spec, (long long)r.paper_steps);
        check(c, r.max_queue == 0 && r.inj_stalls == 0, "%s alltoall: max_queue %d stalls %llu (no queueing expected)",
              spec, r.max_queue, (unsigned long long)r.inj_stalls);
        check(c, r.messages == (uint64_t)(n * (n - 1)), "%s alltoall: %llu messages", spec,
              (unsigned long long)r.messages);
        o.phased = 1;
        r = run(c, t, LCAN_COLL_ALLTOALL, &o);
        expect_steps(c, t, "alltoall phased", r.steps, f_te(cap, h, 0));
        o.phased = 0;
    }

    o.flood = 0;
    r = run(c, t, LCAN_COLL_MNB, &o); /* tree broadcasts: n + 2 log2 n - 1 */
    expect_steps(c, t, "mnb tree", r.steps, n + 2 * h - 1);
    check(c, r.deliveries == (uint64_t)(n * n), "%s mnb tree: deliveries %llu", spec, (unsigned long long)r.deliveries);
    check(c, h < 2 || r.paper_steps == n + 1, "%s mnb tree: paper %lld", spec, (long long)r.paper_steps);
    o.flood = 1;
    o.flood_q = 0;
    r = run(c, t, LCAN_COLL_MNB, &o); /* flooding (seed 000 Thm 2): n - 1 copies of each message */
    check(c, r.deliveries == (uint64_t)(n * (n - 1)), "%s mnb flood: deliveries %llu", spec,
          (unsigned long long)r.deliveries);
    check(c, h < 2 || r.paper_steps == n + 1, "%s mnb flood: paper %lld", spec, (long long)r.paper_steps);
    /* FLOOD_Q = 0: the floods wait in the input FIFOs, a candidate holds its input until every
     * direction is served (spec 8.3): measured n + 1 for n = 4, n + 1 .. n + 6 beyond
     * (docs/collectives.md). Checked: never below the lower bound n + 1, never slower than the tree
     * broadcast (n + 2 log2 n - 1), n + 1 exactly for n = 4, and for n <= 256 the DEPTH the driver
     * chooses (n) is never exhausted: DEPTH - cr stays below it (no sender waits for a credit). */
    check(c, r.steps >= (uint64_t)n + 1 && r.steps <= (uint64_t)(n + 2 * h - 1),
          "%s mnb flood: steps %llu outside n+1..n+2h-1 = %lld..%lld", spec, (unsigned long long)r.steps,
          (long long)(n + 1), (long long)(n + 2 * h - 1));
    check(c, n != 4 || r.steps == 5, "%s mnb flood n = 4: steps %llu != 5", spec, (unsigned long long)r.steps);
    check(c, n > 256 || (r.max_outstanding >= 0 && r.max_outstanding < r.max_queue_ub + 3 && r.max_outstanding < n),
          "%s mnb flood: DEPTH - cr reached %d (DEPTH %lld)", spec, r.max_outstanding, (long long)n);
    check(c, r.flood_up[1] == -1 && r.flood_down[1] == -1, "%s mnb flood FLOOD_Q 0: flood queues %d %d", spec,
          r.flood_up[1], r.flood_down[1]);
    printf("collective: %s mnb flood FLOOD_Q 0: %llu steps (n + 1 = %lld), queue_peak", spec,
           (unsigned long long)r.steps, (long long)(n + 1));
    for (i = 1; i <= h; i++)
        printf(" %d", r.queue_peak[i]);
    printf("\n");
    /* The driver's FLOOD_Q (min(255, max(4, n)), spec 8.7): the paper's queue per outgoing link.
     * Seed 000 Thm 2: exactly n + 1 steps; 4.1: the queue of the up link of a level-i node peaks at
     * 2^(i-1) (the paper's CBFT; a flood uses one parallel link, so every bft here is one) -
     * checked where FLOOD_Q >= n / 4 leaves room for every such queue (n <= 512). */
    o.flood_q = -1;
    r = run(c, t, LCAN_COLL_MNB, &o);
    check(c, r.deliveries == (uint64_t)(n * (n - 1)), "%s mnb flood queues: deliveries %llu", spec,
          (unsigned long long)r.deliveries);
    expect_steps(c, t, "mnb flood queues (seed 000 Thm 2: n + 1)", r.steps, n + 1);
    for (i = 1; i < h && n <= 512; i++)
        check(c, r.flood_up[i] == 1 << (i - 1), "%s mnb flood queues: level %d up-queue peak %d, seed 000 4.1 "
              "2^(i-1) = %d", spec, i, r.flood_up[i], 1 << (i - 1));
    printf("collective: %s mnb flood FLOOD_Q %d: %llu steps (n + 1 = %lld), flood queue peaks up", spec,
           n > 255 ? 255 : (int)(n < 4 ? 4 : n), (unsigned long long)r.steps, (long long)(n + 1));
    for (i = 1; i < h; i++)
        printf(" %d", r.flood_up[i]);
    printf(" down");
    for (i = 1; i <= h; i++)
        printf(" %d", r.flood_down[i]);
    printf("\n");
    o.flood_q = -1;

    r = run(c, t, LCAN_COLL_REDUCE, &o);
    expect_steps(c, t, "reduce", r.steps, (int64_t)h * (h + 1));
    o.combine = LCAN_COMB_MAX;
    o.root = (uint32_t)(n / 2 + 1);
    r = run(c, t, LCAN_COLL_REDUCE, &o);
    expect_steps(c, t, "reduce max", r.steps, (int64_t)h * (h + 1));
    r = run(c, t, LCAN_COLL_PREFIX, &o);
    expect_steps(c, t, "prefix max", r.steps, 2 * (int64_t)h * h);
    o.combine = LCAN_COMB_SUM;
    o.root = 0;
    r = run(c, t, LCAN_COLL_PREFIX, &o);
    expect_steps(c, t, "prefix", r.steps, 2 * (int64_t)h * h);
    check(c, r.max_queue == 0, "%s prefix: max_queue %d", spec, r.max_queue);
    o.sw_bcast = 1;
    r = run(c, t, LCAN_COLL_BCAST, &o);
    expect_steps(c, t, "leaf bcast", r.steps, (int64_t)h * (h + 1));
    lcan_topo_free(t);
}

/* Capacity violation (seed 001: the system halts) is refused, never routed. */
static void test_capacity(check_ctx *c)
{
    lcan_topo *cb = topo(c, "bft(6;1,1,1,1,1,1)"), *eb = topo(c, "bft(6;1,2,4,8,16,32)");
    lcan_coll_opts o;
    lcan_coll_result r;
    lcan_status st;
    if (cb == NULL || eb == NULL)
        return;
    lcan_coll_opts_default(&o);
    o.compact = 3;
    st = lcan_collective_run_model(cb, LCAN_COLL_REDUCE, &o, &r);
    check(c, st == LCAN_ERR_PATTERN && strstr(r.err, "capacity violation") != NULL && r.messages == 0,
          "CBFT compact reduce: status %d err '%s' messages %llu", (int)st, r.err, (unsigned long long)r.messages);
    /* EBFT has the capacity: 3 binomial rounds (heights 1,2,3), one compaction round (height 6),
     * 3 binomial rounds on the 8 dense leaves (heights 1,2,3): 2(6) + 12 + 2(6) = 36 */
    r = run(c, eb, LCAN_COLL_REDUCE, &o);
    expect_steps(c, eb, "compact reduce", r.steps, 36);
    lcan_topo_free(cb);
    lcan_topo_free(eb);
}

/* Broadcast trees (seed 002 section 5.2) and other networks (our derivations; the scatter count
 * assumes the root's U0 ports are not narrowed above level 1, true for these networks). */
static void test_other(check_ctx *c)
{
    static const char *const specs[] = {"cm5", "kary(3,3)", "lcan(4,2,64)", "xgft(2;4,4;1,2)", "gft(3,2,2)",
                                        "pgft(2;2,4;2,2;1,1)"};
    size_t k;
    lcan_coll_opts o;
    lcan_coll_result r;
    lcan_status st;
    lcan_topo *t = topo(c, "cm5");
    if (t == NULL)
        return;
    lcan_coll_opts_default(&o);
    o.flits = 8;
    o.trees = 2;
    r = run(c, t, LCAN_COLL_BCAST, &o);
    expect_steps(c, t, "bcast 8 flits 2 trees", r.steps, 2 * 4 + 4 - 1);
    o.trees = 1;
    r = run(c, t, LCAN_COLL_BCAST, &o);
    expect_steps(c, t, "bcast 8 flits 1 tree", r.steps, 2 * 4 + 8 - 1);
    o.trees = 3;
    st = lcan_collective_run_model(t, LCAN_COLL_BCAST, &o, &r);
    check(c, st == LCAN_ERR_PATTERN, "cm5 bcast 3 trees > w1 = 2 must be refused");
    lcan_topo_free(t);

    for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        uint32_t N, d;
        int h, w1, L;
        int64_t T = 0, j = 0;
        t = topo(c, specs[k]);
        if (t == NULL)
            continue;
        N = lcan_topo_leaves(t);
        h = lcan_topo_levels(t);
        w1 = lcan_topo_w(t, 1);
        lcan_coll_opts_default(&o);
        r = run(c, t, LCAN_COLL_BCAST, &o);
        expect_steps(c, t, "bcast", r.steps, 2 * h);
        o.flood = 0;
        r = run(c, t, LCAN_COLL_MNB, &o);
        expect_steps(c, t, "mnb tree", r.steps, ceil_div(N, w1) + 2 * h - 1);
        o.flood = 1;
        r = run(c, t, LCAN_COLL_MNB, &o);
        /* a leaf receives N - 1 flits over its w1 trees' ports */
        check(c, r.deliveries == (uint64_t)N * (N - 1) && (int64_t)r.steps >= ceil_div(N - 1, w1),
              "%s mnb flood: deliveries %llu steps %llu", specs[k], (unsigned long long)r.deliveries,
              (unsigned long long)r.steps);
        /* farthest first from leaf 0, U0 per tick */
        for (L = h; L >= 1; L--)
            for (d = 1; d < N; d++)
                if (lcan_topo_lca_level(t, 0, d) == L) {
                    int64_t e = 1 + j / lcan_topo_leaf_ports(t) + 2 * L - 1;
                    if (e > T)
                        T = e;
                    j++;
                }
        r = run(c, t, LCAN_COLL_SCATTER, &o);
        expect_steps(c, t, "scatter", r.steps, T);
        r = run(c, t, LCAN_COLL_GATHER, &o);
        expect_steps(c, t, "gather", r.steps, T);
        (void)run(c, t, LCAN_COLL_ALLTOALL, &o);
        (void)run(c, t, LCAN_COLL_REDUCE, &o);
        (void)run(c, t, LCAN_COLL_PREFIX, &o);
        lcan_topo_free(t);
    }
}

/* max_queue, read from the pins, against the model's real FIFO counts (FIFOs fed by switches). */
typedef struct {
    lcan_net *n;
    int true_max;
    int level_max[LCAN_MAX_LEVELS + 1]; /* per level of the switch holding the FIFO */
} wrap_engine;

static lcan_status wrap_tick(void *e, const lcan_in *in, lcan_out *out)
{
    wrap_engine *w = e;
    lcan_status st = lcan_net_tick(w->n, in, out);
    uint32_t gp;
    for (gp = 0; gp < w->n->g.n_port; gp++)
        if (!(w->n->g.peer[gp] & LCAN_PEER_LEAF)) {
            int l = lcan_geom_port_level(&w->n->g, gp);
            if ((int)w->n->fcount[gp] > w->true_max)
                w->true_max = (int)w->n->fcount[gp];
            if ((int)w->n->fcount[gp] > w->level_max[l])
                w->level_max[l] = (int)w->n->fcount[gp];
        }
    return st;
}

static size_t wrap_debug(void *e, uint8_t *buf, size_t len)
{
    return lcan_net_debug_dump(((wrap_engine *)e)->n, buf, len);
}

static void test_queue(check_ctx *c, const char *spec, lcan_coll_op op, int depth, int flood)
{
    int l;
    lcan_topo *t = topo(c, spec);
    lcan_cfg cfg;
    wrap_engine w;
    lcan_coll_opts o;
    lcan_coll_result r;
    lcan_status st;
    if (t == NULL)
        return;
    lcan_coll_opts_default(&o);
    o.flood = flood;
    lcan_collective_engine_cfg(t, op, &o, &o.payload_w, NULL, NULL);
    o.depth = depth;
    o.debug = wrap_debug;
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    cfg.depth = depth;
    cfg.payload_w = o.payload_w;
    memset(&w, 0, sizeof w);
    if (lcan_net_new(t, &cfg, &w.n) != LCAN_OK) {
        check(c, 0, "net_new %s", spec);
        lcan_topo_free(t);
        return;
    }
    st = lcan_collective_run(t, op, &o, wrap_tick, &w, &r);
    check(c, st == LCAN_OK && r.correct, "%s %s depth %d: run failed", spec, lcan_coll_op_name(op), depth);
    check(c, r.max_queue <= w.true_max && w.true_max <= r.max_queue_ub,
          "%s %s depth %d: inferred max_queue %d..%d but the FIFOs peaked at %d", spec, lcan_coll_op_name(op), depth,
          r.max_queue, r.max_queue_ub, w.true_max);
    for (l = 1; l <= lcan_topo_levels(t); l++)
        check(c, r.queue_peak[l] <= w.level_max[l] && w.level_max[l] <= r.queue_peak_ub[l],
              "%s %s depth %d flood %d level %d: queue_peak %d..%d but the FIFOs peaked at %d", spec,
              lcan_coll_op_name(op), depth, flood, l, r.queue_peak[l], r.queue_peak_ub[l], w.level_max[l]);
    lcan_net_free(w.n);
    lcan_topo_free(t);
}

/* Seed 003, model only. */
static void test_tree003(check_ctx *c)
{
    int H;
    for (H = 1; H <= 4; H++) {
        lcan_tree003_row rows[32];
        int k, nr = lcan_tree003_table(H, rows, 32);
        double n = (double)((1 << (H + 1)) - 1);
        uint32_t ring[64];
        check(c, nr >= 17, "tree003 H=%d: %d rows", H, nr);
        check(c, H < 2 || lcan_tree003_ring(H, 1, ring) == 3, "tree003 H=%d: bounded ring not within 3 hops", H);
        for (k = 0; k < nr; k++) {
            const lcan_tree003_row *r = &rows[k];
            check(c, r->correct && r->steps >= 0, "tree003 H=%d %s %s: not correct", H, r->op, r->algo);
            /* a one-item-per-message algorithm cannot beat the bound */
            if (strstr(r->algo, "merged") == NULL)
                check(c, (double)r->steps >= r->lower_bound - 1e-9, "tree003 H=%d %s %s %s: %ld below bound %g", H,
                      r->op, r->algo, r->source, r->steps, r->lower_bound);
        }
        /* Results 1, 3, 4, 6 */
        check(c, rows[0].steps == 2 * H, "A1 root H=%d: %ld != 2h", H, rows[0].steps);
        check(c, rows[1].steps == 3 * H - 1 || H == 1, "A1 worst H=%d: %ld != 3h-1", H, rows[1].steps);
        check(c, rows[2].steps == H, "A2 root H=%d: %ld != h", H, rows[2].steps);
        check(c, rows[3].steps == 2 * H, "A2 worst H=%d: %ld != 2h", H, rows[3].steps);
        (void)n;
    }
}

int main(void)
{
    check_ctx c = {"collective", 0, 0};
    int h, i, cap[LCAN_MAX_LEVELS + 1];
    for (h = 2; h <= 6; h++) {
        for (i = 1; i <= h; i++)
            cap[i] = 1; /* CBFT */
        test_bft(&c, h, cap, 0);
        for (i = 1; i <= h; i++)
            cap[i] = 1 << (i - 1); /* EBFT */
        test_bft(&c, h, cap, 0);
    }
    {
        static const int caps[][6] = {{4, 1, 1, 2, 2, 0}, {5, 1, 2, 2, 4, 4}, {4, 1, 2, 4, 4, 0}};
        size_t k;
        for (k = 0; k < sizeof caps / sizeof caps[0]; k++) {
            for (i = 1; i <= caps[k][0]; i++)
                cap[i] = caps[k][i];
            test_bft(&c, caps[k][0], cap, 0);
        }
    }
    /* larger n in the model */
    for (i = 1; i <= 7; i++)
        cap[i] = 1 << (i - 1); /* EBFT n = 128, the largest within D + U <= 128 */
    test_bft(&c, 7, cap, 1);
    for (i = 1; i <= 8; i++)
        cap[i] = i <= 6 ? 1 << (i - 1) : 32; /* n = 256, capacities capped at 32 */
    test_bft(&c, 8, cap, 1);
    for (i = 1; i <= 10; i++)
        cap[i] = 1; /* CBFT, n = 1024 (no total exchange) */
    test_bft(&c, 10, cap, 1);
    test_capacity(&c);
    test_other(&c);
    for (i = 0; i <= 1; i++) {
        test_queue(&c, "bft(5;1,1,1,1,1)", LCAN_COLL_MNB, 32, i);
        test_queue(&c, "bft(5;1,1,1,1,1)", LCAN_COLL_MNB, 4, i);
        test_queue(&c, "bft(7;1,1,1,1,1,1,1)", LCAN_COLL_MNB, 128, i);
        test_queue(&c, "cm5", LCAN_COLL_MNB, 64, i);
    }
    test_queue(&c, "kary(4,3)", LCAN_COLL_ALLTOALL, 4, 1);
    test_queue(&c, "bft(6;1,2,4,8,16,32)", LCAN_COLL_ALLTOALL, 4, 1);
    test_tree003(&c);
    return check_done(&c);
}
