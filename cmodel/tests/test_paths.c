/*
 * test_paths.c - spec 2.5: the w_1 node-disjoint paths (seed 002 §4.2) and the node connectivity
 * (seed 002 Theorem 2), checked against the wiring of spec 2.3 and against an independent maximum
 * flow (Menger: the most node-disjoint paths between two leaves) on the network graph.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcan_paths.h"

/* The network as a graph: node id = offset of its level + index; adjacency from lcan_topo_neighbor
 * over every port (parallel links give repeated neighbours; a node counts once). */
typedef struct {
    int n;            /* nodes */
    int *off;         /* first id of level l, l = 0..h+1 */
    int *adj, *deg;   /* adj[v*maxdeg + k] */
    int maxdeg;
} graph;

static int node_id(const graph *g, int level, uint32_t index) { return g->off[level] + (int)index; }

static void graph_build(const lcan_topo *t, graph *g)
{
    int h = lcan_topo_levels(t), l, v;
    g->off = calloc((size_t)h + 2, sizeof *g->off);
    g->n = 0;
    g->maxdeg = 0;
    for (l = 0; l <= h; l++) {
        int ports = l == 0 ? lcan_topo_leaf_ports(t) : lcan_topo_downers(t, l) + lcan_topo_uppers(t, l);
        g->off[l] = g->n;
        g->n += (int)lcan_topo_switches(t, l);
        if (ports > g->maxdeg)
            g->maxdeg = ports;
    }
    g->off[h + 1] = g->n;
    g->adj = calloc((size_t)g->n * (size_t)g->maxdeg, sizeof *g->adj);
    g->deg = calloc((size_t)g->n, sizeof *g->deg);
    for (l = 0; l <= h; l++) {
        int ports = l == 0 ? lcan_topo_leaf_ports(t) : lcan_topo_downers(t, l) + lcan_topo_uppers(t, l);
        uint32_t x;
        for (x = 0; x < lcan_topo_switches(t, l); x++) {
            int port;
            v = node_id(g, l, x);
            for (port = 0; port < ports; port++) {
                lcan_end from = {l, x, port}, to;
                int u, k, dup = 0;
                if (lcan_topo_neighbor(t, from, &to) != LCAN_OK)
                    continue;
                u = node_id(g, to.level, to.node);
                for (k = 0; k < g->deg[v]; k++)
                    dup |= g->adj[v * g->maxdeg + k] == u;
                if (!dup)
                    g->adj[v * g->maxdeg + g->deg[v]++] = u;
            }
        }
    }
}

static int adjacent(const graph *g, int a, int b)
{
    int k;
    for (k = 0; k < g->deg[a]; k++)
        if (g->adj[a * g->maxdeg + k] == b)
            return 1;
    return 0;
}

/* Most node-disjoint s-t paths: unit-capacity max flow with every node other than s and t split
 * into in (2v) and out (2v+1) joined by capacity 1; an edge a-b gives out(a) -> in(b) and
 * out(b) -> in(a). Flow on split edges and graph edges kept in explicit arrays; BFS augmenting. */
static int max_disjoint_blocked(const graph *g, int s, int t, const char *blocked)
{
    int N2 = 2 * g->n, flow = 0, k;
    char *through = calloc((size_t)g->n, 1);           /* flow in(v) -> out(v) */
    char *used = calloc((size_t)g->n * (size_t)g->maxdeg, 1); /* flow out(v) -> in(adj k) */
    int *prev = malloc((size_t)N2 * sizeof *prev), *q = malloc((size_t)N2 * sizeof *q);
    for (;;) {
        int head = 0, tail = 0, found = 0;
        for (k = 0; k < N2; k++)
            prev[k] = -1;
        /* s: start at out(s); t: reached at in(t) */
        prev[2 * s + 1] = 2 * s + 1;
        q[tail++] = 2 * s + 1;
        while (head < tail && !found) {
            int x = q[head++], v = x / 2;
            if (x % 2 == 1) { /* out(v): forward graph edges with no flow */
                for (k = 0; k < g->deg[v]; k++) {
                    int u = g->adj[v * g->maxdeg + k];
                    if (!used[v * g->maxdeg + k] && prev[2 * u] < 0 && !(blocked && blocked[u])) {
                        prev[2 * u] = x;
                        q[tail++] = 2 * u;
                        if (u == t)
                            found = 1;
                    }
                }
                /* residual of the split edge: out(v) -> in(v) when it carries flow */
                if (v != s && through[v] && prev[2 * v] < 0) {
                    prev[2 * v] = x;
                    q[tail++] = 2 * v;
                }
            } else { /* in(v): split edge forward, or back along graph edges carrying flow into v */
                if (v != t && v != s && !through[v] && prev[2 * v + 1] < 0) {
                    prev[2 * v + 1] = x;
                    q[tail++] = 2 * v + 1;
                }
                for (k = 0; k < g->deg[v]; k++) {
                    int u = g->adj[v * g->maxdeg + k], j;
                    for (j = 0; j < g->deg[u]; j++)
                        if (g->adj[u * g->maxdeg + j] == v && used[u * g->maxdeg + j] && prev[2 * u + 1] < 0) {
                            prev[2 * u + 1] = x;
                            q[tail++] = 2 * u + 1;
                        }
                }
            }
        }
        if (!found)
            break;
        /* augment back from in(t) */
        {
            int x = 2 * t;
            while (x != 2 * s + 1) {
                int p = prev[x], a = p / 2, b = x / 2, j;
                if (p % 2 == 1 && x % 2 == 0 && a != b) { /* out(a) -> in(b): graph edge a-b */
                    int back = 0;
                    for (j = 0; j < g->deg[b]; j++)
                        if (g->adj[b * g->maxdeg + j] == a && used[b * g->maxdeg + j]) {
                            used[b * g->maxdeg + j] = 0; /* cancel flow b -> a */
                            back = 1;
                        }
                    if (!back)
                        for (j = 0; j < g->deg[a]; j++)
                            if (g->adj[a * g->maxdeg + j] == b)
                                used[a * g->maxdeg + j] = 1;
                } else if (p % 2 == 0 && x % 2 == 1 && a == b) {
                    through[a] = 1; /* in(a) -> out(a) */
                } else if (p % 2 == 1 && x % 2 == 0 && a == b) {
                    through[a] = 0; /* out(a) -> in(a): cancel */
                } else { /* in(a) -> out(b): cancel the graph edge flow b -> a */
                    for (j = 0; j < g->deg[b]; j++)
                        if (g->adj[b * g->maxdeg + j] == a)
                            used[b * g->maxdeg + j] = 0;
                }
                x = p;
            }
        }
        flow++;
    }
    free(through);
    free(used);
    free(prev);
    free(q);
    return flow;
}

static int max_disjoint(const graph *g, int s, int t) { return max_disjoint_blocked(g, s, t, NULL); }

/* Removing k of the w_1 parents of leaf s (faulty switches) leaves w_1 - k disjoint paths to any
 * leaf outside s's level-1 subtree; all w_1 cut it off (seed 002 Theorem 2). */
static void check_faults(check_ctx *c, const lcan_topo *t, const graph *g, uint32_t s, uint32_t d)
{
    int w1 = lcan_topo_w(t, 1), k, f;
    char *blocked = calloc((size_t)g->n, 1);
    for (k = 0; k <= w1; k++) {
        lcan_end from = {0, s, 0}, to;
        if (k > 0) {
            from.port = (k - 1) * lcan_topo_p(t, 1);
            lcan_topo_neighbor(t, from, &to);
            blocked[node_id(g, to.level, to.node)] = 1;
        }
        f = max_disjoint_blocked(g, node_id(g, 0, s), node_id(g, 0, d), blocked);
        check(c, f == w1 - k, "%s %u-%u: %d parents removed, %d disjoint paths (expected %d)",
              lcan_topo_canonical(t), s, d, k, f, w1 - k);
    }
    free(blocked);
}

static void check_pair(check_ctx *c, const lcan_topo *t, const graph *g, uint32_t s, uint32_t d, int flow)
{
    int w1 = lcan_topo_node_connectivity(t), L = lcan_topo_lca_level(t, s, d), i, j;
    size_t len = lcan_topo_paths_len(t, s, d), per = (size_t)(2 * L + 1);
    lcan_node *nodes = malloc(len * sizeof *nodes);
    char *seen = calloc((size_t)g->n, 1);
    check(c, len == (size_t)w1 * per, "%s %u-%u: length %zu", lcan_topo_canonical(t), s, d, len);
    check(c, lcan_topo_disjoint_paths(t, s, d, nodes) == LCAN_OK, "%s %u-%u: paths", lcan_topo_canonical(t), s, d);
    for (i = 0; i < w1; i++) {
        const lcan_node *p = nodes + (size_t)i * per;
        int ok = p[0].level == 0 && p[0].index == s && p[per - 1].level == 0 && p[per - 1].index == d;
        for (j = 1; j < (int)per; j++) {
            int a = node_id(g, p[j - 1].level, p[j - 1].index), b = node_id(g, p[j].level, p[j].index);
            ok &= p[j].index < lcan_topo_switches(t, p[j].level) && adjacent(g, a, b);
            ok &= p[j].level == (j <= L ? j : 2 * L - j); /* up L levels, then down */
        }
        for (j = 1; j + 1 < (int)per; j++) {
            int v = node_id(g, p[j].level, p[j].index);
            ok &= !seen[v]; /* inner nodes: no two paths share one, no path repeats one */
            seen[v] = 1;
        }
        check(c, ok, "%s %u-%u: path %d is not a simple path of the network disjoint from the others",
              lcan_topo_canonical(t), s, d, i);
    }
    if (flow >= 0)
        check(c, flow == w1, "%s %u-%u: max flow %d, node connectivity %d", lcan_topo_canonical(t), s, d, flow, w1);
    free(nodes);
    free(seen);
}

static void check_net(check_ctx *c, const char *spec, int exhaustive_flow, int sample)
{
    lcan_topo *t;
    graph g;
    char err[256];
    uint32_t N, s, d;
    unsigned long long rng = 1234;
    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK) {
        check(c, 0, "%s: %s", spec, err);
        return;
    }
    graph_build(t, &g);
    N = lcan_topo_leaves(t);
    check(c, lcan_topo_node_connectivity(t) == lcan_topo_w(t, 1), "%s: node connectivity = w_1", spec);
    if (sample == 0) {
        for (s = 0; s < N; s++)
            for (d = 0; d < N; d++)
                if (s != d)
                    check_pair(c, t, &g, s, d, exhaustive_flow ? max_disjoint(&g, node_id(&g, 0, s), node_id(&g, 0, d)) : -1);
    } else {
        int k;
        for (k = 0; k < sample; k++) {
            s = (uint32_t)(test_rng(&rng) % N);
            d = (uint32_t)(test_rng(&rng) % N);
            if (s != d)
                check_pair(c, t, &g, s, d, max_disjoint(&g, node_id(&g, 0, s), node_id(&g, 0, d)));
        }
    }
    /* a leaf's w_1 parents cut it off: the connectivity is no more than w_1 (and paths give >= w_1) */
    check(c, g.deg[node_id(&g, 0, 0)] == lcan_topo_w(t, 1), "%s: a leaf has w_1 distinct neighbours", spec);
    if (N > 1)
        check_faults(c, t, &g, 0, N - 1);
    /* bad arguments */
    check(c, lcan_topo_paths_len(t, 0, 0) == 0 && lcan_topo_disjoint_paths(t, 0, 0, NULL) == LCAN_ERR_ARG &&
                 lcan_topo_paths_len(t, 0, N) == 0,
          "%s: bad leaves refused", spec);
    free(g.off);
    free(g.adj);
    free(g.deg);
    lcan_topo_free(t);
}

int main(void)
{
    check_ctx c = {"test_paths", 0, 0};
    /* exhaustive: every ordered pair, paths and max flow */
    check_net(&c, "gft(3,2,2)", 1, 0);
    check_net(&c, "xgft(2;4,4;2,3)", 1, 0);
    check_net(&c, "xgft(3;2,3,2;3,1,2)", 1, 0);
    check_net(&c, "pgft(2;2,3;2,2;2,3)", 1, 0);
    check_net(&c, "lcan(2,3,8)", 1, 0);
    check_net(&c, "kary(4,2)", 1, 0);
    check_net(&c, "bft(4;1,2,4,8)", 1, 0);
    check_net(&c, "xgft(1;5;4)", 1, 0);
    /* larger: every pair's paths, sampled max flow */
    check_net(&c, "cm5", 0, 0);
    check_net(&c, "cm5", 1, 300);
    check_net(&c, "gft(4,3,3)", 1, 200);
    return check_done(&c);
}
