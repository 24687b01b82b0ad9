/*
 * test_alloc.c - the allocator of spec 6: hand-worked cases (rotations, wrap-around, ONE vs ALL,
 * avail, port sets across the 64-bit boundary) and, on random cases, the property stated in
 * spec 6 - among the requesters of one class, taken in rotated order, the j-th gets the j-th
 * available candidate of the class in rotated order (class UP under UP_CHOICE = uniform: in the
 * order of its list, spec 6) - computed here by sorting, not by the greedy loop; hand-worked cases
 * of the order list. The 64-bit mask version lcan_alloc64 (the header step's, P <= 64) is held to
 * the same expectations on the random cases.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"

static check_ctx C = {"test_alloc", 0, 0};

static lcan_pset set_of(const int *ports, int n)
{
    lcan_pset s;
    int i;
    lcan_pset_clear(&s);
    for (i = 0; i < n; i++)
        lcan_pset_add(&s, ports[i]);
    return s;
}

static int only(const lcan_pset *g) /* the single member, -1 if empty, -2 if more */
{
    int a = lcan_pset_next(g, 0);
    if (a < 0)
        return -1;
    return lcan_pset_next(g, a + 1) < 0 ? a : -2;
}

static void one(lcan_req *r, int lo, int hi, int start)
{
    r->valid = 1;
    r->kind = LCAN_REQ_ONE;
    r->want = lcan_pset_range(lo, hi);
    r->start = start;
}

static void hand(void)
{
    lcan_req req[LCAN_MAX_PORTS];
    lcan_pset grant[LCAN_MAX_PORTS], avail;
    int a[8];

    /* P = 4 (D = 2 downers, 2 uppers). Two UP requests, r_in = 1, r_up = 1: input 1 goes first and
     * takes upper 1 (port 3); input 0 scans 3, 0, 1, 2 and takes port 2. */
    memset(req, 0, sizeof req);
    one(&req[0], 2, 4, 3);
    one(&req[1], 2, 4, 3);
    avail = lcan_pset_range(0, 4);
    lcan_alloc(4, 1, req, &avail, grant);
    check(&C, only(&grant[1]) == 3 && only(&grant[0]) == 2, "UP pair r_in=1: got %d %d", only(&grant[0]), only(&grant[1]));
    /* r_in = 0: input 0 first, takes port 3; input 1 gets port 2 */
    lcan_alloc(4, 0, req, &avail, grant);
    check(&C, only(&grant[0]) == 3 && only(&grant[1]) == 2, "UP pair r_in=0: got %d %d", only(&grant[0]), only(&grant[1]));
    /* port 3 not available: the first requester in rotated order (input 1) gets 2, input 0 nothing */
    a[0] = 0; a[1] = 1; a[2] = 2;
    avail = set_of(a, 3);
    lcan_alloc(4, 1, req, &avail, grant);
    check(&C, only(&grant[1]) == 2 && only(&grant[0]) == -1, "UP pair, 3 busy: got %d %d", only(&grant[0]), only(&grant[1]));
    /* inputs 2, 3 make no request: grants stay empty */
    check(&C, only(&grant[2]) == -1 && only(&grant[3]) == -1, "no request, no grant");

    /* P = 6: m = 2, p = 2 (D = 4), U = 2. DOWN(1) (ports 2, 3) from inputs 4 and 5, r_dn = 1
     * (start 3), r_in = 5: input 5 first gets 3, input 4 gets 2. */
    memset(req, 0, sizeof req);
    one(&req[4], 2, 4, 3);
    one(&req[5], 2, 4, 3);
    avail = lcan_pset_range(0, 6);
    lcan_alloc(6, 5, req, &avail, grant);
    check(&C, only(&grant[5]) == 3 && only(&grant[4]) == 2, "DOWN(1) pair: got %d %d", only(&grant[4]), only(&grant[5]));
    /* r_in = 4: input 4 first gets 3 */
    lcan_alloc(6, 4, req, &avail, grant);
    check(&C, only(&grant[4]) == 3 && only(&grant[5]) == 2, "DOWN(1) pair r_in=4: got %d %d", only(&grant[4]), only(&grant[5]));

    /* ALL: broadcast want {0, 2, 4} on input 5; input 0 (ONE, want {4}) goes first (r_in = 0) and
     * takes 4; port 2 is not available: ALL gets {0}. */
    memset(req, 0, sizeof req);
    one(&req[0], 4, 5, 4);
    a[0] = 0; a[1] = 2; a[2] = 4;
    req[5].valid = 1;
    req[5].kind = LCAN_REQ_ALL;
    req[5].want = set_of(a, 3);
    a[0] = 0; a[1] = 1; a[2] = 3; a[3] = 4; a[4] = 5;
    avail = set_of(a, 5);
    lcan_alloc(6, 0, req, &avail, grant);
    check(&C, only(&grant[0]) == 4 && only(&grant[5]) == 0, "ONE before ALL: got %d %d", only(&grant[0]), only(&grant[5]));
    /* r_in = 5: the ALL request goes first and takes {0, 4}; the ONE request gets nothing */
    lcan_alloc(6, 5, req, &avail, grant);
    check(&C, only(&grant[0]) == -1 && lcan_pset_has(&grant[5], 0) && lcan_pset_has(&grant[5], 4) &&
                  !lcan_pset_has(&grant[5], 2) && lcan_pset_next(&grant[5], 5) < 0,
          "ALL before ONE");

    /* wrap-around: want {0..3}, start 3, avail {1, 2}: scan 3, 0, 1 -> 1 */
    memset(req, 0, sizeof req);
    one(&req[2], 0, 4, 3);
    a[0] = 1; a[1] = 2;
    avail = set_of(a, 2);
    lcan_alloc(8, 0, req, &avail, grant);
    check(&C, only(&grant[2]) == 1, "wrap-around: got %d", only(&grant[2]));

    /* 128 ports, across the word boundary: want 60..70, start 66, avail {61, 65} -> scan 66..127,
     * 0..65 -> 61; a second requester later in rotated order gets 65 */
    memset(req, 0, sizeof req);
    one(&req[127], 60, 71, 66);
    one(&req[3], 60, 71, 66);
    a[0] = 61; a[1] = 65;
    avail = set_of(a, 2);
    lcan_alloc(128, 100, req, &avail, grant);
    check(&C, only(&grant[127]) == 61 && only(&grant[3]) == 65, "128 ports: got %d %d", only(&grant[127]), only(&grant[3]));
    /* start in the upper word, candidate in the upper word */
    memset(req, 0, sizeof req);
    one(&req[0], 64, 128, 100);
    a[0] = 99; a[1] = 127; a[2] = 64;
    avail = set_of(a, 3);
    lcan_alloc(128, 0, req, &avail, grant);
    check(&C, only(&grant[0]) == 127, "upper word: got %d", only(&grant[0]));
}

/* UP_CHOICE = uniform (spec 6): a ONE request of class UP scans D + sigma[0], D + sigma[1], ..
 * (the order list), hand-worked. */
static void order_cases(void)
{
    lcan_req req[LCAN_MAX_PORTS];
    lcan_pset grant[LCAN_MAX_PORTS], avail;
    static const uint8_t ord[4] = {4, 2, 5, 3}; /* D = 2, U = 4, sigma = [2, 0, 3, 1] */
    static const uint8_t big[3] = {127, 64, 100};
    int a[4];

    /* P = 6: three UP requests on inputs 0, 1, 2, r_in = 1: inputs 1, 2, 0 take ports 4, 2, 5 in
     * sigma order (a cyclic scan from D + r_up would give consecutive uppers) */
    memset(req, 0, sizeof req);
    one(&req[0], 2, 6, 2);
    one(&req[1], 2, 6, 2);
    one(&req[2], 2, 6, 2);
    req[0].order = req[1].order = req[2].order = ord;
    req[0].n_order = req[1].n_order = req[2].n_order = 4;
    avail = lcan_pset_range(0, 6);
    lcan_alloc(6, 1, req, &avail, grant);
    check(&C, only(&grant[1]) == 4 && only(&grant[2]) == 2 && only(&grant[0]) == 5,
          "uniform r_in=1: got %d %d %d (expected 5 4 2)", only(&grant[0]), only(&grant[1]), only(&grant[2]));
    /* port 2 not available (a set circuit / no credit): the order skips it: 4, 5, 3 */
    a[0] = 0; a[1] = 1; a[2] = 3; a[3] = 4;
    avail = set_of(a, 4);
    lcan_pset_add(&avail, 5);
    lcan_alloc(6, 0, req, &avail, grant);
    check(&C, only(&grant[0]) == 4 && only(&grant[1]) == 5 && only(&grant[2]) == 3,
          "uniform, port 2 busy: got %d %d %d (expected 4 5 3)", only(&grant[0]), only(&grant[1]), only(&grant[2]));
    /* a DOWN request (no order) between them keeps its cyclic scan; an ALL broadcast request for
     * upper 0 (port 2) names it whatever sigma is, and comes first here (r_in = 3) */
    memset(req, 0, sizeof req);
    one(&req[0], 2, 6, 2);
    req[0].order = ord;
    req[0].n_order = 4;
    one(&req[1], 0, 2, 1);
    req[3].valid = 1;
    req[3].kind = LCAN_REQ_ALL;
    a[0] = 2;
    req[3].want = set_of(a, 1);
    avail = lcan_pset_range(0, 6);
    lcan_alloc(6, 3, req, &avail, grant);
    check(&C, only(&grant[3]) == 2 && only(&grant[0]) == 4 && only(&grant[1]) == 1,
          "uniform with bcast: got %d %d %d (expected 2 4 1)", only(&grant[3]), only(&grant[0]), only(&grant[1]));
    /* the 64-bit boundary: P = 128, D = 64, order 127, 64, 100; 127 taken by the first */
    memset(req, 0, sizeof req);
    one(&req[5], 64, 128, 64);
    one(&req[9], 64, 128, 64);
    one(&req[70], 64, 128, 64);
    req[5].order = req[9].order = req[70].order = big;
    req[5].n_order = req[9].n_order = req[70].n_order = 3; /* a list shorter than U: only those */
    avail = lcan_pset_range(0, 128);
    lcan_alloc(128, 6, req, &avail, grant);
    check(&C, only(&grant[9]) == 127 && only(&grant[70]) == 64 && only(&grant[5]) == 100,
          "uniform P=128: got %d %d %d (expected 127 64 100)", only(&grant[9]), only(&grant[70]), only(&grant[5]));
    /* no free candidate in the order: no grant */
    a[0] = 0; a[1] = 1;
    avail = set_of(a, 2);
    memset(req, 0, sizeof req);
    one(&req[0], 2, 6, 2);
    req[0].order = ord;
    req[0].n_order = 4;
    lcan_alloc(6, 0, req, &avail, grant);
    check(&C, only(&grant[0]) == -1, "uniform, no upper free: got %d", only(&grant[0]));
}

/* Random: classes UP and DOWN(x); compare with the sorted-order reference. */
static void property(void)
{
    unsigned long long rng = 12345;
    int trial;
    for (trial = 0; trial < 20000; trial++) {
        int m = 2 + (int)(test_rng(&rng) % 8), p = 1 + (int)(test_rng(&rng) % 4);
        int U = (int)(test_rng(&rng) % 9), D = m * p, P = D + U;
        int r_in = (int)(test_rng(&rng) % (unsigned)P), r_up = U ? (int)(test_rng(&rng) % (unsigned)U) : 0;
        int r_dn = (int)(test_rng(&rng) % (unsigned)p);
        int cls[LCAN_MAX_PORTS], i, c, o;
        lcan_req req[LCAN_MAX_PORTS];
        lcan_pset grant[LCAN_MAX_PORTS], avail;
        int expect[LCAN_MAX_PORTS];
        int uni = (int)(test_rng(&rng) % 2); /* UP_CHOICE = uniform: class UP scans D + perm[k] */
        uint8_t perm[LCAN_MAX_PORTS];

        if (P > LCAN_MAX_PORTS)
            continue;
        for (o = 0; o < U; o++)
            perm[o] = (uint8_t)(D + o);
        for (o = U - 1; o > 0; o--) {
            int j = (int)(test_rng(&rng) % (unsigned)(o + 1));
            uint8_t tmp = perm[o];
            perm[o] = perm[j];
            perm[j] = tmp;
        }
        memset(req, 0, sizeof req);
        lcan_pset_clear(&avail);
        for (o = 0; o < P; o++)
            if (test_rng(&rng) % 4 != 0)
                lcan_pset_add(&avail, o);
        for (i = 0; i < P; i++) {
            unsigned long long v = test_rng(&rng) % 3;
            req[i].valid = v != 0;
            cls[i] = -2;
            if (!req[i].valid)
                continue;
            /* class -1 = UP (only if there are uppers), else DOWN(x) */
            cls[i] = (U > 0 && test_rng(&rng) % 2) ? -1 : (int)(test_rng(&rng) % (unsigned)m);
            req[i].kind = LCAN_REQ_ONE;
            if (cls[i] == -1) {
                req[i].want = lcan_pset_range(D, P);
                req[i].start = D + r_up;
                req[i].order = uni ? perm : NULL;
                req[i].n_order = U;
            } else {
                req[i].want = lcan_pset_range(cls[i] * p, cls[i] * p + p);
                req[i].start = cls[i] * p + r_dn;
            }
        }
        /* reference */
        for (i = 0; i < P; i++)
            expect[i] = -1;
        for (c = -1; c < m; c++) {
            int cand[LCAN_MAX_PORTS], nc = 0, n = c == -1 ? U : p, base = c == -1 ? D : c * p;
            int r = c == -1 ? r_up : r_dn, j, k, won = 0;
            for (j = 0; j < n; j++) {
                int port = c == -1 && uni ? perm[j] : base + (r + j) % n;
                if (lcan_pset_has(&avail, port))
                    cand[nc++] = port;
            }
            for (k = 0; k < P; k++) { /* requesters in rotated order */
                i = (r_in + k) % P;
                if (req[i].valid && cls[i] == c) {
                    if (won < nc)
                        expect[i] = cand[won];
                    won++;
                }
            }
        }
        lcan_alloc(P, r_in, req, &avail, grant);
        for (i = 0; i < P; i++)
            check(&C, only(&grant[i]) == expect[i], "trial %d (m=%d p=%d U=%d r_in=%d r_up=%d r_dn=%d) input %d: got %d expected %d",
                  trial, m, p, U, r_in, r_up, r_dn, i, only(&grant[i]), expect[i]);
        if (P <= 64) { /* the mask version (lcan_alloc64), against the same expectation */
            uint64_t want[64], g64[64], reqm = 0, ordm = 0;
            int start[64];
            for (i = 0; i < P; i++)
                if (req[i].valid) {
                    reqm |= (uint64_t)1 << i;
                    want[i] = req[i].want.w[0];
                    start[i] = req[i].start;
                    if (req[i].order != NULL)
                        ordm |= (uint64_t)1 << i;
                }
            lcan_alloc64(P, r_in, reqm, 0, ordm, want, start, perm, U, avail.w[0], g64);
            for (i = 0; i < P; i++)
                check(&C, ((reqm >> i) & 1u ? (g64[i] ? lcan_ctz64(g64[i]) : -1) : -1) == expect[i] &&
                              (!((reqm >> i) & 1u) || (g64[i] & (g64[i] - 1u)) == 0),
                      "alloc64 trial %d input %d: expected %d", trial, i, expect[i]);
        }
    }
}

int main(void)
{
    lcan_pset s = lcan_pset_range(3, 70);
    check(&C, !lcan_pset_has(&s, 2) && lcan_pset_has(&s, 3) && lcan_pset_has(&s, 69) && !lcan_pset_has(&s, 70),
          "pset_range(3,70)");
    check(&C, lcan_pset_next(&s, 64) == 64 && lcan_pset_next(&s, 70) == -1 && lcan_pset_next(&s, 128) == -1,
          "pset_next");
    s = lcan_pset_range(0, 128);
    check(&C, s.w[0] == ~0ull && s.w[1] == ~0ull, "pset_range(0,128)");
    hand();
    order_cases();
    property();
    return check_done(&C);
}
