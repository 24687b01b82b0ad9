/*
 * test_bounds.c - the papers' lower bounds printed beside every collective (lower_bound,
 * issue 13 part 4). Expected values are the papers' formulas evaluated here, not the library's:
 *   seed 000 Table 1: broadcast 2 log n, scatter / gather / multinode broadcast n + 1, total
 *   exchange max{n + 1, n^2 / 4 c_log n}; Lemma 3 on the EBFT: n + 2 log n - 2 log log n - 2
 *   (18 at n = 16, the example);
 *   seed 001 (round programs): max of the diameter 2 log N and Thm 3 relation (8)
 *   sum_{i = 0..log H} 2^i ceil((log N - 2^i) / log(w(2^(2^i)) + 1)) (Thm 2 is weaker at these sizes);
 *   no bound where no paper gives one (non-binary networks, except broadcast = diameter 2h).
 * Every measured step count must be >= its bound.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lcan_collective.h"

static long ceil_l(double x) { return (long)ceil(x - 1e-9); }

/* relation (8) for a BFT with branch capacities c[1..h] (w of a subtree of height j = c[j+1]) */
static long rel8(int h, const long *c)
{
    long lb = 0;
    int H = 1, i;
    while (H * 2 < h)
        H *= 2;
    for (i = 1; i <= H; i *= 2)
        lb += i * ceil_l((double)(h - i) / log2((double)c[i + 1] + 1.0));
    return lb;
}

static void one(check_ctx *c, const char *spec, lcan_coll_op op, int leaves_algo, long want)
{
    lcan_topo *t = NULL;
    lcan_coll_opts o;
    lcan_coll_result r;
    char err[256];
    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK) {
        check(c, 0, "parse %s: %s", spec, err);
        return;
    }
    lcan_coll_opts_default(&o);
    o.sw_bcast = leaves_algo;
    check(c, lcan_collective_run_model(t, op, &o, &r) == LCAN_OK, "%s %s: run failed (%s)", spec, lcan_coll_op_name(op),
          r.err);
    check(c, r.lower_bound == want, "%s %s%s: lower_bound %lld, want %ld (%s)", spec, lcan_coll_op_name(op),
          leaves_algo ? " leaves" : "", (long long)r.lower_bound, want, r.lower_bound_ref ? r.lower_bound_ref : "");
    check(c, r.lower_bound_ref != NULL && r.lower_bound_ref[0] != 0, "%s: empty lower_bound_ref", spec);
    if (want >= 0)
        check(c, (long)r.steps >= want, "%s %s: %llu steps below the bound %ld", spec, lcan_coll_op_name(op),
              (unsigned long long)r.steps, want);
    lcan_topo_free(t);
}

int main(void)
{
    check_ctx c = {"test_bounds", 0, 0};
    int h, e, i;
    char spec[128];
    for (e = 0; e < 2; e++)
        for (h = 2; h <= 6; h++) {
            long n = 1L << h, cap[16], x, te, lemma3;
            int len = snprintf(spec, sizeof spec, "bft(%d;", h);
            for (i = 1; i <= h; i++) {
                cap[i] = e ? 1L << (i - 1) : 1;
                len += snprintf(spec + len, sizeof spec - (size_t)len, "%s%ld", i > 1 ? "," : "", cap[i]);
            }
            snprintf(spec + len, sizeof spec - (size_t)len, ")");
            one(&c, spec, LCAN_COLL_BCAST, 0, 2 * h);
            one(&c, spec, LCAN_COLL_SCATTER, 0, n + 1);
            one(&c, spec, LCAN_COLL_GATHER, 0, n + 1);
            if (h <= 5)
                one(&c, spec, LCAN_COLL_MNB, 0, n + 1);
            te = n + 1;
            x = (n * n + 4 * cap[h] - 1) / (4 * cap[h]);
            if (x > te)
                te = x;
            lemma3 = ceil_l((double)n + 2.0 * h - 2.0 * log2((double)h) - 2.0);
            if (e && lemma3 > te)
                te = lemma3;
            if (h <= 5)
                one(&c, spec, LCAN_COLL_ALLTOALL, 0, te);
            x = rel8(h, cap);
            if (x < 2 * h)
                x = 2 * h;
            one(&c, spec, LCAN_COLL_REDUCE, 0, x);
            one(&c, spec, LCAN_COLL_PREFIX, 0, x);
            one(&c, spec, LCAN_COLL_BCAST, 1, x);
        }
    /* the example: EBFT total exchange at n = 16 is bounded by 16 + 8 - 4 - 2 = 18 */
    one(&c, "bft(4;1,2,4,8)", LCAN_COLL_ALLTOALL, 0, 16 + 2 * 4 - 2 * 2 - 2);
    /* no paper bound off binary fat trees, except broadcast (diameter 2h) */
    one(&c, "kary(4,2)", LCAN_COLL_SCATTER, 0, -1);
    one(&c, "kary(4,2)", LCAN_COLL_ALLTOALL, 0, -1);
    one(&c, "kary(4,2)", LCAN_COLL_BCAST, 0, 4);
    one(&c, "xgft(2;4,4;1,2)", LCAN_COLL_REDUCE, 0, -1);
    return check_done(&c);
}
