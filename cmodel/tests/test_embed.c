/*
 * test_embed.c - embeddings (lcan_embed.h, seed 002 section 6, docs/embeddings.md).
 *
 * Independent of the code under test:
 *   - the guest graphs: edge counts from closed forms, and every edge checked against the graph's
 *     definition (coordinates, bits, parents) computed here;
 *   - the metrics: load, dilation and expansion recomputed from the map with this file's own leaf
 *     digits; congestion recomputed by a brute-force re-implementation of the documented path rule
 *     (every up-down path listed explicitly as a set of link keys, best chosen by (max load, sum of
 *     loads, first choice vector)), on GFT hosts (p = 1);
 *   - the paper's values (seed 002): ring congestion 1 (Thm 4, m even, w >= 2) and 2 (m odd), CBT(h)
 *     in GFT(h+1,2,2) at most 3 (Thm 5), 2-D meshes at most 3 (Thm 6), k-D meshes at most 2k-1
 *     (Thm 7), Q(h) in GFT(h,2,2) exactly ceil(h/2) (Thm 8; also the level-1 degree bound, so
 *     optimal), three PR(h) in GFT(h+1,4,4) at most 5 (Thm 9), dilation 2h, Theorem 10's 2b/(m w^h);
 *   - a lower bound every embedding obeys: congestion >= ceil(leaf degree / w_1);
 *   - the exchange: 2 packets per edge, all delivered once, steps >= dilation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan.h"
#include "lcan_embed.h"

/* ------------------------------------------------------------------ the test's own host model */

typedef struct {
    int h, m, w;
    uint32_t N;
} gft;

static void digits(const gft *H, uint32_t s, int *d) /* d[1..h], d[1] least significant */
{
    int l;
    for (l = 1; l <= H->h; l++) {
        d[l] = (int)(s % (uint32_t)H->m);
        s /= (uint32_t)H->m;
    }
}

static int lca(const gft *H, uint32_t a, uint32_t b)
{
    int da[20], db[20], l;
    digits(H, a, da);
    digits(H, b, db);
    for (l = H->h; l >= 1; l--)
        if (da[l] != db[l])
            return l;
    return 0;
}

/* A link key: level l, the lower end's digits above l-1 (a_h..a_l, the child digit is a_l), the
 * up choices y_1..y_l. Encoded into one 64-bit number through a different mixed radix than the
 * library's (digits first, choices after, the level in the top byte) and stored in a simple
 * open-addressing table. */
typedef struct {
    uint64_t *key;
    uint32_t *val;
    size_t cap;
} table;

static uint32_t *slot(table *T, uint64_t k)
{
    size_t i = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) % T->cap;
    while (T->key[i] != 0 && T->key[i] != k + 1)
        i = (i + 1) % T->cap;
    if (T->key[i] == 0) {
        T->key[i] = k + 1;
        T->val[i] = 0;
    }
    return &T->val[i];
}

static uint64_t link_key(const gft *H, int l, const int *d, const int *y)
{
    uint64_t k = 0;
    int j;
    for (j = H->h; j >= l; j--)
        k = k * (uint64_t)H->m + (uint64_t)d[j];
    for (j = 1; j <= l; j++)
        k = k * (uint64_t)H->w + (uint64_t)y[j];
    return k | (uint64_t)l << 56; /* the level in the top bits: the other fields vary in length */
}

/* Route every edge by the documented rule, brute force; returns the congestion. */
static uint32_t brute_congestion(const gft *H, const lcan_guest *g, const uint32_t *map, int *y1)
{
    uint32_t E = lcan_guest_edges(g), e, best_max = 0, cong = 0;
    table T;
    int L, lev;
    T.cap = 4 * (size_t)E * (size_t)(2 * H->h) + 64;
    T.key = calloc(T.cap, sizeof *T.key);
    T.val = calloc(T.cap, sizeof *T.val);
    for (lev = 1; lev <= H->h; lev++)
        for (e = 0; e < E; e++) {
            uint32_t u, v, a, b, npaths = 1, c, best_c = 0;
            uint64_t best_sum = 0;
            int da[20], db[20], y[20], j, have = 0;
            lcan_guest_edge(g, e, &u, &v);
            a = map[u];
            b = map[v];
            L = a == b ? 0 : lca(H, a, b);
            if (L != lev)
                continue;
            digits(H, a, da);
            digits(H, b, db);
            for (j = 0; j < L; j++)
                npaths *= (uint32_t)H->w;
            /* choice vector c: y_1 most significant (the enumeration order of the rule) */
            for (c = 0; c < npaths; c++) {
                uint32_t mx = 0, x = c;
                uint64_t sum = 0;
                for (j = L; j >= 1; j--) {
                    y[j] = (int)(x % (uint32_t)H->w);
                    x /= (uint32_t)H->w;
                }
                for (j = 1; j <= L; j++) {
                    uint32_t up = *slot(&T, link_key(H, j, da, y)), dn = *slot(&T, link_key(H, j, db, y));
                    mx = up > mx ? up : mx;
                    mx = dn > mx ? dn : mx;
                    sum += up + dn;
                }
                if (!have || mx < best_max || (mx == best_max && sum < best_sum)) {
                    have = 1;
                    best_max = mx;
                    best_sum = sum;
                    best_c = c;
                }
            }
            for (j = L; j >= 1; j--) {
                y[j] = (int)(best_c % (uint32_t)H->w);
                best_c /= (uint32_t)H->w;
            }
            y1[e] = y[1];
            for (j = 1; j <= L; j++) {
                uint32_t *p = slot(&T, link_key(H, j, da, y)), *q = slot(&T, link_key(H, j, db, y));
                ++*p;
                ++*q;
                cong = *p > cong ? *p : cong;
                cong = *q > cong ? *q : cong;
            }
        }
    free(T.key);
    free(T.val);
    return cong;
}

/* ------------------------------------------------------------------ guest graph checks */

static uint64_t closed_form_edges(const char *kind, const uint32_t *a, int k)
{
    uint64_t n = 1, e = 0;
    int d, l;
    if (strcmp(kind, "ring") == 0)
        return a[0];
    if (strcmp(kind, "hypercube") == 0)
        return (uint64_t)a[0] << (a[0] - 1);
    if (strcmp(kind, "cbt") == 0)
        return ((uint64_t)2 << a[0]) - 2;
    if (strcmp(kind, "pyramid") == 0) { /* a[0] = h, a[1] = copies: tree edges + mesh edges */
        for (l = 0; l <= (int)a[0]; l++) {
            uint64_t s = (uint64_t)1 << l;
            e += 2 * s * (s - 1) + (l > 0 ? s * s : 0);
        }
        return e * a[1];
    }
    for (d = 0; d < k; d++)
        n *= a[d];
    for (d = 0; d < k; d++)
        e += n / a[d] * (a[d] - 1) + (strcmp(kind, "torus") == 0 && a[d] >= 3 ? n / a[d] : 0);
    return e;
}

/* Is {u, v} an edge of the guest by its definition? */
static int is_edge(const char *kind, const uint32_t *a, int k, uint32_t u, uint32_t v)
{
    if (strcmp(kind, "ring") == 0)
        return (u + 1) % a[0] == v || (v + 1) % a[0] == u;
    if (strcmp(kind, "hypercube") == 0) {
        uint32_t x = u ^ v;
        return x != 0 && (x & (x - 1)) == 0;
    }
    if (strcmp(kind, "cbt") == 0)
        return (v > 0 && (v - 1) / 2 == u) || (u > 0 && (u - 1) / 2 == v);
    if (strcmp(kind, "mesh") == 0 || strcmp(kind, "torus") == 0) {
        int d, diff = 0, ok = 1;
        for (d = 0; d < k; d++) {
            uint32_t x = u % a[d], z = v % a[d];
            u /= a[d];
            v /= a[d];
            if (x != z) {
                uint32_t dd = x > z ? x - z : z - x;
                diff++;
                ok = ok && (dd == 1 || (strcmp(kind, "torus") == 0 && a[d] >= 3 && dd == a[d] - 1));
            }
        }
        return diff == 1 && ok;
    }
    return 0;
}

/* pyramid node -> (copy, level, row, col) */
static void pyr_coord(uint32_t h, uint32_t v, uint32_t *c, uint32_t *l, uint32_t *r, uint32_t *q)
{
    uint32_t P = 0, j, s;
    for (j = 0; j <= h; j++)
        P += 1u << (2 * j);
    *c = v / P;
    v %= P;
    for (j = 0; v >= (1u << (2 * j)); j++)
        v -= 1u << (2 * j);
    s = 1u << j;
    *l = j;
    *r = v / s;
    *q = v % s;
}

static int is_pyr_edge(uint32_t h, uint32_t u, uint32_t v)
{
    uint32_t c1, l1, r1, q1, c2, l2, r2, q2;
    pyr_coord(h, u, &c1, &l1, &r1, &q1);
    pyr_coord(h, v, &c2, &l2, &r2, &q2);
    if (c1 != c2)
        return 0;
    if (l1 == l2)
        return (r1 == r2 && (q1 + 1 == q2 || q2 + 1 == q1)) || (q1 == q2 && (r1 + 1 == r2 || r2 + 1 == r1));
    if (l2 == l1 + 1)
        return r2 / 2 == r1 && q2 / 2 == q1;
    if (l1 == l2 + 1)
        return r1 / 2 == r2 && q1 / 2 == q2;
    return 0;
}

static void check_guest(check_ctx *C, const char *text, const char *kind, const uint32_t *a, int k, uint32_t nodes)
{
    char err[256];
    lcan_guest *g;
    uint32_t e, u, v, bad = 0, dup = 0;
    uint64_t want = closed_form_edges(kind, a, k);
    char *seen;
    if (lcan_guest_parse(text, &g, err, sizeof err) != LCAN_OK) {
        check(C, 0, "%s: %s", text, err);
        return;
    }
    check(C, lcan_guest_nodes(g) == nodes, "%s: %u nodes, expected %u", text, lcan_guest_nodes(g), nodes);
    check(C, lcan_guest_edges(g) == want, "%s: %u edges, expected %llu", text, lcan_guest_edges(g),
          (unsigned long long)want);
    seen = calloc((size_t)nodes * nodes, 1);
    for (e = 0; e < lcan_guest_edges(g); e++) {
        lcan_guest_edge(g, e, &u, &v);
        if (u >= nodes || v >= nodes ||
            !(strcmp(kind, "pyramid") == 0 ? is_pyr_edge(a[0], u, v) : is_edge(kind, a, k, u, v))) {
            bad++;
            continue;
        }
        if (seen[(size_t)u * nodes + v] || seen[(size_t)v * nodes + u])
            dup++;
        seen[(size_t)u * nodes + v] = 1;
    }
    check(C, bad == 0 && dup == 0, "%s: %u edges not of the graph, %u duplicates", text, bad, dup);
    free(seen);
    lcan_guest_free(g);
}

/* ------------------------------------------------------------------ one embedding */

typedef struct {
    const char *host, *guest;
    int h, m, w;
    int64_t cong_max;   /* the paper's value (upper bound), -1: none */
    int cong_exact;     /* 1: congestion must equal cong_max */
    double lower_bound; /* Theorem 10 with b from the closed form, -1: none */
} embed_case;

static void check_embedding(check_ctx *C, const embed_case *k)
{
    char err[256];
    lcan_topo *t;
    lcan_guest *g;
    lcan_embed_result r;
    lcan_embed_exchange_result x;
    const char *ref;
    gft H;
    uint32_t *map, *cnt, v, e, load = 0, n, maxdeg = 0, *deg, bc, lb_deg, badport = 0;
    uint16_t *port;
    int dil = 0, j, *y1;
    double expansion;

    if (lcan_topo_parse(k->host, &t, err, sizeof err) != LCAN_OK || lcan_guest_parse(k->guest, &g, err, sizeof err) != LCAN_OK) {
        check(C, 0, "%s / %s: %s", k->host, k->guest, err);
        return;
    }
    H.h = k->h;
    H.m = k->m;
    H.w = k->w;
    H.N = 1;
    for (j = 0; j < H.h; j++)
        H.N *= (uint32_t)H.m;
    n = lcan_guest_nodes(g);
    map = malloc(n * sizeof *map);
    cnt = calloc(H.N, sizeof *cnt);
    deg = calloc(H.N, sizeof *deg);
    port = calloc(2 * (size_t)lcan_guest_edges(g) + 2, sizeof *port);
    y1 = calloc((size_t)lcan_guest_edges(g) + 1, sizeof *y1);
    check(C, lcan_embed_default_map(t, g, map, &ref, err, sizeof err) == LCAN_OK, "%s in %s: map: %s", k->guest,
          k->host, err);
    for (v = 0; v < n; v++) {
        check(C, map[v] < H.N, "%s in %s: node %u on leaf %u", k->guest, k->host, v, map[v]);
        if (map[v] < H.N && ++cnt[map[v]] > load)
            load = cnt[map[v]];
    }
    for (e = 0; e < lcan_guest_edges(g); e++) {
        uint32_t a, b;
        lcan_guest_edge(g, e, &a, &b);
        a = map[a];
        b = map[b];
        if (2 * lca(&H, a, b) > dil)
            dil = 2 * lca(&H, a, b);
        if (a != b) {
            maxdeg = ++deg[a] > maxdeg ? deg[a] : maxdeg;
            maxdeg = ++deg[b] > maxdeg ? deg[b] : maxdeg;
        }
    }
    expansion = (double)H.N / (double)n;
    check(C, lcan_embed_route(t, g, map, &r, port, err, sizeof err) == LCAN_OK, "%s in %s: route: %s", k->guest, k->host,
          err);
    check(C, r.load == load && load == 1, "%s in %s: load %u, recomputed %u (paper: 1)", k->guest, k->host, r.load, load);
    check(C, r.dilation == dil && dil <= 2 * H.h, "%s in %s: dilation %d, recomputed %d, paper 2h = %d", k->guest,
          k->host, r.dilation, dil, 2 * H.h);
    check(C, r.expansion == expansion, "%s in %s: expansion %g, recomputed %g", k->guest, k->host, r.expansion,
          expansion);
    bc = brute_congestion(&H, g, map, y1);
    check(C, r.congestion == bc, "%s in %s: congestion %u, brute force %u", k->guest, k->host, r.congestion, bc);
    for (e = 0; e < lcan_guest_edges(g); e++) /* p = 1: both directions leave on port y_1 */
        badport += port[2 * e] != (uint16_t)y1[e] || port[2 * e + 1] != (uint16_t)y1[e];
    check(C, badport == 0, "%s in %s: %u edges whose first-hop ports differ from the brute force's", k->guest,
          k->host, badport);
    lb_deg = (maxdeg + (uint32_t)H.w - 1) / (uint32_t)H.w;
    check(C, r.congestion >= lb_deg, "%s in %s: congestion %u below the degree bound %u", k->guest, k->host,
          r.congestion, lb_deg);
    if (k->cong_max >= 0) {
        if (k->cong_exact)
            check(C, r.congestion == (uint32_t)k->cong_max, "%s in %s: congestion %u, paper %lld", k->guest, k->host,
                  r.congestion, (long long)k->cong_max);
        else
            check(C, r.congestion <= (uint32_t)k->cong_max, "%s in %s: congestion %u above the paper's %lld", k->guest,
                  k->host, r.congestion, (long long)k->cong_max);
        check(C, r.paper.congestion == k->cong_max && r.paper.dilation == 2 * H.h && r.paper.load == 1,
              "%s in %s: paper_bound congestion %lld dilation %lld, expected %lld and %d", k->guest, k->host,
              (long long)r.paper.congestion, (long long)r.paper.dilation, (long long)k->cong_max, 2 * H.h);
    }
    if (k->lower_bound >= 0)
        check(C, r.lower_bound > k->lower_bound - 1e-12 && r.lower_bound < k->lower_bound + 1e-12,
              "%s in %s: Thm 10 bound %g, expected %g", k->guest, k->host, r.lower_bound, k->lower_bound);
    /* the exchange */
    check(C, lcan_embed_exchange(t, g, map, port, 1, 0, &x) == LCAN_OK, "%s in %s: exchange did not finish", k->guest, k->host);
    check(C, x.packets == 2ull * lcan_guest_edges(g) && x.errors == 0, "%s in %s: exchange %llu packets, %llu errors",
          k->guest, k->host, (unsigned long long)x.packets, (unsigned long long)x.errors);
    check(C, x.steps >= (uint64_t)dil, "%s in %s: exchange %llu steps below the dilation %d", k->guest, k->host,
          (unsigned long long)x.steps, dil);
    check(C, lcan_embed_exchange(t, g, map, NULL, 7, 0, &x) == LCAN_OK && x.errors == 0 && x.steps >= (uint64_t)dil &&
              x.packets == 2ull * lcan_guest_edges(g),
          "%s in %s: exchange on any port: %llu errors, %llu steps", k->guest, k->host, (unsigned long long)x.errors,
          (unsigned long long)x.steps);
    free(map);
    free(cnt);
    free(deg);
    free(port);
    free(y1);
    lcan_guest_free(g);
    lcan_topo_free(t);
}

/* A model engine behind a tick that records how the driver uses it. */
typedef struct {
    lcan_net *net;
    uint64_t ticks;
    int first_rst, later_rst;
    uint32_t first_seed;
} counting_engine;

static lcan_status counting_tick(void *engine, const lcan_in *in, lcan_out *out)
{
    counting_engine *ce = engine;
    if (ce->ticks == 0) {
        ce->first_rst = in->rst;
        ce->first_seed = in->seed;
    } else if (in->rst) {
        ce->later_rst = 1;
    }
    ce->ticks++;
    return lcan_net_tick(ce->net, in, out);
}

int main(void)
{
    check_ctx C = {"test_embed", 0, 0};
    static const uint32_t r16[] = {16}, r9[] = {9}, m44[] = {4, 4}, m234[] = {2, 3, 4}, t45[] = {4, 5}, t28[] = {2, 8},
                          q5[] = {5}, c4[] = {4}, p2[] = {2, 3}, p1[] = {1, 1};
    /* the guests against their definitions */
    check_guest(&C, "ring:16", "ring", r16, 1, 16);
    check_guest(&C, " Ring : 9 ", "ring", r9, 1, 9);
    check_guest(&C, "mesh:4x4", "mesh", m44, 2, 16);
    check_guest(&C, "mesh:2x3x4", "mesh", m234, 3, 24);
    check_guest(&C, "torus:4x5", "torus", t45, 2, 20);
    check_guest(&C, "torus:2x8", "torus", t28, 2, 16);
    check_guest(&C, "hypercube:5", "hypercube", q5, 1, 32);
    check_guest(&C, "cbt:4", "cbt", c4, 1, 31);
    check_guest(&C, "pyramid:2:3", "pyramid", p2, 1, 63);
    check_guest(&C, "pyramid:1", "pyramid", p1, 1, 5);

    /* the paper's embeddings: host, guest, h m w, paper congestion (exact?), Thm 10 2b/(m w^h) */
    {
        static const embed_case cases[] = {
            {"gft(1,4,2)", "ring:4", 1, 4, 2, 1, 1, 2.0 * 2 / (4 * 2)},
            {"gft(2,4,2)", "ring:16", 2, 4, 2, 1, 1, 2.0 * 2 / (4 * 4)},
            {"gft(3,4,2)", "ring:64", 3, 4, 2, 1, 1, 2.0 * 2 / (4 * 8)},
            {"gft(2,6,3)", "ring:36", 2, 6, 3, 1, 1, 2.0 * 2 / (6 * 9)},
            {"gft(2,3,2)", "ring:9", 2, 3, 2, 2, 0, -1},
            {"gft(2,4,2)", "mesh:16", 2, 4, 2, 1, 1, 2.0 * 1 / (4 * 4)},
            {"gft(3,2,2)", "ring:8", 3, 2, 2, 1, 1, -1},
            {"gft(2,4,1)", "ring:16", 2, 4, 1, 2, 0, -1},
            {"gft(2,2,2)", "cbt:1", 2, 2, 2, 3, 0, -1},
            {"gft(3,2,2)", "cbt:2", 3, 2, 2, 3, 0, -1},
            {"gft(4,2,2)", "cbt:3", 4, 2, 2, 3, 0, -1},
            {"gft(6,2,2)", "cbt:5", 6, 2, 2, 3, 0, 2.0 * 1 / (2 * 64)},
            {"gft(2,4,4)", "mesh:4x4", 2, 4, 4, 3, 0, 2.0 * 4 / (4 * 16)},
            {"gft(3,4,4)", "mesh:4x16", 3, 4, 4, 3, 0, 2.0 * 4 / (4 * 64)},
            {"gft(3,4,4)", "mesh:16x4", 3, 4, 4, 3, 0, -1},
            {"gft(4,2,2)", "mesh:4x4", 4, 2, 2, -1, 0, -1},
            {"gft(3,2,2)", "mesh:2x4", 3, 2, 2, -1, 0, -1},
            {"gft(4,2,2)", "mesh:4x4", 4, 2, 2, -1, 0, -1},
            {"gft(4,2,2)", "mesh:2x2x2x2", 4, 2, 2, -1, 0, -1},
            {"gft(3,4,4)", "mesh:4x4x4", 3, 4, 4, 5, 0, 2.0 * 16 / (4 * 64)},
            {"gft(2,4,4)", "torus:4x4", 2, 4, 4, 3, 0, 2.0 * 8 / (4 * 16)},
            {"gft(3,4,4)", "torus:4x4x4", 3, 4, 4, 5, 0, -1},
            {"gft(1,2,2)", "hypercube:1", 1, 2, 2, 1, 1, 2.0 * 1 / (2 * 2)},
            {"gft(2,2,2)", "hypercube:2", 2, 2, 2, 1, 1, -1},
            {"gft(3,2,2)", "hypercube:3", 3, 2, 2, 2, 1, -1},
            {"gft(4,2,2)", "hypercube:4", 4, 2, 2, 2, 1, 2.0 * 8 / (2 * 16)},
            {"gft(5,2,2)", "hypercube:5", 5, 2, 2, 3, 1, -1},
            {"gft(6,2,2)", "hypercube:6", 6, 2, 2, 3, 1, -1},
            {"gft(7,2,2)", "hypercube:7", 7, 2, 2, 4, 1, -1},
            {"gft(8,2,2)", "hypercube:8", 8, 2, 2, 4, 1, 2.0 * 128 / (2 * 256)},
            {"gft(4,4,2)", "hypercube:8", 4, 4, 2, -1, 0, 2.0 * 128 / (4 * 16)},
            {"gft(2,4,4)", "pyramid:1:3", 2, 4, 4, 5, 0, -1},
            {"gft(3,4,4)", "pyramid:2:3", 3, 4, 4, 5, 0, -1},
            {"gft(3,4,4)", "pyramid:2", 3, 4, 4, -1, 0, -1},
        };
        size_t i;
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
            check_embedding(&C, &cases[i]);
    }
    /* Corollary 2's bound: Q(2h) in GFT(h,4,w) needs congestion >= (4/w)^h / ... : Q(8) in GFT(4,4,2)
     * has b = 128, so Theorem 10 gives 2 * 128 / (4 * 2^4) = 4 (checked above); the measured one obeys it */
    {
        char err[256];
        lcan_topo *t;
        lcan_guest *g;
        lcan_embed_result r;
        uint32_t map[256];
        const char *ref;
        lcan_topo_parse("gft(4,4,2)", &t, err, sizeof err);
        lcan_guest_parse("hypercube:8", &g, err, sizeof err);
        lcan_embed_default_map(t, g, map, &ref, err, sizeof err);
        lcan_embed_route(t, g, map, &r, NULL, err, sizeof err);
        check(&C, r.congestion >= 4, "Q(8) in GFT(4,4,2): congestion %u below Theorem 10's 4", r.congestion);
        lcan_guest_free(g);
        lcan_topo_free(t);
    }
    /* hosts outside the theorems (XGFT, PGFT with parallel links): valid ports, the level-1 degree
     * bound (a leaf's edges share its U_0 = w_1 p_1 links), every exchange packet delivered once */
    {
        static const char *const hosts[] = {"pgft(2;4,4;1,2;1,2)", "pgft(2;4,4;2,2;2,1)", "cm5", "kary(4,3)"};
        static const char *const guests[] = {"ring:16", "mesh:4x4", "ring:256", "torus:4x4x4"};
        size_t i;
        for (i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
            char err[256];
            lcan_topo *t;
            lcan_guest *g;
            lcan_embed_result r;
            lcan_embed_exchange_result x;
            uint32_t map[256], deg[256] = {0}, maxdeg = 0, e, u, v, U0, bad = 0;
            uint16_t port[2 * 1024];
            const char *ref;
            lcan_topo_parse(hosts[i], &t, err, sizeof err);
            lcan_guest_parse(guests[i], &g, err, sizeof err);
            U0 = (uint32_t)lcan_topo_leaf_ports(t);
            lcan_embed_default_map(t, g, map, &ref, err, sizeof err);
            check(&C, lcan_embed_route(t, g, map, &r, port, err, sizeof err) == LCAN_OK, "%s: %s", hosts[i], err);
            for (e = 0; e < lcan_guest_edges(g); e++) {
                lcan_guest_edge(g, e, &u, &v);
                maxdeg = ++deg[map[u]] > maxdeg ? deg[map[u]] : maxdeg;
                maxdeg = ++deg[map[v]] > maxdeg ? deg[map[v]] : maxdeg;
                bad += port[2 * e] >= U0 || port[2 * e + 1] >= U0;
            }
            check(&C, bad == 0 && r.load == 1 && r.congestion >= (maxdeg + U0 - 1) / U0 &&
                          r.dilation <= 2 * lcan_topo_levels(t) && r.paper.congestion < 0,
                  "%s %s: ports %u bad, load %u, congestion %u (degree bound %u), dilation %d", hosts[i], guests[i],
                  bad, r.load, r.congestion, (maxdeg + U0 - 1) / U0, r.dilation);
            check(&C, lcan_embed_exchange(t, g, map, port, 3, 0, &x) == LCAN_OK && x.errors == 0 &&
                          x.packets == 2ull * lcan_guest_edges(g) && x.steps >= (uint64_t)r.dilation,
                  "%s %s: exchange %llu errors", hosts[i], guests[i], (unsigned long long)x.errors);
            lcan_guest_free(g);
            lcan_topo_free(t);
        }
    }
    /* the exchange as an engine-agnostic driver (what tb/harness/tb_drive.c runs on the RTL): on a
     * model behind a counting tick it gives lcan_embed_exchange's result with any payload width
     * that holds the message numbers (32 packets of ring:16: 5 bits, not 4); the reset comes first */
    {
        char err[256];
        lcan_topo *t;
        lcan_guest *g;
        lcan_embed_result r;
        lcan_embed_exchange_result a, b;
        uint32_t map[16];
        uint16_t port[2 * 17];
        const char *ref;
        int pw = 0, depth = 0, K;
        counting_engine ce;
        lcan_cfg cfg;
        lcan_topo_parse("gft(2,4,2)", &t, err, sizeof err);
        lcan_guest_parse("ring:16", &g, err, sizeof err);
        lcan_embed_default_map(t, g, map, &ref, err, sizeof err);
        lcan_embed_route(t, g, map, &r, port, err, sizeof err);
        lcan_embed_exchange_cfg(g, map, &pw, &depth);
        check(&C, pw == 16 && depth == 4, "ring:16: engine cfg PAYLOAD_W %d DEPTH %d, expected 16 and 4", pw, depth);
        check(&C, lcan_embed_exchange(t, g, map, port, 9, 0, &a) == LCAN_OK && a.packets == 32 && a.errors == 0,
              "ring:16: exchange on the model");
        lcan_cfg_default(&cfg);
        cfg.mode = LCAN_PACKET;
        cfg.payload_w = 5;
        memset(&ce, 0, sizeof ce);
        check(&C, lcan_net_new(t, &cfg, &ce.net) == LCAN_OK, "ring:16: model with PAYLOAD_W 5");
        check(&C, lcan_embed_exchange_run(t, g, map, port, 5, 9, 0, counting_tick, &ce, &b) == LCAN_OK &&
                      b.steps == a.steps && b.packets == a.packets && b.errors == 0 && b.backlog == a.backlog,
              "ring:16 with PAYLOAD_W 5: %llu steps, %llu errors (PAYLOAD_W 16: %llu steps)",
              (unsigned long long)b.steps, (unsigned long long)b.errors, (unsigned long long)a.steps);
        check(&C, ce.first_rst == 1 && ce.first_seed == 9 && ce.later_rst == 0 && ce.ticks > b.steps,
              "driver protocol: first tick rst %d seed %u, later rst %d, %llu ticks for %llu steps", ce.first_rst,
              (unsigned)ce.first_seed, ce.later_rst, (unsigned long long)ce.ticks, (unsigned long long)b.steps);
        check(&C, lcan_embed_exchange_run(t, g, map, port, 4, 9, 0, counting_tick, &ce, &b) == LCAN_ERR_ARG,
              "ring:16: 32 message numbers in 4 payload bits accepted");
        lcan_net_free(ce.net);
        lcan_guest_free(g);
        lcan_topo_free(t);
        /* PAYLOAD_W 32 above 65535 packets: Q(K) has K 2^(K-1) edges, 2 packets each: 49152 for
         * K = 12, 106496 for K = 13 (node v on leaf v of GFT(K,2,2)) */
        for (K = 12; K <= 13; K++) {
            char spec[32], gs[32];
            uint32_t *mp, v;
            int w = 0;
            snprintf(spec, sizeof spec, "gft(%d,2,2)", K);
            snprintf(gs, sizeof gs, "hypercube:%d", K);
            lcan_topo_parse(spec, &t, err, sizeof err);
            lcan_guest_parse(gs, &g, err, sizeof err);
            mp = malloc(((size_t)1 << K) * sizeof *mp);
            for (v = 0; v < (1u << K); v++)
                mp[v] = v;
            lcan_embed_exchange_cfg(g, mp, &w, NULL);
            check(&C, w == (K == 12 ? 16 : 32), "%s: PAYLOAD_W %d for %u packets", gs, w,
                  2u * (uint32_t)K << (K - 1));
            free(mp);
            lcan_guest_free(g);
            lcan_topo_free(t);
        }
    }
    /* user maps: the text format and its errors */
    {
        char err[256];
        lcan_topo *t;
        lcan_guest *g;
        lcan_embed_result r;
        uint32_t map[4] = {0, 0, 0, 0};
        lcan_topo_parse("gft(1,4,2)", &t, err, sizeof err);
        lcan_guest_parse("ring:4", &g, err, sizeof err);
        check(&C, lcan_embed_parse_map("# a ring\n0 3\n1 2 # comment\n\n2 1\n3 0\n", t, g, map, err, sizeof err) == LCAN_OK &&
                  map[0] == 3 && map[1] == 2 && map[2] == 1 && map[3] == 0,
              "map file: %s", err);
        check(&C, lcan_embed_parse_map("0 3\n1 2\n2 1\n", t, g, map, err, sizeof err) == LCAN_ERR_PARAM &&
                  strstr(err, "guest node 3") != NULL,
              "missing node: %s", err);
        check(&C, lcan_embed_parse_map("0 3\n1 2\n2 1\n2 0\n", t, g, map, err, sizeof err) == LCAN_ERR_PARAM &&
                  strstr(err, "line 4") != NULL,
              "duplicate node: %s", err);
        check(&C, lcan_embed_parse_map("0 3\n1 4\n", t, g, map, err, sizeof err) == LCAN_ERR_PARAM &&
                  strstr(err, "leaf 4") != NULL,
              "leaf out of range: %s", err);
        check(&C, lcan_embed_parse_map("0 3 1\n", t, g, map, err, sizeof err) == LCAN_ERR_PARAM, "extra text: %s", err);
        check(&C, lcan_embed_parse_map("0 0\n1 0\n2 0\n3 0\n", t, g, map, err, sizeof err) == LCAN_OK &&
                  lcan_embed_route(t, g, map, &r, NULL, err, sizeof err) == LCAN_OK && r.load == 4 && r.congestion == 0 &&
                  r.dilation == 0,
              "all on one leaf: load %u congestion %u dilation %d", r.load, r.congestion, r.dilation);
        lcan_guest_free(g);
        lcan_topo_free(t);
    }
    /* bad guests and a too-small host */
    {
        static const char *const bad[] = {"", "ring", "ring:2", "ring:x", "mesh:4x", "mesh:1x4", "torus:4xx4",
                                          "hypercube:0", "hypercube:23", "cbt:0", "pyramid:0", "pyramid:2:0", "tree:3",
                                          "ring:-4", "ring:99999999999999999999", "mesh:2x2x2x2x2x2x2x2x2"};
        size_t i;
        char err[256];
        lcan_guest *g;
        lcan_topo *t;
        uint32_t map[64];
        const char *ref;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            err[0] = '\0';
            check(&C, lcan_guest_parse(bad[i], &g, err, sizeof err) != LCAN_OK && g == NULL && err[0] != '\0' &&
                          strchr(err, '\n') == NULL,
                  "guest '%s' accepted or no one-line message", bad[i]);
        }
        lcan_topo_parse("gft(2,4,2)", &t, err, sizeof err);
        lcan_guest_parse("ring:17", &g, err, sizeof err);
        check(&C, lcan_embed_default_map(t, g, map, &ref, err, sizeof err) == LCAN_ERR_PARAM, "ring:17 in 16 leaves");
        lcan_guest_free(g);
        lcan_topo_free(t);
    }
    return check_done(&C);
}
