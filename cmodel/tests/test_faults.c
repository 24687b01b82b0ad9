/*
 * test_faults.c - spec 14: fault numbering, the --faults list, the reach rows / usable ports / cut
 * pairs of spec 14.4 against an independent computation, seed 002 Theorem 2 / Corollary 1 (no pair
 * cut by any w_1 - 1 faults, exhaustively on small XGFTs and PGFTs), and the drivers under faults
 * (circuit route, open-loop traffic with static and mid-run faults, broadcast on the w_1 trees).
 *
 * The independent computation (bf_*) walks explicit up-then-down paths over lcan_topo_neighbor:
 * from a switch that does not contain the destination through every upper that is not off, from
 * one that contains it down through the links towards its digit, with "off" decided from the
 * element at each end of each link (spec 14.1) - no subtree blocks, no index formulas.
 * The network tests need the model to honour the fault pins (the network side of spec 14); when it
 * does not (yet), they are reported as SKIPPED and not counted.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan_collective.h"
#include "lcan_faults.h"
#include "lcan_traffic.h"

static check_ctx C = {"test_faults", 0, 0};

static lcan_topo *topo(const char *spec)
{
    lcan_topo *t = NULL;
    char err[256];
    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK) {
        printf("test_faults: cannot parse %s: %s\n", spec, err);
        exit(1);
    }
    return t;
}

/* ------------------------------------------------------------------ brute force (independent) */

static int leaf_digit(const lcan_topo *t, uint32_t b, int l)
{
    int i;
    for (i = 1; i < l; i++)
        b /= (uint32_t)lcan_topo_m(t, i);
    return (int)(b % (uint32_t)lcan_topo_m(t, l));
}

static int contains(const lcan_topo *t, int l, uint32_t x, uint32_t b)
{
    int dg[LCAN_MAX_LEVELS + 1], j;
    lcan_topo_switch_label(t, l, x, dg);
    for (j = l + 1; j <= lcan_topo_levels(t); j++)
        if (dg[j] != leaf_digit(t, b, j))
            return 0;
    return 1;
}

static int swoff(const lcan_topo *t, const lcan_faults *f, int l, uint32_t x)
{
    return f->sw_off[lcan_topo_switch_offset(t, l) + x] != 0;
}

static int lkoff(const lcan_topo *t, const lcan_faults *f, int l, uint32_t x, int o)
{
    return f->link_off[lcan_topo_link_offset(t, l) + (uint64_t)x * (uint64_t)lcan_topo_downers(t, l) + (uint64_t)o] != 0;
}

static int bf_dn(const lcan_topo *t, const lcan_faults *f, int l, uint32_t x, uint32_t b)
{
    int o, p = lcan_topo_p(t, l);
    if (swoff(t, f, l, x))
        return 0;
    for (o = 0; o < lcan_topo_downers(t, l); o++) {
        lcan_end from = {l, x, o}, to;
        if (o / p != leaf_digit(t, b, l) || lkoff(t, f, l, x, o))
            continue;
        lcan_topo_neighbor(t, from, &to);
        if (l == 1) {
            if (to.node == b)
                return 1;
            continue;
        }
        if (!swoff(t, f, l - 1, to.node) && bf_dn(t, f, l - 1, to.node, b))
            return 1;
    }
    return 0;
}

static int bf_up(const lcan_topo *t, const lcan_faults *f, int l, uint32_t x, uint32_t b);

/* Through upper j of (l, x) to b (x does not contain b). */
static int bf_reach(const lcan_topo *t, const lcan_faults *f, int l, uint32_t x, int j, uint32_t b)
{
    lcan_end from = {l, x, lcan_topo_downers(t, l) + j}, to;
    if (swoff(t, f, l, x))
        return 0;
    lcan_topo_neighbor(t, from, &to);
    if (swoff(t, f, l + 1, to.node) || lkoff(t, f, l + 1, to.node, to.port))
        return 0;
    return contains(t, l + 1, to.node, b) ? bf_dn(t, f, l + 1, to.node, b) : bf_up(t, f, l + 1, to.node, b);
}

static int bf_up(const lcan_topo *t, const lcan_faults *f, int l, uint32_t x, uint32_t b)
{
    int j;
    for (j = 0; j < lcan_topo_uppers(t, l); j++)
        if (bf_reach(t, f, l, x, j, b))
            return 1;
    return 0;
}

static int bf_port_off(const lcan_topo *t, const lcan_faults *f, uint32_t s, int port)
{
    lcan_end from = {0, s, port}, to;
    lcan_topo_neighbor(t, from, &to);
    return swoff(t, f, 1, to.node) || lkoff(t, f, 1, to.node, to.port);
}

static int bf_usable(const lcan_topo *t, const lcan_faults *f, uint32_t s, int port, uint32_t b)
{
    lcan_end from = {0, s, port}, to;
    if (bf_port_off(t, f, s, port))
        return 0;
    lcan_topo_neighbor(t, from, &to);
    return contains(t, 1, to.node, b) ? bf_dn(t, f, 1, to.node, b) : bf_up(t, f, 1, to.node, b);
}

/* Every row, usable port, cut pair and off port of lcan_reach_new against the brute force.
 * Returns the number of cut pairs found by the brute force. */
static uint64_t compare_reach(const lcan_topo *t, const lcan_faults *f, const char *what)
{
    lcan_reach *r = NULL;
    int h = lcan_topo_levels(t), U0 = lcan_topo_leaf_ports(t), l, j, port, bad = 0;
    uint32_t N = lcan_topo_leaves(t), s, b, x;
    uint64_t RW = lcan_topo_row_bits(t), a, cut = 0;
    uint8_t *isleaf = calloc(RW, 1);
    uint32_t *leaf_at = calloc(RW, sizeof *leaf_at);
    if (lcan_reach_new(t, f, &r) != LCAN_OK) {
        check(&C, 0, "%s: lcan_reach_new failed", what);
        free(isleaf);
        free(leaf_at);
        return 0;
    }
    for (b = 0; b < N; b++) {
        isleaf[lcan_topo_pack(t, b)] = 1;
        leaf_at[lcan_topo_pack(t, b)] = b;
    }
    for (l = 1; l < h; l++)
        for (x = 0; x < lcan_topo_switches(t, l); x++)
            for (j = 0; j < lcan_topo_uppers(t, l); j++) {
                uint64_t row = lcan_topo_row_offset(t, l) + (uint64_t)x * (uint64_t)lcan_topo_uppers(t, l) + (uint64_t)j;
                const uint64_t *w = lcan_reach_row(r, row);
                for (a = 0; a < RW && !bad; a++) {
                    int want = 1, got = (int)((w[a / 64] >> (a % 64)) & 1u);
                    if (isleaf[a] && !contains(t, l, x, leaf_at[a]))
                        want = bf_reach(t, f, l, x, j, leaf_at[a]);
                    if (want != got) {
                        check(&C, 0, "%s: row %llu (level %d switch %u upper %d) bit %llu: %d, expected %d", what,
                              (unsigned long long)row, l, x, j, (unsigned long long)a, got, want);
                        bad = 1;
                    }
                }
            }
    for (s = 0; s < N && !bad; s++) {
        for (port = 0; port < U0 && !bad; port++)
            if (lcan_reach_port_off(r, s * (uint32_t)U0 + (uint32_t)port) != bf_port_off(t, f, s, port)) {
                check(&C, 0, "%s: port %d of leaf %u: off %d", what, port, s,
                      lcan_reach_port_off(r, s * (uint32_t)U0 + (uint32_t)port));
                bad = 1;
            }
        for (b = 0; b < N && !bad; b++) {
            int c = 0;
            for (port = 0; port < U0; port++) {
                int u = bf_usable(t, f, s, port, b);
                c += u;
                if (u != lcan_reach_port_usable(r, s, port, b)) {
                    check(&C, 0, "%s: port %d of %u usable for %u: %d, expected %d", what, port, s, b,
                          lcan_reach_port_usable(r, s, port, b), u);
                    bad = 1;
                }
            }
            cut += c == 0;
            if (lcan_reach_cut(r, s, b) != (c == 0) || lcan_reach_usable_count(r, s, b) != c) {
                check(&C, 0, "%s: pair (%u, %u): cut %d count %d, expected %d usable ports", what, s, b,
                      lcan_reach_cut(r, s, b), lcan_reach_usable_count(r, s, b), c);
                bad = 1;
            }
        }
    }
    if (!bad)
        check(&C, lcan_reach_cut_pairs(r) == cut, "%s: %llu cut pairs, brute force %llu", what,
              (unsigned long long)lcan_reach_cut_pairs(r), (unsigned long long)cut);
    check(&C, !bad, "%s: reach view equals the brute force", what);
    lcan_reach_free(r);
    free(isleaf);
    free(leaf_at);
    return cut;
}

/* ------------------------------------------------------------------ numbering (spec 14.1-14.2) */

static void test_numbering(const char *spec)
{
    lcan_topo *t = topo(spec);
    int h = lcan_topo_levels(t), l, o;
    uint64_t NL = lcan_topo_link_count(t), NS = 0, NR = 0, k;
    uint8_t *hit = calloc(NL, 1);
    uint32_t x;
    int ok = 1;
    for (l = 1; l <= h; l++) {
        check(&C, lcan_topo_switch_offset(t, l) == NS, "%s: SW_OFF(%d)", spec, l);
        NS += lcan_topo_switches(t, l);
        if (l < h) {
            check(&C, lcan_topo_row_offset(t, l) == NR, "%s: ROW_OFF(%d)", spec, l);
            NR += (uint64_t)lcan_topo_switches(t, l) * (uint64_t)lcan_topo_uppers(t, l);
        }
    }
    check(&C, lcan_topo_switch_count(t) == NS && lcan_topo_reach_rows(t) == NR, "%s: NS, NR", spec);
    check(&C, lcan_topo_row_bits(t) == (uint64_t)1 << lcan_topo_addr_width(t), "%s: RW", spec);
    /* every link seen from its lower end (leaf port or upper) lands on the downer whose number it
     * has, and that downer leads back: each number 0..NL-1 exactly once */
    for (l = 0; l < h; l++) {
        int ports = l == 0 ? lcan_topo_leaf_ports(t) : lcan_topo_uppers(t, l), base = l == 0 ? 0 : lcan_topo_downers(t, l);
        for (x = 0; x < lcan_topo_switches(t, l); x++)
            for (o = 0; o < ports; o++) {
                lcan_end lo = {l, x, base + o}, hi, back;
                if (lcan_topo_neighbor(t, lo, &hi) != LCAN_OK || hi.level != l + 1 || hi.port >= lcan_topo_downers(t, l + 1)) {
                    ok = 0;
                    continue;
                }
                k = lcan_topo_link_offset(t, l + 1) + (uint64_t)hi.node * (uint64_t)lcan_topo_downers(t, l + 1) +
                    (uint64_t)hi.port;
                if (k >= lcan_topo_link_offset(t, l + 2) || k >= NL || hit[k]) {
                    ok = 0;
                    continue;
                }
                hit[k] = 1;
                if (lcan_topo_neighbor(t, hi, &back) != LCAN_OK || back.level != l || back.node != x ||
                    back.port != base + o)
                    ok = 0;
            }
    }
    for (k = 0; k < NL; k++)
        ok &= hit[k];
    check(&C, ok, "%s: link numbering LK_OFF(l) + x*D_l + o covers every link once, both ends agree", spec);
    free(hit);
    /* names read back */
    {
        lcan_faults f, g;
        char name[64], err[256];
        int names_ok = 1;
        lcan_faults_init(t, &f);
        for (k = 0; k < NL + NS; k += 1 + (NL + NS) / 97) {
            lcan_faults_init(t, &g);
            if (lcan_faults_name(t, &f, k, name, sizeof name) != 0 || lcan_faults_parse(t, name, 1, &g, err, sizeof err) != LCAN_OK ||
                g.count != 1 || (k < NL ? g.link_off[k] : g.sw_off[k - NL]) != 1)
                names_ok = 0;
            lcan_faults_free(&g);
        }
        check(&C, names_ok, "%s: element names read back", spec);
        lcan_faults_free(&f);
    }
    lcan_topo_free(t);
}

/* ------------------------------------------------------------------ the --faults list */

static void expect_parse_error(const lcan_topo *t, const char *text, const char *msg)
{
    lcan_faults f;
    char err[256];
    lcan_status st;
    lcan_faults_init(t, &f);
    st = lcan_faults_parse(t, text, 1, &f, err, sizeof err);
    check(&C, st != LCAN_OK && strstr(err, msg) != NULL && strchr(err, '\n') == NULL,
          "parse '%s': expected an error containing '%s', got %d '%s'", text, msg, (int)st, err);
    lcan_faults_free(&f);
}

static void test_parse(void)
{
    lcan_topo *t = topo("gft(3,2,2)"); /* S_3 = 8, D_l = 2, 48 links, 24 switches */
    lcan_faults f, g;
    char err[256];
    uint64_t k, n1 = 0;
    lcan_faults_init(t, &f);
    check(&C, f.nl == 48 && f.ns == 24, "gft(3,2,2): NL %llu NS %llu", (unsigned long long)f.nl, (unsigned long long)f.ns);
    check(&C, lcan_faults_parse(t, " L3:7 , l1:0/1,L3:7", 1, &f, err, sizeof err) == LCAN_OK && f.count == 2 &&
                  f.sw_off[16 + 7] && f.link_off[1],
          "parse: a switch, a link, a duplicate counted once (%s)", err);
    lcan_faults_free(&f);
    expect_parse_error(t, "L3:9", "bad fault 'L3:9': level 3 has 8 switches (0..7)");
    expect_parse_error(t, "L4:0", "switch levels 1..3");
    expect_parse_error(t, "L0:1", "never faulty");
    expect_parse_error(t, "L1:0/2", "a level-1 switch has 2 downers (0..1)");
    expect_parse_error(t, "L1:x", "expected Ll:x");
    expect_parse_error(t, "L1:0,", "empty element");
    expect_parse_error(t, "", "empty element");
    expect_parse_error(t, "random:73", "more than the 48 links and 24 switches (72 elements)");
    expect_parse_error(t, "random:-1", "random:K needs a count");
    expect_parse_error(t, "L1:99999999999999999999", "level 1 has 8 switches");
    /* random:K: K distinct elements, the same for the same seed, all of them for K = NL + NS */
    lcan_faults_init(t, &f);
    lcan_faults_init(t, &g);
    check(&C, lcan_faults_parse(t, "random:10", 5, &f, err, sizeof err) == LCAN_OK && f.count == 10, "random:10: 10 elements");
    check(&C, lcan_faults_parse(t, "random:10", 5, &g, err, sizeof err) == LCAN_OK &&
                  memcmp(f.link_off, g.link_off, f.nl) == 0 && memcmp(f.sw_off, g.sw_off, f.ns) == 0,
          "random:10: the same elements for the same seed");
    lcan_faults_free(&f);
    lcan_faults_free(&g);
    lcan_faults_init(t, &f);
    check(&C, lcan_faults_parse(t, "random:72", 9, &f, err, sizeof err) == LCAN_OK && f.count == 72, "random:72: every element");
    lcan_faults_free(&f);
    /* uniform: over 7200 draws of random:1 every element is hit about 100 times */
    {
        uint32_t hits[72];
        int ok = 1;
        memset(hits, 0, sizeof hits);
        for (k = 0; k < 7200; k++) {
            uint64_t e;
            lcan_faults_init(t, &f);
            lcan_faults_parse(t, "random:1", k, &f, err, sizeof err);
            for (e = 0; e < 72; e++)
                if (e < 48 ? f.link_off[e] : f.sw_off[e - 48]) {
                    hits[e]++;
                    n1++;
                }
            lcan_faults_free(&f);
        }
        for (k = 0; k < 72; k++)
            ok &= hits[k] > 50 && hits[k] < 160;
        check(&C, ok && n1 == 7200, "random:1 draws every element about equally often");
    }
    lcan_topo_free(t);
}

/* ------------------------------------------------------------------ reach against brute force */

static void test_brute(const char *spec, int sets, int maxk, unsigned long long seed)
{
    lcan_topo *t = topo(spec);
    lcan_faults f;
    char what[128], list[32], err[256];
    int i;
    lcan_faults_init(t, &f);
    snprintf(what, sizeof what, "%s no faults", spec);
    check(&C, compare_reach(t, &f, what) == 0, "%s: no cut pair without faults", spec);
    lcan_faults_free(&f);
    for (i = 0; i < sets; i++) {
        int k = 1 + (int)(test_rng(&seed) % (unsigned long long)maxk);
        lcan_faults_init(t, &f);
        snprintf(list, sizeof list, "random:%d", k);
        lcan_faults_parse(t, list, seed + (uint64_t)i, &f, err, sizeof err);
        snprintf(what, sizeof what, "%s %s seed %llu", spec, list, (unsigned long long)(seed + (uint64_t)i));
        compare_reach(t, &f, what);
        lcan_faults_free(&f);
    }
    lcan_topo_free(t);
}

/* A leaf with all its w_1 * p_1 links off, and a level-1 group with all its w_1 parents off. */
static void test_cuts(const char *spec)
{
    lcan_topo *t = topo(spec);
    uint32_t N = lcan_topo_leaves(t), m1 = (uint32_t)lcan_topo_m(t, 1);
    int U0 = lcan_topo_leaf_ports(t), port;
    lcan_faults f;
    char what[128];
    uint64_t cut;
    lcan_faults_init(t, &f);
    for (port = 0; port < U0; port++) { /* leaf 1's links */
        lcan_end from = {0, 1, port}, to;
        lcan_topo_neighbor(t, from, &to);
        f.link_off[lcan_topo_link_offset(t, 1) + (uint64_t)to.node * (uint64_t)lcan_topo_downers(t, 1) + (uint64_t)to.port] = 1;
    }
    f.count = (uint64_t)U0;
    snprintf(what, sizeof what, "%s leaf 1 without links", spec);
    cut = compare_reach(t, &f, what);
    check(&C, cut == 2u * N - 1u, "%s: %llu cut pairs, expected 2N-1 = %u", what, (unsigned long long)cut, 2 * N - 1);
    lcan_faults_free(&f);
    lcan_faults_init(t, &f);
    for (port = 0; port < U0; port += lcan_topo_p(t, 1)) { /* leaf 0's w_1 parents */
        lcan_end from = {0, 0, port}, to;
        lcan_topo_neighbor(t, from, &to);
        f.sw_off[to.node] = 1;
    }
    f.count = (uint64_t)lcan_topo_w(t, 1);
    snprintf(what, sizeof what, "%s leaf 0's w_1 parents off", spec);
    cut = compare_reach(t, &f, what);
    check(&C, cut == 2u * m1 * N - m1 * m1, "%s: %llu cut pairs, expected 2 m1 N - m1^2 = %u", what,
          (unsigned long long)cut, 2 * m1 * N - m1 * m1);
    lcan_faults_free(&f);
    lcan_topo_free(t);
}

/* Seed 002 Theorem 2 / Corollary 1: every set of at most w_1 - 1 elements (links and switches)
 * leaves every pair connected. Exhaustive over sets of size w_1 - 1 (<= 2 here); the subsets of a
 * set that cuts nothing cut nothing either, so the largest size covers the smaller ones, which are
 * checked anyway for size 1. */
static void test_exhaustive(const char *spec)
{
    lcan_topo *t = topo(spec);
    int w1 = lcan_topo_w(t, 1);
    uint64_t NL = lcan_topo_link_count(t), NE = NL + lcan_topo_switch_count(t), a, b, sets = 0, bad = 0;
    lcan_faults f;
    lcan_reach *r;
    lcan_faults_init(t, &f);
    for (a = 0; a < NE; a++) {
        for (b = w1 >= 3 ? a + 1 : NE; b <= NE; b++) {
            uint8_t *ea = a < NL ? &f.link_off[a] : &f.sw_off[a - NL];
            uint8_t *eb = b < NE ? (b < NL ? &f.link_off[b] : &f.sw_off[b - NL]) : NULL;
            *ea = 1;
            if (eb != NULL)
                *eb = 1;
            f.count = eb != NULL ? 2 : 1;
            if (lcan_reach_new(t, &f, &r) != LCAN_OK || lcan_reach_cut_pairs(r) != 0) {
                if (bad++ < 5)
                    check(&C, 0, "%s: elements %llu, %llu cut %llu pairs", spec, (unsigned long long)a,
                          (unsigned long long)b, (unsigned long long)lcan_reach_cut_pairs(r));
            }
            lcan_reach_free(r);
            *ea = 0;
            if (eb != NULL)
                *eb = 0;
            sets++;
        }
    }
    check(&C, bad == 0, "%s: none of the %llu fault sets of size <= w_1 - 1 = %d cuts a pair (seed 002 Thm 2)", spec,
          (unsigned long long)sets, w1 - 1);
    lcan_faults_free(&f);
    lcan_topo_free(t);
}

/* random fault sets of size < w_1 */
static void test_random_nocut(const char *spec, int sets)
{
    lcan_topo *t = topo(spec);
    int w1 = lcan_topo_w(t, 1), i, bad = 0;
    char list[32], err[256];
    for (i = 0; i < sets; i++) {
        lcan_faults f;
        lcan_reach *r = NULL;
        lcan_faults_init(t, &f);
        snprintf(list, sizeof list, "random:%d", 1 + i % (w1 - 1));
        lcan_faults_parse(t, list, (uint64_t)i * 7919u + 3u, &f, err, sizeof err);
        if (lcan_reach_new(t, &f, &r) != LCAN_OK || lcan_reach_cut_pairs(r) != 0)
            bad++;
        lcan_reach_free(r);
        lcan_faults_free(&f);
    }
    check(&C, bad == 0, "%s: %d random fault sets of size < w_1 cut no pair (%d did)", spec, sets, bad);
    lcan_topo_free(t);
}

/* Rows to write: those that differ, increasing. */
static void test_sched(void)
{
    lcan_topo *t = topo("xgft(3;2,2,2;2,2,2)");
    lcan_faults a, b;
    lcan_reach *ra, *rb;
    lcan_fault_sched s;
    char err[256];
    uint64_t NR = lcan_topo_reach_rows(t), rw = (lcan_topo_row_bits(t) + 63) / 64, i, w, k = 0;
    int ok = 1;
    lcan_faults_init(t, &a);
    lcan_faults_init(t, &b);
    lcan_faults_parse(t, "L2:1,L3:0/1", 1, &a, err, sizeof err);
    lcan_faults_parse(t, "L2:1,L1:3/0,L3:5", 1, &b, err, sizeof err);
    lcan_reach_new(t, &a, &ra);
    lcan_reach_new(t, &b, &rb);
    /* from all ones */
    check(&C, lcan_fault_sched_rows(t, NULL, ra, &s) == LCAN_OK, "sched: from NULL");
    for (i = 0; i < NR; i++) {
        int differ = 0;
        for (w = 0; w < rw; w++)
            differ |= lcan_reach_row(ra, i)[w] != ~(uint64_t)0;
        if (differ && (k >= s.nrows || s.rows[k++] != i))
            ok = 0;
    }
    check(&C, ok && k == s.nrows && s.nrows > 0, "sched: rows that are not all ones, increasing (%llu)",
          (unsigned long long)s.nrows);
    lcan_fault_sched_free(&s);
    /* from a to b */
    ok = 1;
    k = 0;
    lcan_fault_sched_rows(t, ra, rb, &s);
    for (i = 0; i < NR; i++) {
        int differ = memcmp(lcan_reach_row(ra, i), lcan_reach_row(rb, i), (size_t)rw * 8) != 0;
        if (differ && (k >= s.nrows || s.rows[k++] != i))
            ok = 0;
    }
    check(&C, ok && k == s.nrows && s.nrows > 0, "sched: rows that differ between two fault sets");
    lcan_fault_sched_free(&s);
    /* an empty fault set: nothing to write */
    lcan_reach_free(ra);
    lcan_reach_new(t, NULL, &ra);
    lcan_fault_sched_rows(t, NULL, ra, &s);
    check(&C, s.nrows == 0, "sched: no faults, no rows");
    lcan_fault_sched_free(&s);
    lcan_reach_free(ra);
    lcan_reach_free(rb);
    lcan_faults_free(&a);
    lcan_faults_free(&b);
    lcan_topo_free(t);
}

static void test_limits(void)
{
    lcan_topo *t = topo("lcan(2,2,65536)"), *c = topo("cm5");
    lcan_reach *r = NULL;
    check(&C, lcan_reach_bytes(t) > LCAN_REACH_MAX_BYTES && lcan_reach_new(t, NULL, &r) == LCAN_ERR_PARAM && r == NULL,
          "lcan(2,2,65536): reach tables refused (%llu bytes)", (unsigned long long)lcan_reach_bytes(t));
    check(&C, lcan_reach_bytes(c) < 1000000, "cm5: reach tables %llu bytes", (unsigned long long)lcan_reach_bytes(c));
    lcan_topo_free(t);
    lcan_topo_free(c);
}

/* ------------------------------------------------------------------ drivers on the model */

/* Does the model honour the fault pins? xgft(1;2;2): a packet from leaf 0 (port 0, switch 0) to
 * leaf 1 with switch 0's link to leaf 1 off has an empty want set: dropped, not delivered. */
static int model_has_faults(void)
{
    lcan_topo *t = topo("xgft(1;2;2)");
    lcan_cfg cfg;
    lcan_net *n;
    lcan_in in;
    lcan_out out;
    uint8_t iv[4] = {0}, ev[4], rdy[4], ack[4], lo[4] = {0, 1, 0, 0}, so[2] = {0, 0};
    uint64_t fl[4] = {0}, ef[4];
    uint32_t drop[1] = {0};
    int tk, got = 0;
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    lcan_net_new(t, &cfg, &n);
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in.inj_valid = iv;
    in.inj_flit = fl;
    in.ej_ack = ack;
    memset(ack, 0, sizeof ack);
    out.inj_ready = rdy;
    out.inj_ack = ack;
    out.ej_valid = ev;
    out.ej_flit = ef;
    out.cnt_drop = drop;
    in.rst = 1;
    lcan_net_tick(n, &in, &out);
    in.rst = 0;
    in.link_off = lo;
    in.sw_off = so;
    for (tk = 1; tk < 8; tk++) {
        iv[0] = tk == 1;
        fl[0] = tk == 1 ? lcan_flit(n, 0, 0, lcan_topo_pack(t, 1), 5) : 0;
        lcan_net_tick(n, &in, &out);
        got += ev[2] + ev[3];
    }
    lcan_net_free(n);
    lcan_topo_free(t);
    return got == 0 && drop[0] == 1;
}

static void test_route(const char *spec, const char *faults, int expect_cut)
{
    lcan_topo *t = topo(spec);
    lcan_cfg cfg;
    lcan_net *n;
    lcan_faults f;
    lcan_route_result r0, r1;
    uint32_t N = lcan_topo_leaves(t), *perm = malloc(N * sizeof *perm);
    uint64_t rng = 77;
    char err[256];
    lcan_status st;
    lcan_cfg_default(&cfg);
    lcan_net_new(t, &cfg, &n);
    lcan_pattern(t, "random", &rng, perm, err, sizeof err);
    lcan_faults_init(t, &f);
    memset(&r0, 0, sizeof r0);
    memset(&r1, 0, sizeof r1);
    /* an empty fault set routes exactly as no fault set */
    lcan_route_perm(t, 16, lcan_net_engine_tick, n, perm, 5, 1000, &r0);
    lcan_route_perm_faults(t, 16, lcan_net_engine_tick, n, perm, 5, 1000, &f, &r1);
    check(&C, r0.passes == r1.passes && r0.ticks == r1.ticks && r0.first_pass == r1.first_pass && r1.cut == 0,
          "%s: route with an empty fault set = without faults", spec);
    lcan_faults_parse(t, faults, 3, &f, err, sizeof err);
    memset(&r1, 0, sizeof r1);
    st = lcan_route_perm_faults(t, 16, lcan_net_engine_tick, n, perm, 5, 1000, &f, &r1);
    check(&C, st == LCAN_OK && r1.data_errors == 0 && (expect_cut < 0 ? r1.cut > 0 : r1.cut == (uint32_t)expect_cut),
          "%s --faults %s: circuit route status %d, %llu data errors, %u cut, %d passes", spec, faults, (int)st,
          (unsigned long long)r1.data_errors, r1.cut, r1.passes);
    lcan_faults_free(&f);
    lcan_net_free(n);
    free(perm);
    lcan_topo_free(t);
}

/* The model as the traffic engine, watching every tag injected after the rows are written. */
typedef struct {
    lcan_net *n;
    const lcan_topo *t;
    uint64_t tick, rows_done, late_injected, late_delivered;
    uint8_t *late; /* per tag: injected after the last row write, not yet seen */
    uint32_t *late_dest;
} watch;

static lcan_status watch_tick(void *e, const lcan_in *in, lcan_out *out)
{
    watch *w = e;
    uint32_t q, NP = lcan_topo_ports(w->t), U0 = (uint32_t)lcan_topo_leaf_ports(w->t);
    lcan_status st;
    for (q = 0; q < NP && !in->rst; q++)
        if (in->inj_valid[q] && w->tick > w->rows_done) {
            uint32_t tag = (uint32_t)(in->inj_flit[q] & 0xffffu);
            w->late[tag] = 1;
            w->late_dest[tag] = lcan_topo_unpack(w->t, lcan_flit_dest(w->n, in->inj_flit[q]));
            w->late_injected++;
        }
    st = lcan_net_tick(w->n, in, out);
    for (q = 0; q < NP; q++)
        if (out->ej_valid[q]) {
            uint32_t tag = (uint32_t)(out->ej_flit[q] & 0xffffu);
            if (w->late[tag] && w->late_dest[tag] == q / U0) {
                w->late[tag] = 0;
                w->late_delivered++;
            }
        }
    w->tick++;
    return st;
}

static void test_traffic(const char *spec, const char *faults, uint64_t fault_at)
{
    lcan_topo *t = topo(spec);
    lcan_traffic_pattern *p = NULL;
    lcan_traffic_opts o;
    lcan_traffic_result r;
    lcan_faults f;
    lcan_reach *rf;
    lcan_fault_sched s;
    lcan_cfg cfg;
    watch w;
    char err[256];
    lcan_status st;
    lcan_traffic_pattern_new(t, "uniform", NULL, &p, err, sizeof err);
    lcan_faults_init(t, &f);
    lcan_faults_parse(t, faults, 11, &f, err, sizeof err);
    lcan_reach_new(t, &f, &rf);
    lcan_fault_sched_rows(t, NULL, rf, &s);
    lcan_traffic_opts_default(&o);
    o.load = 0.3;
    o.warmup = 300;
    o.measure = 1000;
    o.faults = &f;
    o.fault_at = fault_at;
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.rows_done = (fault_at > 1 ? fault_at : 1) + s.nrows; /* first tick after the last write */
    w.late = calloc(65536, 1);
    w.late_dest = calloc(65536, sizeof *w.late_dest);
    lcan_net_new(t, &cfg, &w.n);
    st = lcan_traffic_run(t, p, &o, watch_tick, &w, &r);
    check(&C, st == LCAN_OK && r.injected == r.delivered + r.dropped && r.created == r.injected + r.discarded + r.unsent &&
                  r.duplicated == 0 && r.misrouted == 0 && r.lost == 0,
          "%s --faults %s --fault-at %llu: status %d, created %llu = injected %llu + discarded %llu, injected = "
          "delivered %llu + dropped %llu, duplicated %llu, misrouted %llu, lost %llu", spec, faults,
          (unsigned long long)fault_at, (int)st, (unsigned long long)r.created, (unsigned long long)r.injected,
          (unsigned long long)r.discarded, (unsigned long long)r.delivered, (unsigned long long)r.dropped,
          (unsigned long long)r.duplicated, (unsigned long long)r.misrouted, (unsigned long long)r.lost);
    check(&C, w.late_injected > 1000 && w.late_delivered == w.late_injected,
          "%s --faults %s --fault-at %llu: every packet injected after the row writes delivered (%llu of %llu)", spec,
          faults, (unsigned long long)fault_at, (unsigned long long)w.late_delivered,
          (unsigned long long)w.late_injected);
    if (lcan_reach_cut_pairs(rf) == 0)
        check(&C, r.cut == 0 && r.discarded == 0 && (fault_at > 1 || r.dropped == 0),
              "%s --faults %s: no pair cut, nothing dropped under static faults (cut %llu, dropped %llu)", spec, faults,
              (unsigned long long)r.cut, (unsigned long long)r.dropped);
    else
        check(&C, r.cut > 0, "%s --faults %s: unicasts to cut pairs not created (%llu)", spec, faults,
              (unsigned long long)r.cut);
    free(w.late);
    free(w.late_dest);
    lcan_net_free(w.n);
    lcan_fault_sched_free(&s);
    lcan_reach_free(rf);
    lcan_faults_free(&f);
    lcan_traffic_pattern_free(p);
    lcan_topo_free(t);
}

/* Every fault set of size 1..maxk (every stride-th one in enumeration order) on the drivers:
 * open-loop packet traffic delivers every packet with nothing dropped or cut, and a circuit route
 * of a random permutation completes with 0 data errors and no cut source (seed 002 Corollary 1 on
 * the running network, not only on the reach rows). */
static void test_exhaustive_drivers(const char *spec, int maxk, uint64_t stride)
{
    lcan_topo *t = topo(spec);
    uint64_t NL = lcan_topo_link_count(t), NE = NL + lcan_topo_switch_count(t), a, b, k = 0, sets = 0;
    uint64_t bad_traffic = 0, bad_route = 0, delivered = 0;
    uint32_t N = lcan_topo_leaves(t), *perm = malloc(N * sizeof *perm);
    lcan_traffic_pattern *p = NULL;
    lcan_faults f;
    lcan_cfg cp, cc;
    lcan_net *np = NULL, *nc = NULL;
    char err[256];
    lcan_cfg_default(&cp);
    cp.mode = LCAN_PACKET;
    lcan_cfg_default(&cc);
    lcan_net_new(t, &cp, &np);
    lcan_net_new(t, &cc, &nc);
    lcan_traffic_pattern_new(t, "uniform", NULL, &p, err, sizeof err);
    lcan_faults_init(t, &f);
    for (a = 0; a < NE; a++) {
        for (b = maxk >= 2 ? a + 1 : NE; b <= NE; b++, k++) {
            uint8_t *ea = a < NL ? &f.link_off[a] : &f.sw_off[a - NL];
            uint8_t *eb = b < NE ? (b < NL ? &f.link_off[b] : &f.sw_off[b - NL]) : NULL;
            lcan_traffic_opts o;
            lcan_traffic_result r;
            lcan_route_result rr;
            uint64_t rng = 1000 + k;
            lcan_status st;
            if (k % stride != 0)
                continue;
            *ea = 1;
            if (eb != NULL)
                *eb = 1;
            f.count = eb != NULL ? 2 : 1;
            lcan_traffic_opts_default(&o);
            o.load = 0.4;
            o.warmup = 40;
            o.measure = 160;
            o.seed = k;
            o.faults = &f;
            st = lcan_traffic_run(t, p, &o, lcan_net_engine_tick, np, &r);
            if (st != LCAN_OK || r.dropped != 0 || r.cut != 0 || r.lost != 0 || r.duplicated != 0 ||
                r.misrouted != 0 || r.delivered != r.injected || r.injected == 0) {
                if (bad_traffic++ < 3)
                    check(&C, 0, "%s: traffic under elements %llu, %llu: status %d, injected %llu, delivered %llu, "
                          "dropped %llu, cut %llu, lost %llu", spec, (unsigned long long)a, (unsigned long long)b,
                          (int)st, (unsigned long long)r.injected, (unsigned long long)r.delivered,
                          (unsigned long long)r.dropped, (unsigned long long)r.cut, (unsigned long long)r.lost);
            }
            delivered += r.delivered;
            lcan_pattern(t, "random", &rng, perm, err, sizeof err);
            memset(&rr, 0, sizeof rr);
            st = lcan_route_perm_faults(t, 16, lcan_net_engine_tick, nc, perm, (uint32_t)k, 1000, &f, &rr);
            if (st != LCAN_OK || rr.data_errors != 0 || rr.cut != 0) {
                if (bad_route++ < 3)
                    check(&C, 0, "%s: route under elements %llu, %llu: status %d, %llu data errors, %u cut", spec,
                          (unsigned long long)a, (unsigned long long)b, (int)st,
                          (unsigned long long)rr.data_errors, rr.cut);
            }
            *ea = 0;
            if (eb != NULL)
                *eb = 0;
            sets++;
        }
    }
    printf("test_faults: %s: %llu fault sets of size 1..%d, %llu packets delivered, %llu dropped-or-cut runs, %llu "
           "failed routes\n", spec, (unsigned long long)sets, maxk, (unsigned long long)delivered,
           (unsigned long long)bad_traffic, (unsigned long long)bad_route);
    check(&C, bad_traffic == 0 && bad_route == 0 && sets > 0,
          "%s: %llu fault sets of size 1..%d: traffic delivers all %llu packets, none dropped or cut; every route "
          "completes", spec, (unsigned long long)sets, maxk, (unsigned long long)delivered);
    lcan_faults_free(&f);
    lcan_traffic_pattern_free(p);
    lcan_net_free(np);
    lcan_net_free(nc);
    free(perm);
    lcan_topo_free(t);
}

/* seed 002 Theorem 3 on the running network: every fault set of size 1..w_1 - 1 (every stride-th),
 * a broadcast from a few roots on the w_1 trees reaches every leaf, tree and flooding kinds. */
static void test_bcast_exhaustive(const char *spec, uint64_t stride)
{
    lcan_topo *t = topo(spec);
    int w1 = lcan_topo_w(t, 1);
    uint64_t NL = lcan_topo_link_count(t), NE = NL + lcan_topo_switch_count(t), a, b, k = 0, runs = 0, bad = 0;
    uint32_t N = lcan_topo_leaves(t);
    lcan_faults f;
    lcan_faults_init(t, &f);
    for (a = 0; a < NE; a++) {
        for (b = w1 >= 3 ? a + 1 : NE; b <= NE; b++, k++) {
            uint8_t *ea = a < NL ? &f.link_off[a] : &f.sw_off[a - NL];
            uint8_t *eb = b < NE ? (b < NL ? &f.link_off[b] : &f.sw_off[b - NL]) : NULL;
            if (k % stride != 0)
                continue;
            *ea = 1;
            if (eb != NULL)
                *eb = 1;
            f.count = eb != NULL ? 2 : 1;
            for (int flood = 0; flood <= 1; flood++) {
                lcan_coll_opts o;
                lcan_coll_result r;
                lcan_status st;
                lcan_coll_opts_default(&o);
                o.faults = &f;
                o.flood = flood;
                o.root = (uint32_t)(k % N);
                st = lcan_collective_run_model(t, LCAN_COLL_BCAST, &o, &r);
                runs++;
                if (st != LCAN_OK || !r.correct || r.reached != N) {
                    if (bad++ < 3)
                        check(&C, 0, "%s bcast (%s) from %u under elements %llu, %llu: status %d, reached %u of %u",
                              spec, flood ? "flood" : "tree", o.root, (unsigned long long)a, (unsigned long long)b,
                              (int)st, r.reached, N);
                }
            }
            *ea = 0;
            if (eb != NULL)
                *eb = 0;
        }
    }
    printf("test_faults: %s: %llu broadcasts under fault sets of size 1..%d, %llu missed a leaf\n", spec,
           (unsigned long long)runs, w1 - 1, (unsigned long long)bad);
    check(&C, bad == 0 && runs > 0, "%s: every broadcast on the w_1 trees reaches every leaf under < w_1 faults "
          "(seed 002 Thm 3)", spec);
    lcan_faults_free(&f);
    lcan_topo_free(t);
}

static void test_bcast(const char *spec, const char *faults, int flood, int expect_unreached)
{
    lcan_topo *t = topo(spec);
    lcan_coll_opts o;
    lcan_coll_result r;
    lcan_faults f;
    char err[256];
    lcan_status st;
    lcan_faults_init(t, &f);
    lcan_faults_parse(t, faults, 1, &f, err, sizeof err);
    lcan_coll_opts_default(&o);
    o.faults = &f;
    o.flood = flood;
    o.root = 3;
    st = lcan_collective_run_model(t, LCAN_COLL_BCAST, &o, &r);
    check(&C, st == LCAN_OK && r.correct && r.unreached == (uint32_t)expect_unreached &&
                  r.reached + r.unreached == lcan_topo_leaves(t),
          "%s bcast (%s) --faults %s: status %d (%s), correct %d, reached %u, unreached %u (expected %d), cut %u, "
          "trees %d", spec, flood ? "flood" : "tree", faults, (int)st, r.err, r.correct, r.reached, r.unreached,
          expect_unreached, r.cut, r.trees_used);
    o.faults = &f;
    st = lcan_collective_run_model(t, LCAN_COLL_SCATTER, &o, &r);
    check(&C, st == LCAN_ERR_PATTERN && strstr(r.err, "faults") != NULL, "scatter under faults refused (%s)", r.err);
    lcan_faults_free(&f);
    lcan_topo_free(t);
}

int main(void)
{
    test_numbering("gft(3,2,2)");
    test_numbering("cm5");
    test_numbering("pgft(3;2,3,2;2,1,3;2,3,1)");
    test_numbering("xgft(2;4,4;3,3)");
    test_parse();
    test_limits();
    test_brute("gft(2,2,2)", 40, 4, 1);
    test_brute("gft(3,2,2)", 60, 6, 2);
    test_brute("xgft(2;4,4;3,3)", 40, 6, 3);
    test_brute("pgft(2;4,4;2,2;2,2)", 40, 8, 4);
    test_brute("pgft(3;2,3,2;2,1,3;2,3,1)", 40, 8, 5);
    test_brute("xgft(3;3,2,2;1,2,2)", 20, 4, 6); /* w_1 = 1: every level-1 fault cuts */
    test_brute("cm5", 3, 3, 7);
    test_cuts("gft(3,2,2)");
    test_cuts("xgft(2;4,4;3,3)");
    test_cuts("pgft(2;4,4;2,2;2,2)");
    test_exhaustive("gft(2,2,2)");
    test_exhaustive("gft(3,2,2)");
    test_exhaustive("xgft(2;4,4;3,3)");
    test_exhaustive("pgft(2;4,4;2,2;2,2)");
    test_exhaustive("pgft(2;4,4;3,2;2,1)");
    test_exhaustive("cm5");
    test_random_nocut("cm5", 200);
    test_random_nocut("gft(3,2,2)", 200);
    test_random_nocut("xgft(2;4,4;3,3)", 200);
    test_sched();
    check(&C, model_has_faults(), "the model honours the fault pins (an off upper drops the packet, counted)");
    {
        test_route("gft(3,2,2)", "L2:1", 0);
        test_route("xgft(2;4,4;3,3)", "L1:0,L2:4/1", 0);
        test_route("pgft(2;4,4;2,2;2,2)", "L1:1/3", 0);
        test_route("gft(3,2,2)", "L1:0/1,L1:1/1", -1); /* leaf 1 without links */
        test_traffic("gft(3,2,2)", "L2:1", 1);
        test_traffic("xgft(2;4,4;3,3)", "L1:0,L2:4/1", 1);
        test_traffic("cm5", "L3:5", 1);
        test_traffic("gft(3,2,2)", "L2:1,L3:2/0", 200);   /* w_1 faults mid-run */
        test_traffic("xgft(2;4,4;3,3)", "L2:0,L2:4,L1:7/2", 400);
        test_traffic("gft(3,2,2)", "L1:0/1,L1:1/1", 350); /* leaf 1 cut off mid-run */
        test_exhaustive_drivers("gft(2,2,2)", 1, 1);
        test_exhaustive_drivers("gft(3,2,2)", 1, 1);
        test_exhaustive_drivers("pgft(2;4,4;2,2;2,2)", 1, 1);
        test_exhaustive_drivers("xgft(2;4,4;3,3)", 2, 1);
        test_bcast_exhaustive("gft(3,2,2)", 1);
        test_bcast_exhaustive("pgft(2;4,4;2,2;2,2)", 1);
        test_bcast_exhaustive("xgft(2;4,4;3,3)", 3);
        test_bcast("gft(3,2,2)", "L1:1", 1, 0);
        test_bcast("gft(3,2,2)", "L1:1", 0, 0);
        test_bcast("xgft(2;4,4;3,3)", "L2:0,L1:3/3", 1, 0);
        test_bcast("cm5", "L4:0", 0, 0);
        test_bcast("gft(3,2,2)", "L1:0/0,L1:1/0", 1, 1); /* leaf 0 without links: the only leaf missed */
    }
    return check_done(&C);
}
