/*
 * test_topo.c - topology layer (spec 1-2, 4) against the papers and against computations done
 * here independently of the library:
 *   - PGFT parameters of each member written out by hand from spec 1.2 (not parsed);
 *   - node and edge counts per level from seed 002 4.1 and, for LCANs, seed 004's
 *     S_i = n u^i / d^(i+1); the CM-5 and GFT(3,2,2) counts as printed in seed 002;
 *   - diameter and average distance by breadth-first search over lcan_topo_neighbor, compared
 *     with 2h and seed 002 4.3's formula evaluated here;
 *   - wiring: every port's far end points back, labels agree except digit l+1, each level-l
 *     switch is reached D_l times from below;
 *   - LCA level against the BFS leaf distance (= 2 * LCA);
 *   - packed addresses from digits and clog2 computed here;
 *   - LCAN(d,u,n) = XGFT(log_d n; d..; 1,u..) (same adjacency) and LCAN(d,u,n) upside down =
 *     LCAN(u,d,n (u/d)^log_d n) with an explicit isomorphism of the switch graphs;
 *   - parser: canonical forms, blanks and case, error positions and rules (spec 1.3, 1.4).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan.h"

typedef struct {
    int pass, fail;
} tally;

#define CHECK(tl, cond, ...)                                                    \
    do {                                                                        \
        if (cond) {                                                             \
            (tl)->pass++;                                                       \
        } else {                                                                \
            (tl)->fail++;                                                       \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                         \
            printf(__VA_ARGS__);                                                \
            printf("\n");                                                       \
        }                                                                       \
    } while (0)

#define MAXL LCAN_MAX_LEVELS

/* A member written out by hand from the table of spec 1.2 (index 0 unused). */
typedef struct {
    const char *spec;      /* as typed */
    const char *canonical;
    int h;
    int m[MAXL + 1], w[MAXL + 1], p[MAXL + 1];
    int lcan_d, lcan_u, lcan_n; /* > 0: an LCAN, check seed 004's switch counts */
} member;

static const member members[] = {
    {"cm5", "cm5", 4, {0, 4, 4, 4, 4}, {0, 2, 2, 2, 4}, {0, 1, 1, 1, 1}, 0, 0, 0},
    {"gft(3,2,2)", "gft(3,2,2)", 3, {0, 2, 2, 2}, {0, 2, 2, 2}, {0, 1, 1, 1}, 0, 0, 0},
    {"lcan(3,3,81)", "lcan(3,3,81)", 4, {0, 3, 3, 3, 3}, {0, 1, 3, 3, 3}, {0, 1, 1, 1, 1}, 3, 3, 81},
    {"lcan(4,2,256)", "lcan(4,2,256)", 4, {0, 4, 4, 4, 4}, {0, 1, 2, 2, 2}, {0, 1, 1, 1, 1}, 4, 2, 256},
    {"lcan(2,3,16)", "lcan(2,3,16)", 4, {0, 2, 2, 2, 2}, {0, 1, 3, 3, 3}, {0, 1, 1, 1, 1}, 2, 3, 16},
    {"lcan(3,2,81)", "lcan(3,2,81)", 4, {0, 3, 3, 3, 3}, {0, 1, 2, 2, 2}, {0, 1, 1, 1, 1}, 3, 2, 81},
    {"lcan(4,4,256)", "lcan(4,4,256)", 4, {0, 4, 4, 4, 4}, {0, 1, 4, 4, 4}, {0, 1, 1, 1, 1}, 4, 4, 256},
    {"kary(4,3)", "kary(4,3)", 3, {0, 4, 4, 4}, {0, 1, 4, 4}, {0, 1, 1, 1}, 4, 4, 64},
    {"bft(4;1,2,4,8)", "bft(4;1,2,4,8)", 4, {0, 2, 2, 2, 2}, {0, 1, 1, 1, 1}, {0, 1, 2, 4, 8}, 0, 0, 0},
    {"bft(3;1,1,1)", "bft(3;1,1,1)", 3, {0, 2, 2, 2}, {0, 1, 1, 1}, {0, 1, 1, 1}, 2, 1, 8},
    {"xgft(2;4,4;1,2)", "xgft(2;4,4;1,2)", 2, {0, 4, 4}, {0, 1, 2}, {0, 1, 1}, 4, 2, 16}, /* = lcan(4,2,16) */
    {"xgft(3;2,3,4;1,2,2)", "xgft(3;2,3,4;1,2,2)", 3, {0, 2, 3, 4}, {0, 1, 2, 2}, {0, 1, 1, 1}, 0, 0, 0},
    {"pgft(2;2,2;1,2;1,2)", "pgft(2;2,2;1,2;1,2)", 2, {0, 2, 2}, {0, 1, 2}, {0, 1, 2}, 0, 0, 0},
    {"pgft(3;3,2,4;2,1,3;2,1,2)", "pgft(3;3,2,4;2,1,3;2,1,2)", 3, {0, 3, 2, 4}, {0, 2, 1, 3}, {0, 2, 1, 2},
     0, 0, 0},
    {"gft(2,3,2)", "gft(2,3,2)", 2, {0, 3, 3}, {0, 2, 2}, {0, 1, 1}, 0, 0, 0},
    {" Xgft ( 1 ; 5 ; 3 ) ", "xgft(1;5;3)", 1, {0, 5}, {0, 3}, {0, 1}, 0, 0, 0},
};
#define N_MEMBERS (sizeof members / sizeof members[0])

static int clog2_here(int x)
{
    int b = 0;
    while ((1 << b) < x)
        b++;
    return b;
}

/* The PGFT form written here from the hand parameters. */
static void pgft_here(const member *mb, char *buf, size_t len)
{
    int l, k;
    size_t u = 0;
    u += (size_t)snprintf(buf + u, len - u, "pgft(%d", mb->h);
    for (k = 0; k < 3; k++) {
        const int *v = k == 0 ? mb->m : k == 1 ? mb->w : mb->p;
        for (l = 1; l <= mb->h; l++)
            u += (size_t)snprintf(buf + u, len - u, "%c%d", l == 1 ? ';' : ',', v[l]);
    }
    snprintf(buf + u, len - u, ")");
}

/* ---- graph over all nodes: id = base[level] + index */
typedef struct {
    const lcan_topo *t;
    int h;
    uint32_t base[MAXL + 2];
    uint32_t total;
} graph;

static void graph_init(graph *g, const lcan_topo *t)
{
    int l;
    g->t = t;
    g->h = lcan_topo_levels(t);
    g->base[0] = 0;
    for (l = 0; l <= g->h; l++)
        g->base[l + 1] = g->base[l] + lcan_topo_switches(t, l);
    g->total = g->base[g->h + 1];
}

static int node_ports(const graph *g, int level)
{
    return level == 0 ? lcan_topo_leaf_ports(g->t)
                      : lcan_topo_downers(g->t, level) + lcan_topo_uppers(g->t, level);
}

/* BFS from leaf s; dist[] over all nodes. */
static void bfs(const graph *g, uint32_t s, int *dist, uint32_t *queue)
{
    uint32_t head = 0, tail = 0, v;
    for (v = 0; v < g->total; v++)
        dist[v] = -1;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        uint32_t id = queue[head++];
        int level = 0, port;
        lcan_end from, to;
        while (id >= g->base[level + 1])
            level++;
        from.level = level;
        from.node = id - g->base[level];
        for (port = 0; port < node_ports(g, level); port++) {
            uint32_t nid;
            from.port = port;
            if (lcan_topo_neighbor(g->t, from, &to) != LCAN_OK)
                continue;
            nid = g->base[to.level] + to.node;
            if (dist[nid] < 0) {
                dist[nid] = dist[id] + 1;
                queue[tail++] = nid;
            }
        }
    }
}

/* Wiring checks on every port of every node. */
static void check_wiring(tally *tl, const member *mb, const lcan_topo *t)
{
    graph g;
    int level, port, j, bad = 0, badlabel = 0, badcount = 0;
    uint32_t x, *reached;
    graph_init(&g, t);
    reached = calloc(g.total, sizeof *reached);
    for (level = 0; level <= g.h; level++) {
        for (x = 0; x < lcan_topo_switches(t, level); x++) {
            int da[MAXL + 1], db[MAXL + 1];
            lcan_topo_switch_label(t, level, x, da);
            for (port = 0; port < node_ports(&g, level); port++) {
                lcan_end from, to, back;
                from.level = level;
                from.node = x;
                from.port = port;
                if (lcan_topo_neighbor(t, from, &to) != LCAN_OK) {
                    bad++;
                    continue;
                }
                /* direction: downers (switch ports < D) go down, all else up */
                if (to.level != (level > 0 && port < lcan_topo_downers(t, level) ? level - 1 : level + 1)) {
                    bad++;
                    continue;
                }
                if (lcan_topo_neighbor(t, to, &back) != LCAN_OK || back.level != level || back.node != x ||
                    back.port != port)
                    bad++;
                lcan_topo_switch_label(t, to.level, to.node, db);
                {
                    int diff = to.level > level ? level + 1 : level; /* digit l+1 of the lower node */
                    for (j = 1; j <= g.h; j++)
                        if (j != diff && da[j] != db[j])
                            badlabel++;
                }
                if (to.level == level + 1)
                    reached[g.base[to.level] + to.node]++;
            }
        }
    }
    for (level = 1; level <= g.h; level++)
        for (x = 0; x < lcan_topo_switches(t, level); x++)
            if (reached[g.base[level] + x] != (uint32_t)(mb->m[level] * mb->p[level]))
                badcount++;
    CHECK(tl, bad == 0, "%s: %d ports with a wrong or non-reciprocal far end", mb->spec, bad);
    CHECK(tl, badlabel == 0, "%s: %d adjacent pairs whose labels differ outside digit l+1", mb->spec, badlabel);
    CHECK(tl, badcount == 0, "%s: %d switches not reached m_l*p_l times from below", mb->spec, badcount);
    free(reached);
}

/* BFS distances: diameter, average distance, LCA levels. */
static void check_distances(tally *tl, const member *mb, const lcan_topo *t)
{
    graph g;
    uint32_t n = lcan_topo_leaves(t), s, d, *queue;
    int *dist, maxd = 0, badlca = 0;
    double sum = 0.0, formula = 0.0, radix = 1.0;
    int k;

    graph_init(&g, t);
    dist = malloc(g.total * sizeof *dist);
    queue = malloc(g.total * sizeof *queue);
    for (s = 0; s < n; s++) {
        bfs(&g, s, dist, queue);
        for (d = 0; d < n; d++) {
            if (d == s) {
                if (lcan_topo_lca_level(t, s, d) != 1)
                    badlca++;
                continue;
            }
            if (dist[d] < 0) {
                maxd = 1 << 20; /* disconnected */
                continue;
            }
            if (dist[d] > maxd)
                maxd = dist[d];
            sum += dist[d];
            if (dist[d] != 2 * lcan_topo_lca_level(t, s, d))
                badlca++;
        }
    }
    /* seed 002 4.3: (m_k - 1) m_1..m_{k-1} leaves at distance 2k */
    for (k = 1; k <= mb->h; k++) {
        formula += 2.0 * k * (mb->m[k] - 1) * radix;
        radix *= mb->m[k];
    }
    formula /= (double)(n - 1);
    CHECK(tl, maxd == 2 * mb->h, "%s: BFS diameter %d, expected 2h = %d", mb->spec, maxd, 2 * mb->h);
    CHECK(tl, lcan_topo_diameter(t) == 2 * mb->h, "%s: diameter %d", mb->spec, lcan_topo_diameter(t));
    CHECK(tl, fabs(sum / ((double)n * (n - 1)) - formula) < 1e-12, "%s: BFS avg %.15f vs seed 002 %.15f",
          mb->spec, sum / ((double)n * (n - 1)), formula);
    CHECK(tl, fabs(lcan_topo_avg_distance(t) - formula) < 1e-12, "%s: avg_distance %.15f, expected %.15f",
          mb->spec, lcan_topo_avg_distance(t), formula);
    CHECK(tl, badlca == 0, "%s: %d pairs with BFS distance != 2*lca_level", mb->spec, badlca);
    free(dist);
    free(queue);
}

static void check_member(tally *tl, const member *mb)
{
    char err[256], pg[512];
    lcan_topo *t = NULL;
    lcan_status st = lcan_topo_parse(mb->spec, &t, err, sizeof err);
    uint64_t n = 1, s_here[MAXL + 1], total_nodes;
    int l, j, u0, addr_w = 0, off[MAXL + 1], pow2 = 1, d, u;
    uint32_t x, leaf;

    CHECK(tl, st == LCAN_OK && t != NULL, "%s: parse failed: %s", mb->spec, err);
    if (t == NULL)
        return;
    pgft_here(mb, pg, sizeof pg);
    CHECK(tl, strcmp(lcan_topo_canonical(t), mb->canonical) == 0, "%s: canonical '%s', expected '%s'",
          mb->spec, lcan_topo_canonical(t), mb->canonical);
    CHECK(tl, strcmp(lcan_topo_pgft(t), pg) == 0, "%s: pgft '%s', expected '%s'", mb->spec, lcan_topo_pgft(t), pg);
    CHECK(tl, lcan_topo_levels(t) == mb->h, "%s: h=%d", mb->spec, lcan_topo_levels(t));
    for (l = 1; l <= mb->h; l++) {
        CHECK(tl, lcan_topo_m(t, l) == mb->m[l] && lcan_topo_w(t, l) == mb->w[l] && lcan_topo_p(t, l) == mb->p[l],
              "%s: level %d m,w,p = %d,%d,%d", mb->spec, l, lcan_topo_m(t, l), lcan_topo_w(t, l), lcan_topo_p(t, l));
        n *= (uint64_t)mb->m[l];
    }
    CHECK(tl, lcan_topo_leaves(t) == n, "%s: N=%lu, expected %llu", mb->spec, (unsigned long)lcan_topo_leaves(t),
          (unsigned long long)n);

    /* seed 002 4.1: level l holds w_1..w_l * m_{l+1}..m_h nodes; edges l-1 -> l: w_l (p_l) per node */
    s_here[0] = n;
    total_nodes = n;
    for (l = 1; l <= mb->h; l++) {
        s_here[l] = 1;
        for (j = 1; j <= l; j++)
            s_here[l] *= (uint64_t)mb->w[j];
        for (j = l + 1; j <= mb->h; j++)
            s_here[l] *= (uint64_t)mb->m[j];
        total_nodes += s_here[l];
    }
    CHECK(tl, lcan_topo_switches(t, 0) == n, "%s: switches(0) must be N", mb->spec);
    for (l = 1; l <= mb->h; l++) {
        int dl = mb->m[l] * mb->p[l], ul = l < mb->h ? mb->w[l + 1] * mb->p[l + 1] : 0;
        CHECK(tl, lcan_topo_switches(t, l) == s_here[l], "%s: S_%d=%lu, expected %llu", mb->spec, l,
              (unsigned long)lcan_topo_switches(t, l), (unsigned long long)s_here[l]);
        CHECK(tl, lcan_topo_links(t, l) == s_here[l - 1] * (uint64_t)(mb->w[l] * mb->p[l]),
              "%s: L_%d=%llu", mb->spec, l, (unsigned long long)lcan_topo_links(t, l));
        /* the same links counted from above: S_l * D_l */
        CHECK(tl, lcan_topo_links(t, l) == s_here[l] * (uint64_t)dl, "%s: L_%d != S_l*D_l", mb->spec, l);
        CHECK(tl, lcan_topo_downers(t, l) == dl && lcan_topo_uppers(t, l) == ul, "%s: level %d D,U = %d,%d, expected %d,%d",
              mb->spec, l, lcan_topo_downers(t, l), lcan_topo_uppers(t, l), dl, ul);
    }
    u0 = mb->w[1] * mb->p[1];
    CHECK(tl, lcan_topo_leaf_ports(t) == u0 && lcan_topo_ports(t) == n * (uint64_t)u0, "%s: U0/NP", mb->spec);
    CHECK(tl, lcan_topo_root_cut(t) == (s_here[mb->h - 1] * (uint64_t)(mb->w[mb->h] * mb->p[mb->h])) / 2,
          "%s: root_cut %llu", mb->spec, (unsigned long long)lcan_topo_root_cut(t));
    if (mb->lcan_d > 0) {
        /* seed 004: stage i (level i+1) has n u^i / d^(i+1) switches */
        double si;
        for (l = 1; l <= mb->h; l++) {
            si = mb->lcan_n * pow(mb->lcan_u, l - 1) / pow(mb->lcan_d, l);
            CHECK(tl, fabs((double)lcan_topo_switches(t, l) - si) < 1e-9, "%s: S_%d=%lu, seed 004 gives %g",
                  mb->spec, l, (unsigned long)lcan_topo_switches(t, l), si);
        }
        CHECK(tl, lcan_topo_is_lcan(t, &d, &u) && d == mb->lcan_d && u == mb->lcan_u, "%s: is_lcan", mb->spec);
    } else {
        CHECK(tl, !lcan_topo_is_lcan(t, &d, &u), "%s: must not be an LCAN", mb->spec);
    }

    /* packed addresses (spec 2.1) */
    for (l = 1; l <= mb->h; l++) {
        off[l] = addr_w;
        CHECK(tl, lcan_topo_field_width(t, l) == clog2_here(mb->m[l]) && lcan_topo_field_offset(t, l) == addr_w,
              "%s: field %d at %d width %d", mb->spec, l, lcan_topo_field_offset(t, l), lcan_topo_field_width(t, l));
        addr_w += clog2_here(mb->m[l]);
        if ((mb->m[l] & (mb->m[l] - 1)) != 0)
            pow2 = 0;
    }
    CHECK(tl, lcan_topo_addr_width(t) == addr_w, "%s: ADDR_W %d, expected %d", mb->spec, lcan_topo_addr_width(t), addr_w);
    {
        int badpack = 0, badlabel = 0;
        for (leaf = 0; leaf < n; leaf++) {
            uint32_t a = 0, r = leaf;
            int dg[MAXL + 1];
            for (l = 1; l <= mb->h; l++) {
                a |= (r % (uint32_t)mb->m[l]) << off[l];
                r /= (uint32_t)mb->m[l];
            }
            if (lcan_topo_pack(t, leaf) != a || lcan_topo_unpack(t, a) != leaf || (pow2 && a != leaf))
                badpack++;
            lcan_topo_switch_label(t, 0, leaf, dg);
            r = leaf;
            for (l = 1; l <= mb->h; l++) {
                if (dg[l] != (int)(r % (uint32_t)mb->m[l]))
                    badlabel++;
                r /= (uint32_t)mb->m[l];
            }
        }
        CHECK(tl, badpack == 0, "%s: %d leaves packed/unpacked wrongly", mb->spec, badpack);
        CHECK(tl, badlabel == 0, "%s: %d leaf labels wrong", mb->spec, badlabel);
        CHECK(tl, lcan_topo_pack(t, (uint32_t)n) == UINT32_MAX, "%s: pack(N) must be rejected", mb->spec);
    }
    /* switch index = mixed radix b_1 + w_1 (b_2 + ... w_l (a_{l+1} + m_{l+1} (...))) */
    {
        int bad = 0;
        for (l = 1; l <= mb->h; l++)
            for (x = 0; x < s_here[l]; x++) {
                int dg[MAXL + 1];
                uint64_t idx = 0, mul = 1;
                lcan_topo_switch_label(t, l, x, dg);
                for (j = 1; j <= mb->h; j++) {
                    int r = j <= l ? mb->w[j] : mb->m[j];
                    if (dg[j] < 0 || dg[j] >= r)
                        bad++;
                    idx += (uint64_t)dg[j] * mul;
                    mul *= (uint64_t)r;
                }
                if (idx != x || lcan_topo_switch_index(t, l, dg) != x)
                    bad++;
            }
        CHECK(tl, bad == 0, "%s: %d switch labels/indices wrong", mb->spec, bad);
    }
    if (total_nodes <= 20000 && n <= 1024) {
        check_wiring(tl, mb, t);
        check_distances(tl, mb, t);
    }
    lcan_topo_free(t);
}

/* seed 002 prints these counts: CM-5 levels 0..4 and GFT(3,2,2). */
static void check_paper_counts(tally *tl)
{
    static const uint32_t cm5[5] = {256, 128, 64, 32, 32};
    static const uint32_t gft322[4] = {8, 8, 8, 8};
    lcan_topo *t;
    int l;
    if (lcan_topo_parse("cm5", &t, NULL, 0) == LCAN_OK) {
        for (l = 0; l <= 4; l++)
            CHECK(tl, lcan_topo_switches(t, l) == cm5[l], "cm5 level %d: %lu nodes, seed 002 says %lu", l,
                  (unsigned long)lcan_topo_switches(t, l), (unsigned long)cm5[l]);
        /* Table 1: edge bisection m_h w_1..w_h / 2 = 4*2*2*2*4/2 */
        CHECK(tl, lcan_topo_root_cut(t) == 64, "cm5 root_cut %llu", (unsigned long long)lcan_topo_root_cut(t));
        lcan_topo_free(t);
    } else {
        CHECK(tl, 0, "cm5 does not parse");
    }
    if (lcan_topo_parse("gft(3,2,2)", &t, NULL, 0) == LCAN_OK) {
        for (l = 0; l <= 3; l++)
            CHECK(tl, lcan_topo_switches(t, l) == gft322[l], "gft(3,2,2) level %d: %lu nodes", l,
                  (unsigned long)lcan_topo_switches(t, l));
        /* seed 002: 2 (m-1)/(m^h-1) sum_{i<h} (i+1) m^i = 2*(1/7)*(1+4+12) */
        CHECK(tl, fabs(lcan_topo_avg_distance(t) - 34.0 / 7.0) < 1e-12, "gft(3,2,2) avg %.15f",
              lcan_topo_avg_distance(t));
        CHECK(tl, lcan_topo_root_cut(t) == 8, "gft(3,2,2) root_cut: Table 1 m w^h/2 = 8");
        lcan_topo_free(t);
    } else {
        CHECK(tl, 0, "gft(3,2,2) does not parse");
    }
}

/* Two topologies with the same wiring on every port. */
static int same_wiring(const lcan_topo *a, const lcan_topo *b)
{
    int h = lcan_topo_levels(a), l, port, ports;
    uint32_t x;
    if (h != lcan_topo_levels(b))
        return 0;
    for (l = 0; l <= h; l++) {
        if (lcan_topo_switches(a, l) != lcan_topo_switches(b, l))
            return 0;
        ports = l == 0 ? lcan_topo_leaf_ports(a) : lcan_topo_downers(a, l) + lcan_topo_uppers(a, l);
        for (x = 0; x < lcan_topo_switches(a, l); x++)
            for (port = 0; port < ports; port++) {
                lcan_end f = {l, x, port}, ta, tb;
                if (lcan_topo_neighbor(a, f, &ta) != LCAN_OK || lcan_topo_neighbor(b, f, &tb) != LCAN_OK ||
                    ta.level != tb.level || ta.node != tb.node || ta.port != tb.port)
                    return 0;
            }
    }
    return 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* LCAN(d,u,n) upside down is LCAN(u,d,n (u/d)^h): level l <-> level h+1-l, digit j <-> digit h+2-j
 * (our b digits of A become a digits of B and vice versa). Checks the switch graphs (levels 1..h)
 * edge by edge; the leaves of one are the unconnected top uppers of the other (seed 004). */
static void check_upside_down(tally *tl, int d, int u, int h)
{
    char sa[64], sb[64];
    lcan_topo *a = NULL, *b = NULL;
    long na = 1, nb = 1;
    int i, l, port;
    uint64_t *ea = NULL, *eb = NULL;
    size_t ka = 0, kb = 0, cap;
    uint32_t x, base_b[MAXL + 2];

    for (i = 0; i < h; i++) {
        na *= d;
        nb *= u;
    }
    snprintf(sa, sizeof sa, "lcan(%d,%d,%ld)", d, u, na);
    snprintf(sb, sizeof sb, "lcan(%d,%d,%ld)", u, d, nb); /* n (u/d)^h = u^h */
    if (lcan_topo_parse(sa, &a, NULL, 0) != LCAN_OK || lcan_topo_parse(sb, &b, NULL, 0) != LCAN_OK) {
        CHECK(tl, 0, "%s / %s do not parse", sa, sb);
        goto out;
    }
    for (l = 1; l <= h; l++) {
        int ub = lcan_topo_uppers(b, h + 1 - l), ua = lcan_topo_uppers(a, l);
        CHECK(tl, lcan_topo_switches(a, l) == lcan_topo_switches(b, h + 1 - l), "%s level %d vs %s level %d: S %lu vs %lu",
              sa, l, sb, h + 1 - l, (unsigned long)lcan_topo_switches(a, l), (unsigned long)lcan_topo_switches(b, h + 1 - l));
        /* downers <-> uppers; the top's uppers are the unconnected ones of seed 004 (u of them) */
        CHECK(tl, lcan_topo_downers(a, l) == (ub ? ub : d) && (ua ? ua : u) == lcan_topo_downers(b, h + 1 - l),
              "%s level %d: D/U not swapped with %s level %d", sa, l, sb, h + 1 - l);
    }
    base_b[1] = 0;
    for (l = 1; l <= h; l++)
        base_b[l + 1] = base_b[l] + lcan_topo_switches(b, l);
    cap = 16;
    for (l = 1; l < h; l++)
        cap += (size_t)lcan_topo_switches(a, l) * (size_t)lcan_topo_uppers(a, l);
    ea = malloc(cap * sizeof *ea);
    eb = malloc(cap * sizeof *eb);
    /* edges of B between switch levels, as (lower id, upper id) */
    for (l = 1; l < h; l++)
        for (x = 0; x < lcan_topo_switches(b, l); x++)
            for (port = lcan_topo_downers(b, l); port < lcan_topo_downers(b, l) + lcan_topo_uppers(b, l); port++) {
                lcan_end f = {l, x, port}, to;
                if (lcan_topo_neighbor(b, f, &to) == LCAN_OK && kb < cap)
                    eb[kb++] = ((uint64_t)(base_b[l] + x) << 32) | (base_b[to.level] + to.node);
            }
    /* edges of A mapped through the isomorphism */
    for (l = 1; l < h; l++)
        for (x = 0; x < lcan_topo_switches(a, l); x++)
            for (port = lcan_topo_downers(a, l); port < lcan_topo_downers(a, l) + lcan_topo_uppers(a, l); port++) {
                lcan_end f = {l, x, port}, to;
                int da[MAXL + 1], dt[MAXL + 1], ma[MAXL + 1], mt[MAXL + 1], j;
                uint32_t ia, it;
                if (lcan_topo_neighbor(a, f, &to) != LCAN_OK)
                    continue;
                lcan_topo_switch_label(a, l, x, da);
                lcan_topo_switch_label(a, to.level, to.node, dt);
                for (j = 0; j <= MAXL; j++)
                    ma[j] = mt[j] = 0;
                for (j = 2; j <= h; j++) {
                    ma[h + 2 - j] = da[j];
                    mt[h + 2 - j] = dt[j];
                }
                ia = lcan_topo_switch_index(b, h + 1 - l, ma);  /* A's lower end is B's upper end */
                it = lcan_topo_switch_index(b, h + 1 - to.level, mt);
                if (ka < cap)
                    ea[ka++] = ((uint64_t)(base_b[h + 1 - to.level] + it) << 32) | (base_b[h + 1 - l] + ia);
            }
    qsort(ea, ka, sizeof *ea, cmp_u64);
    qsort(eb, kb, sizeof *eb, cmp_u64);
    CHECK(tl, ka == kb && ka > 0 && memcmp(ea, eb, ka * sizeof *ea) == 0,
          "%s upside down is not %s (%lu vs %lu switch edges)", sa, sb, (unsigned long)ka, (unsigned long)kb);
out:
    free(ea);
    free(eb);
    lcan_topo_free(a);
    lcan_topo_free(b);
}

static void check_isomorphisms(tally *tl)
{
    static const char *const pairs[][2] = {
        {"lcan(2,3,16)", "xgft(4;2,2,2,2;1,3,3,3)"},
        {"lcan(3,2,81)", "xgft(4;3,3,3,3;1,2,2,2)"},
        {"lcan(4,2,256)", "pgft(4;4,4,4,4;1,2,2,2;1,1,1,1)"},
        {"kary(4,3)", "lcan(4,4,64)"},
        {"bft(3;1,1,1)", "lcan(2,1,8)"},
        {"cm5", "xgft(4;4,4,4,4;2,2,2,4)"},
        {"gft(3,2,2)", "xgft(3;2,2,2;2,2,2)"},
    };
    size_t k;
    for (k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        lcan_topo *a = NULL, *b = NULL;
        lcan_topo_parse(pairs[k][0], &a, NULL, 0);
        lcan_topo_parse(pairs[k][1], &b, NULL, 0);
        CHECK(tl, a && b && strcmp(lcan_topo_pgft(a), lcan_topo_pgft(b)) == 0, "%s and %s: PGFT forms differ",
              pairs[k][0], pairs[k][1]);
        CHECK(tl, a && b && same_wiring(a, b), "%s and %s: wiring differs", pairs[k][0], pairs[k][1]);
        lcan_topo_free(a);
        lcan_topo_free(b);
    }
    check_upside_down(tl, 2, 3, 4); /* seed 004 Figures 8/9: LCAN(2,3,16) = LCAN(3,2,81) */
    check_upside_down(tl, 3, 2, 4);
    check_upside_down(tl, 4, 2, 3);
    check_upside_down(tl, 2, 2, 5);
}

/* ---- parser */
typedef struct {
    const char *spec;
    lcan_status st;
    const char *msg; /* exact message, or a fragment when it starts with '~' */
} bad_spec;

static const bad_spec bad[] = {
    {"lcan(2,2,6)", LCAN_ERR_PARAM, "bad spec 'lcan(2,2,6)': n=6 is not a power of d=2"},
    {"xgft(2;4;1,2)", LCAN_ERR_PARSE, "bad spec 'xgft(2;4;1,2)' at character 9: expected ',' (m list needs h=2 entries)"},
    {"", LCAN_ERR_PARSE, "~at character 1 (end): expected a family"},
    {"lcan", LCAN_ERR_PARSE, "~at character 5 (end): expected '('"},
    {"lcan(4,4", LCAN_ERR_PARSE, "~at character 9 (end): expected ','"},
    {"lcan(4,4,256", LCAN_ERR_PARSE, "~at character 13 (end): expected ')'"},
    {"lcan(4,4,256))", LCAN_ERR_PARSE, "~at character 14: expected end of spec"},
    {"lcan(4, x,256)", LCAN_ERR_PARSE, "~at character 9: expected a number"},
    {"lcan(4,-4,256)", LCAN_ERR_PARSE, "~at character 8: expected a number"},
    {"lcan(4,4,2147483648)", LCAN_ERR_PARSE, "~at character 10: expected a number <= 2147483647"},
    {"foo(1,2)", LCAN_ERR_PARSE, "~at character 1: expected a family"},
    {"cm5)", LCAN_ERR_PARSE, "~at character 4: expected end of spec"},
    {"cm5 x", LCAN_ERR_PARSE, "~at character 1: expected a family"}, /* blanks vanish: 'cm5x' */
    {"cm6", LCAN_ERR_PARSE, "~at character 1: expected a family"},
    {"lcan(1,2,4)", LCAN_ERR_PARAM, "~d=1 must be in 2..64"},
    {"lcan(2,0,4)", LCAN_ERR_PARAM, "~u=0 must be in 1..64"},
    {"lcan(4,4,1)", LCAN_ERR_PARAM, "~n=1 must be a power of d=4 with n >= d"},
    {"lcan(2,2,2097152)", LCAN_ERR_PARAM, "~h=log_d(n)=21 must be in 1..16"},
    {"lcan(2,64,32)", LCAN_ERR_PARAM, "~more than 2^22=4194304 switches"}, /* S_5 = 64^4 */
    {"gft(0,2,2)", LCAN_ERR_PARAM, "~h=0 must be in 1..16"},
    {"gft(3,1,2)", LCAN_ERR_PARAM, "~m=1 must be in 2..64"},
    {"gft(3,65,2)", LCAN_ERR_PARAM, "~m=65 must be in 2..64"},
    {"gft(5,32,1)", LCAN_ERR_PARAM, "~N=33554432 leaves, more than 2^20"},
    {"kary(1,3)", LCAN_ERR_PARAM, "~k=1 must be in 2..64"},
    {"kary(4,0)", LCAN_ERR_PARAM, "~n=0 must be in 1..16"},
    {"xgft(17;2;1)", LCAN_ERR_PARAM, "~h=17 must be in 1..16"},
    {"xgft(2;4,4,4;1,2)", LCAN_ERR_PARSE, "~at character 11: expected ';' (m list needs h=2 entries)"},
    {"xgft(2;4,4;1,2;1,1)", LCAN_ERR_PARSE, "~at character 15: expected ')'"},
    {"bft(2;1,0)", LCAN_ERR_PARAM, "~c2=0 must be in 1..64"},
    {"pgft(2;2,2;1,2;1)", LCAN_ERR_PARSE, "~at character 17: expected ',' (p list needs h=2 entries)"},
    {"pgft(2;2,2;1,2,", LCAN_ERR_PARSE, "~at character 15: expected ';' or ')' (w list needs h=2 entries)"},
    {"pgft(2;2,2;1,2:1,1)", LCAN_ERR_PARSE, "~at character 15: expected ';' or ')'"},
    {"pgft(2;64,2;1,64;2,1)", LCAN_ERR_PARAM, "~level 1 has D+U=128+64=192 ports, more than 128"},
    {"pgft(4;2,2,2,2;64,64,64,64)", LCAN_ERR_PARAM, "~more than 2^22=4194304 switches"},
    {"pgft(2;2,2;1,65)", LCAN_ERR_PARAM, "~w2=65 must be in 1..64"},
    {"pgft(2;2,2;1,1;0,1)", LCAN_ERR_PARAM, "~p1=0 must be in 1..64"},
    {"xgft(16;64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64;1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)", LCAN_ERR_PARAM,
     "~more than 2^20=1048576 leaves"},
    {"lcan(4,4,256)\n", LCAN_ERR_PARSE, "~at character 14: expected end of spec"},
};

static void check_parser(tally *tl)
{
    static const char *const same[][2] = {
        {"LCAN( 4 ,\t4, 256 )", "lcan(4,4,256)"},
        {"l c a n(04,004,0256)", "lcan(4,4,256)"},
        {" CM5 ", "cm5"},
        {"c M 5", "cm5"},
        {"PGFT(2;2,2;1,2)", "pgft(2;2,2;1,2;1,1)"},
        {"Bft(2; 1 ,2)", "bft(2;1,2)"},
        {"KARY(2,1)", "kary(2,1)"},
        {"lcan(2,5,2)", "lcan(2,5,2)"},
    };
    char err[256];
    size_t k;
    for (k = 0; k < sizeof same / sizeof same[0]; k++) {
        lcan_topo *t = NULL;
        lcan_status st = lcan_topo_parse(same[k][0], &t, err, sizeof err);
        CHECK(tl, st == LCAN_OK && strcmp(lcan_topo_canonical(t), same[k][1]) == 0, "'%s': canonical '%s' (%s), expected '%s'",
              same[k][0], t ? lcan_topo_canonical(t) : "-", st ? err : "ok", same[k][1]);
        lcan_topo_free(t);
    }
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        lcan_topo *t = (lcan_topo *)&err; /* must be reset to NULL */
        lcan_status st = lcan_topo_parse(bad[k].spec, &t, err, sizeof err);
        int ok_msg = bad[k].msg[0] == '~' ? strstr(err, bad[k].msg + 1) != NULL : strcmp(err, bad[k].msg) == 0;
        CHECK(tl, st == bad[k].st && t == NULL && ok_msg && strchr(err, '\n') == NULL,
              "'%s': status %d, message '%s'; expected status %d, message '%s'", bad[k].spec, (int)st, err,
              (int)bad[k].st, bad[k].msg);
    }
    /* limits exactly at the edge are accepted: N = 2^20, D+U = 128 */
    {
        static const char *const edge[] = {"lcan(2,2,1048576)" /* h=20 > 16: rejected, below */,
                                           "xgft(4;32,32,32,32;1,1,1,1)", "pgft(2;64,2;1,64;1,1)",
                                           "kary(2,16)"};
        for (k = 0; k < sizeof edge / sizeof edge[0]; k++) {
            lcan_topo *t = NULL;
            lcan_status st = lcan_topo_parse(edge[k], &t, err, sizeof err);
            CHECK(tl, (k == 0) ? st == LCAN_ERR_PARAM : st == LCAN_OK, "'%s': status %d (%s)", edge[k], (int)st, err);
            lcan_topo_free(t);
        }
    }
    /* truncation of the message buffer and NULL err are safe */
    {
        lcan_topo *t = NULL;
        char small[8];
        CHECK(tl, lcan_topo_parse("lcan(2,2,6)", &t, small, sizeof small) == LCAN_ERR_PARAM && strlen(small) == 7,
              "short error buffer");
        CHECK(tl, lcan_topo_parse("lcan(2,2,6)", &t, NULL, 0) == LCAN_ERR_PARAM, "NULL error buffer");
        CHECK(tl, lcan_topo_parse(NULL, &t, err, sizeof err) == LCAN_ERR_ARG, "NULL spec");
    }
}

static void check_bad_args(tally *tl)
{
    lcan_topo *t = NULL;
    lcan_end f = {0, 0, 0}, to;
    if (lcan_topo_parse("gft(2,2,2)", &t, NULL, 0) != LCAN_OK)
        return;
    f.port = 2; /* U0 = 2: ports 0,1 */
    CHECK(tl, lcan_topo_neighbor(t, f, &to) == LCAN_ERR_ARG, "leaf port out of range accepted");
    f.level = 2;
    f.port = 2; /* top: D = 2, no uppers */
    CHECK(tl, lcan_topo_neighbor(t, f, &to) == LCAN_ERR_ARG, "top upper accepted");
    f.level = 3;
    f.port = 0;
    CHECK(tl, lcan_topo_neighbor(t, f, &to) == LCAN_ERR_ARG, "level h+1 accepted");
    f.level = 1;
    f.node = 8;
    CHECK(tl, lcan_topo_neighbor(t, f, &to) == LCAN_ERR_ARG, "switch index out of range accepted");
    CHECK(tl, lcan_topo_lca_level(t, 0, 4) == 0 && lcan_topo_lca_level(t, 3, 0) == 2 && lcan_topo_lca_level(t, 1, 0) == 1,
          "lca_level edge cases");
    CHECK(tl, lcan_topo_unpack(t, 4) == UINT32_MAX, "unpack of an address above ADDR_W accepted");
    lcan_topo_free(t);
    /* unpack of an unused code: m = 3 leaves code 3 of a 2-bit field unused */
    if (lcan_topo_parse("gft(2,3,1)", &t, NULL, 0) == LCAN_OK) {
        CHECK(tl, lcan_topo_unpack(t, 3) == UINT32_MAX && lcan_topo_unpack(t, (2u << 2) | 1u) == 7,
              "unpack with m=3 fields");
        lcan_topo_free(t);
    }
    CHECK(tl, lcan_strerror(LCAN_OK) != NULL && strlen(lcan_strerror(LCAN_ERR_STALL)) > 0 &&
              strlen(lcan_strerror((lcan_status)99)) > 0, "lcan_strerror");
}

int main(void)
{
    tally tl = {0, 0};
    size_t k;
    for (k = 0; k < N_MEMBERS; k++)
        check_member(&tl, &members[k]);
    check_paper_counts(&tl);
    check_isomorphisms(&tl);
    check_parser(&tl);
    check_bad_args(&tl);
    printf("test_topo: %d passed, %d failed\n", tl.pass, tl.fail);
    return tl.fail != 0;
}
