/*
 * test_seed001.c - seed 001's Broadcast / Sparse-Broadcast (Algorithms 1-2), the pipelined variant
 * (section 3.3) and the binomial tree on the ideal fat-tree (collective_seed001.c), and the
 * recursive broadcast and product on our networks (lcan collective --algo recursive).
 *
 * Every schedule is replayed by a round-model simulator written here (not the library's checker):
 * a sender must hold the message when its round starts, a leaf receives it exactly once and every
 * leaf ends with it; in a round-model round each leaf sends and receives at most one message and
 * the messages crossing each channel IN THE WHOLE ROUND (stricter than per period) are at most its
 * capacity; in a pipelined phase the load is counted per period. Times are recomputed here too.
 * Expected counts, derived here, not taken from the code under test:
 *   binomial: sum_{k=1..h} 2k = h(h+1), any w;
 *   recursive, w(n) = n (EBFT-like), h = 2^j: r = n, m = sqrt n, lines 11-13 are self-sends and the
 *     phase-2 calls run in parallel, so S(h) = 2 S(h/2) + 2h, S(1) = 2: S(h) = 2h + 2h log2 h
 *     (h = 8: 64, h = 16: 160 - the independent run), and T = S (r = n: no recursion left);
 *   recursive, w = 1: r = 2 at every size, Broadcast halves: h(h+1) (the binomial count);
 *   the independent run: 54 vs 56 at N = 128, 64 vs 72 at 256, 160 vs 272 at 2^16;
 *   pipelined, w = 1: P(h) = 2h + phase + P(h - 1 - lam), lam = min(floor log2 h, h - 1), the phase
 *     max over j = 1..2^lam - 1 (sent farthest first) of (2^lam - 1 - j) + 2 (h - 1 - lam + 1 + floor log2 j);
 *   recurrence (2) for w = n, h = 2^j: S = 2 S(h/2) + 4h, S(1) = 2: 2h + 4h log2 h; (3) for w = 1:
 *     sum 2k = h(h+1);
 *   Theorem 3 (8): sum_{i = 1, 2, 4, .. <= H} i ceil((h - i) / log2(w(2^i) + 1)) evaluated here;
 *   prefix on the recursive broadcast: replayed here with random inputs (sum and max) against the
 *     prefix computed directly; its up-sweep is the broadcast reversed and its down-sweep the
 *     broadcast, so 2 T: 2 (2h + 2h log2 h) for w = n, h = 2^j, and 2h(h+1) for w = 1;
 *   product on the network: the broadcast reversed, the same steps; results checked by the driver.
 * The checker is also shown to fail: hand-made schedules with a capacity excess, a duplicate and a
 * missing leaf are reported.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan_collective.h"

static int t_lca(uint32_t a, uint32_t b)
{
    int H = 0;
    while (a != b) {
        a >>= 1;
        b >>= 1;
        H++;
    }
    return H;
}

static int t_log2(uint64_t x)
{
    int b = -1;
    while (x) {
        x >>= 1;
        b++;
    }
    return b;
}

/* The test's own replay; returns 1 when every rule holds, *steps = the schedule's time. */
static int replay(const lcan_ft_sched *s, const uint64_t *w, int64_t *steps, char *why, size_t wl)
{
    uint32_t N = s->N, x;
    int h = s->h, k, l;
    uint8_t *has = calloc(N, 1), *snd = calloc(N, 1), *rcv = calloc(N, 1);
    uint32_t *up = calloc(N, sizeof *up), *dn = calloc(N, sizeof *dn);
    int ok = 1;
    *steps = 0;
    if (!has || !snd || !rcv || !up || !dn) {
        snprintf(why, wl, "out of memory");
        ok = 0;
        goto out;
    }
    has[0] = 1;
    for (k = 0; k < s->nrounds && ok; k++) {
        size_t a = s->first[k], e = s->first[k + 1], i;
        int64_t time = 0, p;
        uint32_t seq = 0;
        for (i = a; i < e && ok; i++) {
            uint32_t u = s->src[i], v = s->dst[i];
            seq = i > a && s->src[i - 1] == u ? seq + 1 : 0;
            if (!has[u] || rcv[v] || has[v] || (s->burst[k] == 1 && snd[u]) || seq >= s->burst[k]) {
                snprintf(why, wl, "round %d: %u -> %u breaks a round rule", k + 1, u, v);
                ok = 0;
            }
            snd[u] = rcv[v] = 1;
            if ((int64_t)seq + 2 * t_lca(u, v) > time)
                time = (int64_t)seq + 2 * t_lca(u, v);
        }
        if (s->burst[k] == 1) { /* whole-round load on every channel */
            for (l = 0; l < h && ok; l++) {
                memset(up, 0, N * sizeof *up);
                memset(dn, 0, N * sizeof *dn);
                for (i = a; i < e; i++)
                    if (t_lca(s->src[i], s->dst[i]) > l) {
                        up[s->src[i] >> l]++;
                        dn[s->dst[i] >> l]++;
                    }
                for (x = 0; x < (N >> l) && ok; x++)
                    if (up[x] > w[l] || dn[x] > w[l]) {
                        snprintf(why, wl, "round %d: channel above level-%d subtree %u carries %u/%u, w = %llu", k + 1,
                                 l, x, up[x], dn[x], (unsigned long long)w[l]);
                        ok = 0;
                    }
            }
        } else { /* per period: up above level q at period seq + q, down above level 2H-1-q */
            uint32_t *load = calloc((size_t)2 * (size_t)h * N, sizeof *load);
            if (load == NULL) {
                snprintf(why, wl, "out of memory");
                ok = 0;
            }
            for (p = 0; p < time && ok; p++) {
                int pass;
                for (pass = 0; pass < 2; pass++) { /* pass 0 counts and checks, pass 1 clears */
                    seq = 0;
                    for (i = a; i < e; i++) {
                        int H = t_lca(s->src[i], s->dst[i]);
                        int64_t q;
                        size_t at;
                        seq = i > a && s->src[i - 1] == s->src[i] ? seq + 1 : 0;
                        q = p - (int64_t)seq;
                        if (q < 0 || q >= 2 * H)
                            continue;
                        l = q < H ? (int)q : (int)(2 * H - 1 - q);
                        at = ((size_t)(2 * l + (q >= H)) * N) + ((q < H ? s->src[i] : s->dst[i]) >> l);
                        if (pass == 1) {
                            load[at] = 0;
                        } else if (++load[at] > w[l] && ok) {
                            snprintf(why, wl, "phase %d period %lld: a level-%d channel over w", k + 1, (long long)p, l);
                            ok = 0;
                        }
                    }
                }
            }
            free(load);
        }
        for (i = a; i < e; i++) {
            has[s->dst[i]] = 1;
            snd[s->src[i]] = rcv[s->dst[i]] = 0;
        }
        *steps += time;
    }
    for (x = 0; x < N && ok; x++)
        if (!has[x]) {
            snprintf(why, wl, "leaf %u never receives", x);
            ok = 0;
        }
out:
    free(has);
    free(snd);
    free(rcv);
    free(up);
    free(dn);
    return ok;
}

static void capacities(const char *kind, int h, uint64_t *w)
{
    int l;
    for (l = 0; l < h; l++)
        w[l] = strcmp(kind, "n") == 0 ? (uint64_t)1 << l
               : strcmp(kind, "1") == 0 ? 1
               : strcmp(kind, "sqrt") == 0 ? (uint64_t)1 << ((l + 1) / 2)
                                            : (uint64_t)l + 1;
}

static int64_t run_algo(check_ctx *c, int h, const uint64_t *w, lcan_ft_algo a, const char *what)
{
    lcan_ft_sched s;
    lcan_ft_check_result r;
    char err[256], why[256] = "";
    int64_t steps = -1;
    if (lcan_ft_schedule(h, w, a, &s, err, sizeof err) != LCAN_OK) {
        check(c, 0, "%s h=%d algo %d: %s", what, h, (int)a, err);
        return -1;
    }
    check(c, replay(&s, w, &steps, why, sizeof why), "%s h=%d algo %d: %s", what, h, (int)a, why);
    check(c, steps == s.steps, "%s h=%d algo %d: replayed time %lld, schedule says %lld", what, h, (int)a,
          (long long)steps, (long long)s.steps);
    check(c, s.nmsg == s.N - 1, "%s h=%d algo %d: %zu messages for %u leaves", what, h, (int)a, s.nmsg, s.N);
    check(c, lcan_ft_check(&s, w, &r) == LCAN_OK && r.correct && r.steps == steps, "%s h=%d algo %d: checker: %s", what,
          h, (int)a, r.err);
    lcan_ft_sched_free(&s);
    return steps;
}

static int64_t pipelined_w1(int h)
{
    int b = h - 1, lam;
    int64_t phase = 0;
    uint32_t j;
    if (h <= 0)
        return 0;
    if (b == 0)
        return 2;
    lam = t_log2((uint64_t)h);
    if (lam > b)
        lam = b;
    for (j = 1; lam > 0 && j < (1u << lam); j++) {
        int64_t at = (int64_t)((1u << lam) - 1 - j) + 2 * (b - lam + 1 + t_log2(j));
        if (at > phase)
            phase = at;
    }
    return 2 * h + phase + pipelined_w1(b - lam);
}

static int64_t bound8(int h, const uint64_t *w)
{
    int i, H = 1;
    int64_t lb = 0;
    while (2 * H < h)
        H *= 2;
    for (i = 1; i <= H; i *= 2)
        lb += (int64_t)i * (int64_t)ceil((double)(h - i) / log2((double)w[i] + 1.0) - 1e-9);
    return lb;
}

/* The prefix register program, replayed here: local steps on one leaf, each leaf sends and receives
 * at most once per round, whole-round channel loads within w, every leaf's result equal to the
 * prefix computed directly (sum mod 2^32 and max). Returns the steps (sum of 2 x round height) or
 * -1 on a failure (why filled). */
static int64_t prefix_replay(const lcan_ft_prefix_prog *p, const uint64_t *w, int use_max, char *why, size_t wl)
{
    uint32_t N = p->N, x, ref, *val = malloc(((size_t)p->nreg + 1) * sizeof *val), *a = malloc((size_t)N * sizeof *a);
    uint32_t *up = calloc(N, sizeof *up), *dn = calloc(N, sizeof *dn), *tmp = malloc((p->nmsg + 1) * sizeof *tmp);
    uint8_t *snd = calloc(N, 1), *rcv = calloc(N, 1);
    unsigned long long rng = 5;
    int64_t steps = 0;
    int k, l, ok = 1;
    size_t i;
    if (!val || !a || !up || !dn || !tmp || !snd || !rcv) {
        snprintf(why, wl, "out of memory");
        ok = 0;
        goto out;
    }
    for (x = 0; x < N; x++)
        a[x] = (uint32_t)test_rng(&rng);
    for (x = 0; x < p->nreg; x++)
        val[x] = p->reg_input[x] == LCAN_FT_NOREG ? 0 : a[p->reg_input[x]];
    for (k = 0; k <= p->nrounds && ok; k++) {
        int height = 0;
        for (i = p->lfirst[k]; i < p->lfirst[k + 1]; i++) {
            uint32_t v = val[p->la[i]];
            if (p->reg_leaf[p->la[i]] != p->reg_leaf[p->ld[i]] ||
                (p->lb[i] != LCAN_FT_NOREG && p->reg_leaf[p->lb[i]] != p->reg_leaf[p->ld[i]])) {
                snprintf(why, wl, "before round %d: a local step on two leaves", k + 1);
                ok = 0;
            }
            if (p->lb[i] != LCAN_FT_NOREG)
                v = use_max ? (v > val[p->lb[i]] ? v : val[p->lb[i]]) : v + val[p->lb[i]];
            val[p->ld[i]] = v;
        }
        if (k == p->nrounds)
            break;
        for (i = p->first[k]; i < p->first[k + 1]; i++) {
            uint32_t s = p->src[i], d = p->dst[i];
            if (p->reg_leaf[p->rs[i]] != s || p->reg_leaf[p->rd[i]] != d || snd[s] || rcv[d] || s == d) {
                snprintf(why, wl, "round %d: %u -> %u breaks a round rule", k + 1, s, d);
                ok = 0;
            }
            snd[s] = rcv[d] = 1;
            tmp[i] = val[p->rs[i]];
            if (t_lca(s, d) > height)
                height = t_lca(s, d);
        }
        for (l = 0; l < p->h && ok; l++) {
            memset(up, 0, N * sizeof *up);
            memset(dn, 0, N * sizeof *dn);
            for (i = p->first[k]; i < p->first[k + 1]; i++)
                if (t_lca(p->src[i], p->dst[i]) > l) {
                    up[p->src[i] >> l]++;
                    dn[p->dst[i] >> l]++;
                }
            for (x = 0; x < (N >> l) && ok; x++)
                if (up[x] > w[l] || dn[x] > w[l]) {
                    snprintf(why, wl, "round %d: a level-%d channel over w", k + 1, l);
                    ok = 0;
                }
        }
        for (i = p->first[k]; i < p->first[k + 1]; i++) {
            val[p->rd[i]] = tmp[i];
            snd[p->src[i]] = rcv[p->dst[i]] = 0;
        }
        steps += 2 * height;
    }
    for (x = 0, ref = 0; x < N && ok; x++) {
        ref = x == 0 ? a[0] : use_max ? (ref > a[x] ? ref : a[x]) : ref + a[x];
        if (val[p->result[x]] != ref) {
            snprintf(why, wl, "leaf %u: prefix %u, expected %u", x, val[p->result[x]], ref);
            ok = 0;
        }
    }
out:
    free(val);
    free(a);
    free(up);
    free(dn);
    free(tmp);
    free(snd);
    free(rcv);
    return ok ? steps : -1;
}

static int64_t run_prefix(check_ctx *c, int h, const uint64_t *w, const char *what)
{
    lcan_ft_prefix_prog p;
    char err[256], why[256] = "";
    int64_t st[2];
    int m;
    if (lcan_ft_prefix(h, w, &p, err, sizeof err) != LCAN_OK) {
        check(c, 0, "prefix %s h=%d: %s", what, h, err);
        return -1;
    }
    for (m = 0; m < 2; m++) {
        st[m] = prefix_replay(&p, w, m, why, sizeof why);
        check(c, st[m] >= 0 && st[m] == p.steps, "prefix %s h=%d %s: %s (steps %lld, program says %lld)", what, h,
              m ? "max" : "sum", why, (long long)st[m], (long long)p.steps);
    }
    lcan_ft_prefix_free(&p);
    return st[0];
}

/* Hand-made schedules the checker must reject. */
static void checker_fails(check_ctx *c)
{
    uint64_t w1[3] = {1, 1, 1};
    size_t first[3] = {0, 2, 3};
    uint32_t burst[2] = {1, 1};
    uint32_t src[3] = {0, 1, 0}, dst[3] = {4, 5, 1}; /* round 1: 0->4 and (1->5, 1 not yet holding) */
    lcan_ft_sched s;
    lcan_ft_check_result r;
    memset(&s, 0, sizeof s);
    s.h = 3;
    s.N = 8;
    s.nrounds = 2;
    s.first = first;
    s.burst = burst;
    s.src = src;
    s.dst = dst;
    s.nmsg = 3;
    check(c, lcan_ft_check(&s, w1, &r) == LCAN_OK && !r.correct && r.bad_sends == 1 && r.missing == 4,
          "checker: a sender without the message and 4 missing leaves not reported (%s)", r.err);
    /* capacity: 0->4 and 1->5 in one round cross the level-1 and level-2 channels twice, w = 1 */
    src[1] = 1;
    dst[1] = 5;
    first[1] = 1;
    first[2] = 3;
    src[0] = 0;
    dst[0] = 1;
    src[1] = 0;
    dst[1] = 4;
    src[2] = 1;
    dst[2] = 5;
    check(c, lcan_ft_check(&s, w1, &r) == LCAN_OK && !r.correct && r.violations > 0 && r.bad_sends == 0,
          "checker: two messages on a w = 1 channel in one period not reported (%s)", r.err);
    {
        uint64_t w2[3] = {2, 2, 2};
        check(c, lcan_ft_check(&s, w2, &r) == LCAN_OK && r.violations == 0 && r.missing == 4,
              "checker: w = 2 reported a violation or miscounted missing leaves (%s)", r.err);
    }
    dst[2] = 4; /* leaf 4 twice */
    check(c, lcan_ft_check(&s, w1, &r) == LCAN_OK && !r.correct && r.duplicates == 1,
          "checker: a duplicate delivery not reported (%s)", r.err);
}

static void network(check_ctx *c)
{
    static const struct {
        const char *spec;
        int64_t recursive;
    } nets[] = {
        /* EBFT h = 4 (h = 2^j: 2h + 2h log2 h = 24) and h = 7 (the 54); CBFT: h(h+1) */
        {"bft(4;1,2,4,8)", 24},
        {"bft(7;1,2,4,8,16,32,64)", 54},
        {"bft(5;1,1,1,1,1)", 30},
    };
    size_t i;
    for (i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        lcan_topo *t = NULL;
        char err[256];
        lcan_coll_opts o;
        lcan_coll_result r;
        int op;
        if (lcan_topo_parse(nets[i].spec, &t, err, sizeof err) != LCAN_OK) {
            check(c, 0, "parse %s: %s", nets[i].spec, err);
            continue;
        }
        for (op = 0; op < 3; op++) {
            lcan_coll_op cop = op == 2 ? LCAN_COLL_PREFIX : op ? LCAN_COLL_REDUCE : LCAN_COLL_BCAST;
            int64_t want = op == 2 ? 2 * nets[i].recursive : nets[i].recursive;
            lcan_coll_opts_default(&o);
            o.sw_bcast = cop == LCAN_COLL_BCAST;
            o.recursive = 1;
            o.root = 3;
            o.combine = op ? LCAN_COMB_SUM : LCAN_COMB_MAX;
            check(c, lcan_collective_run_model(t, cop, &o, &r) == LCAN_OK && r.correct && r.errors == 0,
                  "%s %s recursive: not correct (%s)", nets[i].spec, lcan_coll_op_name(cop), r.err);
            check(c, (int64_t)r.steps == want && r.expect_steps == want, "%s %s recursive: %llu steps (expected %lld)",
                  nets[i].spec, lcan_coll_op_name(cop), (unsigned long long)r.steps, (long long)want);
            check(c, op == 2 || r.messages == lcan_topo_leaves(t) - 1, "%s %s recursive: %llu messages", nets[i].spec,
                  lcan_coll_op_name(cop), (unsigned long long)r.messages);
        }
        lcan_topo_free(t);
    }
    {
        lcan_topo *t = NULL;
        char err[256];
        lcan_coll_opts o;
        lcan_coll_result r;
        lcan_coll_opts_default(&o);
        o.sw_bcast = 1;
        o.recursive = 1;
        check(c, lcan_topo_parse("kary(4,2)", &t, err, sizeof err) == LCAN_OK, "parse kary(4,2)");
        check(c, t != NULL && lcan_collective_run_model(t, LCAN_COLL_BCAST, &o, &r) == LCAN_ERR_PATTERN &&
                     strstr(r.err, "binary") != NULL,
              "kary(4,2) --algo recursive: not refused as non-binary (%s)", r.err);
        lcan_topo_free(t);
    }
}

int main(void)
{
    check_ctx c = {"test_seed001", 0, 0};
    static const char *const kinds[] = {"n", "1", "sqrt", "log"};
    uint64_t w[32];
    int h, k, a;

    /* every algorithm, every capacity shape, h = 1..16: the model's rules hold */
    for (k = 0; k < 4; k++)
        for (h = 1; h <= 16; h++) {
            capacities(kinds[k], h, w);
            for (a = 0; a < 3; a++) {
                int64_t st = run_algo(&c, h, w, (lcan_ft_algo)a, kinds[k]);
                if (a == LCAN_FT_BINOMIAL)
                    check(&c, st == (int64_t)h * (h + 1), "binomial w=%s h=%d: %lld, expected h(h+1)", kinds[k], h,
                          (long long)st);
            }
        }
    /* EBFT-like w(n) = n */
    for (h = 1; h <= 16; h *= 2) {
        int64_t want = 2 * h + 2 * h * t_log2((uint64_t)h);
        capacities("n", h, w);
        check(&c, run_algo(&c, h, w, LCAN_FT_RECURSIVE, "n") == want, "recursive w=n h=%d: expected %lld", h,
              (long long)want);
        check(&c, run_algo(&c, h, w, LCAN_FT_PIPELINED, "n") == want, "pipelined w=n h=%d: expected %lld", h,
              (long long)want);
        check(&c, lcan_ft_recurrence(h, w, 2) == 2 * h + 4 * h * t_log2((uint64_t)h),
              "recurrence (2) w=n h=%d: %lld", h, (long long)lcan_ft_recurrence(h, w, 2));
        check(&c, lcan_ft_recurrence(h, w, 3) == lcan_ft_recurrence(h, w, 2), "recurrence (3) = (2) for w=n h=%d", h);
    }
    {
        static const int hs[] = {7, 8, 16};
        static const int64_t rec[] = {54, 64, 160}, bin[] = {56, 72, 272};
        int i;
        for (i = 0; i < 3; i++) {
            capacities("n", hs[i], w);
            check(&c, run_algo(&c, hs[i], w, LCAN_FT_RECURSIVE, "n") == rec[i] &&
                          run_algo(&c, hs[i], w, LCAN_FT_BINOMIAL, "n") == bin[i],
                  "N = 2^%d: recursive / binomial differ from the issue's %lld / %lld", hs[i], (long long)rec[i],
                  (long long)bin[i]);
        }
    }
    /* CBFT w = 1 */
    for (h = 1; h <= 16; h++) {
        capacities("1", h, w);
        check(&c, run_algo(&c, h, w, LCAN_FT_RECURSIVE, "1") == (int64_t)h * (h + 1), "recursive w=1 h=%d", h);
        check(&c, run_algo(&c, h, w, LCAN_FT_PIPELINED, "1") == pipelined_w1(h), "pipelined w=1 h=%d: expected %lld",
              h, (long long)pipelined_w1(h));
        check(&c, lcan_ft_recurrence(h, w, 3) == (int64_t)h * (h + 1), "recurrence (3) w=1 h=%d", h);
    }
    /* prefix (Theorem 6): correct for every shape up to h = 12 (h = 13..14 for w = n), and on
     * w = n and w = 1 exactly twice the broadcast: up-sweep = its reverse, down-sweep = itself */
    for (k = 0; k < 4; k++)
        for (h = 1; h <= 12; h++) {
            capacities(kinds[k], h, w);
            run_prefix(&c, h, w, kinds[k]);
        }
    for (h = 1; h <= 16; h *= 2) {
        int64_t want = 2 * (2 * h + 2 * h * t_log2((uint64_t)h));
        capacities("n", h, w);
        check(&c, run_prefix(&c, h, w, "n") == want, "prefix w=n h=%d: expected %lld", h, (long long)want);
    }
    for (h = 1; h <= 14; h++) {
        capacities("1", h, w);
        check(&c, run_prefix(&c, h, w, "1") == 2 * (int64_t)h * (h + 1), "prefix w=1 h=%d: expected 2h(h+1)", h);
    }
    /* Theorem 3 (8), and no algorithm beats it */
    for (k = 0; k < 4; k++)
        for (h = 2; h <= 16; h++) {
            capacities(kinds[k], h, w);
            check(&c, lcan_ft_round_bound(h, w) == bound8(h, w), "bound (8) w=%s h=%d: %lld, expected %lld", kinds[k],
                  h, (long long)lcan_ft_round_bound(h, w), (long long)bound8(h, w));
            check(&c, run_algo(&c, h, w, LCAN_FT_RECURSIVE, kinds[k]) >= bound8(h, w), "recursive below (8)");
        }
    /* bad arguments */
    {
        lcan_ft_sched s;
        char err[256];
        capacities("n", 4, w);
        check(&c, lcan_ft_schedule(0, w, LCAN_FT_RECURSIVE, &s, err, sizeof err) == LCAN_ERR_ARG, "h = 0 accepted");
        w[2] = 0;
        check(&c, lcan_ft_schedule(4, w, LCAN_FT_RECURSIVE, &s, err, sizeof err) == LCAN_ERR_ARG &&
                      strstr(err, "capacity") != NULL,
              "w = 0 accepted (%s)", err);
    }
    checker_fails(&c);
    network(&c);
    return check_done(&c);
}
