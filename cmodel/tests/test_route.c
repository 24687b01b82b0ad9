/*
 * test_route.c - the pass driver of spec 7.5: lcan_route_perm on the model (tick level) and
 * lcan_route_perm_fast (event driven) must agree exactly, with UP_CHOICE rotate and uniform; identity routes in one pass; random and
 * worst-case permutations complete without data errors; pass-0 deliveries seen by the counters equal
 * the sources satisfied by acks; for d = u = 2 the first-pass fraction lies near the recurrence of
 * seed 004 section 5 (computed here).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan.h"
#include "route.h"

static check_ctx C = {"test_route", 0, 0};

/* The model as engine, watching inj_ack to note the pass in which each source is satisfied. */
typedef struct {
    lcan_net *net;
    uint64_t tick;
    int T, U0;
    uint32_t NP;
    int *pass_of;
} watch;

static lcan_status tick_model(void *e, const lcan_in *in, lcan_out *out)
{
    watch *w = e;
    lcan_status st = lcan_net_tick(w->net, in, out);
    uint32_t q;
    if (w->tick > 0)
        for (q = 0; q < w->NP; q++)
            if (out->inj_ack[q] && w->pass_of[q / (uint32_t)w->U0] < 0)
                w->pass_of[q / (uint32_t)w->U0] = (int)((w->tick - 1) / (uint64_t)w->T);
    w->tick++;
    return st;
}

static uint32_t top_digit(const lcan_topo *t, uint32_t s)
{
    return s / (lcan_topo_leaves(t) / (uint32_t)lcan_topo_m(t, lcan_topo_levels(t)));
}

static void make_perm(const lcan_topo *t, int kind, unsigned long long *rng, uint32_t *perm)
{
    uint32_t N = lcan_topo_leaves(t), s, j;
    for (s = 0; s < N; s++)
        perm[s] = s;
    if (kind == 0)
        return;
    for (s = N - 1; s > 0; s--) { /* Fisher-Yates */
        uint32_t tmp;
        j = (uint32_t)(test_rng(rng) % (s + 1));
        tmp = perm[s]; perm[s] = perm[j]; perm[j] = tmp;
    }
    if (kind == 1)
        return;
    for (s = 0; s < N; s++) /* worst: every pair differs in the top digit (spec 10.1) */
        while (top_digit(t, perm[s]) == top_digit(t, s)) {
            uint32_t u = (uint32_t)(test_rng(rng) % N), tmp;
            if (top_digit(t, perm[u]) != top_digit(t, s) && top_digit(t, perm[s]) != top_digit(t, u)) {
                tmp = perm[s]; perm[s] = perm[u]; perm[u] = tmp;
            }
        }
}

static const char *kind_name[] = {"identity", "random", "worst"};

/* Route one permutation with both engines and compare. */
static void both(const lcan_topo *t, const char *spec, int kind, uint32_t perm_seed, uint32_t net_seed,
                 lcan_up_choice uc)
{
    int h = lcan_topo_levels(t), l;
    uint32_t N = lcan_topo_leaves(t);
    uint32_t *perm = malloc(N * sizeof *perm);
    unsigned long long rng = perm_seed;
    double occ_a[LCAN_MAX_LEVELS], occ_b[LCAN_MAX_LEVELS];
    lcan_route_result a, b;
    lcan_status sa, sb;
    lcan_net *net = NULL;
    lcan_cfg cfg;
    watch w;
    int *pass_b = malloc(N * sizeof *pass_b);
    uint32_t s, differ = 0;

    w.pass_of = malloc(N * sizeof *w.pass_of);
    for (s = 0; s < N; s++)
        w.pass_of[s] = -1;
    w.tick = 0;
    w.T = 6 * h + 4 + 1;
    w.U0 = lcan_topo_leaf_ports(t);
    w.NP = lcan_topo_ports(t);
    make_perm(t, kind, &rng, perm);
    lcan_cfg_default(&cfg);
    cfg.up_choice = uc;
    check(&C, lcan_net_new(t, &cfg, &net) == LCAN_OK, "%s: lcan_net_new", spec);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.stage_occ = occ_a;
    b.stage_occ = occ_b;
    w.net = net;
    sa = lcan_route_perm(t, cfg.payload_w, tick_model, &w, perm, net_seed, 200, &a);
    sb = lcan_route_fast_trace(t, perm, net_seed, 200, uc, &b, pass_b);
    for (s = 0; s < N; s++)
        differ += w.pass_of[s] != pass_b[s];
    check(&C, differ == 0, "%s %s seed %u uc %d: %u sources satisfied in different passes", spec, kind_name[kind],
          net_seed, uc, differ);
    check(&C, sa == LCAN_OK && sb == LCAN_OK, "%s %s seed %u: status %d / %d", spec, kind_name[kind], net_seed, sa, sb);
    check(&C, a.passes >= 1, "%s %s: passes %d", spec, kind_name[kind], a.passes);
    check(&C, a.passes == b.passes && a.first_pass == b.first_pass && a.ticks == b.ticks,
          "%s %s seed %u: tick-level passes %d first %u ticks %llu, fast %d %u %llu", spec, kind_name[kind],
          net_seed, a.passes, a.first_pass, (unsigned long long)a.ticks, b.passes, b.first_pass,
          (unsigned long long)b.ticks);
    check(&C, a.ticks == 1 + (uint64_t)a.passes * (uint64_t)(6 * h + 4 + 1), "%s: ticks %llu for %d passes",
          spec, (unsigned long long)a.ticks, a.passes);
    check(&C, a.data_errors == 0 && b.data_errors == 0, "%s %s seed %u: data errors %llu / %llu", spec,
          kind_name[kind], net_seed, (unsigned long long)a.data_errors, (unsigned long long)b.data_errors);
    for (l = 0; l < h; l++)
        check(&C, occ_a[l] == occ_b[l], "%s %s seed %u: stage_occ[%d] %g vs %g", spec, kind_name[kind], net_seed, l,
              occ_a[l], occ_b[l]);
    /* deliveries counted at level-1 downers = sources satisfied by acks */
    check(&C, fabs(occ_a[h - 1] * lcan_topo_switches(t, 1) * lcan_topo_downers(t, 1) - a.first_pass) < 1e-6,
          "%s %s: level-1 occupancy %g vs first pass %u", spec, kind_name[kind], occ_a[h - 1], a.first_pass);
    if (kind == 0)
        check(&C, a.passes == 1 && a.first_pass == N, "%s identity: passes %d first %u (N=%u)", spec, a.passes,
              a.first_pass, N);
    lcan_net_free(net);
    free(perm);
    free(pass_b);
    free(w.pass_of);
}

static lcan_topo *parse(const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    check(&C, lcan_topo_parse(spec, &t, err, sizeof err) == LCAN_OK, "parse %s: %s", spec, err);
    return t;
}

/* p(h) of seed 004's recurrence for d >= u, p(0) = 1. */
static double recurrence(int d, int u, int h)
{
    double p = 1.0;
    int i;
    for (i = 0; i < h; i++)
        p = 1.0 - pow(1.0 - p / d, u);
    return p;
}

static void band(const char *spec, int d, int u, int trials, lcan_up_choice uc)
{
    lcan_topo *t = parse(spec);
    uint32_t N, *perm;
    double sum = 0, ph;
    int k;
    if (t == NULL)
        return;
    N = lcan_topo_leaves(t);
    perm = malloc(N * sizeof *perm);
    ph = recurrence(d, u, lcan_topo_levels(t));
    for (k = 0; k < trials; k++) {
        unsigned long long rng = 1000u + (unsigned)k;
        lcan_route_result r;
        memset(&r, 0, sizeof r);
        make_perm(t, 2, &rng, perm);
        check(&C, lcan_route_perm_fast(t, perm, 77u + (uint32_t)k, 1000, uc, &r) == LCAN_OK, "%s worst: completes", spec);
        sum += (double)r.first_pass / N;
    }
    sum /= trials;
    printf("test_route: %s (%s) worst-case first-pass fraction %.4f, recurrence p(h) %.4f\n", spec,
           uc == LCAN_UP_ROTATE ? "rotate" : "uniform", sum, ph);
    check(&C, sum > 0.75 * ph && sum < 1.6 * ph, "%s: first-pass fraction %.4f far from recurrence %.4f", spec, sum, ph);
    free(perm);
    lcan_topo_free(t);
}

int main(void)
{
    static const char *specs[] = {"lcan(2,2,16)", "lcan(2,2,64)", "lcan(4,2,64)", "lcan(2,4,16)", "lcan(3,3,27)",
                                  "cm5", "bft(3;1,2,4)", "xgft(2;4,4;1,2)", "pgft(2;3,4;2,3;2,1)", "gft(3,2,2)",
                                  "pgft(3;4,4,4;1,2,1;1,2,2)", "bft(4;1,2,2,4)", "pgft(2;4,8;1,1;1,4)"};
    size_t i;
    uint32_t sd;
    int uc;
    for (uc = LCAN_UP_ROTATE; uc <= LCAN_UP_UNIFORM; uc++) {
        for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
            lcan_topo *t = parse(specs[i]);
            if (t == NULL)
                continue;
            both(t, specs[i], 0, 1, 5, (lcan_up_choice)uc);
            for (sd = 0; sd < 12; sd++) {
                both(t, specs[i], 1, 100 + sd, 0xC0FFEEu * sd + 1u, (lcan_up_choice)uc);
                both(t, specs[i], 2, 200 + sd, 0xBEEFu * sd + 3u, (lcan_up_choice)uc);
            }
            lcan_topo_free(t);
        }
        {   /* a bigger one, a few seeds */
            lcan_topo *t = parse("lcan(2,2,1024)");
            for (sd = 0; t != NULL && sd < 3; sd++)
                both(t, "lcan(2,2,1024)", 2, 300 + sd, sd, (lcan_up_choice)uc);
            lcan_topo_free(t);
        }
        {   /* uppers of 3 and 5 (sigma's non-power-of-two draws) and 8 */
            lcan_topo *t = parse("lcan(2,3,16)");
            for (sd = 0; t != NULL && sd < 12; sd++)
                both(t, "lcan(2,3,16)", 2, 400 + sd, 0x51u * sd + 7u, (lcan_up_choice)uc);
            lcan_topo_free(t);
            t = parse("lcan(2,5,16)");
            for (sd = 0; t != NULL && sd < 12; sd++)
                both(t, "lcan(2,5,16)", 1, 500 + sd, 0x53u * sd + 9u, (lcan_up_choice)uc);
            lcan_topo_free(t);
            t = parse("lcan(4,8,64)");
            for (sd = 0; t != NULL && sd < 6; sd++)
                both(t, "lcan(4,8,64)", 2, 600 + sd, 0x57u * sd + 11u, (lcan_up_choice)uc);
            lcan_topo_free(t);
        }
    }
    {   /* a pass limit that cannot be met is reported */
        lcan_topo *t = parse("lcan(2,2,256)");
        uint32_t perm[256];
        unsigned long long rng = 9;
        lcan_route_result r;
        memset(&r, 0, sizeof r);
        make_perm(t, 2, &rng, perm);
        check(&C, lcan_route_perm_fast(t, perm, 1, 1, LCAN_UP_UNIFORM, &r) == LCAN_ERR_STALL && r.passes == 1,
              "stall: status/passes %d", r.passes);
        perm[0] = perm[1];
        check(&C, lcan_route_perm_fast(t, perm, 1, 10, LCAN_UP_UNIFORM, &r) == LCAN_ERR_ARG, "non-permutation rejected");
        lcan_topo_free(t);
    }
    band("lcan(2,2,1024)", 2, 2, 20, LCAN_UP_UNIFORM);
    band("lcan(2,2,1024)", 2, 2, 20, LCAN_UP_ROTATE);
    band("lcan(2,2,65536)", 2, 2, 2, LCAN_UP_UNIFORM);
    return check_done(&C);
}
