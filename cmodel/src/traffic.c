/*
 * traffic.c - the open-loop traffic driver of lcan_traffic.h (packet mode, any engine).
 *
 * Per node: a splitmix64 stream, the tick of its next packet creation (geometric gaps, or the
 * on/off process), an unbounded FIFO source queue. Per tag (the flit's payload): the packet in
 * flight, recycled in FIFO order. Latencies are kept as exact counts per value, so percentiles
 * are exact (nearest rank: the smallest x with at least ceil(q * n) packets <= x).
 *
 * Faults (o->faults, spec 14.4-14.5): from tick T = max(1, fault_at) the fault pins are presented
 * on every tick and the rows that differ from all ones are written on T, T+1, ..; from T on the
 * driver's reach view is the fault set's (before T: none). A static fault set (fault_at <= 1) is in
 * place before the first injection: packets are created from tick 1 but wait in their queues until
 * the last row is written (as circuit pass 0 does). A unicast whose pair is cut in the view
 * in force is not created (cut); at T the queued ones whose pair became cut are removed (discarded);
 * a packet is injected only on a port usable for its destination. Packets dropped in the network
 * (cnt_drop) cannot be told apart, so the measured drain ends when every measured packet still out
 * may have been dropped (meas_out <= dropped), and the run then always empties the network (as
 * drain_all) until injected = delivered + dropped.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bytemask.h"
#include "geo.h"
#include "json.h"
#include "lcan_faults.h"
#include "lcan_traffic.h"
#include "rng.h"
#include "status.h"

enum { TP_UNIFORM, TP_PERM, TP_HOTSPOT, TP_MATRIX };

struct lcan_traffic_pattern {
    char name[256];
    int kind;
    uint32_t N;
    uint32_t *perm;  /* TP_PERM: destination of each source */
    double *cdf;     /* TP_MATRIX: N rows of cumulative weights, last = 1 (or 0: silent row) */
    uint32_t hot;
    double hot_frac;
};

static int is_pow2(uint32_t n) { return n >= 1 && (n & (n - 1u)) == 0; }

/* Numbers of a pattern file ('#' comments); returns the count, -1 on a bad token. */
static long read_numbers(const char *text, double **out)
{
    size_t cap = 64, n = 0;
    double *v = malloc(cap * sizeof *v);
    const char *s = text;
    if (v == NULL)
        return -2;
    while (*s) {
        char *end;
        double x;
        if (isspace((unsigned char)*s) || *s == ',') {
            s++;
            continue;
        }
        if (*s == '#') {
            while (*s && *s != '\n')
                s++;
            continue;
        }
        x = strtod(s, &end);
        if (end == s || !isfinite(x) || x < 0) {
            free(v);
            return -1;
        }
        if (n == cap) {
            double *nv = realloc(v, 2 * cap * sizeof *v);
            if (nv == NULL) {
                free(v);
                return -2;
            }
            v = nv;
            cap *= 2;
        }
        v[n++] = x;
        s = end;
    }
    *out = v;
    return (long)n;
}

static lcan_status pattern_file(lcan_traffic_pattern *p, const char *path, const char *text, char *err,
                                size_t errlen)
{
    double *v = NULL;
    uint32_t N = p->N, s, d;
    long n;
    if (text == NULL)
        return lcan_fail(err, errlen, LCAN_ERR_ARG, "pattern file:%s: no file contents given", path);
    n = read_numbers(text, &v);
    if (n == -2)
        return lcan_fail(err, errlen, LCAN_ERR_NOMEM, "out of memory");
    if (n < 0)
        return lcan_fail(err, errlen, LCAN_ERR_PATTERN, "pattern file:%s: not a list of non-negative numbers", path);
    if ((uint64_t)n == N) {
        p->kind = TP_PERM;
        p->perm = malloc(N * sizeof *p->perm);
        if (p->perm == NULL) {
            free(v);
            return lcan_fail(err, errlen, LCAN_ERR_NOMEM, "out of memory");
        }
        for (s = 0; s < N; s++) {
            if (v[s] != floor(v[s]) || v[s] >= N) {
                free(v);
                return lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                            "pattern file:%s: destination %u is %g, not a leaf 0..%u", path, s, v[s], N - 1);
            }
            p->perm[s] = (uint32_t)v[s];
        }
    } else if ((uint64_t)n == (uint64_t)N * N) {
        p->kind = TP_MATRIX;
        p->cdf = malloc((size_t)N * N * sizeof *p->cdf);
        if (p->cdf == NULL) {
            free(v);
            return lcan_fail(err, errlen, LCAN_ERR_NOMEM, "out of memory");
        }
        for (s = 0; s < N; s++) {
            double sum = 0, acc = 0;
            for (d = 0; d < N; d++)
                sum += v[(size_t)s * N + d];
            for (d = 0; d < N; d++) {
                acc += v[(size_t)s * N + d];
                p->cdf[(size_t)s * N + d] = sum > 0 ? acc / sum : 0.0;
            }
            if (sum > 0)
                p->cdf[(size_t)s * N + N - 1] = 1.0;
        }
    } else {
        free(v);
        return lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                    "pattern file:%s: %ld numbers; expected %u (destination list) or %llu (traffic matrix)", path, n,
                    N, (unsigned long long)N * N);
    }
    free(v);
    return LCAN_OK;
}

lcan_status lcan_traffic_pattern_new(const lcan_topo *t, const char *name, const char *file_text,
                                     lcan_traffic_pattern **out, char *err, size_t errlen)
{
    lcan_traffic_pattern *p;
    lcan_status st = LCAN_OK;
    uint32_t N, s;
    if (out == NULL)
        return LCAN_ERR_ARG;
    *out = NULL;
    if (t == NULL || name == NULL)
        return lcan_fail(err, errlen, LCAN_ERR_ARG, "no network or pattern");
    if (strlen(name) >= sizeof p->name)
        return lcan_fail(err, errlen, LCAN_ERR_PATTERN, "pattern name too long");
    p = calloc(1, sizeof *p);
    if (p == NULL)
        return lcan_fail(err, errlen, LCAN_ERR_NOMEM, "out of memory");
    strcpy(p->name, name);
    N = p->N = lcan_topo_leaves(t);
    if (strcmp(name, "uniform") == 0) {
        p->kind = TP_UNIFORM;
    } else if (strncmp(name, "hotspot:", 8) == 0) {
        char *end;
        unsigned long node = strtoul(name + 8, &end, 10);
        double f;
        if (end == name + 8 || *end != ':' || !isdigit((unsigned char)name[8])) {
            st = lcan_fail(err, errlen, LCAN_ERR_PATTERN, "pattern '%s': expected hotspot:NODE:FRACTION", name);
        } else {
            const char *fs = end + 1;
            f = strtod(fs, &end);
            if (end == fs || *end != '\0' || !(f >= 0 && f <= 1))
                st = lcan_fail(err, errlen, LCAN_ERR_PATTERN, "pattern '%s': FRACTION must be a number in 0..1", name);
            else if (node >= N)
                st = lcan_fail(err, errlen, LCAN_ERR_PATTERN, "pattern '%s': NODE %lu is not a leaf (0..%u)", name, node,
                          N - 1);
            p->kind = TP_HOTSPOT;
            p->hot = (uint32_t)node;
            p->hot_frac = f;
        }
    } else if (strncmp(name, "file:", 5) == 0) {
        st = pattern_file(p, name + 5, file_text, err, errlen);
    } else {
        p->kind = TP_PERM;
        p->perm = malloc(N * sizeof *p->perm);
        if (p->perm == NULL) {
            st = lcan_fail(err, errlen, LCAN_ERR_NOMEM, "out of memory");
        } else if (strcmp(name, "bitcomp") == 0) {
            if (!is_pow2(N))
                st = lcan_fail(err, errlen, LCAN_ERR_PATTERN, "pattern bitcomp needs a power-of-two number of leaves (%u)", N);
            for (s = 0; s < N; s++)
                p->perm[s] = ~s & (N - 1u);
        } else if (strcmp(name, "neighbor") == 0) {
            for (s = 0; s < N; s++)
                p->perm[s] = (s + 1u) % N;
        } else if (strcmp(name, "tornado") == 0) {
            int h = lcan_topo_levels(t), l;
            for (s = 0; s < N; s++) {
                uint32_t rest = s, w = 1, d = 0;
                for (l = 1; l <= h; l++) {
                    uint32_t m = (uint32_t)lcan_topo_m(t, l), x = rest % m;
                    rest /= m;
                    d += ((x + (m + 1u) / 2u - 1u) % m) * w;
                    w *= m;
                }
                p->perm[s] = d;
            }
        } else if (strcmp(name, "bitrev") == 0 || strcmp(name, "transpose") == 0 || strcmp(name, "shuffle") == 0) {
            uint64_t rng = 0;
            st = lcan_pattern(t, name, &rng, p->perm, err, errlen);
        } else {
            st = lcan_fail(err, errlen, LCAN_ERR_PATTERN,
                      "pattern '%s' is not one of uniform bitcomp bitrev transpose shuffle tornado neighbor "
                      "hotspot:NODE:FRACTION file:PATH", name);
        }
    }
    if (st != LCAN_OK) {
        lcan_traffic_pattern_free(p);
        return st;
    }
    *out = p;
    return LCAN_OK;
}

void lcan_traffic_pattern_free(lcan_traffic_pattern *p)
{
    if (p == NULL)
        return;
    free(p->perm);
    free(p->cdf);
    free(p);
}

const char *lcan_traffic_pattern_name(const lcan_traffic_pattern *p) { return p ? p->name : ""; }

void lcan_traffic_opts_default(lcan_traffic_opts *o)
{
    if (o == NULL)
        return;
    memset(o, 0, sizeof *o);
    o->load = 0.1;
    o->warmup = 10000;
    o->measure = 10000;
    o->seed = 1;
    o->payload_w = 16;
    o->depth = 4;
    o->up_choice = LCAN_UP_UNIFORM;
}

/* ------------------------------------------------------------------ the driver */

typedef struct {
    uint64_t created;
    uint32_t dest; /* leaf, or the tree index of a broadcast */
    uint8_t bcast, lca, measured; /* measured: created in the measurement window */
} pkt;

typedef struct {
    pkt *q;
    uint32_t cap, head, count;
    uint64_t next;   /* tick of the next creation (UINT64_MAX: never) */
    uint64_t on_end; /* on/off: last tick of the current ON period */
    uint64_t rng;
    uint32_t rr, bseq;
} node;

typedef struct { /* 32 bytes: a tag's slot is touched once per injection, cold (FIFO recycling) */
    uint64_t created, injected;
    uint32_t dest, remaining;
    uint8_t used, bcast, measured, lca;
} slot;

typedef struct {
    uint64_t *v;     /* v[x]: how many values x; per packet only this is counted */
    uint64_t len, n, sum, min, max; /* n, sum, min, max: from v, by counts_finish */
} counts;

/* The per-packet helpers of the driver's loop, inlined into it. */
#if defined(__GNUC__)
#define HOT_INLINE __attribute__((always_inline))
#else
#define HOT_INLINE
#endif

HOT_INLINE static inline int counts_add(counts *c, uint64_t x)
{
    if (x >= c->len) {
        uint64_t nl = c->len ? c->len : 64;
        uint64_t *nv;
        while (nl <= x)
            nl *= 2;
        nv = realloc(c->v, nl * sizeof *nv);
        if (nv == NULL)
            return -1;
        memset(nv + c->len, 0, (nl - c->len) * sizeof *nv);
        c->v = nv;
        c->len = nl;
    }
    c->v[x]++;
    return 0;
}

/* n, sum, min and max of the values counted (min = max = 0 when none). */
static void counts_finish(counts *c)
{
    uint64_t x;
    c->n = c->sum = c->min = c->max = 0;
    for (x = 0; x < c->len; x++)
        if (c->v[x] != 0) {
            if (c->n == 0)
                c->min = x;
            c->max = x;
            c->n += c->v[x];
            c->sum += x * c->v[x];
        }
}

static uint64_t counts_pct(const counts *c, double q)
{
    uint64_t rank, cum = 0, x;
    if (c->n == 0)
        return 0;
    rank = (uint64_t)ceil(q * (double)c->n);
    if (rank < 1)
        rank = 1;
    for (x = c->min; x <= c->max; x++) {
        cum += c->v[x];
        if (cum >= rank)
            return x;
    }
    return c->max;
}

static double urand(uint64_t *rng) { return unit_of(lcan_rng_next_inl(rng)); }

/* Exactly uniform in 0..n-1 (1 <= n < 2^32): Lemire's multiply-and-shift on the high 32 bits of a
 * draw, rejecting the low products below 2^32 mod n (a division only in that rare case). */
HOT_INLINE static inline uint32_t uniform_n(uint64_t *rng, uint32_t n)
{
    uint64_t m = (lcan_rng_next_inl(rng) >> 32) * (uint64_t)n;
    if ((uint32_t)m < n) {
        uint32_t t = (0u - n) % n;
        while ((uint32_t)m < t)
            m = (lcan_rng_next_inl(rng) >> 32) * (uint64_t)n;
    }
    return (uint32_t)(m >> 32);
}

typedef struct {
    const lcan_topo *t;
    const lcan_traffic_pattern *p;
    const lcan_traffic_opts *o;
    uint32_t N, NP, nslot, sfree_head, sfree_count;
    int U0, p1, w1, h, pw, aw;
    uint64_t pmask, amask;
    /* the options the per-packet steps test, as plain flags (a double or the pattern read through
     * its pointer costs a load and a compare more on every packet) */
    int kind, bursty, bcasts; /* p->kind; o->burst > 0; o->bcast > 0 && w1 > 0 */
    uint32_t *packed;
    uint64_t *dfield;  /* per leaf: its packed address in the flit's dest field ((packed & amask) << pw) */
    uint32_t *leaf_of; /* per network port: its leaf (port / U0, without a division per packet) */
    int level_of_bit[64];
    node *nodes;
    slot *slots;
    uint8_t **seen; /* per slot, broadcasts only: the leaves that got their copy */
    uint32_t *sfree;
    double on_q, off_q; /* on/off: end probability of ON per tick, OFF length parameter */
    geo_tab geo_load, geo_on, geo_off; /* the gaps: Bernoulli, on/off's ON and OFF lengths */
    uint32_t *wheel, *wlink; /* creation calendar: bucket (tick mod WHEEL) -> list of nodes */
    uint32_t *busy, nbusy;   /* nodes with a non-empty source queue, in the order they became so */
    uint64_t *ej_uni, *ej_bc;
    counts lat, net;
    uint64_t zero_sum, meas_out, inflight, queued;
    const lcan_reach *reach; /* the fault view in force (NULL: none) */
    uint64_t cut;            /* creations refused because the pair is cut */
} drv;

#define WHEEL 4096u

/* Tags are recycled in FIFO order over nslot (up to 2^16) slots, so the slot an injection takes was
 * last touched about nslot injections ago: a cache miss on every packet. Its number is known early
 * (the free list's order), so the slot TAG_AHEAD injections ahead is fetched while this one is made. */
#define TAG_AHEAD 8u
/* Past saturation the source queues grow long and their head and tail lines go cold; they move
 * one packet at a time, so the entries QUEUE_AHEAD further on are fetched as they go. */
#define QUEUE_AHEAD 8u
#if defined(__GNUC__)
#define PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH_W(p) ((void)(p))
#endif

static void wheel_put(drv *d, uint32_t s)
{
    uint64_t nx = d->nodes[s].next;
    uint32_t *b;
    if (nx == UINT64_MAX)
        return;
    b = &d->wheel[nx % WHEEL];
    d->wlink[s] = *b;
    *b = s;
}

static int lca_of(const drv *d, uint32_t s, uint32_t t)
{
    uint32_t x = d->packed[s] ^ d->packed[t];
    int b = 31;
    if (x == 0)
        return 1;
#if defined(__GNUC__)
    b = 31 - __builtin_clz(x);
#else
    while (!((x >> b) & 1u))
        b--;
#endif
    return d->level_of_bit[b];
}

HOT_INLINE static inline uint32_t draw_dest(drv *d, node *nd, uint32_t s)
{
    const lcan_traffic_pattern *p = d->p;
    switch (d->kind) {
    case TP_PERM:
        return p->perm[s];
    case TP_HOTSPOT:
        if (urand(&nd->rng) < p->hot_frac)
            return p->hot;
        return uniform_n(&nd->rng, d->N);
    case TP_MATRIX: {
        const double *row = p->cdf + (size_t)s * d->N;
        double u = urand(&nd->rng);
        uint32_t lo = 0, hi = d->N - 1;
        while (lo < hi) { /* first d with row[d] > u */
            uint32_t mid = lo + (hi - lo) / 2;
            if (row[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    }
    default:
        return uniform_n(&nd->rng, d->N);
    }
}

/* The tick after `now` on which node nd creates its next packet. */
HOT_INLINE static inline uint64_t next_creation(drv *d, node *nd, uint64_t now)
{
    if (!d->bursty)
        return now + geometric(&nd->rng, &d->geo_load);
    if (now < nd->on_end)
        return now + 1;
    {
        uint64_t start = now + 1 + geometric(&nd->rng, &d->geo_off);
        nd->on_end = start + geometric(&nd->rng, &d->geo_on) - 1;
        return start;
    }
}

/* Double a full source queue (its capacity stays a power of two). */
static int grow(node *nd)
{
    uint32_t nc = nd->cap ? 2 * nd->cap : 16, i;
    pkt *nq = malloc((size_t)nc * sizeof *nq);
    if (nq == NULL)
        return -1;
    for (i = 0; i < nd->count; i++)
        nq[i] = nd->q[(nd->head + i) % nd->cap];
    free(nd->q);
    nd->q = nq;
    nd->head = 0;
    nd->cap = nc;
    return 0;
}

/* The draws of the packet node s creates at tick now, into *k: 0, or 1 when it is not created (a
 * unicast whose pair is cut); window: now is in the measurement window (the packet is measured). A
 * measured broadcast counts in *bcast_packets. */
HOT_INLINE static inline int draw_pkt(drv *d, node *nd, uint32_t s, uint64_t now, int window,
                                      uint64_t *bcast_packets, pkt *k)
{
    k->created = now;
    k->measured = (uint8_t)window;
    k->bcast = 0;
    if (d->reach != NULL) { /* faults: no broadcasts (refused); draw the destination first */
        uint32_t dest = draw_dest(d, nd, s);
        if (lcan_reach_cut(d->reach, s, dest)) {
            d->cut++;
            return 1;
        }
        k->dest = dest;
        k->lca = (uint8_t)lca_of(d, s, dest);
        return 0;
    }
    if (d->bcasts && urand(&nd->rng) < d->o->bcast) {
        k->bcast = 1;
        k->dest = nd->bseq++ % (uint32_t)d->w1;
        k->lca = (uint8_t)d->h;
        *bcast_packets += (uint64_t)window;
    } else {
        k->dest = draw_dest(d, nd, s);
        k->lca = (uint8_t)lca_of(d, s, k->dest);
    }
    return 0;
}

/* Packet *k joins the tail of node nd's source queue: 0, or -1 out of memory. */
HOT_INLINE static inline int enqueue(drv *d, node *nd, const pkt *k)
{
    if (nd->count == nd->cap && grow(nd) != 0)
        return -1;
    nd->q[(nd->head + nd->count) & (nd->cap - 1u)] = *k; /* cap: a power of two */
    PREFETCH_W(&nd->q[(nd->head + nd->count + QUEUE_AHEAD) & (nd->cap - 1u)]);
    nd->count++;
    d->queued++;
    return 0;
}

/* The network port node s's packet *k can be injected on at this tick (ready, not taken on this
 * tick, under faults usable for its destination), UINT32_MAX if none; a unicast takes the ports in
 * turn from nd->rr. */
HOT_INLINE static inline uint32_t pick_port(drv *d, node *nd, uint32_t s, const pkt *k, const uint8_t *ready,
                                            const uint8_t *iv)
{
    uint32_t base = s * (uint32_t)d->U0;
    int j;
    if (k->bcast) {
        uint32_t qq = base + k->dest * (uint32_t)d->p1;
        return ready[qq] && !iv[qq] ? qq : UINT32_MAX;
    }
    if (d->U0 == 1) /* one port per leaf (k-ary n-trees): rr stays 0 */
        return ready[base] && !iv[base] && (d->reach == NULL || lcan_reach_port_usable(d->reach, s, 0, k->dest))
                   ? base
                   : UINT32_MAX;
    for (j = 0; j < d->U0; j++) {
        uint32_t jj = nd->rr + (uint32_t)j; /* (rr + j) mod U0 */
        jj -= (uint32_t)d->U0 & (0u - (uint32_t)(jj >= (uint32_t)d->U0));
        if (ready[base + jj] && !iv[base + jj] &&
            (d->reach == NULL || lcan_reach_port_usable(d->reach, s, (int)jj, k->dest))) {
            nd->rr = jj + 1u == (uint32_t)d->U0 ? 0 : jj + 1u;
            return base + jj;
        }
    }
    return UINT32_MAX;
}

/* Packet *k leaves on network port `port` at tick now with the next free tag (the caller checked
 * there is one): the tag's slot, the injection inputs. 0, or -1 out of memory. */
HOT_INLINE static inline int inject(drv *d, const pkt *k, uint32_t port, uint64_t now, uint8_t *iv, uint64_t *iflit,
                                    uint32_t *used_ports, uint32_t *nused)
{
    uint32_t tag = d->sfree[d->sfree_head];
    slot *sl;
    PREFETCH_W(&d->slots[d->sfree[(d->sfree_head + TAG_AHEAD) & (d->nslot - 1u)]]);
    d->sfree_head = (d->sfree_head + 1u) & (d->nslot - 1u); /* nslot: a power of two */
    d->sfree_count--;
    sl = &d->slots[tag];
    sl->used = 1;
    sl->bcast = k->bcast;
    sl->created = k->created;
    sl->injected = now;
    sl->dest = k->dest;
    sl->lca = k->lca;
    sl->measured = k->measured;
    sl->remaining = k->bcast ? d->N : 1u;
    if (k->bcast && (d->seen[tag] = calloc(d->N, 1)) == NULL)
        return -1;
    iv[port] = 1;
    /* (tag < nslot <= 2^PAYLOAD_W: the payload field as it is) */
    iflit[port] = (uint64_t)tag | (k->bcast ? (((uint64_t)k->dest & d->amask) | (d->amask + 1u)) << d->pw
                                            : d->dfield[k->dest]);
    used_ports[(*nused)++] = port;
    d->inflight++;
    return 0;
}

/* At the tick the faults apply: remove the queued packets whose pair is now cut. */
static void discard_cut(drv *d, uint64_t W, uint64_t M, lcan_traffic_result *res)
{
    uint32_t s, i;
    for (s = 0; s < d->N; s++) {
        node *nd = &d->nodes[s];
        uint32_t n = 0;
        for (i = 0; i < nd->count; i++) {
            pkt *k = &nd->q[(nd->head + i) & (nd->cap - 1u)];
            if (lcan_reach_cut(d->reach, s, k->dest)) {
                res->discarded++;
                d->queued--;
                if (k->created > W && k->created <= W + M)
                    d->meas_out--;
                continue;
            }
            nd->q[(nd->head + n) & (nd->cap - 1u)] = *k;
            n++;
        }
        nd->count = n;
    }
}

static void drv_free(drv *d)
{
    uint32_t i;
    if (d->nodes)
        for (i = 0; i < d->N; i++)
            free(d->nodes[i].q);
    if (d->seen)
        for (i = 0; i < d->nslot; i++)
            if (d->seen[i] != NULL) /* (broadcasts in flight only: most of the 2^16 are NULL) */
                free(d->seen[i]);
    free(d->nodes);
    free(d->wheel);
    free(d->wlink);
    free(d->busy);
    free(d->slots);
    free(d->seen);
    free(d->sfree);
    free(d->packed);
    free(d->dfield);
    free(d->leaf_of);
    free(d->ej_uni);
    free(d->ej_bc);
    free(d->lat.v);
    free(d->net.v);
}

/* How many tags (slots) the driver keeps: at least 4x what the network can hold (every switch port's
 * FIFO and flit register, every injection and ej register), so that the packets in flight - and
 * under faults the ones dropped inside the network, whose slots are never freed - cannot use them
 * all (an injection would then wait: tag_stalls), at least 1,024, a power of two, at most
 * 2^min(PAYLOAD_W, 20) (a tag is the flit's payload). Not more: the table is touched once per
 * injection, cold, and a 2^16-slot table (2 MB) cost a 20,000-tick run of kary(4,3) about 9 % of
 * its time in page faults and misses (docs/traffic.md). A flit that comes back after its slot was
 * reused is still caught: as misrouted, or (same leaf) as the duplicate of the packet that reused it. */
static uint32_t tag_slots(const lcan_topo *t, const lcan_traffic_opts *o)
{
    uint64_t cap = 2u * (uint64_t)lcan_topo_ports(t), want = 1024;
    uint32_t most = 1u << (o->payload_w < 20 ? o->payload_w : 20);
    int l;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        cap += (uint64_t)lcan_topo_switches(t, l) *
               (uint64_t)(lcan_topo_downers(t, l) + lcan_topo_uppers(t, l)) * ((uint64_t)o->depth + 1u);
    while (want < 4u * cap && want < most)
        want *= 2;
    return want < most ? (uint32_t)want : most;
}

/* A packet is fully delivered at tick now. */
HOT_INLINE static inline int deliver(drv *d, slot *sl, uint64_t now, uint64_t W, uint64_t M,
                                     lcan_traffic_result *res)
{
    (void)W;
    (void)M;
    res->delivered++;
    d->inflight--;
    if (sl->measured) {
        d->meas_out--;
        if (counts_add(&d->lat, now - sl->created) || counts_add(&d->net, now - sl->injected))
            return -1;
        d->zero_sum += 2u * sl->lca - 1u;
    }
    if (sl->bcast) {
        free(d->seen[sl - d->slots]);
        d->seen[sl - d->slots] = NULL;
    }
    sl->used = 0;
    d->sfree[(d->sfree_head + d->sfree_count) & (d->nslot - 1u)] = (uint32_t)(sl - d->slots);
    d->sfree_count++;
    return 0;
}

lcan_status lcan_traffic_run(const lcan_topo *t, const lcan_traffic_pattern *p, const lcan_traffic_opts *o,
                             lcan_tick_fn tick, void *engine, lcan_traffic_result *res)
{
    drv d;
    lcan_in in;
    lcan_out out;
    uint8_t *iv = NULL, *ready = NULL, *ejv = NULL, *ack = NULL, *iack = NULL;
    uint64_t *iflit = NULL, *ejf = NULL;
    uint32_t *used_ports = NULL, nused = 0, s, q, i, base;
    uint64_t W, M, now, drain_max, phase_end, max_queued, fault_T = 0;
    uint32_t cnt_drop[LCAN_MAX_LEVELS];
    lcan_reach *rf = NULL;
    lcan_fault_sched sched = {NULL, 0};
    lcan_status st = LCAN_OK;
    int l, phase; /* 0 traffic, 1 drain measured (creating), 2 drain all (not creating) */
    int drain_all = o != NULL && (o->drain_all || o->faults != NULL);

    if (t == NULL || p == NULL || o == NULL || tick == NULL || res == NULL || p->N != lcan_topo_leaves(t) ||
        !(o->load > 0 && o->load <= 1) || !(o->bcast >= 0 && o->bcast <= 1) || o->measure < 1 ||
        !(o->burst == 0 || (o->burst >= 1 && o->load < 1)) || o->payload_w < 1 || o->payload_w > 32 ||
        (o->faults != NULL && o->bcast > 0))
        return LCAN_ERR_ARG;
    memset(&d, 0, sizeof d);
    memset(res, 0, sizeof *res);
    memset(cnt_drop, 0, sizeof cnt_drop);
    res->load = o->load;
    d.t = t;
    d.p = p;
    d.o = o;
    d.N = lcan_topo_leaves(t);
    d.NP = lcan_topo_ports(t);
    d.U0 = lcan_topo_leaf_ports(t);
    d.p1 = lcan_topo_p(t, 1);
    d.w1 = lcan_topo_w(t, 1);
    d.h = lcan_topo_levels(t);
    d.pw = o->payload_w;
    d.aw = lcan_topo_addr_width(t);
    d.pmask = ((uint64_t)1 << d.pw) - 1u;
    d.amask = ((uint64_t)1 << d.aw) - 1u;
    d.nslot = tag_slots(t, o);
    W = o->warmup;
    M = o->measure;
    drain_max = o->drain_max ? o->drain_max : (10 * (W + M) > 10000 ? 10 * (W + M) : 10000);
    max_queued = o->max_queued ? o->max_queued : (uint64_t)1 << 24;
    if (o->burst > 0) {
        d.on_q = 1.0 / o->burst;
        d.off_q = 1.0 / (1.0 + o->burst * (1.0 - o->load) / o->load);
        geo_init(&d.geo_on, d.on_q, d.on_q < 1 ? 1.0 / log1p(-d.on_q) : 0, 1);
        geo_init(&d.geo_off, d.off_q, d.off_q < 1 ? 1.0 / log1p(-d.off_q) : 0, 0);
    } else {
        geo_init(&d.geo_load, o->load, o->load < 1 ? 1.0 / log1p(-o->load) : 0, 1);
    }
    for (l = 1; l <= d.h; l++) {
        int b;
        for (b = 0; b < lcan_topo_field_width(t, l); b++)
            d.level_of_bit[lcan_topo_field_offset(t, l) + b] = l;
    }
    d.kind = p->kind;
    d.bursty = o->burst > 0;
    d.bcasts = o->bcast > 0 && d.w1 > 0;
    d.packed = malloc(d.N * sizeof *d.packed);
    d.dfield = malloc(d.N * sizeof *d.dfield);
    d.leaf_of = malloc(d.NP * sizeof *d.leaf_of);
    d.nodes = calloc(d.N, sizeof *d.nodes);
    d.wheel = malloc(WHEEL * sizeof *d.wheel);
    d.wlink = malloc(d.N * sizeof *d.wlink);
    d.busy = malloc(d.N * sizeof *d.busy);
    d.slots = calloc(d.nslot, sizeof *d.slots);
    d.seen = calloc(d.nslot, sizeof *d.seen);
    d.sfree = malloc(d.nslot * sizeof *d.sfree);
    d.ej_uni = calloc(d.N, sizeof *d.ej_uni);
    d.ej_bc = calloc(d.N, sizeof *d.ej_bc);
    iv = calloc(d.NP, 1);
    ready = calloc(d.NP, 1);
    ejv = calloc(d.NP, 1);
    ack = calloc(d.NP, 1);
    iack = calloc(d.NP, 1);
    iflit = calloc(d.NP, sizeof *iflit);
    ejf = calloc(d.NP, sizeof *ejf);
    used_ports = malloc(d.NP * sizeof *used_ports);
    if (!d.packed || !d.dfield || !d.leaf_of || !d.nodes || !d.wheel || !d.wlink || !d.busy || !d.slots || !d.seen || !d.sfree || !d.ej_uni || !d.ej_bc || !iv || !ready || !ejv || !ack ||
        !iack || !iflit || !ejf || !used_ports) {
        st = LCAN_ERR_NOMEM;
        goto done;
    }
    for (i = 0; i < WHEEL; i++)
        d.wheel[i] = UINT32_MAX;
    for (s = 0; s < d.N; s++) {
        d.packed[s] = lcan_topo_pack(t, s);
        d.dfield[s] = ((uint64_t)d.packed[s] & d.amask) << d.pw;
        d.nodes[s].rng = lcan_trial_rng(o->seed, s);
        d.nodes[s].next = d.p->kind == TP_MATRIX && d.p->cdf[(size_t)s * d.N + d.N - 1] == 0
                              ? UINT64_MAX
                              : next_creation(&d, &d.nodes[s], 0);
        wheel_put(&d, s);
    }
    for (q = 0; q < d.NP; q++)
        d.leaf_of[q] = q / (uint32_t)d.U0;
    for (i = 0; i < d.nslot; i++)
        d.sfree[i] = i;
    d.sfree_count = d.nslot;
    if (o->faults != NULL) {
        if ((st = lcan_reach_new(t, o->faults, &rf)) != LCAN_OK ||
            (st = lcan_fault_sched_rows(t, NULL, rf, &sched)) != LCAN_OK)
            goto done;
        fault_T = o->fault_at > 1 ? o->fault_at : 1;
    }

    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in.inj_valid = iv;
    in.inj_flit = iflit;
    in.ej_ack = ack;
    out.inj_ready = ready;
    out.inj_ack = iack;
    out.ej_valid = ejv;
    out.ej_flit = ejf;
    if (rf != NULL)
        out.cnt_drop = cnt_drop;
    in.rst = 1;
    in.seed = lcan_trial_net_seed(o->seed, 0);
    st = tick(engine, &in, &out);
    in.rst = 0;
    res->cycles = 1;
    if (st != LCAN_OK)
        goto done;

    phase = 0;
    phase_end = W + M;
    for (now = 1;; now++) {
        int window = now > W && now <= W + M;
        if (phase == 0 && now > W + M) {
            phase = 1;
            phase_end = W + M + drain_max;
        }
        if (phase == 1 && (d.meas_out == 0 || (rf != NULL && d.meas_out <= res->dropped))) {
            res->drain_cycles = now - 1 - (W + M);
            if (!drain_all)
                break;
            phase = 2;
            phase_end = now - 1 + drain_max;
            if (rf != NULL && !o->drain_all) /* faults: empty the network, not the source queues */
                for (s = 0; s < d.N; s++) {
                    res->unsent += d.nodes[s].count;
                    d.queued -= d.nodes[s].count;
                    d.nodes[s].count = 0;
                }
        }
        if (phase == 2 && d.queued == 0 && d.inflight == res->dropped)
            break;
        if (now > phase_end) {
            st = LCAN_ERR_STALL;
            if (phase == 1)
                res->drain_cycles = now - 1 - (W + M);
            break;
        }
        /* faults: from tick T the pins, the rows on T, T+1, .., the view for the driver's decisions */
        if (rf != NULL && now >= fault_T) {
            if (now == fault_T) {
                in.link_off = o->faults->link_off;
                in.sw_off = o->faults->sw_off;
                d.reach = rf;
                discard_cut(&d, W, M, res);
            }
            if (now - fault_T < sched.nrows) {
                in.cfg_we = 1;
                in.cfg_addr = (uint32_t)sched.rows[now - fault_T];
                in.cfg_row = lcan_reach_row(rf, sched.rows[now - fault_T]);
            } else {
                in.cfg_we = 0;
                in.cfg_addr = 0;
                in.cfg_row = NULL;
            }
        }
        /* creation: the nodes in this tick's bucket (others there are due WHEEL ticks later) */
        if (phase < 2) {
            uint32_t *bucket = &d.wheel[now % WHEEL], lst = *bucket;
            /* A packet created at a node with an empty queue is injected at once when a port is free,
             * without a trip through the queue and the busy list. Before, it was injected after the
             * nodes already busy: the order of the injections within a tick only decides which tag
             * (payload) a packet gets, which no statistic reads - unless an injection stalls for a
             * tag, which cannot happen on this tick with more free tags than network ports. So: with
             * more, and without faults (whose injections wait for the rows, spec 14.4). */
            int direct = rf == NULL && d.sfree_count > d.NP;
            *bucket = UINT32_MAX;
            while (lst != UINT32_MAX) {
                node *nd;
                pkt kk;
                uint32_t port;
                s = lst;
                lst = d.wlink[s];
                nd = &d.nodes[s];
                if (nd->next != now) {
                    wheel_put(&d, s);
                    continue;
                }
                if (draw_pkt(&d, nd, s, now, window, &res->bcast_packets, &kk) != 0) { /* a cut pair */
                    nd->next = next_creation(&d, nd, now);
                    wheel_put(&d, s);
                    continue;
                }
                res->created++;
                if (window) {
                    res->packets++;
                    d.meas_out++;
                }
                if (direct && nd->count == 0 && (port = pick_port(&d, nd, s, &kk, ready, iv)) != UINT32_MAX) {
                    if (inject(&d, &kk, port, now, iv, iflit, used_ports, &nused) != 0) {
                        st = LCAN_ERR_NOMEM;
                        goto done;
                    }
                    res->injected++;
                } else {
                    if (enqueue(&d, nd, &kk) != 0) {
                        st = LCAN_ERR_NOMEM;
                        goto done;
                    }
                    if (nd->count == 1) /* the queue was empty: the node becomes busy */
                        d.busy[d.nbusy++] = s;
                }
                nd->next = next_creation(&d, nd, now);
                wheel_put(&d, s);
            }
        }
        /* injection: the nodes with a non-empty queue, in the order they became non-empty (a static
         * fault set: not before its rows are written, spec 14.4) */
        if (rf == NULL || o->fault_at > 1 || now >= 1 + sched.nrows) {
            uint32_t b, nb = 0;
            for (b = 0; b < d.nbusy; b++) {
                node *nd;
                s = d.busy[b];
                nd = &d.nodes[s];
                while (nd->count > 0) {
                    pkt *k = &nd->q[nd->head];
                    uint32_t port = pick_port(&d, nd, s, k, ready, iv);
                    if (port == UINT32_MAX)
                        break;
                    if (d.sfree_count == 0) {
                        res->tag_stalls++;
                        break;
                    }
                    if (inject(&d, k, port, now, iv, iflit, used_ports, &nused) != 0) {
                        st = LCAN_ERR_NOMEM;
                        goto done;
                    }
                    nd->head = (nd->head + 1u) & (nd->cap - 1u);
                    PREFETCH_W(&nd->q[(nd->head + QUEUE_AHEAD) & (nd->cap - 1u)]);
                    nd->count--;
                    d.queued--;
                    res->injected++;
                }
                if (nd->count > 0)
                    d.busy[nb++] = s;
            }
            d.nbusy = nb;
        }
        if (d.queued > max_queued) {
            res->queue_overflow = 1;
            st = LCAN_ERR_STALL;
            if (phase == 1)
                res->drain_cycles = now - 1 - (W + M);
            break;
        }
        in.inj_list = used_ports; /* the ports with iv set (lcan_in.inj_list: the model need not scan iv) */
        in.n_inj = nused;
        st = tick(engine, &in, &out);
        res->cycles++;
        if (rf != NULL) {
            uint64_t dr = 0;
            for (l = 0; l < d.h; l++)
                dr += cnt_drop[l];
            res->dropped = dr;
        }
        for (i = 0; i < nused; i++) {
            iv[used_ports[i]] = 0;
            iflit[used_ports[i]] = 0;
        }
        nused = 0;
        if (st != LCAN_OK)
            goto done;
        /* ejection: the ports whose ej_valid is set (64 at a time: most are idle) */
        for (base = 0; base < d.NP; base += 64) {
            uint64_t ejm = lcan_nonzero_bytes(ejv + base, d.NP - base < 64 ? d.NP - base : 64);
            for (; ejm; ejm &= ejm - 1u) {
                uint64_t f;
                uint32_t tag, dst, leaf;
                int bc;
                slot *sl;
                q = base + (uint32_t)lcan_ctz64(ejm);
                f = ejf[q];
                tag = (uint32_t)(f & d.pmask);
                dst = (uint32_t)((f >> d.pw) & d.amask);
                bc = (int)((f >> (d.pw + d.aw)) & 1u);
                leaf = d.leaf_of[q];
                if (tag >= d.nslot || !d.slots[tag].used) {
                    res->duplicated++;
                    continue;
                }
                sl = &d.slots[tag];
                if (!bc) {
                    if (sl->bcast || sl->dest != leaf || dst != d.packed[leaf]) {
                        res->misrouted++;
                        continue;
                    }
                    if (window)
                        d.ej_uni[leaf]++;
                    if (deliver(&d, sl, now, W, M, res) != 0) {
                        st = LCAN_ERR_NOMEM;
                        goto done;
                    }
                } else {
                    if (!sl->bcast || sl->dest != dst || q - leaf * (uint32_t)d.U0 != dst * (uint32_t)d.p1) {
                        res->misrouted++;
                        continue;
                    }
                    if (d.seen[tag][leaf]) {
                        res->duplicated++;
                        continue;
                    }
                    d.seen[tag][leaf] = 1;
                    if (window)
                        d.ej_bc[leaf]++;
                    if (--sl->remaining == 0 && deliver(&d, sl, now, W, M, res) != 0) {
                        st = LCAN_ERR_NOMEM;
                        goto done;
                    }
                }
            }
        }
    }

    /* statistics */
    res->cut = d.cut;
    if (rf != NULL)
        res->lost = phase == 2 ? res->created - res->discarded - res->unsent - res->delivered - res->dropped
                               : (d.meas_out > res->dropped ? d.meas_out - res->dropped : 0);
    else
        res->lost = o->drain_all && st == LCAN_OK ? res->created - res->delivered
                                                 : (phase == 2 ? res->created - res->delivered : d.meas_out);
    {
        double tot = 0, mn = 0, mx = 0;
        for (s = 0; s < d.N; s++) {
            double a = ((double)d.ej_uni[s] + (double)d.ej_bc[s] / (double)d.N) / (double)M;
            tot += a;
            if (s == 0 || a < mn)
                mn = a;
            if (s == 0 || a > mx)
                mx = a;
        }
        res->offered = (double)res->packets / ((double)d.N * (double)M);
        res->accepted = tot / (double)d.N;
        res->accepted_min = mn;
        res->accepted_max = mx;
    }
    counts_finish(&d.lat);
    counts_finish(&d.net);
    if (d.lat.n > 0) {
        uint64_t b, span;
        res->latency_avg = (double)d.lat.sum / (double)d.lat.n;
        res->net_latency_avg = (double)d.net.sum / (double)d.net.n;
        /* (source queueing: latency less network latency, over the same packets) */
        res->queue_avg = (double)(d.lat.sum - d.net.sum) / (double)d.lat.n;
        res->zero_load = (double)d.zero_sum / (double)d.lat.n;
        res->latency_min = d.lat.min;
        res->latency_max = d.lat.max;
        res->latency_p50 = counts_pct(&d.lat, 0.5);
        res->latency_p99 = counts_pct(&d.lat, 0.99);
        res->net_latency_min = d.net.min;
        res->net_latency_max = d.net.max;
        res->net_latency_p50 = counts_pct(&d.net, 0.5);
        res->net_latency_p99 = counts_pct(&d.net, 0.99);
        span = d.lat.max - d.lat.min + 1;
        res->hist_start = d.lat.min;
        res->hist_width = (span + LCAN_TRAFFIC_HIST_BINS - 1) / LCAN_TRAFFIC_HIST_BINS;
        for (b = d.lat.min; b <= d.lat.max; b++)
            res->hist[(b - d.lat.min) / res->hist_width] += d.lat.v[b];
    }
done:
    drv_free(&d);
    lcan_reach_free(rf);
    lcan_fault_sched_free(&sched);
    free(iv);
    free(ready);
    free(ejv);
    free(ack);
    free(iack);
    free(iflit);
    free(ejf);
    free(used_ports);
    return st;
}

lcan_status lcan_traffic_model_new(const lcan_topo *t, const lcan_traffic_opts *o, lcan_net **out)
{
    lcan_cfg cfg;
    if (o == NULL)
        return LCAN_ERR_ARG;
    lcan_cfg_default(&cfg);
    cfg.mode = LCAN_PACKET;
    cfg.payload_w = o->payload_w;
    cfg.depth = o->depth;
    cfg.up_choice = o->up_choice;
    return lcan_net_new(t, &cfg, out);
}

lcan_status lcan_traffic_run_model(const lcan_topo *t, const lcan_traffic_pattern *p, const lcan_traffic_opts *o,
                                   lcan_traffic_result *res)
{
    lcan_net *n;
    lcan_status st = lcan_traffic_model_new(t, o, &n);
    if (st != LCAN_OK)
        return st;
    st = lcan_traffic_run(t, p, o, lcan_net_engine_tick, n, res);
    lcan_net_free(n);
    return st;
}

int lcan_traffic_saturation(const lcan_traffic_result *pts, int n)
{
    int k;
    for (k = 0; k < n; k++)
        if (pts[k].accepted < 0.99 * pts[k].offered || pts[k].latency_avg > 3.0 * pts[k].zero_load)
            return k;
    return -1;
}

int lcan_traffic_sweep_loads(const char *text, double *loads, int max)
{
    double a, b, step, x;
    char *end;
    const char *s = text;
    int n = 0, k;
    if (text == NULL)
        return -1;
    a = strtod(s, &end);
    if (end == s || *end != ':')
        return -1;
    s = end + 1;
    b = strtod(s, &end);
    if (end == s || *end != ':')
        return -1;
    s = end + 1;
    step = strtod(s, &end);
    if (end == s || *end != '\0')
        return -1;
    if (!(a > 0 && a <= b && b <= 1 && step > 0) || (b - a) / step > 10000)
        return -1;
    for (k = 0;; k++) {
        x = a + (double)k * step;
        if (x > b + step / 1000)
            break;
        if (x > 1)
            x = 1;
        if (loads != NULL && n < max)
            loads[n] = x;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------------ the printer */

/* The keys of one point; braces = 0 leaves out the enclosing {} (a single point is printed at the
 * top level of the object). */
static void json_point(FILE *f, const lcan_traffic_result *r, int braces, int faults)
{
    int b;
    fprintf(f, "%s\"load\": ", braces ? "{" : "");
    lcan_json_double(f, r->load);
    fprintf(f, ", \"offered\": ");
    lcan_json_double(f, r->offered);
    fprintf(f, ", \"accepted\": ");
    lcan_json_double(f, r->accepted);
    fprintf(f, ", \"accepted_min\": ");
    lcan_json_double(f, r->accepted_min);
    fprintf(f, ", \"accepted_max\": ");
    lcan_json_double(f, r->accepted_max);
    fprintf(f, ", \"latency_avg\": ");
    lcan_json_double(f, r->latency_avg);
    fprintf(f, ", \"latency_min\": %llu, \"latency_p50\": %llu, \"latency_p99\": %llu, \"latency_max\": %llu",
            (unsigned long long)r->latency_min, (unsigned long long)r->latency_p50, (unsigned long long)r->latency_p99,
            (unsigned long long)r->latency_max);
    fprintf(f, ", \"net_latency_avg\": ");
    lcan_json_double(f, r->net_latency_avg);
    fprintf(f, ", \"net_latency_min\": %llu, \"net_latency_p50\": %llu, \"net_latency_p99\": %llu, "
               "\"net_latency_max\": %llu, \"queue_avg\": ",
            (unsigned long long)r->net_latency_min, (unsigned long long)r->net_latency_p50,
            (unsigned long long)r->net_latency_p99, (unsigned long long)r->net_latency_max);
    lcan_json_double(f, r->queue_avg);
    fprintf(f, ", \"zero_load\": ");
    lcan_json_double(f, r->zero_load);
    fprintf(f, ", \"histogram\": {\"start\": %llu, \"width\": %llu, \"counts\": [", (unsigned long long)r->hist_start,
            (unsigned long long)r->hist_width);
    for (b = 0; b < LCAN_TRAFFIC_HIST_BINS; b++)
        fprintf(f, "%s%llu", b ? ", " : "", (unsigned long long)r->hist[b]);
    fprintf(f, "]}, \"packets\": %llu, \"bcast_packets\": %llu, \"created\": %llu, \"injected\": %llu, "
               "\"delivered\": %llu, \"lost\": %llu, \"duplicated\": %llu, \"misrouted\": %llu, \"tag_stalls\": %llu, "
               "\"drain_cycles\": %llu, \"cycles\": %llu, \"cycles_per_s\": ",
            (unsigned long long)r->packets, (unsigned long long)r->bcast_packets, (unsigned long long)r->created,
            (unsigned long long)r->injected, (unsigned long long)r->delivered, (unsigned long long)r->lost,
            (unsigned long long)r->duplicated, (unsigned long long)r->misrouted, (unsigned long long)r->tag_stalls,
            (unsigned long long)r->drain_cycles, (unsigned long long)r->cycles);
    lcan_json_double(f, r->cycles_per_s);
    if (faults)
        fprintf(f, ", \"cut\": %llu, \"discarded\": %llu, \"dropped\": %llu, \"unsent\": %llu",
                (unsigned long long)r->cut, (unsigned long long)r->discarded, (unsigned long long)r->dropped,
                (unsigned long long)r->unsent);
    if (braces)
        fprintf(f, "}");
}

static void json_context(FILE *f, const lcan_topo *t, const lcan_traffic_pattern *p, const char *engine,
                         const lcan_traffic_opts *o)
{
    fprintf(f, "\"spec\": ");
    lcan_json_string(f, lcan_topo_canonical(t));
    fprintf(f, ", \"pattern\": ");
    lcan_json_string(f, lcan_traffic_pattern_name(p));
    fprintf(f, ", \"engine\": ");
    lcan_json_string(f, engine);
    fprintf(f, ", \"mode\": \"packet\", \"depth\": %d, \"payload_w\": %d, \"up_choice\": \"%s\", \"warmup\": %llu, "
               "\"measure\": %llu, \"drain_all\": %s, \"seed\": %llu, \"bcast\": ",
            o->depth, o->payload_w, o->up_choice == LCAN_UP_ROTATE ? "rotate" : "uniform", (unsigned long long)o->warmup, (unsigned long long)o->measure,
            o->drain_all ? "true" : "false", (unsigned long long)o->seed);
    lcan_json_double(f, o->bcast);
    fprintf(f, ", \"burst\": ");
    lcan_json_double(f, o->burst);
    if (o->faults != NULL)
        fprintf(f, ", \"faults\": %llu, \"fault_at\": %llu", (unsigned long long)o->faults->count,
                (unsigned long long)(o->fault_at > 1 ? o->fault_at : 1));
}

static const char csv_head[] =
    "load,offered,accepted,accepted_min,accepted_max,latency_avg,latency_min,latency_p50,latency_p99,latency_max,"
    "net_latency_avg,net_latency_p99,queue_avg,zero_load,packets,lost,duplicated,misrouted,drain_cycles,cycles,"
    "cycles_per_s\n";

static void csv_point(FILE *f, const lcan_traffic_result *r)
{
    fprintf(f, "%.6g,%.6f,%.6f,%.6f,%.6f,%.4f,%llu,%llu,%llu,%llu,%.4f,%llu,%.4f,%.4f,%llu,%llu,%llu,%llu,%llu,%llu,%.0f\n",
            r->load, r->offered, r->accepted, r->accepted_min, r->accepted_max, r->latency_avg,
            (unsigned long long)r->latency_min, (unsigned long long)r->latency_p50, (unsigned long long)r->latency_p99,
            (unsigned long long)r->latency_max, r->net_latency_avg, (unsigned long long)r->net_latency_p99, r->queue_avg,
            r->zero_load, (unsigned long long)r->packets, (unsigned long long)r->lost,
            (unsigned long long)r->duplicated, (unsigned long long)r->misrouted, (unsigned long long)r->drain_cycles,
            (unsigned long long)r->cycles, r->cycles_per_s);
}

void lcan_traffic_print(FILE *f, const lcan_topo *t, const lcan_traffic_pattern *p, const char *engine,
                        const lcan_traffic_opts *o, const lcan_traffic_result *pts, int n, int sweep,
                        lcan_traffic_format fmt)
{
    int k, sat = sweep ? lcan_traffic_saturation(pts, n) : -1;
    double best = 0, tot_cycles = 0, tot_time = 0;
    for (k = 0; k < n; k++) {
        if (pts[k].accepted > best)
            best = pts[k].accepted;
        tot_cycles += (double)pts[k].cycles;
        if (pts[k].cycles_per_s > 0)
            tot_time += (double)pts[k].cycles / pts[k].cycles_per_s;
    }
    if (fmt == LCAN_TRAFFIC_CSV) {
        fputs(csv_head, f);
        for (k = 0; k < n; k++)
            csv_point(f, &pts[k]);
        return;
    }
    if (fmt == LCAN_TRAFFIC_JSON) {
        fprintf(f, "{");
        json_context(f, t, p, engine, o);
        if (!sweep) {
            fprintf(f, ", ");
            json_point(f, &pts[0], 0, o->faults != NULL);
            fprintf(f, "}\n");
            return;
        }
        fprintf(f, ", \"points\": [");
        for (k = 0; k < n; k++) {
            if (k)
                fprintf(f, ", ");
            json_point(f, &pts[k], 1, o->faults != NULL);
        }
        fprintf(f, "], \"saturation\": ");
        if (sat >= 0)
            lcan_json_double(f, pts[sat].load);
        else
            fprintf(f, "null");
        fprintf(f, ", \"saturation_throughput\": ");
        lcan_json_double(f, best);
        fprintf(f, ", \"saturation_rule\": \"first load with accepted < 0.99 offered or latency_avg > 3 zero_load\"");
        fprintf(f, ", \"cycles_per_s\": ");
        lcan_json_double(f, tot_time > 0 ? tot_cycles / tot_time : 0.0);
        fprintf(f, "}\n");
        return;
    }
    fprintf(f, "spec             %s\n", lcan_topo_canonical(t));
    fprintf(f, "pattern          %s%s\n", lcan_traffic_pattern_name(p),
            o->bcast > 0 ? " (with broadcasts)" : "");
    fprintf(f, "engine           %s (packet mode, DEPTH %d, PAYLOAD_W %d, UP_CHOICE %s)\n", engine, o->depth,
            o->payload_w, o->up_choice == LCAN_UP_ROTATE ? "rotate" : "uniform");
    fprintf(f, "process          %s", o->burst > 0 ? "on/off" : "Bernoulli");
    if (o->burst > 0)
        fprintf(f, ", mean burst %g cycles", o->burst);
    fprintf(f, ", broadcast fraction %g, seed %llu\n", o->bcast, (unsigned long long)o->seed);
    fprintf(f, "phases           warm-up %llu, measure %llu, drain %s\n", (unsigned long long)o->warmup,
            (unsigned long long)o->measure, o->drain_all ? "all packets" : "measured packets");
    if (!sweep) {
        const lcan_traffic_result *r = &pts[0];
        fprintf(f, "offered          %.6f flits/node/cycle (load %g)\n", r->offered, r->load);
        fprintf(f, "accepted         %.6f flits/node/cycle (per node min %.6f, max %.6f)\n", r->accepted,
                r->accepted_min, r->accepted_max);
        fprintf(f, "latency          avg %.4f, min %llu, p50 %llu, p99 %llu, max %llu (zero-load %.4f)\n",
                r->latency_avg, (unsigned long long)r->latency_min, (unsigned long long)r->latency_p50,
                (unsigned long long)r->latency_p99, (unsigned long long)r->latency_max, r->zero_load);
        fprintf(f, "network latency  avg %.4f, min %llu, p50 %llu, p99 %llu, max %llu\n", r->net_latency_avg,
                (unsigned long long)r->net_latency_min, (unsigned long long)r->net_latency_p50,
                (unsigned long long)r->net_latency_p99, (unsigned long long)r->net_latency_max);
        fprintf(f, "source queueing  avg %.4f\n", r->queue_avg);
        fprintf(f, "packets          %llu measured (%llu broadcast); %llu created, %llu delivered\n",
                (unsigned long long)r->packets, (unsigned long long)r->bcast_packets, (unsigned long long)r->created,
                (unsigned long long)r->delivered);
        fprintf(f, "checks           lost %llu, duplicated %llu, misrouted %llu, tag stalls %llu\n",
                (unsigned long long)r->lost, (unsigned long long)r->duplicated, (unsigned long long)r->misrouted,
                (unsigned long long)r->tag_stalls);
        if (o->faults != NULL)
            fprintf(f, "faults           %llu elements from tick %llu: %llu unicasts not created (cut pair), "
                       "%llu discarded from queues, %llu dropped in the network; %llu injected, %llu left "
                       "unsent in the source queues at the end\n",
                    (unsigned long long)o->faults->count, (unsigned long long)(o->fault_at > 1 ? o->fault_at : 1),
                    (unsigned long long)r->cut, (unsigned long long)r->discarded, (unsigned long long)r->dropped,
                    (unsigned long long)r->injected, (unsigned long long)r->unsent);
        fprintf(f, "histogram        latency [from, to): packets\n");
        for (k = 0; k < LCAN_TRAFFIC_HIST_BINS; k++)
            if (r->hist[k])
                fprintf(f, "  [%llu, %llu): %llu\n", (unsigned long long)(r->hist_start + (uint64_t)k * r->hist_width),
                        (unsigned long long)(r->hist_start + (uint64_t)(k + 1) * r->hist_width),
                        (unsigned long long)r->hist[k]);
        fprintf(f, "cycles           %llu (drain %llu), %.0f cycles/s\n", (unsigned long long)r->cycles,
                (unsigned long long)r->drain_cycles, r->cycles_per_s);
        return;
    }
    fprintf(f, "%8s %9s %9s %9s %6s %6s %6s %9s %9s %9s %5s %5s\n", "load", "offered", "accepted", "lat_avg", "p50",
            "p99", "max", "net_avg", "queue", "zero", "lost", "dup");
    for (k = 0; k < n; k++) {
        const lcan_traffic_result *r = &pts[k];
        fprintf(f, "%8.4g %9.6f %9.6f %9.4f %6llu %6llu %6llu %9.4f %9.4f %9.4f %5llu %5llu%s\n", r->load, r->offered,
                r->accepted, r->latency_avg, (unsigned long long)r->latency_p50, (unsigned long long)r->latency_p99,
                (unsigned long long)r->latency_max, r->net_latency_avg, r->queue_avg, r->zero_load,
                (unsigned long long)r->lost, (unsigned long long)r->duplicated, k == sat ? "  <- saturation" : "");
    }
    if (sat >= 0)
        fprintf(f, "saturation       load %g (first load with accepted < 0.99 offered or latency > 3x zero-load); "
                   "best accepted %.6f\n", pts[sat].load, best);
    else
        fprintf(f, "saturation       none in this range; best accepted %.6f\n", best);
    fprintf(f, "speed            %.0f cycles/s\n", tot_time > 0 ? tot_cycles / tot_time : 0.0);
}
