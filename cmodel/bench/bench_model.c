/*
 * bench_model.c - speed figures of the C model (`make bench-model`). Prints figures only; nothing
 * here is a pass/fail test.
 *
 *  1. lcan(2,2,65536), circuit mode, event-driven router (lcan_route_perm_fast): setup (timed as a
 *     route of the identity, whose one pass never leaves level 1), pass 0 (a route limited to one
 *     pass, minus setup), later passes, and the equivalent switch-ticks per second (every switch x
 *     every tick of the passes it stands for); best of 5 runs of the same work.
 * Times are process CPU time (CLOCK_PROCESS_CPUTIME_ID): steadier than wall time on a shared machine.
 *  2. cm5, packet mode, uniform random unicast traffic offered on every port every tick
 *     (lcan_net_tick): switch-ticks per second and the accepted load.
 *  3. lcan(2,2,1024), circuit mode, the tick-level pass driver (lcan_route_perm on lcan_net_tick).
 *  4. open-loop traffic (lcan_traffic_run_model): model cycles/s and switch-cycles/s (bench_traffic).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lcan.h"
#include "lcan_traffic.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t total_switches(const lcan_topo *t)
{
    uint64_t s = 0;
    int l;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        s += lcan_topo_switches(t, l);
    return s;
}

static lcan_topo *parse(const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK) {
        fprintf(stderr, "bench_model: %s\n", err);
        exit(1);
    }
    return t;
}

static void random_perm(uint32_t *perm, uint32_t N, uint64_t *rng)
{
    uint32_t s;
    for (s = 0; s < N; s++)
        perm[s] = s;
    for (s = N - 1; s > 0; s--) {
        uint32_t j = (uint32_t)(lcan_rng_next(rng) % (s + 1)), x = perm[s];
        perm[s] = perm[j];
        perm[j] = x;
    }
}

static double time_fast(const lcan_topo *t, const uint32_t *perm, uint32_t seed, int max_passes, int *passes)
{
    lcan_route_result r;
    double t0, t1;
    memset(&r, 0, sizeof r);
    t0 = now();
    lcan_route_perm_fast(t, perm, seed, max_passes, LCAN_UP_UNIFORM, &r);
    t1 = now();
    *passes = r.passes;
    return t1 - t0;
}

static void bench_fast(void)
{
    const char *spec = "lcan(2,2,65536)";
    lcan_topo *t = parse(spec);
    uint32_t N = lcan_topo_leaves(t), s;
    uint32_t *perm = malloc(N * sizeof *perm), *ident = malloc(N * sizeof *ident);
    uint64_t rng = 1;
    int h = lcan_topo_levels(t), k, np = 0, np1;
    double t_id = 1e9, t_one = 1e9, t_all = 1e9, x;

    for (s = 0; s < N; s++)
        ident[s] = s;
    random_perm(perm, N, &rng);
    for (k = 0; k < 5; k++) { /* the same work each time: keep the fastest (least disturbed) run */
        x = time_fast(t, ident, 1, 1000, &np1); /* setup + a pass that stays at level 1 */
        t_id = x < t_id ? x : t_id;
        x = time_fast(t, perm, 1, 1, &np1);     /* setup + pass 0 */
        t_one = x < t_one ? x : t_one;
        x = time_fast(t, perm, 1, 1000, &np);   /* the whole route */
        t_all = x < t_all ? x : t_all;
    }
    printf("bench_model: %s circuit, fast route (lcan_route_perm_fast), one random perm, best of 5, CPU time: "
           "%d passes; setup %.1f ms; pass 0 %.1f ms; later passes %.1f ms each; whole route %.0f ms; "
           "%.3g switch-ticks/s equivalent\n",
           spec, np, 1e3 * t_id, 1e3 * (t_one - t_id), 1e3 * (t_all - t_one) / (np > 1 ? np - 1 : 1), 1e3 * t_all,
           (double)total_switches(t) * (double)(6 * h + 5) * (double)np / t_all);
    free(perm);
    free(ident);
    lcan_topo_free(t);
}

static void bench_packet(void)
{
    const char *spec = "cm5";
    lcan_topo *t = parse(spec);
    lcan_cfg cfg;
    lcan_net *n = NULL;
    uint32_t NP = lcan_topo_ports(t), N = lcan_topo_leaves(t), q;
    uint8_t *iv = calloc(NP, 1), *rdy = malloc(NP), *ev = malloc(NP);
    uint64_t *fl = calloc(NP, sizeof *fl), *ef = malloc(NP * sizeof *ef), rng = 7, inj = 0, ej = 0;
    lcan_in in;
    lcan_out out;
    int T = 20000, k;
    double t0, t1;

    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    lcan_net_new(t, &cfg, &n);
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in.inj_valid = iv;
    in.inj_flit = fl;
    out.inj_ready = rdy;
    out.ej_valid = ev;
    out.ej_flit = ef;
    in.rst = 1;
    lcan_net_tick(n, &in, &out);
    in.rst = 0;
    t0 = now();
    for (k = 0; k < T; k++) {
        for (q = 0; q < NP; q++) {
            iv[q] = 1;
            fl[q] = lcan_flit(n, 0, 0, lcan_topo_pack(t, (uint32_t)(lcan_rng_next(&rng) % N)), q);
            inj += rdy[q];
        }
        lcan_net_tick(n, &in, &out);
        for (q = 0; q < NP; q++)
            ej += ev[q];
    }
    t1 = now();
    printf("bench_model: %s packet, uniform random, DEPTH %d: %.3g switch-ticks/s (%d ticks in %.2f s), "
           "accepted %.3f flits/port/tick\n",
           spec, cfg.depth, (double)total_switches(t) * T / (t1 - t0), T, t1 - t0, (double)ej / T / NP);
    (void)inj;
    lcan_net_free(n);
    free(iv); free(rdy); free(ev); free(fl); free(ef);
    lcan_topo_free(t);
}

static void bench_ticklevel(void)
{
    const char *spec = "lcan(2,2,1024)";
    lcan_topo *t = parse(spec);
    uint32_t N = lcan_topo_leaves(t);
    uint32_t *perm = malloc(N * sizeof *perm);
    uint64_t rng = 3;
    lcan_net *n = NULL;
    lcan_route_result r;
    double t0, t1;
    int k;
    uint64_t ticks = 0;

    lcan_net_new(t, NULL, &n);
    memset(&r, 0, sizeof r);
    t0 = now();
    for (k = 0; k < 5; k++) {
        random_perm(perm, N, &rng);
        lcan_route_perm(t, 16, lcan_net_engine_tick, n, perm, (uint32_t)k, 1000, &r);
        ticks += r.ticks;
    }
    t1 = now();
    printf("bench_model: %s circuit, tick-level route, random perm: %.3g switch-ticks/s (%llu ticks in %.2f s)\n",
           spec, (double)total_switches(t) * (double)ticks / (t1 - t0), (unsigned long long)ticks, t1 - t0);
    lcan_net_free(n);
    free(perm);
    lcan_topo_free(t);
}

/* 4. Open-loop traffic (lcan_traffic.h, `lcan traffic`): uniform random, 10k warm-up + 10k measured
 *    cycles, drain of the measured packets; best of 3 runs. Model cycles/s and switch-cycles/s
 *    (every switch x every cycle, idle or not: the figure a full-scan simulator would need). */
static void bench_traffic(void)
{
    static const struct { const char *spec; double load; } runs[] = {
        {"kary(4,3)", 0.1}, {"kary(4,3)", 0.55}, {"cm5", 0.1}, {"cm5", 0.3}, {"lcan(4,4,256)", 0.1},
    };
    size_t k;
    printf("open-loop traffic (lcan traffic SPEC --pattern uniform --load L, 10k + 10k cycles, best of 3):\n");
    printf("  %-16s %5s %9s %9s %12s %14s\n", "network", "load", "accepted", "latency", "cycles/s", "switch-cyc/s");
    for (k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        lcan_topo *t = parse(runs[k].spec);
        lcan_traffic_pattern *p = NULL;
        lcan_traffic_opts o;
        lcan_traffic_result r;
        double best = 1e30;
        int rep;
        lcan_traffic_pattern_new(t, "uniform", NULL, &p, NULL, 0);
        lcan_traffic_opts_default(&o);
        o.load = runs[k].load;
        for (rep = 0; rep < 3; rep++) {
            double t0 = now(), dt;
            lcan_traffic_run_model(t, p, &o, &r);
            dt = now() - t0;
            if (dt < best)
                best = dt;
        }
        printf("  %-16s %5.2f %9.4f %9.3f %12.0f %14.3g\n", runs[k].spec, runs[k].load, r.accepted, r.latency_avg,
               (double)r.cycles / best, (double)r.cycles * (double)total_switches(t) / best);
        lcan_traffic_pattern_free(p);
        lcan_topo_free(t);
    }
}

int main(void)
{
    bench_traffic();
    bench_fast();
    bench_packet();
    bench_ticklevel();
    return 0;
}
