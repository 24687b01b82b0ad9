/*
 * collective_flood000.c - seed 000 §4's multinode broadcast by flooding, as the paper states it
 * (model only, `lcan collective SPEC --op mnb --engine paper`): the multiport step model of seed
 * 000 §2 on the network's own graph, with a FIFO queue per outgoing link direction.
 *
 * Step t = 1, 2, ..: every link direction carries up to c messages (c = the link's capacity, the
 * number of parallel links p_l), oldest first. A message arriving at a switch at the end of step t
 * is appended, on that same step, to the queue of every other incident link direction ("received
 * messages are replicated to all directions (except the one they came from)"); at a leaf it is
 * delivered. Before step 1 every leaf's message is in the queue of its up link. steps = the step
 * of the last delivery. Arrivals of one step are appended in a fixed order (by receiving node, then
 * by the port they arrived on, downers first). Queue peaks: the longest queue, over the whole run,
 * of an outgoing link direction of a level-i node (i = 0: leaves), counted after the step's sends
 * (the messages that wait at least one more step; the one on the link is not waiting), separately
 * for up and down links. Seed 000 states n + 1 steps on a CBFT (Theorem 2) with queues
 * of 2^(i-1) at the outgoing links of a level-i node (§4.1). Every w_l must be 1 (a tree: flooding
 * in a network with several parents would copy a message once per parent).
 */
#include <stdlib.h>
#include <string.h>

#include "lcan_collective.h"

typedef struct {
    int level;
    uint32_t node;
    int cap;       /* parallel links */
    uint32_t to;   /* global id of the far node */
    int up;        /* 1: towards the parent */
} f0_dir;

/* ring buffer of message numbers */
typedef struct {
    uint32_t *v;
    size_t head, len, cap;
} f0_queue;

static int q_push(f0_queue *q, uint32_t m)
{
    if (q->len == q->cap) {
        size_t nc = q->cap ? 2 * q->cap : 8, k;
        uint32_t *nv = malloc(nc * sizeof *nv);
        if (nv == NULL)
            return -1;
        for (k = 0; k < q->len; k++)
            nv[k] = q->v[(q->head + k) % q->cap];
        free(q->v);
        q->v = nv;
        q->head = 0;
        q->cap = nc;
    }
    q->v[(q->head + q->len) % q->cap] = m;
    q->len++;
    return 0;
}

static uint32_t q_pop(f0_queue *q)
{
    uint32_t m = q->v[q->head];
    q->head = (q->head + 1) % q->cap;
    q->len--;
    return m;
}

lcan_status lcan_flood000_mnb(const lcan_topo *t, lcan_flood000_result *r, char *err, size_t errlen)
{
    int h = lcan_topo_levels(t), l;
    uint32_t N = lcan_topo_leaves(t), nodes = 0, x;
    uint32_t off[LCAN_MAX_LEVELS + 2];
    uint32_t *first = NULL, *ndir = NULL;        /* per node: its directions */
    f0_dir *dir = NULL;
    f0_queue *q = NULL;
    uint32_t *arr_msg = NULL, *arr_dir = NULL;   /* arrivals of one step: message, direction */
    uint8_t *got = NULL;                          /* got[dst * N + src] */
    size_t ndirs = 0, maxdirs = 0, k, narr, arr_cap;
    uint64_t delivered = 0, want = (uint64_t)N * (N - 1);
    lcan_status st = LCAN_ERR_NOMEM;
    int step;

    memset(r, 0, sizeof *r);
    for (l = 1; l <= h; l++)
        if (lcan_topo_w(t, l) != 1) {
            snprintf(err, errlen, "the paper's flooding (seed 000) runs on trees: %s has w_%d = %d parents "
                     "(use a bft(h;c..) network)", lcan_topo_canonical(t), l, lcan_topo_w(t, l));
            return LCAN_ERR_ARG;
        }
    if (N < 2 || N > 4096) {
        snprintf(err, errlen, "the paper's flooding runs on 2..4096 leaves (%s has %u)", lcan_topo_canonical(t), N);
        return LCAN_ERR_ARG;
    }
    for (l = 0; l <= h; l++) {
        off[l] = nodes;
        nodes += lcan_topo_switches(t, l);
        /* at most m_l + 1 directions per node (children and one parent) */
        maxdirs += (size_t)lcan_topo_switches(t, l) * (size_t)(l == 0 ? 1 : lcan_topo_m(t, l) + 1);
    }
    off[h + 1] = nodes;
    first = calloc(nodes + 1, sizeof *first);
    ndir = calloc(nodes, sizeof *ndir);
    dir = calloc(maxdirs, sizeof *dir);
    got = calloc((size_t)N * N, 1);
    if (first == NULL || ndir == NULL || dir == NULL || got == NULL)
        goto out;
    for (l = 0; l <= h; l++) {
        int ports = l == 0 ? lcan_topo_leaf_ports(t) : lcan_topo_downers(t, l) + lcan_topo_uppers(t, l);
        for (x = 0; x < lcan_topo_switches(t, l); x++) {
            uint32_t id = off[l] + x;
            int port;
            first[id] = (uint32_t)ndirs;
            for (port = 0; port < ports; port++) {
                lcan_end from = {l, x, port}, to;
                uint32_t far;
                size_t j;
                if (lcan_topo_neighbor(t, from, &to) != LCAN_OK)
                    continue;
                far = off[to.level] + to.node;
                for (j = first[id]; j < ndirs; j++)
                    if (dir[j].to == far)
                        break;
                if (j < ndirs) {
                    dir[j].cap++; /* a parallel link: more capacity */
                    continue;
                }
                dir[ndirs].level = l;
                dir[ndirs].node = x;
                dir[ndirs].cap = 1;
                dir[ndirs].to = far;
                dir[ndirs].up = to.level > l;
                ndirs++;
            }
            ndir[id] = (uint32_t)ndirs - first[id];
        }
    }
    q = calloc(ndirs, sizeof *q);
    arr_cap = 1024;
    arr_msg = malloc(arr_cap * sizeof *arr_msg);
    arr_dir = malloc(arr_cap * sizeof *arr_dir);
    if (q == NULL || arr_msg == NULL || arr_dir == NULL)
        goto out;
    for (x = 0; x < N; x++) /* a leaf's only direction is its up link (w_1 = 1) */
        if (q_push(&q[first[off[0] + x]], x) != 0)
            goto out;
    for (step = 1; delivered < want; step++) {
        if (step > 1000000) {
            snprintf(err, errlen, "the flooding did not finish (an internal error)");
            st = LCAN_ERR_STALL;
            goto out;
        }
        narr = 0;
        for (k = 0; k < ndirs; k++) {
            int c;
            for (c = 0; c < dir[k].cap && q[k].len > 0; c++) {
                if (narr == arr_cap) {
                    uint32_t *a, *b;
                    arr_cap *= 2;
                    a = realloc(arr_msg, arr_cap * sizeof *arr_msg);
                    if (a == NULL)
                        goto out;
                    arr_msg = a;
                    b = realloc(arr_dir, arr_cap * sizeof *arr_dir);
                    if (b == NULL)
                        goto out;
                    arr_dir = b;
                }
                arr_msg[narr] = q_pop(&q[k]);
                arr_dir[narr] = (uint32_t)k;
                narr++;
            }
        }
        /* queue lengths after the sends: the messages that wait at least one more step */
        for (k = 0; k < ndirs; k++) {
            int *peak = dir[k].up ? r->queue_peak_up : r->queue_peak_down;
            if ((int)q[k].len > peak[dir[k].level])
                peak[dir[k].level] = (int)q[k].len;
        }
        for (k = 0; k < narr; k++) {
            const f0_dir *d = &dir[arr_dir[k]];
            uint32_t at = d->to, from = off[d->level] + d->node, m = arr_msg[k], j;
            if (at < off[1]) { /* a leaf */
                uint32_t leaf = at - off[0];
                if (leaf == m || got[(size_t)leaf * N + m]) {
                    snprintf(err, errlen, "leaf %u received message %u twice or its own (an internal error)", leaf, m);
                    st = LCAN_ERR_STALL;
                    goto out;
                }
                got[(size_t)leaf * N + m] = 1;
                delivered++;
                r->steps = step;
                continue;
            }
            for (j = first[at]; j < first[at] + ndir[at]; j++)
                if (dir[j].to != from && q_push(&q[j], m) != 0)
                    goto out;
        }
    }
    r->deliveries = delivered;
    st = LCAN_OK;
out:
    if (st == LCAN_ERR_NOMEM)
        snprintf(err, errlen, "out of memory");
    if (q != NULL)
        for (k = 0; k < ndirs; k++)
            free(q[k].v);
    free(q);
    free(first);
    free(ndir);
    free(dir);
    free(got);
    free(arr_msg);
    free(arr_dir);
    return st;
}
