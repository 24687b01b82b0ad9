/*
 * collective_tree003.c - seed 003 (Kambhatla, "Communications in a tree architecture") in a small
 * round-model simulator of a complete binary tree of PROCESSORS. MODEL ONLY: our networks carry
 * processors at the leaves only, so these algorithms cannot run on them (or on the RTL).
 *
 * The tree: n = 2^(H+1) - 1 processors, heap labels (children of i: 2i+1, 2i+2, parent (i-1)/2).
 * Store-and-forward, one hop per step; a packet received in step s can be sent in step s+1; steps
 * = the step of the last delivery. Each processor keeps one FIFO per outgoing link (parent, left,
 * right); packets are routed hop by hop with A0 (up to the least upper bound, then down).
 *   multiple I/O: every link carries one packet per direction per step (the head of its FIFO);
 *   single I/O:   every processor sends at most one and receives at most one packet per step; the
 *                 FIFO heads of the whole tree are served oldest first (greedy matching by the time
 *                 each packet reached its processor, ties by label).
 * Algorithms:
 *   A1 single-node broadcast, single I/O: flooding, each processor sends to parent, right child,
 *      left child (in this order, skipping the link it heard from);
 *   A2 the same with multiple I/O (all links at once);
 *   A3 multinode broadcast, single I/O, every processor on the sLRP schedule: steps cycle through
 *      "send to left child", "to right child", "left children to parent", "right children to
 *      parent" (the parent update takes two steps because a parent receives one packet per step,
 *      the paper's Result 8). Two variants: one packet per item (the model of the n-1 lower bound)
 *      and merged updates (an update carries everything new; A3's "repeat 2h times");
 *   A4 multinode broadcast, multiple I/O, ring emulation: every item travels the ring one way and
 *      is delivered at each ring node; rings: in-order labelling, and a ring whose neighbours are
 *      at most 3 hops apart (Sekanina's construction for the cube of a tree; the text of seed 003
 *      does not reproduce Shaw's figure 3, so this stands in for it);
 *   A5 scattering, single I/O, on a ring: option A (one direction, farthest first) and option B
 *      (alternate directions, farthest first);
 *   A6 scattering, multiple I/O: option B with both directions at once;
 *   A7 total exchange: every processor runs A5 (option A, single I/O) or A6 (multiple I/O) at once.
 */
#include <stdlib.h>
#include <string.h>

#include "lcan_collective.h"

/* ------------------------------------------------------------------ tree helpers */

static int depth_of(uint32_t v)
{
    int d = 0;
    while (v > 0) {
        v = (v - 1) / 2;
        d++;
    }
    return d;
}

static uint32_t parent_of(uint32_t v) { return (v - 1) / 2; }

/* Next hop from u towards t != u (algorithm A0: up to the least upper bound, then down). */
static uint32_t next_hop(uint32_t u, uint32_t t)
{
    int du = depth_of(u), dt = depth_of(t);
    uint32_t x = t, prev = t;
    if (dt <= du)
        return parent_of(u);
    while (depth_of(x) > du) {
        prev = x;
        x = parent_of(x);
    }
    return x == u ? prev : parent_of(u);
}

static int tree_dist(uint32_t a, uint32_t b)
{
    int d = 0, da = depth_of(a), db = depth_of(b);
    while (da > db) { a = parent_of(a); da--; d++; }
    while (db > da) { b = parent_of(b); db--; d++; }
    while (a != b) { a = parent_of(a); b = parent_of(b); d += 2; }
    return d;
}

/* link index of neighbour w seen from v: 0 parent, 1 left child, 2 right child */
static int link_of(uint32_t v, uint32_t w)
{
    if (w == 2 * v + 1)
        return 1;
    if (w == 2 * v + 2)
        return 2;
    return 0;
}

static uint32_t nbr(uint32_t v, int link, uint32_t n, int *ok)
{
    uint32_t w = link == 0 ? (v > 0 ? parent_of(v) : 0) : 2 * v + (uint32_t)link;
    *ok = link == 0 ? v > 0 : w < n;
    return w;
}

/* ------------------------------------------------------------------ rings */

static void inorder(uint32_t v, uint32_t n, uint32_t *ring, uint32_t *k)
{
    if (v >= n)
        return;
    inorder(2 * v + 1, n, ring, k);
    ring[(*k)++] = v;
    inorder(2 * v + 2, n, ring, k);
}

/* Sekanina: a Hamiltonian path of the cube of the component of a (edges to the neighbours in
 * `ex` removed) that starts at a and ends at a or a neighbour of a; appended to out. */
static void path_from(uint32_t a, unsigned ex, uint32_t n, uint32_t *out, uint32_t *k)
{
    int link, ok, last = -1;
    uint32_t c = 0, s, e;
    for (link = 0; link < 3; link++) {
        (void)nbr(a, link, n, &ok);
        if (ok && !(ex & (1u << link)))
            last = link;
    }
    if (last < 0) {
        out[(*k)++] = a;
        return;
    }
    c = nbr(a, last, n, &ok);
    path_from(a, ex | (1u << last), n, out, k);
    /* path_to(c, a) = reverse of path_from(c, {a}) */
    s = *k;
    path_from(c, 1u << link_of(c, a), n, out, k);
    for (e = *k - 1; s < e; s++, e--) {
        uint32_t tmp = out[s];
        out[s] = out[e];
        out[e] = tmp;
    }
}

int lcan_tree003_ring(int H, int shaw, uint32_t *ring)
{
    uint32_t n = (1u << (H + 1)) - 1, k = 0, i;
    int worst = 0;
    if (shaw)
        path_from(0, 0, n, ring, &k);
    else
        inorder(0, n, ring, &k);
    for (i = 0; i < n; i++) {
        int d = tree_dist(ring[i], ring[(i + 1) % n]);
        if (d > worst)
            worst = d;
    }
    return worst;
}

/* ------------------------------------------------------------------ packet simulator */

typedef struct {
    uint64_t item;       /* index into seen[] divided by n (see deliver) */
    uint32_t tgt, fin;   /* current waypoint, final destination */
    int32_t rpos, hops;  /* ring position of the waypoint, ring hops left */
    int8_t dir;
    uint8_t each, flood;
    uint32_t stamp;
} t3pkt;

typedef struct {
    uint32_t *a;
    size_t head, n, cap;
} t3q;

typedef struct {
    uint32_t n;
    int multi, slrp;
    t3pkt *p;
    size_t np, pcap;
    t3q *q;
    uint8_t *seen;
    uint64_t want, have, dup, nitems;
    long last;
    const uint32_t *ring;
    uint32_t *rcum;      /* rcum[i] = sum of tree distances of ring hops 0..i-1 (n + 1 entries) */
    uint32_t stamp;
    int nomem;
    int sched;           /* LCAN_T3_OLDEST or LCAN_T3_FARTHEST */
    long max_rx;         /* most processors receiving in one step (Result 9) */
} t3sim;

static void q_push(t3sim *s, uint32_t v, int link, uint32_t id)
{
    t3q *q = &s->q[v * 3 + (uint32_t)link];
    if (q->n == q->cap) {
        size_t nc = q->cap ? 2 * q->cap : 8, i;
        uint32_t *na = malloc(nc * sizeof *na);
        if (na == NULL) {
            s->nomem = 1;
            return;
        }
        for (i = 0; i < q->n; i++)
            na[i] = q->a[(q->head + i) % q->cap];
        free(q->a);
        q->a = na;
        q->head = 0;
        q->cap = nc;
    }
    q->a[(q->head + q->n) % q->cap] = id;
    q->n++;
    s->p[id].stamp = ++s->stamp;
}

static uint32_t new_pkt(t3sim *s)
{
    if (s->np == s->pcap) {
        size_t nc = s->pcap ? 2 * s->pcap : 1024;
        t3pkt *np = realloc(s->p, nc * sizeof *np);
        if (np == NULL) {
            s->nomem = 1;
            return UINT32_MAX;
        }
        s->p = np;
        s->pcap = nc;
    }
    memset(&s->p[s->np], 0, sizeof s->p[s->np]);
    return (uint32_t)s->np++;
}

/* Queue packet id at node v towards its current waypoint. */
static void enqueue(t3sim *s, uint32_t v, uint32_t id)
{
    uint32_t w = next_hop(v, s->p[id].tgt);
    q_push(s, v, link_of(v, w), id);
}

static void deliver(t3sim *s, uint64_t item, uint32_t v, long step)
{
    uint64_t idx = item * s->n + v;
    if (s->seen[idx]) {
        s->dup++;
        return;
    }
    s->seen[idx] = 1;
    s->have++;
    s->last = step;
}

/* Flood copies of item from v to every neighbour but `from` (UINT32_MAX: none), order P, R, L. */
static void flood_out(t3sim *s, uint32_t v, uint32_t from, uint64_t item)
{
    static const int order[3] = {0, 2, 1};
    int k, ok;
    for (k = 0; k < 3; k++) {
        uint32_t w = nbr(v, order[k], s->n, &ok), id;
        if (!ok || w == from)
            continue;
        id = new_pkt(s);
        if (id == UINT32_MAX)
            return;
        s->p[id].item = item;
        s->p[id].tgt = w;
        s->p[id].flood = 1;
        q_push(s, v, order[k], id);
    }
}

static void arrive(t3sim *s, uint32_t id, uint32_t v, uint32_t from, long step)
{
    t3pkt *p = &s->p[id];
    if (v != p->tgt) {
        enqueue(s, v, id);
        return;
    }
    if (p->flood) {
        uint64_t item = p->item;
        deliver(s, item, v, step);
        flood_out(s, v, from, item);
        return;
    }
    if (p->each)
        deliver(s, p->item, v, step);
    if (--p->hops == 0) {
        if (!p->each) {
            if (v == p->fin)
                deliver(s, p->item, v, step);
            else
                s->dup++; /* misrouted: counted as an error */
        }
        return;
    }
    p->rpos = (int32_t)(((int64_t)p->rpos + p->dir + (int64_t)s->n) % (int64_t)s->n);
    p->tgt = s->ring[p->rpos];
    enqueue(s, v, id);
}

static int sim_init(t3sim *s, int H, int multi, uint64_t nitems, const uint32_t *ring, int sched)
{
    uint32_t i;
    memset(s, 0, sizeof *s);
    s->n = (1u << (H + 1)) - 1;
    s->multi = multi;
    s->ring = ring;
    s->sched = sched;
    s->nitems = nitems;
    s->q = calloc((size_t)s->n * 3, sizeof *s->q);
    s->seen = calloc((size_t)(nitems * s->n), 1);
    if (ring != NULL && (s->rcum = malloc(((size_t)s->n + 1) * sizeof *s->rcum)) != NULL) {
        s->rcum[0] = 0;
        for (i = 0; i < s->n; i++)
            s->rcum[i + 1] = s->rcum[i] + (uint32_t)tree_dist(ring[i], ring[(i + 1) % s->n]);
    }
    return s->q != NULL && s->seen != NULL && (ring == NULL || s->rcum != NULL);
}

/* Tree hops of m ring hops forward from ring position a. */
static uint32_t ring_fwd(const t3sim *s, uint32_t a, uint32_t m)
{
    uint32_t n = s->n;
    if (a + m <= n)
        return s->rcum[a + m] - s->rcum[a];
    return s->rcum[n] - s->rcum[a] + s->rcum[a + m - n];
}

/* Farthest-first priority: tree hops packet id still has to travel from processor v (flooding
 * packets: 0, so that they stay oldest first). */
static uint32_t remaining(const t3sim *s, uint32_t id, uint32_t v)
{
    const t3pkt *p = &s->p[id];
    uint32_t r, m, a;
    if (p->flood || s->rcum == NULL)
        return 0;
    r = (uint32_t)tree_dist(v, p->tgt);
    if (p->hops <= 1)
        return r;
    m = (uint32_t)p->hops - 1;
    a = (uint32_t)p->rpos;
    if (p->dir > 0)
        return r + ring_fwd(s, a, m);
    return r + ring_fwd(s, (a + s->n - m % s->n) % s->n, m);
}

static void sim_free(t3sim *s)
{
    uint32_t k;
    if (s->q != NULL)
        for (k = 0; k < s->n * 3; k++)
            free(s->q[k].a);
    free(s->q);
    free(s->seen);
    free(s->p);
    free(s->rcum);
}

typedef struct { uint32_t id, from, to; } t3send;
typedef struct { uint32_t rem, stamp, v; int link; } t3cand;

/* farthest (most tree hops left) first, then oldest; with LCAN_T3_OLDEST rem is 0 throughout */
static int cand_cmp(const void *pa, const void *pb)
{
    const t3cand *a = pa, *b = pb;
    if (a->rem != b->rem)
        return a->rem > b->rem ? -1 : 1;
    return a->stamp < b->stamp ? -1 : (a->stamp > b->stamp ? 1 : 0);
}

/* Farthest-first: move the queue's packet with the most hops left (oldest among equals) to its
 * head; returns its priority. */
static uint32_t pick_farthest(const t3sim *s, t3q *q, uint32_t v)
{
    size_t i, best = 0;
    uint32_t br = 0, bs = 0;
    for (i = 0; i < q->n; i++) {
        uint32_t id = q->a[(q->head + i) % q->cap], r = remaining(s, id, v), st = s->p[id].stamp;
        if (i == 0 || r > br || (r == br && st < bs)) {
            best = i;
            br = r;
            bs = st;
        }
    }
    if (best != 0) {
        size_t hi = q->head, bi = (q->head + best) % q->cap;
        uint32_t tmp = q->a[hi];
        q->a[hi] = q->a[bi];
        q->a[bi] = tmp;
    }
    return br;
}

static int link_allowed(const t3sim *s, uint32_t v, int link, int phase)
{
    if (!s->slrp)
        return 1;
    return (phase == 0 && link == 1) || (phase == 1 && link == 2) || (phase == 2 && link == 0 && v % 2 == 1) ||
           (phase == 3 && link == 0 && v > 0 && v % 2 == 0);
}

/* Run to completion; returns steps, or -1 if stuck / out of memory. Single I/O: the FIFO heads
 * of the whole tree are served oldest first (the time each reached its processor), each processor
 * sending at most one and receiving at most one packet per step. */
static long sim_run(t3sim *s)
{
    uint32_t n = s->n, v;
    long step;
    t3send *snd = malloc((size_t)n * 3 * sizeof *snd);
    t3cand *cand = malloc((size_t)n * 3 * sizeof *cand);
    uint8_t *rx = malloc(n), *tx = malloc(n);
    if (snd == NULL || cand == NULL || rx == NULL || tx == NULL || s->nomem) {
        free(snd); free(cand); free(rx); free(tx);
        return -1;
    }
    for (step = 1; s->have < s->want && step <= 10000000L; step++) {
        size_t ns = 0, nc = 0, k;
        int phase = (int)((step - 1) % 4), ok;
        for (v = 0; v < n; v++) {
            int link;
            for (link = 0; link < 3; link++) {
                t3q *q = &s->q[v * 3 + (uint32_t)link];
                if (q->n == 0 || !link_allowed(s, v, link, phase))
                    continue;
                cand[nc].rem = s->sched == LCAN_T3_FARTHEST ? pick_farthest(s, q, v) : 0;
                cand[nc].stamp = s->p[q->a[q->head]].stamp;
                cand[nc].v = v;
                cand[nc].link = link;
                nc++;
            }
        }
        if (!s->multi)
            qsort(cand, nc, sizeof *cand, cand_cmp);
        memset(rx, 0, n);
        memset(tx, 0, n);
        for (k = 0; k < nc; k++) {
            uint32_t w = nbr(cand[k].v, cand[k].link, n, &ok);
            t3q *q = &s->q[cand[k].v * 3 + (uint32_t)cand[k].link];
            if (!s->multi) {
                if (tx[cand[k].v] || rx[w])
                    continue;
                tx[cand[k].v] = 1;
                rx[w] = 1;
            }
            snd[ns].id = q->a[q->head];
            snd[ns].from = cand[k].v;
            snd[ns].to = w;
            ns++;
            q->head = (q->head + 1) % q->cap;
            q->n--;
        }
        {
            long nrx = 0;
            for (v = 0; v < n; v++)
                nrx += rx[v];
            if (s->multi) {
                memset(rx, 0, n);
                for (k = 0; k < ns; k++)
                    rx[snd[k].to] = 1;
                for (nrx = 0, v = 0; v < n; v++)
                    nrx += rx[v];
            }
            if (nrx > s->max_rx)
                s->max_rx = nrx;
        }
        if (ns == 0) {
            int any = 0;
            for (k = 0; k < (size_t)n * 3; k++)
                any |= s->q[k].n > 0;
            if (!any)
                break; /* stuck: nothing left to send */
        }
        for (k = 0; k < ns; k++)
            arrive(s, snd[k].id, snd[k].to, snd[k].from, step);
        if (s->nomem)
            break;
    }
    free(snd); free(cand); free(rx); free(tx);
    return s->have == s->want && s->dup == 0 && !s->nomem ? s->last : -1;
}

/* ------------------------------------------------------------------ the algorithms */

/* A1 / A2 from source src. */
static long run_bcast(int H, int multi, uint32_t src, long *max_rx)
{
    t3sim s;
    long r;
    if (!sim_init(&s, H, multi, 1, NULL, LCAN_T3_OLDEST)) {
        sim_free(&s);
        return -1;
    }
    s.want = s.n - 1;
    s.seen[src] = 1;
    flood_out(&s, src, UINT32_MAX, 0);
    r = sim_run(&s);
    if (max_rx != NULL && s.max_rx > *max_rx)
        *max_rx = s.max_rx;
    sim_free(&s);
    return r;
}

/* A3 with one packet per item (sLRP schedule, flooding). */
static long run_a3_packets(int H, long *max_rx)
{
    t3sim s;
    uint32_t v;
    long r;
    if (!sim_init(&s, H, 0, (1u << (H + 1)) - 1, NULL, LCAN_T3_OLDEST)) {
        sim_free(&s);
        return -1;
    }
    s.slrp = 1;
    s.want = (uint64_t)s.n * (s.n - 1);
    for (v = 0; v < s.n; v++) {
        s.seen[(uint64_t)v * s.n + v] = 1;
        flood_out(&s, v, UINT32_MAX, v);
    }
    r = sim_run(&s);
    if (s.max_rx > *max_rx)
        *max_rx = s.max_rx;
    sim_free(&s);
    return r;
}

/* A3 with merged updates: knowledge sets, the same 4-step cycle. */
static long run_a3_merged(int H)
{
    uint32_t n = (1u << (H + 1)) - 1, v, words = (n + 63) / 64, w;
    uint64_t *K = calloc((size_t)n * words, sizeof *K), *P = calloc((size_t)n * words, sizeof *P);
    long step, res = -1;
    if (K == NULL || P == NULL)
        goto out;
    for (v = 0; v < n; v++)
        K[(size_t)v * words + v / 64] |= (uint64_t)1 << (v % 64);
    for (step = 1; step < 100000; step++) {
        int phase = (int)((step - 1) % 4), full = 1;
        memcpy(P, K, (size_t)n * words * sizeof *K);
        for (v = 0; v < n; v++) {
            uint32_t to;
            if (phase == 0 && 2 * v + 1 < n) to = 2 * v + 1;
            else if (phase == 1 && 2 * v + 2 < n) to = 2 * v + 2;
            else if (phase == 2 && v % 2 == 1) to = parent_of(v);
            else if (phase == 3 && v > 0 && v % 2 == 0) to = parent_of(v);
            else continue;
            for (w = 0; w < words; w++)
                K[(size_t)to * words + w] |= P[(size_t)v * words + w];
        }
        for (v = 0; v < n && full; v++)
            for (w = 0; w < n; w++)
                if (!(K[(size_t)v * words + w / 64] >> (w % 64) & 1u)) {
                    full = 0;
                    break;
                }
        if (full) {
            res = step;
            break;
        }
    }
out:
    free(K);
    free(P);
    return res;
}

static int32_t pos_in_ring(const uint32_t *ring, uint32_t n, uint32_t v)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (ring[i] == v)
            return (int32_t)i;
    return 0;
}

/* A4: every item circulates the ring one way. */
static long run_a4(int H, const uint32_t *ring, int sched)
{
    t3sim s;
    uint32_t i;
    long r;
    if (!sim_init(&s, H, 1, (1u << (H + 1)) - 1, ring, sched)) {
        sim_free(&s);
        return -1;
    }
    s.want = (uint64_t)s.n * (s.n - 1);
    for (i = 0; i < s.n; i++) {
        uint32_t id = new_pkt(&s), v = ring[i];
        if (id == UINT32_MAX)
            break;
        s.seen[(uint64_t)v * s.n + v] = 1;
        s.p[id].item = v;
        s.p[id].each = 1;
        s.p[id].dir = 1;
        s.p[id].hops = (int32_t)s.n - 1;
        s.p[id].rpos = (int32_t)((i + 1) % s.n);
        s.p[id].tgt = ring[s.p[id].rpos];
        enqueue(&s, v, id);
    }
    r = sim_run(&s);
    sim_free(&s);
    return r;
}

/* Queue the scatter of source src (ring position i) in the given option. */
static void scatter_from(t3sim *s, uint32_t src, int optionB)
{
    uint32_t n = s->n, d;
    int32_t i = pos_in_ring(s->ring, n, src);
    for (d = optionB ? n / 2 : n - 1; d >= 1; d--) {
        int k, cnt = optionB ? 2 : 1;
        for (k = 0; k < cnt; k++) {
            int dir = k == 0 ? 1 : -1;
            uint32_t id, dst;
            if (k == 1 && n - d == d)
                continue; /* the unique farthest node (n even) goes once */
            dst = s->ring[(uint32_t)(((int64_t)i + dir * (int64_t)d + (int64_t)n) % (int64_t)n)];
            id = new_pkt(s);
            if (id == UINT32_MAX)
                return;
            s->p[id].item = (uint64_t)src * n + dst;
            s->p[id].fin = dst;
            s->p[id].dir = (int8_t)dir;
            s->p[id].hops = (int32_t)d;
            s->p[id].rpos = (int32_t)(((int64_t)i + dir + (int64_t)n) % (int64_t)n);
            s->p[id].tgt = s->ring[s->p[id].rpos];
            enqueue(s, src, id);
        }
    }
}

/* A5 / A6 from one source (all = 0) or A7 (all sources at once). */
static long run_scatter(int H, int multi, int optionB, const uint32_t *ring, int all, uint32_t src, int sched,
                        long *max_rx)
{
    t3sim s;
    uint32_t n = (1u << (H + 1)) - 1, v;
    long r;
    if (!sim_init(&s, H, multi, (uint64_t)n * n, ring, sched)) {
        sim_free(&s);
        return -1;
    }
    s.want = all ? (uint64_t)n * (n - 1) : n - 1;
    for (v = 0; v < n; v++)
        if (all || v == src)
            scatter_from(&s, v, optionB);
    r = sim_run(&s);
    if (max_rx != NULL && !multi && s.max_rx > *max_rx)
        *max_rx = s.max_rx;
    sim_free(&s);
    return r;
}

/* ------------------------------------------------------------------ the table */

static void row(lcan_tree003_row *rows, int *k, int max, const char *op, const char *algo, const char *io,
                const char *source, long steps, double claim, const char *claim_ref, double lb, const char *bound_ref)
{
    lcan_tree003_row *r;
    if (*k >= max)
        return;
    r = &rows[(*k)++];
    r->op = op;
    r->algo = algo;
    r->io = io;
    r->source = source;
    r->steps = steps;
    r->paper_claim = claim;
    r->claim_ref = claim_ref;
    r->lower_bound = lb;
    r->bound_ref = bound_ref;
    r->correct = steps != -1; /* -2: not run (too large) */
}

static long worst_bcast(int H, int multi, long *max_rx)
{
    uint32_t n = (1u << (H + 1)) - 1, v;
    long worst = 0;
    for (v = 0; v < n; v++) {
        long r = run_bcast(H, multi, v, multi ? NULL : max_rx);
        if (r < 0)
            return -1;
        if (r > worst)
            worst = r;
    }
    return worst;
}

static long worst_scatter(int H, int multi, int optionB, const uint32_t *ring, int sched, long *max_rx)
{
    uint32_t n = (1u << (H + 1)) - 1, v;
    long worst = 0;
    for (v = 0; v < n; v++) {
        long r = run_scatter(H, multi, optionB, ring, 0, v, sched, max_rx);
        if (r < 0)
            return -1;
        if (r > worst)
            worst = r;
    }
    return worst;
}

int lcan_tree003_table_sched(int H, int sched, lcan_tree003_row *rows, int max)
{
    uint32_t n, *rin, *rsh;
    double dn, te_lb, half;
    int k = 0, heavy;
    long rx = 0;
    if (H < 1 || H > 10 || rows == NULL || (sched != LCAN_T3_OLDEST && sched != LCAN_T3_FARTHEST))
        return -1;
    n = (1u << (H + 1)) - 1;
    dn = (double)n;
    half = (double)(n / 2); /* the paper's n/2: ring hops to the opposite node, floor(n/2) for odd n */
    heavy = H <= 6; /* worst-case loops and total exchange only up to n = 127 */
    rin = malloc(n * sizeof *rin);
    rsh = malloc(n * sizeof *rsh);
    if (rin == NULL || rsh == NULL) {
        free(rin);
        free(rsh);
        return -1;
    }
    lcan_tree003_ring(H, 0, rin);
    lcan_tree003_ring(H, 1, rsh);
    te_lb = ((dn - 1) / 2 + 1) * ((dn - 1) / 2);

    row(rows, &k, max, "bcast", "A1", "single", "root", run_bcast(H, 0, 0, &rx), 2 * H, "Result 1: 2h from the root",
        2 * H, "Table 1 / Result 2: 2h");
    row(rows, &k, max, "bcast", "A1", "single", "worst", heavy ? worst_bcast(H, 0, &rx) : -2, 3 * H - 1,
        "Result 3: at most 3h-1", 2 * H, "Table 1 / Result 2: 2h");
    row(rows, &k, max, "bcast", "A2", "multiple", "root", run_bcast(H, 1, 0, NULL), H, "Result 4: h from the root", H,
        "Table 1 / Result 5: h");
    row(rows, &k, max, "bcast", "A2", "multiple", "worst", heavy ? worst_bcast(H, 1, NULL) : -2, 2 * H,
        "Result 6: at most 2h", H, "Table 1 / Result 5: h");
    row(rows, &k, max, "mnb", "A3 packet per item", "single", "all", heavy ? run_a3_packets(H, &rx) : -2, -1,
        "Result 8: not optimal (no count)", dn - 1, "Table 1 / Result 7: n-1");
    row(rows, &k, max, "mnb", "A3 merged updates", "single", "all", run_a3_merged(H), -1,
        "A3: repeat (left, right, parent) 2h times (no step count stated)", dn - 1,
        "Table 1 / Result 7: n-1 (one item per message)");
    row(rows, &k, max, "mnb", "A4 ring=inorder", "multiple", "all", heavy ? run_a4(H, rin, sched) : -2, -1,
        "in-order ring: neighbours up to h apart (no count)", (dn - 1) / 3, "Table 1 / Result 10: (n-1)/3");
    row(rows, &k, max, "mnb", "A4 ring=shaw", "multiple", "all", heavy ? run_a4(H, rsh, sched) : -2, 3 * (dn - 1),
        "bounded-neighbour ring: at most 3(n-1)", (dn - 1) / 3, "Table 1 / Result 10: (n-1)/3");
    row(rows, &k, max, "scatter", "A5 option A ring=shaw", "single", "root",
        run_scatter(H, 0, 0, rsh, 0, 0, sched, &rx), 3 * (dn - 1), "Corollary: by scheme A 3(n-1)", dn - 1,
        "Table 1 / Result 11: n-1");
    row(rows, &k, max, "scatter", "A5 option A ring=shaw", "single", "worst",
        heavy ? worst_scatter(H, 0, 0, rsh, sched, &rx) : -2, 3 * (dn - 1), "Corollary: by scheme A 3(n-1)", dn - 1,
        "Table 1 / Result 11: n-1");
    row(rows, &k, max, "scatter", "A5 option B ring=shaw", "single", "root",
        run_scatter(H, 0, 1, rsh, 0, 0, sched, &rx), 3 * half,
        "Corollary: option B 3*(n/2), n/2 = floor(n/2) ring hops", dn - 1, "Table 1 / Result 11: n-1");
    row(rows, &k, max, "scatter", "A5 option B ring=shaw", "single", "worst",
        heavy ? worst_scatter(H, 0, 1, rsh, sched, &rx) : -2, 3 * half,
        "Corollary: option B 3*(n/2), n/2 = floor(n/2) ring hops", dn - 1, "Table 1 / Result 11: n-1");
    row(rows, &k, max, "scatter", "A5 option B ring=inorder", "single", "worst",
        heavy ? worst_scatter(H, 0, 1, rin, sched, &rx) : -2, -1, "(no count for the in-order ring)", dn - 1,
        "Table 1 / Result 11: n-1");
    row(rows, &k, max, "scatter", "A6 ring=shaw", "multiple", "root", run_scatter(H, 1, 1, rsh, 0, 0, sched, NULL),
        3 * half, "A6: at most 3*(n/2), n/2 = floor(n/2)", (dn - 1) / 3,
        "Table 1: (n-1)/3 (Result 13's text reads (n-1)/9)");
    row(rows, &k, max, "scatter", "A6 ring=shaw", "multiple", "worst",
        heavy ? worst_scatter(H, 1, 1, rsh, sched, NULL) : -2, 3 * half, "A6: at most 3*(n/2), n/2 = floor(n/2)",
        (dn - 1) / 3, "Table 1: (n-1)/3 (Result 13's text reads (n-1)/9)");
    row(rows, &k, max, "alltoall", "A7 = A5 option A ring=shaw", "single", "all",
        heavy ? run_scatter(H, 0, 0, rsh, 1, 0, sched, &rx) : -2, -1, "(no count)", te_lb,
        "Result 14: ((n-1)/2+1)(n-1)/2 packets cross the root-left edge");
    row(rows, &k, max, "alltoall", "A7 = A6 ring=shaw", "multiple", "all",
        heavy ? run_scatter(H, 1, 1, rsh, 1, 0, sched, NULL) : -2, -1, "(no count)", te_lb,
        "Result 14: ((n-1)/2+1)(n-1)/2 packets cross the root-left edge");
    /* Result 9: an upper bound on concurrency, not a step count; steps = the most processors that
     * received in one step over every single-I/O run above */
    row(rows, &k, max, "receivers", "max per step, single-I/O rows", "single", "all", rx, 5.0 * dn / 8.0,
        "Result 9: at most ~5n/8 receive per step (upper bound)", -1, "(an upper bound, not a step count)");
    free(rin);
    free(rsh);
    return k;
}

int lcan_tree003_table(int H, lcan_tree003_row *rows, int max)
{
    return lcan_tree003_table_sched(H, LCAN_T3_FARTHEST, rows, max);
}
