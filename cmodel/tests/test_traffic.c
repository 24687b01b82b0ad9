/*
 * test_traffic.c - the open-loop traffic driver (lcan_traffic.h) on the model.
 *
 * Expected numbers come from the spec and from computations written here, not from the driver:
 *   - zero-load latency: a lone unicast of LCA level L is on ej 2L-1 ticks after its injection
 *     (spec 8.4), a broadcast 2h-1 (spec 8.5); a packet to itself (L = 1) can never meet another
 *     (its level-1 switch turns it around on its own port), so its latency is exactly 1 at any load;
 *   - the mean of 2L-1 under uniform traffic from the digit structure: P(L <= l) = m_1..m_l / N;
 *   - accepted = offered (within 1 %) below saturation, offered = load (statistically);
 *   - no packet lost, duplicated or misrouted, with every packet drained.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "geo.h"
#include "lcan.h"
#include "lcan_traffic.h"

static lcan_topo *topo(const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK) {
        printf("test_traffic: %s: %s\n", spec, err);
        exit(1);
    }
    return t;
}

static lcan_status run(const char *spec, const char *pattern, const char *text, double load, uint64_t warm,
                       uint64_t meas, double bcast, double burst, int drain, lcan_traffic_result *r)
{
    lcan_topo *t = topo(spec);
    lcan_traffic_pattern *p = NULL;
    lcan_traffic_opts o;
    lcan_status st;
    char err[256];
    st = lcan_traffic_pattern_new(t, pattern, text, &p, err, sizeof err);
    if (st != LCAN_OK) {
        printf("test_traffic: pattern %s: %s\n", pattern, err);
        lcan_topo_free(t);
        return st;
    }
    lcan_traffic_opts_default(&o);
    o.load = load;
    o.warmup = warm;
    o.measure = meas;
    o.bcast = bcast;
    o.burst = burst;
    o.drain_all = drain;
    o.seed = 7;
    st = lcan_traffic_run_model(t, p, &o, r);
    lcan_traffic_pattern_free(p);
    lcan_topo_free(t);
    return st;
}

/* E[2L - 1] for uniform destinations (itself included), from the digit radices. */
static double uniform_zero_load(const char *spec)
{
    lcan_topo *t = topo(spec);
    double N = (double)lcan_topo_leaves(t), prev = 0, e = 0, prod = 1;
    int l, h = lcan_topo_levels(t);
    for (l = 1; l <= h; l++) {
        prod *= lcan_topo_m(t, l);
        e += (2.0 * l - 1.0) * (prod / N - prev);
        prev = prod / N;
    }
    lcan_topo_free(t);
    return e;
}

static void checks_clean(check_ctx *c, const char *what, lcan_status st, const lcan_traffic_result *r, int drained)
{
    check(c, st == LCAN_OK, "%s: status %s", what, lcan_strerror(st));
    check(c, r->lost == 0 && r->duplicated == 0 && r->misrouted == 0, "%s: lost %llu duplicated %llu misrouted %llu",
          what, (unsigned long long)r->lost, (unsigned long long)r->duplicated, (unsigned long long)r->misrouted);
    if (drained)
        check(c, r->delivered == r->created && r->injected == r->created,
              "%s: drained, but created %llu injected %llu delivered %llu", what, (unsigned long long)r->created,
              (unsigned long long)r->injected, (unsigned long long)r->delivered);
}

/* geo.h's table gives floor(log(u) * inv) + k0 exactly, from the same draws: random draws, and the
 * draws at and next to the end of every table interval (where a lookup could go wrong). */
static void check_geometric(check_ctx *c)
{
    static const double qs[] = {0.1, 0.55, 0.9, 0.5, 1.0 / 3, 0.01, 0.001, 0.999, 0.75, 0.027, 1e-5, 1.0};
    static geo_tab gt;
    size_t a;
    for (a = 0; a < sizeof qs / sizeof qs[0]; a++) {
        double q = qs[a], inv = q < 1 ? 1.0 / log1p(-q) : 0;
        uint64_t s1 = 99 + a, s2 = s1, i, bad = 0, looked = 0;
        int d, k;
        geo_init(&gt, q, inv, (int)(a & 1u));
        for (k = 0; k < 200000; k++) {
            uint64_t x = geometric(&s1, &gt), y = (uint64_t)(a & 1u);
            if (q < 1.0) {
                double g = floor(log(1.0 - unit_of(lcan_rng_next_inl(&s2))) * inv);
                y += (uint64_t)(g > 1e15 ? 1e15 : g);
            }
            bad += x != y;
        }
        for (i = 0; q < 1.0 && i < (1u << GEO_BITS); i++)
            for (d = -3; d <= 3; d++) {
                uint64_t r = (i << (64 - GEO_BITS)) + (uint64_t)(int64_t)d * 2048u; /* r >> 11 moves by d */
                double g = floor(log(1.0 - unit_of(r)) * inv);
                uint32_t e = gt.t[r >> (64 - GEO_BITS)];
                looked += e != GEO_LOG;
                bad += e != GEO_LOG && (double)e != g;
            }
        /* (for small q nearly every interval holds an end: then the log is computed) */
        check(c, bad == 0 && (q >= 1.0 || q < 0.01 || looked > (1u << GEO_BITS) * 7u / 2u),
              "geometric by table, q %g: %llu differ from the formula, %llu looked up", q, (unsigned long long)bad,
              (unsigned long long)looked);
    }
}

/* The model engine without the driver's list of injections (lcan_in.inj_list): it scans inj_valid. */
static lcan_status tick_without_lists(void *engine, const lcan_in *in, lcan_out *out)
{
    lcan_in i2 = *in;
    i2.inj_list = NULL;
    return lcan_net_engine_tick(engine, &i2, out);
}

/* The model engine that ejects one flit a second time: the first flit ejected on or after tick
 * late_from, again late_gap ticks later (on a tick its port ejects nothing else). */
typedef struct {
    lcan_net *n;
    uint64_t tick, late_from, late_gap, again_at;
    uint32_t port, np;
    uint64_t flit;
    int state; /* 0 waiting for a flit, 1 holding it, 2 sent again */
} late_engine;

static lcan_status tick_late(void *engine, const lcan_in *in, lcan_out *out)
{
    late_engine *e = engine;
    lcan_status st = lcan_net_engine_tick(e->n, in, out);
    uint32_t q;
    e->tick++;
    if (st != LCAN_OK)
        return st;
    if (e->state == 0 && e->tick >= e->late_from)
        for (q = 0; q < e->np; q++)
            if (out->ej_valid[q]) {
                e->port = q;
                e->flit = out->ej_flit[q];
                e->again_at = e->tick + e->late_gap;
                e->state = 1;
                break;
            }
    if (e->state == 1 && e->tick >= e->again_at && !out->ej_valid[e->port]) {
        out->ej_valid[e->port] = 1;
        out->ej_flit[e->port] = e->flit;
        e->state = 2;
    }
    return LCAN_OK;
}

/* The tag table (traffic.c tag_slots): 4x what the network holds, so no injection waits for a tag
 * even far above saturation; a payload too narrow for that does wait (tag_stalls counts it) without
 * losing a packet; a flit ejected again long after its tag was reused is still caught. */
static void check_tags(check_ctx *c)
{
    lcan_topo *t = topo("kary(4,3)");
    lcan_traffic_pattern *p = NULL;
    lcan_traffic_opts o;
    lcan_traffic_result r;
    late_engine e;
    lcan_status st;
    lcan_traffic_pattern_new(t, "uniform", NULL, &p, NULL, 0);
    lcan_traffic_opts_default(&o);
    o.load = 1.0;
    o.warmup = 500;
    o.measure = 3000;
    o.drain_all = 1;
    o.depth = 8; /* 64 * 2 + 48 * 8 * 9 = 3,584 flits in the network: 16,384 tags */
    st = lcan_traffic_run_model(t, p, &o, &r);
    checks_clean(c, "kary(4,3) DEPTH 8 load 1.0", st, &r, 1);
    check(c, r.tag_stalls == 0 && r.queue_avg > 100, "DEPTH 8 load 1.0: %llu injections waited for a tag (queue %g)",
          (unsigned long long)r.tag_stalls, r.queue_avg);
    o.depth = 4;
    o.load = 0.15; /* about 45 packets in flight on average, each about 4.6 ticks */
    o.payload_w = 6; /* 64 tags for a network that holds 2,048 flits */
    st = lcan_traffic_run_model(t, p, &o, &r);
    checks_clean(c, "kary(4,3) payload 6 load 0.15", st, &r, 1);
    check(c, r.tag_stalls > 0, "payload 6 (64 tags) at load 0.15: no injection waited for a tag");
    /* a flit ejected again 2,500 ticks later: by then about 32,000 packets have taken the 8,192 tags */
    o.payload_w = 16;
    o.load = 0.2;
    o.drain_all = 0;
    memset(&e, 0, sizeof e);
    e.late_from = 300;
    e.late_gap = 2500;
    e.np = lcan_topo_ports(t);
    st = lcan_traffic_model_new(t, &o, &e.n);
    if (st == LCAN_OK)
        st = lcan_traffic_run(t, p, &o, tick_late, &e, &r);
    check(c, st == LCAN_OK && e.state == 2 && r.duplicated + r.misrouted == 1,
          "a flit ejected again after its tag was reused: status %s, sent again %d, duplicated %llu misrouted %llu",
          lcan_strerror(st), e.state == 2, (unsigned long long)r.duplicated, (unsigned long long)r.misrouted);
    lcan_net_free(e.n);
    lcan_traffic_pattern_free(p);
    lcan_topo_free(t);
}

/* The same statistics whether the model reads the injections from the driver's list or scans for them. */
static void check_lists(check_ctx *c, const char *spec, double load, double bcast, double burst)
{
    lcan_topo *t = topo(spec);
    lcan_traffic_pattern *p = NULL;
    lcan_traffic_opts o;
    lcan_traffic_result r1, r2;
    lcan_net *n = NULL;
    lcan_status s1, s2;
    char err[256];
    lcan_traffic_pattern_new(t, "uniform", NULL, &p, err, sizeof err);
    lcan_traffic_opts_default(&o);
    o.load = load;
    o.warmup = 300;
    o.measure = 1500;
    o.bcast = bcast;
    o.burst = burst;
    o.drain_all = 1;
    o.seed = 11;
    s1 = lcan_traffic_run_model(t, p, &o, &r1);
    s2 = lcan_traffic_model_new(t, &o, &n);
    if (s2 == LCAN_OK)
        s2 = lcan_traffic_run(t, p, &o, tick_without_lists, n, &r2);
    check(c, s1 == LCAN_OK && s2 == LCAN_OK && memcmp(&r1, &r2, sizeof r1) == 0,
          "%s load %g bcast %g burst %g: the same statistics without the list of injections", spec, load, bcast, burst);
    lcan_net_free(n);
    lcan_traffic_pattern_free(p);
    lcan_topo_free(t);
}

int main(void)
{
    check_ctx c = {"test_traffic", 0, 0};
    lcan_traffic_result r, r2;
    lcan_status st;
    static const char *specs[] = {"kary(4,3)", "lcan(2,2,8)", "cm5", "bft(6;1,2,4,8,16,32)", "xgft(2;4,4;2,3)"};
    size_t k;
    char what[128];

    check_geometric(&c);
    check_tags(&c);
    check_lists(&c, "kary(4,3)", 0.1, 0, 0);
    check_lists(&c, "kary(4,3)", 0.6, 0.02, 0);
    check_lists(&c, "cm5", 0.3, 0.01, 4);
    check_lists(&c, "bft(6;1,2,4,8,16,32)", 0.9, 0, 0);
    /* zero load, exactly: every pair of bitcomp has LCA level h -> min = p50 = 2h - 1 */
    for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        lcan_topo *t = topo(specs[k]);
        uint64_t h = (uint64_t)lcan_topo_levels(t);
        int pow2 = (lcan_topo_leaves(t) & (lcan_topo_leaves(t) - 1u)) == 0;
        lcan_topo_free(t);
        if (!pow2)
            continue;
        snprintf(what, sizeof what, "%s bitcomp load 0.002", specs[k]);
        st = run(specs[k], "bitcomp", NULL, 0.002, 0, 20000, 0, 0, 1, &r);
        checks_clean(&c, what, st, &r, 1);
        check(&c, r.packets > 0 && r.latency_min == 2 * h - 1 && r.latency_p50 == 2 * h - 1 &&
                      r.net_latency_min == 2 * h - 1,
              "%s: latency min %llu p50 %llu, expected 2h-1 = %llu", what, (unsigned long long)r.latency_min,
              (unsigned long long)r.latency_p50, (unsigned long long)(2 * h - 1));
        check(&c, r.zero_load == (double)(2 * h - 1), "%s: zero_load %g, expected %llu", what, r.zero_load,
              (unsigned long long)(2 * h - 1));
        /* broadcasts only: 2h - 1 too (spec 8.5) */
        snprintf(what, sizeof what, "%s broadcasts load 0.0005", specs[k]);
        st = run(specs[k], "uniform", NULL, 0.0005, 0, 20000, 1.0, 0, 1, &r);
        checks_clean(&c, what, st, &r, 1);
        check(&c, r.bcast_packets == r.packets && r.packets > 0 && r.latency_min == 2 * h - 1 &&
                      r.latency_p50 == 2 * h - 1,
              "%s: %llu broadcasts, latency min %llu p50 %llu, expected 2h-1 = %llu", what,
              (unsigned long long)r.bcast_packets, (unsigned long long)r.latency_min,
              (unsigned long long)r.latency_p50, (unsigned long long)(2 * h - 1));
    }

    /* a packet to itself: latency exactly 1 at every load, as a destination list and as a matrix */
    {
        char list[64 * 4 + 1] = "", mat[64 * 64 * 2 + 64 + 16] = "# identity\n";
        uint32_t s, d;
        for (s = 0; s < 64; s++) {
            char w[8];
            snprintf(w, sizeof w, "%u ", s);
            strcat(list, w);
            for (d = 0; d < 64; d++)
                strcat(mat, d == s ? "1 " : "0 ");
            strcat(mat, "\n");
        }
        st = run("kary(4,3)", "file:list", list, 1.0, 500, 3000, 0, 0, 1, &r);
        checks_clean(&c, "kary(4,3) self list load 1", st, &r, 1);
        check(&c, r.latency_min == 1 && r.latency_max == 1 && r.latency_avg == 1.0 && r.queue_avg == 0.0,
              "self list load 1: latency min %llu max %llu avg %g queue %g, expected all 1 and 0",
              (unsigned long long)r.latency_min, (unsigned long long)r.latency_max, r.latency_avg, r.queue_avg);
        check(&c, r.offered == 1.0 && r.accepted == 1.0 && r.accepted_min == 1.0,
              "self list load 1: offered %g accepted %g min %g, expected 1", r.offered, r.accepted, r.accepted_min);
        st = run("kary(4,3)", "file:matrix", mat, 0.7, 500, 3000, 0, 0, 1, &r);
        checks_clean(&c, "kary(4,3) identity matrix load 0.7", st, &r, 1);
        check(&c, r.latency_max == 1 && r.zero_load == 1.0, "identity matrix: latency max %llu zero_load %g",
              (unsigned long long)r.latency_max, r.zero_load);
    }

    /* uniform, low load: the measured ideal and the latency close to the digit formula */
    for (k = 0; k < 3; k++) {
        double e = uniform_zero_load(specs[k]);
        snprintf(what, sizeof what, "%s uniform load 0.01", specs[k]);
        st = run(specs[k], "uniform", NULL, 0.01, 1000, 40000, 0, 0, 0, &r);
        checks_clean(&c, what, st, &r, 0);
        check(&c, fabs(r.zero_load - e) < 0.05, "%s: zero_load %g, digit formula %g", what, r.zero_load, e);
        check(&c, r.latency_avg >= r.zero_load && r.latency_avg < e + 0.1, "%s: latency_avg %g, zero load %g", what,
              r.latency_avg, e);
    }

    /* below saturation: accepted = offered within 1 %, offered = load within 3 % */
    {
        static const struct { const char *spec, *pat; double load, bcast, burst; } cs[] = {
            {"kary(4,3)", "uniform", 0.3, 0, 0},    {"kary(4,3)", "bitrev", 0.3, 0, 0},
            {"cm5", "uniform", 0.2, 0, 0},          {"lcan(2,2,8)", "uniform", 0.2, 0.01, 0},
            {"kary(4,3)", "uniform", 0.3, 0, 8},    {"bft(6;1,2,4,8,16,32)", "tornado", 0.2, 0, 0},
            {"kary(4,3)", "hotspot:5:0.01", 0.3, 0, 0}, {"kary(4,3)", "neighbor", 0.4, 0, 0},
            {"kary(4,3)", "shuffle", 0.3, 0, 0},    {"kary(4,3)", "transpose", 0.3, 0, 0},
        };
        for (k = 0; k < sizeof cs / sizeof cs[0]; k++) {
            snprintf(what, sizeof what, "%s %s load %g bcast %g burst %g", cs[k].spec, cs[k].pat, cs[k].load, cs[k].bcast,
                     cs[k].burst);
            st = run(cs[k].spec, cs[k].pat, NULL, cs[k].load, 2000, 10000, cs[k].bcast, cs[k].burst, 1, &r);
            checks_clean(&c, what, st, &r, 1);
            check(&c, fabs(r.accepted - r.offered) <= 0.01 * r.offered, "%s: accepted %g offered %g", what, r.accepted,
                  r.offered);
            check(&c, fabs(r.offered - cs[k].load) <= 0.03 * cs[k].load, "%s: offered %g", what, r.offered);
        }
    }

    /* above saturation: accepted clearly below offered, nothing lost once drained */
    st = run("kary(4,3)", "uniform", NULL, 0.9, 1000, 3000, 0, 0, 1, &r);
    checks_clean(&c, "kary(4,3) uniform load 0.9", st, &r, 1);
    check(&c, r.accepted < 0.95 * r.offered && r.queue_avg > 10, "load 0.9: accepted %g offered %g queue %g", r.accepted,
          r.offered, r.queue_avg);
    {
        lcan_traffic_result pts[2];
        pts[0] = r;
        pts[0].accepted = pts[0].offered;
        pts[0].latency_avg = 2 * pts[0].zero_load;
        pts[1] = r;
        check(&c, lcan_traffic_saturation(pts, 2) == 1, "saturation index of a synthetic sweep");
        pts[0].latency_avg = 3.5 * pts[0].zero_load;
        check(&c, lcan_traffic_saturation(pts, 2) == 0, "saturation by latency > 3x zero-load");
    }

    /* determinism: the same seed gives the same result */
    st = run("cm5", "uniform", NULL, 0.3, 500, 2000, 0.001, 0, 1, &r);
    run("cm5", "uniform", NULL, 0.3, 500, 2000, 0.001, 0, 1, &r2);
    check(&c, st == LCAN_OK && memcmp(&r, &r2, sizeof r) == 0, "cm5: two runs with one seed differ");

    /* a drain that cannot finish is reported */
    {
        lcan_topo *t = topo("kary(4,3)");
        lcan_traffic_pattern *p;
        lcan_traffic_opts o;
        lcan_traffic_pattern_new(t, "hotspot:0:1", NULL, &p, NULL, 0);
        lcan_traffic_opts_default(&o);
        o.load = 0.5;
        o.warmup = 0;
        o.measure = 1000;
        o.drain_max = 100;
        st = lcan_traffic_run_model(t, p, &o, &r);
        check(&c, st == LCAN_ERR_STALL && r.lost > 0, "hotspot overload with a short drain: status %s lost %llu",
              lcan_strerror(st), (unsigned long long)r.lost);
        lcan_traffic_pattern_free(p);
        /* patterns that do not apply, options out of range */
        check(&c, lcan_traffic_pattern_new(t, "hotspot:64:0.1", NULL, &p, NULL, 0) == LCAN_ERR_PATTERN, "hotspot node");
        check(&c, lcan_traffic_pattern_new(t, "hotspot:1:2", NULL, &p, NULL, 0) == LCAN_ERR_PATTERN, "hotspot fraction");
        check(&c, lcan_traffic_pattern_new(t, "zigzag", NULL, &p, NULL, 0) == LCAN_ERR_PATTERN, "unknown pattern");
        check(&c, lcan_traffic_pattern_new(t, "file:x", "1 2 3", &p, NULL, 0) == LCAN_ERR_PATTERN, "short file");
        check(&c, lcan_traffic_pattern_new(t, "file:x", NULL, &p, NULL, 0) == LCAN_ERR_ARG, "file without text");
        lcan_traffic_pattern_new(t, "uniform", NULL, &p, NULL, 0);
        o.load = 0;
        check(&c, lcan_traffic_run_model(t, p, &o, &r) == LCAN_ERR_ARG, "load 0 refused");
        o.load = 1;
        o.burst = 4;
        check(&c, lcan_traffic_run_model(t, p, &o, &r) == LCAN_ERR_ARG, "burst at load 1 refused");
        lcan_traffic_pattern_free(p);
        lcan_topo_free(t);
    }
    {
        lcan_topo *t = topo("cm5");
        lcan_traffic_pattern *p;
        check(&c, lcan_traffic_pattern_new(t, "transpose", NULL, &p, NULL, 0) == LCAN_OK, "cm5 transpose (N = 256)");
        lcan_traffic_pattern_free(p);
        lcan_topo_free(t);
        t = topo("xgft(2;4,3;1,2)");
        check(&c, lcan_traffic_pattern_new(t, "bitcomp", NULL, &p, NULL, 0) == LCAN_ERR_PATTERN, "bitcomp on N = 12");
        lcan_topo_free(t);
    }
    {
        double l[8];
        check(&c, lcan_traffic_sweep_loads("0.1:0.5:0.1", l, 8) == 5 && fabs(l[4] - 0.5) < 1e-12, "sweep 0.1:0.5:0.1");
        check(&c, lcan_traffic_sweep_loads("0.5:0.1:0.1", l, 8) == -1, "sweep backwards");
        check(&c, lcan_traffic_sweep_loads("0.1:0.5", l, 8) == -1, "sweep without step");
    }
    return check_done(&c);
}
