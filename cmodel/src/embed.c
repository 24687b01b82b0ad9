/*
 * embed.c - guest graphs, the paper's maps, path routing and metrics of embeddings into the fat
 * trees (lcan_embed.h, seed 002 section 6, docs/embeddings.md).
 *
 * Links are identified as in spec 2.3: the link between a level-l switch Y (index per spec 2.2)
 * and its child with digit x over parallel link k is number (Y * m_l + x) * p_l + k of level l;
 * level l has lcan_topo_links(t, l) of them. A path from leaf a to leaf b with LCA level L is
 * fixed by the up choices (y_l, k_l), l = 1..L (the LCA switch is (a_h..a_{L+1}; y_L..y_1)) and
 * the parallel link taken on each down hop; its level-l switches are (a_h..a_{l+1}; y_l..y_1) on
 * the way up and (b_h..b_{l+1}; y_l..y_1) on the way down.
 */
#include <ctype.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan_embed.h"

struct lcan_guest {
    lcan_guest_kind kind;
    int dims;                          /* mesh / torus: k */
    uint32_t side[LCAN_EMBED_MAX_DIMS]; /* ring: side[0] = N */
    int height, copies;                /* hypercube: height = k; cbt, pyramid */
    uint32_t nodes, nedges;
    uint32_t *eu, *ev;
    char name[96];
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void seterr(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    if (err == NULL || len == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ guests */

lcan_guest_kind lcan_guest_kind_of(const lcan_guest *g) { return g->kind; }
const char *lcan_guest_name(const lcan_guest *g) { return g->name; }
uint32_t lcan_guest_nodes(const lcan_guest *g) { return g->nodes; }
uint32_t lcan_guest_edges(const lcan_guest *g) { return g->nedges; }

void lcan_guest_edge(const lcan_guest *g, uint32_t e, uint32_t *u, uint32_t *v)
{
    *u = g->eu[e];
    *v = g->ev[e];
}

void lcan_guest_free(lcan_guest *g)
{
    if (g == NULL)
        return;
    free(g->eu);
    free(g->ev);
    free(g);
}

/* Strict decimal in [min, max]; *p advanced past the digits. */
static int read_num(const char **p, long min, long max, long *out)
{
    long v = 0;
    if (!isdigit((unsigned char)**p))
        return -1;
    while (isdigit((unsigned char)**p)) {
        if (v > (LONG_MAX - 9) / 10)
            return -1;
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    if (v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static uint32_t pyr_nodes(int h) { return (uint32_t)((((uint64_t)1 << (2 * (h + 1))) - 1) / 3); }

static void add_edge(lcan_guest *g, uint32_t u, uint32_t v)
{
    g->eu[g->nedges] = u;
    g->ev[g->nedges] = v;
    g->nedges++;
}

static void build_edges(lcan_guest *g)
{
    uint32_t v, i, d, c;
    int l;
    switch (g->kind) {
    case LCAN_GUEST_RING:
        for (v = 0; v < g->nodes; v++)
            add_edge(g, v, (v + 1) % g->nodes);
        break;
    case LCAN_GUEST_MESH:
    case LCAN_GUEST_TORUS:
        for (v = 0; v < g->nodes; v++) {
            uint32_t stride = 1, rest = v;
            for (d = 0; d < (uint32_t)g->dims; d++) {
                uint32_t x = rest % g->side[d];
                rest /= g->side[d];
                if (x + 1 < g->side[d])
                    add_edge(g, v, v + stride);
                else if (g->kind == LCAN_GUEST_TORUS && g->side[d] >= 3)
                    add_edge(g, v, v - x * stride);
                stride *= g->side[d];
            }
        }
        break;
    case LCAN_GUEST_HYPERCUBE:
        for (v = 0; v < g->nodes; v++)
            for (i = 0; i < (uint32_t)g->height; i++)
                if (!((v >> i) & 1u))
                    add_edge(g, v, v | (1u << i));
        break;
    case LCAN_GUEST_CBT:
        for (v = 1; v < g->nodes; v++)
            add_edge(g, (v - 1) / 2, v);
        break;
    case LCAN_GUEST_PYRAMID:
        for (c = 0; c < (uint32_t)g->copies; c++) {
            uint32_t base = c * pyr_nodes(g->height);
            for (l = 0; l <= g->height; l++) {
                uint32_t s = 1u << l, off = base + (uint32_t)((((uint64_t)1 << (2 * l)) - 1) / 3), r, q;
                uint32_t noff = off + s * s; /* level l+1 */
                for (r = 0; r < s; r++)
                    for (q = 0; q < s; q++) {
                        uint32_t me = off + r * s + q;
                        if (q + 1 < s)
                            add_edge(g, me, me + 1);
                        if (r + 1 < s)
                            add_edge(g, me, me + s);
                        if (l < g->height)
                            for (d = 0; d < 4; d++)
                                add_edge(g, me, noff + (2 * r + (d >> 1)) * (2 * s) + 2 * q + (d & 1u));
                    }
            }
        }
        break;
    }
}

static uint64_t count_edges(const lcan_guest *g)
{
    uint64_t e = 0, n = g->nodes;
    int d, l;
    switch (g->kind) {
    case LCAN_GUEST_RING:
        return n;
    case LCAN_GUEST_MESH:
    case LCAN_GUEST_TORUS:
        for (d = 0; d < g->dims; d++) {
            uint64_t a = g->side[d];
            e += n / a * (a - 1);
            if (g->kind == LCAN_GUEST_TORUS && a >= 3)
                e += n / a;
        }
        return e;
    case LCAN_GUEST_HYPERCUBE:
        return n / 2 * (uint64_t)g->height;
    case LCAN_GUEST_CBT:
        return n - 1;
    case LCAN_GUEST_PYRAMID:
        for (l = 0; l <= g->height; l++) {
            uint64_t s = (uint64_t)1 << l;
            e += 2 * s * (s - 1) + (l < g->height ? 4 * s * s : 0);
        }
        return e * (uint64_t)g->copies;
    }
    return 0;
}

lcan_status lcan_guest_parse(const char *text, lcan_guest **out, char *err, size_t errlen)
{
    char buf[128], *q = buf;
    const char *p, *s;
    lcan_guest *g;
    long v;
    uint64_t nodes = 1, edges;
    const char *forms = "ring:N, mesh:AxB[xC..], torus:AxB[..], hypercube:K, cbt:H or pyramid:H[:COPIES]";

    *out = NULL;
    if (text == NULL || strlen(text) >= sizeof buf) {
        seterr(err, errlen, "guest is empty or too long (expected %s)", forms);
        return LCAN_ERR_PARSE;
    }
    for (p = text; *p; p++)
        if (!isspace((unsigned char)*p))
            *q++ = (char)tolower((unsigned char)*p);
    *q = '\0';
    if ((g = calloc(1, sizeof *g)) == NULL)
        return LCAN_ERR_NOMEM;
    g->copies = 1;
    s = strchr(buf, ':');
    if (s == NULL) {
        seterr(err, errlen, "guest '%s': expected %s", text, forms);
        goto bad;
    }
    p = s + 1;
    if (strncmp(buf, "ring:", 5) == 0) {
        g->kind = LCAN_GUEST_RING;
        if (read_num(&p, 3, LCAN_EMBED_MAX_NODES, &v) != 0 || *p) {
            seterr(err, errlen, "guest '%s': ring:N needs a number of nodes N, 3..%u", text, LCAN_EMBED_MAX_NODES);
            goto bad;
        }
        g->side[0] = (uint32_t)v;
        nodes = (uint64_t)v;
        snprintf(g->name, sizeof g->name, "ring:%ld", v);
    } else if (strncmp(buf, "mesh:", 5) == 0 || strncmp(buf, "torus:", 6) == 0) {
        int n = 0, k;
        g->kind = buf[0] == 'm' ? LCAN_GUEST_MESH : LCAN_GUEST_TORUS;
        for (;;) {
            if (n == LCAN_EMBED_MAX_DIMS || read_num(&p, 2, LCAN_EMBED_MAX_NODES, &v) != 0) {
                seterr(err, errlen, "guest '%s': expected sides AxB[xC..], each 2..%u, at most %d of them", text,
                       LCAN_EMBED_MAX_NODES, LCAN_EMBED_MAX_DIMS);
                goto bad;
            }
            g->side[n++] = (uint32_t)v;
            nodes *= (uint64_t)v;
            if (nodes > LCAN_EMBED_MAX_NODES) {
                seterr(err, errlen, "guest '%s': more than %u nodes", text, LCAN_EMBED_MAX_NODES);
                goto bad;
            }
            if (*p == '\0')
                break;
            if (*p != 'x') {
                seterr(err, errlen, "guest '%s': unexpected '%c' (sides are separated by 'x')", text, *p);
                goto bad;
            }
            p++;
        }
        g->dims = n;
        k = snprintf(g->name, sizeof g->name, "%s:", g->kind == LCAN_GUEST_MESH ? "mesh" : "torus");
        for (n = 0; n < g->dims; n++)
            k += snprintf(g->name + k, sizeof g->name - (size_t)k, "%s%u", n ? "x" : "", g->side[n]);
    } else if (strncmp(buf, "hypercube:", 10) == 0) {
        g->kind = LCAN_GUEST_HYPERCUBE;
        if (read_num(&p, 1, 22, &v) != 0 || *p) {
            seterr(err, errlen, "guest '%s': hypercube:K needs a dimension K, 1..22", text);
            goto bad;
        }
        g->height = (int)v;
        nodes = (uint64_t)1 << v;
        snprintf(g->name, sizeof g->name, "hypercube:%ld", v);
    } else if (strncmp(buf, "cbt:", 4) == 0) {
        g->kind = LCAN_GUEST_CBT;
        if (read_num(&p, 1, 21, &v) != 0 || *p) {
            seterr(err, errlen, "guest '%s': cbt:H needs a height H, 1..21 (2^(H+1) - 1 nodes)", text);
            goto bad;
        }
        g->height = (int)v;
        nodes = ((uint64_t)2 << v) - 1;
        snprintf(g->name, sizeof g->name, "cbt:%ld", v);
    } else if (strncmp(buf, "pyramid:", 8) == 0) {
        long c = 1;
        g->kind = LCAN_GUEST_PYRAMID;
        if (read_num(&p, 1, 10, &v) != 0 || (*p == ':' && (p++, read_num(&p, 1, 16, &c) != 0)) || *p) {
            seterr(err, errlen, "guest '%s': pyramid:H[:COPIES] needs a height H, 1..10, and 1..16 copies", text);
            goto bad;
        }
        g->height = (int)v;
        g->copies = (int)c;
        nodes = (uint64_t)pyr_nodes(g->height) * (uint64_t)c;
        if (nodes > LCAN_EMBED_MAX_NODES) {
            seterr(err, errlen, "guest '%s': more than %u nodes", text, LCAN_EMBED_MAX_NODES);
            goto bad;
        }
        if (c == 1)
            snprintf(g->name, sizeof g->name, "pyramid:%ld", v);
        else
            snprintf(g->name, sizeof g->name, "pyramid:%ld:%ld", v, c);
    } else {
        *(char *)s = '\0';
        seterr(err, errlen, "guest '%s': unknown kind '%s' (expected %s)", text, buf, forms);
        goto bad;
    }
    g->nodes = (uint32_t)nodes;
    edges = count_edges(g);
    if (edges > 4u * LCAN_EMBED_MAX_NODES) {
        seterr(err, errlen, "guest '%s': more than %u edges", text, 4u * LCAN_EMBED_MAX_NODES);
        goto bad;
    }
    g->eu = malloc((size_t)(edges ? edges : 1) * sizeof *g->eu);
    g->ev = malloc((size_t)(edges ? edges : 1) * sizeof *g->ev);
    if (g->eu == NULL || g->ev == NULL) {
        lcan_guest_free(g);
        return LCAN_ERR_NOMEM;
    }
    build_edges(g);
    *out = g;
    return LCAN_OK;
bad:
    lcan_guest_free(g);
    return LCAN_ERR_PARAM;
}

int64_t lcan_guest_bisection(const lcan_guest *g)
{
    uint32_t amax = 0;
    int d;
    switch (g->kind) {
    case LCAN_GUEST_RING:
        return 2;
    case LCAN_GUEST_MESH:
    case LCAN_GUEST_TORUS:
        for (d = 0; d < g->dims; d++)
            if (g->side[d] > amax)
                amax = g->side[d];
        if (g->dims == 1)
            return g->kind == LCAN_GUEST_MESH ? 1 : 2;
        if (amax % 2 != 0)
            return -1; /* odd longest side: not derived here */
        return (int64_t)(g->nodes / amax) * (g->kind == LCAN_GUEST_TORUS && amax >= 3 ? 2 : 1);
    case LCAN_GUEST_HYPERCUBE:
        return (int64_t)1 << (g->height - 1);
    case LCAN_GUEST_CBT:
        return 1;
    case LCAN_GUEST_PYRAMID:
        return -1;
    }
    return -1;
}

/* ------------------------------------------------------------------ host geometry */

typedef struct {
    int h;
    int m[LCAN_MAX_LEVELS + 1], w[LCAN_MAX_LEVELS + 1], p[LCAN_MAX_LEVELS + 1];
    uint32_t N;
} host;

static void host_init(const lcan_topo *t, host *H)
{
    int l;
    H->h = lcan_topo_levels(t);
    H->N = lcan_topo_leaves(t);
    for (l = 1; l <= H->h; l++) {
        H->m[l] = lcan_topo_m(t, l);
        H->w[l] = lcan_topo_w(t, l);
        H->p[l] = lcan_topo_p(t, l);
    }
}

static void leaf_digits(const host *H, uint32_t s, int dig[LCAN_MAX_LEVELS + 2])
{
    int l;
    for (l = 1; l <= H->h; l++) {
        dig[l] = (int)(s % (uint32_t)H->m[l]);
        s /= (uint32_t)H->m[l];
    }
}

/* The host is GFT(h, m, w): every m_l = m, every w_l = w, every p_l = 1. */
static int host_is_gft(const host *H, int *m, int *w)
{
    int l;
    for (l = 1; l <= H->h; l++)
        if (H->m[l] != H->m[1] || H->w[l] != H->w[1] || H->p[l] != 1)
            return 0;
    *m = H->m[1];
    *w = H->w[1];
    return 1;
}

/* ------------------------------------------------------------------ default maps */

/* Position pos of the reflected mixed-radix order over radices r[0..n-1] (r[0] least significant):
 * the leaf order of seed 002 Theorem 4's H-path (sub-tree j is traversed backwards for odd j). */
static uint32_t reflected(uint32_t pos, const int *r, int n)
{
    uint32_t M = 1, leaf = 0;
    int i;
    for (i = 0; i < n - 1; i++)
        M *= (uint32_t)r[i];
    for (i = n - 1; i >= 0; i--) {
        uint32_t j = pos / M, rest = pos % M;
        if (j & 1u)
            rest = M - 1 - rest;
        leaf += j * M;
        pos = rest;
        if (i > 0)
            M /= (uint32_t)r[i - 1];
    }
    return leaf;
}

/* Levels first..first+count-1 of the host whose radices multiply to exactly a, starting at
 * *level; 0 and *level advanced, or -1. */
static int take_levels(const host *H, int *level, uint32_t a, int *count)
{
    uint64_t prod = 1;
    int l = *level;
    while (prod < a && l <= H->h)
        prod *= (uint64_t)H->m[l++];
    if (prod != a)
        return -1;
    *count = l - *level;
    *level = l;
    return 0;
}

static uint32_t cbt_inorder(uint32_t i, int h)
{
    int d = 0;
    uint32_t j;
    while (((uint32_t)2 << d) - 1 <= i)
        d++;
    j = i + 1 - (1u << d);
    return (2 * j + 1) * (1u << (h - d)) - 1;
}

lcan_status lcan_embed_default_map(const lcan_topo *t, const lcan_guest *g, uint32_t *map, const char **ref,
                                   char *err, size_t errlen)
{
    host H;
    uint32_t v;
    host_init(t, &H);
    if (g->nodes > H.N) {
        seterr(err, errlen, "guest %s has %u nodes but the host %s only %u leaves (load one needs nodes <= leaves)",
               g->name, g->nodes, lcan_topo_canonical(t), H.N);
        return LCAN_ERR_PARAM;
    }
    *ref = "guest node v on leaf v";
    for (v = 0; v < g->nodes; v++)
        map[v] = v;
    switch (g->kind) {
    case LCAN_GUEST_RING:
        for (v = 0; v < g->nodes; v++)
            map[v] = reflected(v, H.m + 1, H.h);
        *ref = "seed 002 Thm 4: the H-path's leaf order (sub-tree j reversed for odd j)";
        break;
    case LCAN_GUEST_MESH:
    case LCAN_GUEST_TORUS: {
        int level = 1, first[LCAN_EMBED_MAX_DIMS], cnt[LCAN_EMBED_MAX_DIMS], d, aligned = 1;
        for (d = 0; d < g->dims && aligned; d++) {
            first[d] = level;
            if (take_levels(&H, &level, g->side[d], &cnt[d]) != 0)
                aligned = 0;
        }
        if (!aligned) {
            *ref = "row-major (sides are not products of consecutive host radices)";
            break;
        }
        for (v = 0; v < g->nodes; v++) {
            uint32_t rest = v, leaf = 0, stride = 1;
            for (d = 0; d < g->dims; d++) {
                uint32_t x = rest % g->side[d];
                rest /= g->side[d];
                leaf += reflected(x, H.m + first[d], cnt[d]) * stride;
                stride *= g->side[d];
            }
            map[v] = leaf;
        }
        *ref = "seed 002 Thm 6/7: dimension d on its own block of levels (1 lowest), Thm 4's order in each";
        break;
    }
    case LCAN_GUEST_HYPERCUBE:
        *ref = "seed 002 Thm 8: node v on leaf v";
        break;
    case LCAN_GUEST_CBT:
        for (v = 0; v < g->nodes; v++)
            map[v] = cbt_inorder(v, g->height);
        *ref = "constructed (Thm 5 cites [11]): in-order, node of in-order rank r on leaf r";
        break;
    case LCAN_GUEST_PYRAMID: {
        int l, ok = g->copies <= 3 && H.h >= g->height + 1;
        for (l = 1; ok && l <= g->height + 1; l++)
            ok = H.m[l] == 4;
        if (!ok) {
            *ref = "node v on leaf v (the recursive map needs m_1..m_(H+1) = 4 and at most 3 copies)";
            break;
        }
        for (v = 0; v < g->nodes; v++) {
            uint32_t P = pyr_nodes(g->height), c = v / P, x = v % P, s, r, q, leaf = 0;
            int lv = 0, j;
            while (x >= ((uint32_t)1 << (2 * lv))) {
                x -= (uint32_t)1 << (2 * lv);
                lv++;
            }
            s = 1u << lv;
            r = x / s;
            q = x % s;
            /* digits a_1..a_lv: the quadtree (Morton) address, coarsest split at a_lv */
            for (j = 0; j < lv; j++)
                leaf += (((r >> j) & 1u) * 2 + ((q >> j) & 1u)) << (2 * j);
            leaf += c << (2 * lv);
            for (j = lv + 1; j <= g->height; j++)
                leaf += 3u << (2 * j);
            map[v] = leaf;
        }
        *ref = "constructed (Thm 9 cites [11]): level l of copy c at digits (3..3, c, quadtree address)";
        break;
    }
    }
    return LCAN_OK;
}

/* ------------------------------------------------------------------ user maps */

lcan_status lcan_embed_parse_map(const char *text, const lcan_topo *t, const lcan_guest *g, uint32_t *map,
                                 char *err, size_t errlen)
{
    uint32_t N = lcan_topo_leaves(t), *line_of, v;
    const char *p = text;
    long line = 1;
    lcan_status st = LCAN_ERR_PARAM;

    if ((line_of = calloc((size_t)g->nodes, sizeof *line_of)) == NULL)
        return LCAN_ERR_NOMEM;
    while (*p) {
        long node, leaf;
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p == '#')
            while (*p && *p != '\n')
                p++;
        if (*p == '\n' || *p == '\0') {
            if (*p == '\n')
                p++, line++;
            continue;
        }
        if (read_num(&p, 0, LONG_MAX, &node) != 0 || (*p != ' ' && *p != '\t')) {
            seterr(err, errlen, "map line %ld: expected 'GUEST_NODE LEAF' (two numbers)", line);
            goto done;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (read_num(&p, 0, LONG_MAX, &leaf) != 0) {
            seterr(err, errlen, "map line %ld: expected 'GUEST_NODE LEAF' (two numbers)", line);
            goto done;
        }
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p == '#')
            while (*p && *p != '\n')
                p++;
        if (*p != '\n' && *p != '\0') {
            seterr(err, errlen, "map line %ld: unexpected text after 'GUEST_NODE LEAF'", line);
            goto done;
        }
        if (node >= (long)g->nodes) {
            seterr(err, errlen, "map line %ld: guest node %ld out of range (%s has nodes 0..%u)", line, node,
                   g->name, g->nodes - 1);
            goto done;
        }
        if (leaf >= (long)N) {
            seterr(err, errlen, "map line %ld: leaf %ld out of range (the host has leaves 0..%u)", line, leaf, N - 1);
            goto done;
        }
        if (line_of[node]) {
            seterr(err, errlen, "map line %ld: guest node %ld already mapped on line %u", line, node, line_of[node]);
            goto done;
        }
        line_of[node] = (uint32_t)line;
        map[node] = (uint32_t)leaf;
    }
    for (v = 0; v < g->nodes; v++)
        if (!line_of[v]) {
            seterr(err, errlen, "map: guest node %u has no line (every node 0..%u needs one 'GUEST_NODE LEAF')", v,
                   g->nodes - 1);
            goto done;
        }
    st = LCAN_OK;
done:
    free(line_of);
    return st;
}

/* ------------------------------------------------------------------ the paper's bounds */

static int is_power(uint32_t a, int m, int *e)
{
    uint64_t x = 1;
    *e = 0;
    if (m < 2)
        return 0;
    while (x < a) {
        x *= (uint64_t)m;
        (*e)++;
    }
    return x == a;
}

void lcan_embed_paper_bound(const lcan_topo *t, const lcan_guest *g, lcan_embed_paper *pb)
{
    host H;
    int m, w, e, d, sum = 0, ok = 1;
    host_init(t, &H);
    pb->load = pb->dilation = pb->congestion = -1;
    pb->expansion = -1;
    pb->ref = "none: no theorem of seed 002 section 6 covers this guest on this host";
    if (!host_is_gft(&H, &m, &w))
        return;
    switch (g->kind) {
    case LCAN_GUEST_RING:
        if (!is_power(g->nodes, m, &e) || e != H.h)
            return;
        pb->congestion = (m % 2 == 0 ? 1 : 2) * (w == 1 ? 2 : 1);
        pb->ref = m % 2 == 0 ? (w >= 2 ? "seed 002 Thm 4 (ring, m even, w >= 2)" : "seed 002 Thm 4 (w = 1: doubles)")
                             : (w >= 2 ? "seed 002 Thm 4 (ring, m odd: congestion two)"
                                       : "seed 002 Thm 4 (m odd, w = 1: doubles)");
        break;
    case LCAN_GUEST_MESH:
    case LCAN_GUEST_TORUS:
        for (d = 0; d < g->dims && ok; d++) {
            ok = is_power(g->side[d], m, &e);
            sum += e;
        }
        if (!ok || sum != H.h)
            return;
        if (g->dims == 1) { /* a linear array / a ring */
            if (g->kind == LCAN_GUEST_TORUS && g->side[0] < 3)
                return;
            pb->congestion = (g->kind == LCAN_GUEST_TORUS && m % 2 ? 2 : 1) * (w == 1 ? 2 : 1);
            pb->ref = "seed 002 Thm 4 (one dimension)";
            break;
        }
        if (w != m || (g->kind == LCAN_GUEST_TORUS && m % 2))
            return;
        pb->congestion = 2 * g->dims - 1;
        pb->ref = g->dims == 2 ? "seed 002 Thm 6" : "seed 002 Thm 7";
        break;
    case LCAN_GUEST_HYPERCUBE:
        if (m != 2 || w != 2 || H.h != g->height)
            return;
        pb->congestion = (g->height + 1) / 2;
        pb->ref = "seed 002 Thm 8";
        break;
    case LCAN_GUEST_CBT:
        if (m != 2 || w != 2 || H.h != g->height + 1)
            return;
        pb->congestion = 3;
        pb->ref = "seed 002 Thm 5";
        break;
    case LCAN_GUEST_PYRAMID:
        if (m != 4 || w != 4 || H.h != g->height + 1 || g->copies != 3)
            return;
        pb->congestion = 5;
        pb->ref = "seed 002 Thm 9 (at most 5)";
        break;
    }
    pb->load = 1;
    pb->dilation = 2 * H.h;
    pb->expansion = (double)H.N / (double)g->nodes;
}

/* ------------------------------------------------------------------ routing */

typedef struct {
    const host *H;
    uint32_t *load[LCAN_MAX_LEVELS + 1];
    int da[LCAN_MAX_LEVELS + 2], db[LCAN_MAX_LEVELS + 2];
    uint64_t Aa[LCAN_MAX_LEVELS + 1], Ab[LCAN_MAX_LEVELS + 1], W[LCAN_MAX_LEVELS + 1];
    int L;
    /* search state */
    int cur[LCAN_MAX_LEVELS + 1], best[LCAN_MAX_LEVELS + 1];
    uint32_t best_max;
    uint64_t best_sum;
    int have_best;
} router;

/* Link number at level l: switch index sw, child digit x, parallel k. */
static uint64_t link_id(const host *H, int l, uint64_t sw, int x, int k)
{
    return (sw * (uint64_t)H->m[l] + (uint64_t)x) * (uint64_t)H->p[l] + (uint64_t)k;
}

/* B(l) of the up choices cur[1..l] (y = cur / p). */
static uint64_t choice_index(const router *R, int l)
{
    uint64_t b = 0;
    int i;
    for (i = l; i >= 1; i--)
        b = b * (uint64_t)R->H->w[i] + (uint64_t)(R->cur[i] / R->H->p[i]);
    return b;
}

/* Down side of the path fixed by cur[1..L]: the least-loaded parallel link per hop. */
static void down_cost(const router *R, uint32_t *mx, uint64_t *sum, int *kbest)
{
    int l, k;
    *mx = 0;
    *sum = 0;
    for (l = R->L; l >= 1; l--) {
        uint64_t sw = choice_index(R, l) + R->W[l] * R->Ab[l];
        uint32_t lo = UINT32_MAX;
        for (k = 0; k < R->H->p[l]; k++) {
            uint32_t x = R->load[l][link_id(R->H, l, sw, R->db[l], k)];
            if (x < lo) {
                lo = x;
                if (kbest)
                    kbest[l] = k;
            }
        }
        if (lo > *mx)
            *mx = lo;
        *sum += lo;
    }
}

static uint32_t up_load(const router *R, int l)
{
    uint64_t sw = choice_index(R, l) + R->W[l] * R->Aa[l];
    return R->load[l][link_id(R->H, l, sw, R->da[l], R->cur[l] % R->H->p[l])];
}

static void search(router *R, int l, uint32_t mx, uint64_t sum)
{
    int c, n = R->H->w[l] * R->H->p[l];
    for (c = 0; c < n; c++) {
        uint32_t x, dm, m2;
        uint64_t ds, s2;
        R->cur[l] = c;
        x = up_load(R, l);
        m2 = x > mx ? x : mx;
        s2 = sum + x;
        if (R->have_best && m2 > R->best_max)
            continue;
        if (l < R->L) {
            search(R, l + 1, m2, s2);
            continue;
        }
        down_cost(R, &dm, &ds, NULL);
        if (dm > m2)
            m2 = dm;
        s2 += ds;
        if (!R->have_best || m2 < R->best_max || (m2 == R->best_max && s2 < R->best_sum)) {
            R->have_best = 1;
            R->best_max = m2;
            R->best_sum = s2;
            memcpy(R->best, R->cur, sizeof R->cur);
        }
    }
}

/* Level by level: the least-loaded up link at each level (ties: lowest choice). */
static void greedy_up(router *R)
{
    int l, c;
    for (l = 1; l <= R->L; l++) {
        uint32_t lo = UINT32_MAX;
        int bc = 0;
        for (c = 0; c < R->H->w[l] * R->H->p[l]; c++) {
            uint32_t x;
            R->cur[l] = c;
            x = up_load(R, l);
            if (x < lo) {
                lo = x;
                bc = c;
            }
        }
        R->cur[l] = bc;
    }
    memcpy(R->best, R->cur, sizeof R->cur);
}

lcan_status lcan_embed_route(const lcan_topo *t, const lcan_guest *g, const uint32_t *map, lcan_embed_result *res,
                             uint16_t *port, char *err, size_t errlen)
{
    host H;
    router R;
    uint32_t *order = NULL, *cnt = NULL, e, v;
    uint32_t start[LCAN_MAX_LEVELS + 1], count[LCAN_MAX_LEVELS + 1];
    uint64_t sumlen = 0, work = 0;
    int exhaustive[LCAN_MAX_LEVELS + 1];
    lcan_status st = LCAN_ERR_NOMEM;
    int l;

    memset(res, 0, sizeof *res);
    memset(&R, 0, sizeof R);
    host_init(t, &H);
    R.H = &H;
    res->nodes = g->nodes;
    res->edges = g->nedges;
    res->leaves = H.N;
    res->expansion = (double)H.N / (double)g->nodes;
    res->bisection = lcan_guest_bisection(g);
    res->lower_bound = res->bisection >= 0 ? 2.0 * (double)res->bisection / (double)lcan_topo_links(t, H.h) : -1;
    lcan_embed_paper_bound(t, g, &res->paper);
    for (v = 0; v < g->nodes; v++)
        if (map[v] >= H.N) {
            seterr(err, errlen, "map: guest node %u on leaf %u, outside the host's leaves 0..%u", v, map[v], H.N - 1);
            return LCAN_ERR_PARAM;
        }
    for (l = 1; l <= H.h; l++) {
        R.load[l] = calloc((size_t)lcan_topo_links(t, l), sizeof *R.load[l]);
        if (R.load[l] == NULL)
            goto done;
    }
    order = malloc((size_t)(g->nedges ? g->nedges : 1) * sizeof *order);
    cnt = calloc((size_t)H.N, sizeof *cnt);
    if (order == NULL || cnt == NULL)
        goto done;

    /* load */
    for (v = 0; v < g->nodes; v++)
        if (++cnt[map[v]] > res->load)
            res->load = cnt[map[v]];

    /* edges by LCA level (0: both ends on one leaf), stable */
    memset(count, 0, sizeof count);
    for (e = 0; e < g->nedges; e++) {
        uint32_t a = map[g->eu[e]], b = map[g->ev[e]];
        count[a == b ? 0 : lcan_topo_lca_level(t, a, b)]++;
    }
    /* which LCA levels are searched exhaustively: at most LCAN_EMBED_MAX_PATHS paths per edge and,
     * levels in increasing order, a running total of edges x paths x L within LCAN_EMBED_MAX_WORK */
    for (l = 1; l <= H.h; l++) {
        uint64_t np = 1, w;
        int j;
        for (j = 1; j <= l && np <= LCAN_EMBED_MAX_PATHS; j++)
            np *= (uint64_t)(H.w[j] * H.p[j]);
        w = np * (uint64_t)l * count[l];
        exhaustive[l] = np <= LCAN_EMBED_MAX_PATHS && work + w <= LCAN_EMBED_MAX_WORK;
        if (exhaustive[l])
            work += w;
    }
    start[0] = 0;
    for (l = 1; l <= H.h; l++)
        start[l] = start[l - 1] + count[l - 1];
    for (e = 0; e < g->nedges; e++) {
        uint32_t a = map[g->eu[e]], b = map[g->ev[e]];
        order[start[a == b ? 0 : lcan_topo_lca_level(t, a, b)]++] = e;
    }

    R.W[0] = 1;
    for (l = 1; l <= H.h; l++)
        R.W[l] = R.W[l - 1] * (uint64_t)H.w[l];
    for (e = 0; e < g->nedges; e++) {
        uint32_t a = map[g->eu[order[e]]], b = map[g->ev[order[e]]];
        int kdown[LCAN_MAX_LEVELS + 1];
        uint32_t dm;
        uint64_t ds;
        if (port != NULL)
            port[2 * (size_t)order[e]] = port[2 * (size_t)order[e] + 1] = 0;
        if (a == b)
            continue;
        R.L = lcan_topo_lca_level(t, a, b);
        leaf_digits(&H, a, R.da);
        leaf_digits(&H, b, R.db);
        for (l = H.h; l >= 1; l--) {
            R.Aa[l] = l == H.h ? 0 : R.Aa[l + 1] * (uint64_t)H.m[l + 1] + (uint64_t)R.da[l + 1];
            R.Ab[l] = l == H.h ? 0 : R.Ab[l + 1] * (uint64_t)H.m[l + 1] + (uint64_t)R.db[l + 1];
        }
        R.have_best = 0;
        if (exhaustive[R.L]) {
            search(&R, 1, 0, 0);
        } else {
            greedy_up(&R);
            res->greedy_levels = 1;
        }
        memcpy(R.cur, R.best, sizeof R.cur);
        down_cost(&R, &dm, &ds, kdown);
        if (port != NULL) { /* leaf port y_1 * p_1 + k (spec 2.3) */
            port[2 * (size_t)order[e]] = (uint16_t)R.cur[1];
            port[2 * (size_t)order[e] + 1] = (uint16_t)((R.cur[1] / H.p[1]) * H.p[1] + kdown[1]);
        }
        for (l = 1; l <= R.L; l++) {
            uint64_t b = choice_index(&R, l);
            R.load[l][link_id(&H, l, b + R.W[l] * R.Aa[l], R.da[l], R.cur[l] % H.p[l])]++;
            R.load[l][link_id(&H, l, b + R.W[l] * R.Ab[l], R.db[l], kdown[l])]++;
        }
        if (2 * R.L > res->dilation)
            res->dilation = 2 * R.L;
        sumlen += 2u * (uint64_t)R.L;
    }
    for (l = 1; l <= H.h; l++) {
        uint64_t i, n = lcan_topo_links(t, l);
        for (i = 0; i < n; i++)
            if (R.load[l][i] > res->congestion_level[l])
                res->congestion_level[l] = R.load[l][i];
        if (res->congestion_level[l] > res->congestion)
            res->congestion = res->congestion_level[l];
    }
    res->avg_dilation = g->nedges ? (double)sumlen / (double)g->nedges : 0;
    st = LCAN_OK;
done:
    for (l = 1; l <= H.h; l++)
        free(R.load[l]);
    free(order);
    free(cnt);
    return st;
}

/* ------------------------------------------------------------------ exchange on any engine */

void lcan_embed_exchange_cfg(const lcan_guest *g, const uint32_t *map, int *payload_w, int *depth)
{
    uint64_t npk = 0;
    uint32_t e;
    for (e = 0; e < g->nedges; e++)
        if (map[g->eu[e]] != map[g->ev[e]])
            npk += 2;
    if (payload_w != NULL)
        *payload_w = npk > 65535 ? 32 : 16; /* message numbers 0..npk-1 */
    if (depth != NULL)
        *depth = 4;
}

/* Flit packing of spec 3 without a model handle (the engine may be the RTL): payload in the low
 * PAYLOAD_W bits, then the ADDR_W destination bits, then bcast and head (both 0 here). */
typedef struct {
    int pw, aw;
    uint64_t pmask, amask;
} exch_flit;

lcan_status lcan_embed_exchange_run(const lcan_topo *t, const lcan_guest *g, const uint32_t *map,
                                    const uint16_t *port, int payload_w, uint32_t net_seed, uint64_t max_ticks,
                                    lcan_tick_fn tick, void *engine, lcan_embed_exchange_result *res)
{
    uint32_t N = lcan_topo_leaves(t), U0 = (uint32_t)lcan_topo_leaf_ports(t), NP = lcan_topo_ports(t);
    uint32_t *first = NULL, *head = NULL, *msg = NULL, *src = NULL, *dst = NULL, *qof = NULL, e, x, q, NQ;
    uint8_t *seen = NULL, *inj_valid = NULL, *inj_ready = NULL, *inj_ack = NULL, *ej_valid = NULL, *ej_ack = NULL;
    uint64_t *inj_flit = NULL, *ej_flit = NULL, tk, have = 0, done_at = 0, npk = 0;
    exch_flit fl;
    lcan_in in;
    lcan_out out;
    lcan_status st = LCAN_ERR_NOMEM;
    int h = lcan_topo_levels(t);

    memset(res, 0, sizeof *res);
    for (x = 0; x < g->nodes; x++)
        if (map[x] >= N)
            return LCAN_ERR_ARG;
    for (e = 0; e < g->nedges; e++)
        if (map[g->eu[e]] != map[g->ev[e]])
            npk += 2;
    fl.pw = payload_w;
    fl.aw = lcan_topo_addr_width(t);
    if (payload_w < 1 || payload_w > 32 || (npk > 0 && ((npk - 1) >> payload_w) != 0))
        return LCAN_ERR_ARG; /* the message numbers do not fit the engine's payload */
    fl.pmask = ((uint64_t)1 << payload_w) - 1u;
    fl.amask = ((uint64_t)1 << fl.aw) - 1u;
    NQ = port != NULL ? NP : N; /* one queue per leaf port (path ports) or per leaf */
    first = calloc((size_t)NQ + 1, sizeof *first);
    head = calloc((size_t)NQ + 1, sizeof *head);
    qof = malloc((size_t)(npk ? npk : 1) * sizeof *qof);
    msg = malloc((size_t)(npk ? npk : 1) * sizeof *msg);
    src = malloc((size_t)(npk ? npk : 1) * sizeof *src);
    dst = malloc((size_t)(npk ? npk : 1) * sizeof *dst);
    seen = calloc((size_t)(npk ? npk : 1), 1);
    inj_valid = calloc(NP, 1);
    inj_ready = calloc(NP, 1);
    inj_ack = calloc(NP, 1);
    ej_valid = calloc(NP, 1);
    ej_ack = calloc(NP, 1);
    inj_flit = calloc(NP, sizeof *inj_flit);
    ej_flit = calloc(NP, sizeof *ej_flit);
    if (!first || !head || !qof || !msg || !src || !dst || !seen || !inj_valid || !inj_ready || !inj_ack || !ej_valid ||
        !ej_ack || !inj_flit || !ej_flit)
        goto done;
    /* packets u -> v and v -> u of every edge between two leaves, numbered densely in edge order;
     * one list per queue (CSR) */
    npk = 0;
    for (e = 0; e < g->nedges; e++) {
        uint32_t a = map[g->eu[e]], b = map[g->ev[e]];
        if (a == b)
            continue;
        src[npk] = a, dst[npk] = b;
        qof[npk] = port != NULL ? a * U0 + (port[2 * (size_t)e] % U0) : a;
        npk++;
        src[npk] = b, dst[npk] = a;
        qof[npk] = port != NULL ? b * U0 + (port[2 * (size_t)e + 1] % U0) : b;
        npk++;
    }
    for (e = 0; e < npk; e++)
        first[qof[e] + 1]++;
    for (x = 0; x < NQ; x++)
        first[x + 1] += first[x];
    memcpy(head, first, (size_t)NQ * sizeof *head);
    for (e = 0; e < npk; e++)
        msg[head[qof[e]]++] = e;
    memcpy(head, first, (size_t)NQ * sizeof *head);

    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in.inj_valid = inj_valid;
    in.inj_flit = inj_flit;
    in.ej_ack = ej_ack;
    out.inj_ready = inj_ready;
    out.inj_ack = inj_ack;
    out.ej_valid = ej_valid;
    out.ej_flit = ej_flit;
    if (max_ticks == 0)
        max_ticks = 1000u + (npk + N) * (uint64_t)(4 * h + 8) * 2u;
    in.rst = 1;
    in.seed = net_seed;
    if ((st = tick(engine, &in, &out)) != LCAN_OK)
        goto done;
    in.rst = 0;
    res->packets = npk;
    for (tk = 1; tk <= max_ticks; tk++) {
        memset(inj_valid, 0, NP);
        memset(inj_flit, 0, (size_t)NP * sizeof *inj_flit);
        for (x = 0; x < NQ; x++) {
            /* queue x: leaf x's ports in order, or port x only */
            uint32_t p = port != NULL ? x % U0 : 0, pend = port != NULL ? p + 1 : U0, leaf = port != NULL ? x / U0 : x;
            for (; p < pend && head[x] < first[x + 1]; p++) {
                uint32_t m = msg[head[x]];
                q = leaf * U0 + p;
                if (!inj_ready[q])
                    continue;
                inj_valid[q] = 1;
                inj_flit[q] = ((uint64_t)m & fl.pmask) | ((uint64_t)lcan_topo_pack(t, dst[m]) << fl.pw);
                head[x]++;
            }
            if (head[x] < first[x + 1])
                res->backlog++;
        }
        if ((st = tick(engine, &in, &out)) != LCAN_OK)
            goto done;
        for (q = 0; q < NP; q++) {
            uint64_t f;
            uint32_t m;
            if (!ej_valid[q])
                continue;
            f = ej_flit[q];
            m = (uint32_t)(f & fl.pmask);
            have++;
            if (m >= npk || seen[m] || dst[m] != q / U0 || ((f >> fl.pw) & fl.amask) != lcan_topo_pack(t, q / U0) ||
                (f >> (fl.pw + fl.aw)) != 0) {
                res->errors++;
                continue;
            }
            seen[m] = 1;
            res->steps = tk;
        }
        if (have >= npk) {
            if (done_at == 0)
                done_at = tk;
            if (tk >= done_at + (uint64_t)(2 * h + 4))
                break;
        }
    }
    st = have < npk ? LCAN_ERR_STALL : LCAN_OK;
    for (e = 0; e < npk; e++)
        if (!seen[e])
            res->errors++;
done:
    free(first);
    free(head);
    free(qof);
    free(msg);
    free(src);
    free(dst);
    free(seen);
    free(inj_valid);
    free(inj_ready);
    free(inj_ack);
    free(ej_valid);
    free(ej_ack);
    free(inj_flit);
    free(ej_flit);
    return st;
}

lcan_status lcan_embed_exchange(const lcan_topo *t, const lcan_guest *g, const uint32_t *map, const uint16_t *port,
                                uint32_t net_seed, uint64_t max_ticks, lcan_embed_exchange_result *res)
{
    lcan_net *net = NULL;
    lcan_cfg cfg;
    lcan_status st;

    memset(res, 0, sizeof *res);
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    lcan_embed_exchange_cfg(g, map, &cfg.payload_w, &cfg.depth);
    if ((st = lcan_net_new(t, &cfg, &net)) != LCAN_OK)
        return st;
    st = lcan_embed_exchange_run(t, g, map, port, cfg.payload_w, net_seed, max_ticks, lcan_net_engine_tick, net, res);
    lcan_net_free(net);
    return st;
}
