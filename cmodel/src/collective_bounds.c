/*
 * collective_bounds.c - the papers' lower bounds for a collective on a network (issue 13, part 4),
 * evaluated from the network the model builds; printed beside every collective as `lower_bound`.
 *
 *   seed 000 (binary fat trees, one link per leaf: bft(h;c..) with c_1 = 1), Table 1:
 *     broadcast 2 log n; scatter / gather n + 1; multinode broadcast n + 1;
 *     total exchange max{n + 1, n^2 / (4 c_log n)}, and on the EBFT (c_i = 2^(i-1)) also Lemma 3:
 *     n + 2 log n - 2 log log n - 2 (evaluated with real logarithms and rounded up when log n is not
 *     a power of two; the paper states it for i = log log n + 1 an integer).
 *   seed 000 section 2.1 on any other network: broadcast needs the diameter, 2h (one flit).
 *   seed 001 (round programs: reduce, prefix, bcast --algo leaves, on binary trees):
 *     the largest of: the diameter 2 log N (section 3, "simple diameter considerations": a round
 *     takes twice its height and some value must cross the root); Theorem 2's recurrence
 *     T(N) >= log(N/2) + T(n / 2^d), n = N/2, d = ceil(log w(n) + log log(alpha n / w(n))), alpha = 1.56
 *     (the smallest alpha the theorem allows; applied while w(n) < n and 1 <= d < log n); Theorem 3
 *     relation (8) (coll_seed001_bound). Theorem 6 gives product and prefix the same bound.
 * Anything else: no bound (-1), with the reason in the reference string.
 */
#include "collective_internal.h"

#include <math.h>

static int bft_one_port(const lcan_topo *t)
{
    int l;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        if (lcan_topo_m(t, l) != 2 || lcan_topo_w(t, l) != 1)
            return 0;
    return lcan_topo_p(t, 1) == 1;
}

static int is_ebft(const lcan_topo *t)
{
    int l;
    if (!bft_one_port(t))
        return 0;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        if (lcan_topo_p(t, l) != 1 << (l - 1))
            return 0;
    return 1;
}

/* Theorem 2 of seed 001, evaluated as a recurrence on a binary tree of 2^lg leaves; cap(j) is the
 * capacity of the channel above a subtree of 2^j leaves. */
static int64_t thm2(const lcan_topo *t, int lg)
{
    const double alpha = 1.56;
    int64_t T = 0;
    while (lg >= 1) {
        int j = lg - 1; /* n = N/2 = 2^j */
        double w = (double)coll_capacity(t, j), n = ldexp(1.0, j), x;
        int d;
        T += j; /* log(N/2) */
        if (j < 1 || w >= n)
            break;
        x = log2(alpha * n / w);
        if (x <= 0.0)
            break;
        d = (int)ceil(log2(w) + log2(x) - 1e-12);
        if (d < 1 || d >= j)
            break;
        lg = j - d;
    }
    return T;
}

void coll_lower_bound(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o, int64_t *lb, const char **ref)
{
    int h = lcan_topo_levels(t);
    int64_t n = (int64_t)lcan_topo_leaves(t);
    int round_prog = op == LCAN_COLL_REDUCE || op == LCAN_COLL_PREFIX || (op == LCAN_COLL_BCAST && o->sw_bcast);
    *lb = -1;
    *ref = "no paper gives a bound for this operation on this network";
    if (round_prog) {
        int64_t b8 = coll_seed001_bound(t), b2, dia = 2 * (int64_t)h;
        if (b8 < 0) {
            *ref = "seed 001's bounds are for binary trees with log N >= 2";
            return;
        }
        b2 = thm2(t, h);
        *lb = dia;
        *ref = "seed 001 section 3: diameter 2 log N (Thm 2 and Thm 3 (8) are lower here)";
        if (b2 > *lb) {
            *lb = b2;
            *ref = "seed 001 Thm 2 (recurrence, alpha = 1.56)";
        }
        if (b8 > *lb) {
            *lb = b8;
            *ref = op == LCAN_COLL_BCAST ? "seed 001 Thm 3 relation (8), round model"
                                         : "seed 001 Thm 3 relation (8), round model; Thm 6: same bound for product/prefix";
        }
        return;
    }
    if (op == LCAN_COLL_BCAST) {
        if (o->flits != 1)
            return;
        *lb = 2 * (int64_t)h;
        *ref = bft_one_port(t) ? "seed 000 Table 1: broadcasting 2 log n"
                               : "seed 000 section 2.1: broadcasting needs the diameter D = 2h";
        return;
    }
    if (!bft_one_port(t)) {
        *ref = "seed 000 Table 1 is for binary fat trees with one link per leaf";
        return;
    }
    switch (op) {
    case LCAN_COLL_SCATTER:
    case LCAN_COLL_GATHER:
        *lb = n + 1;
        *ref = "seed 000 Table 1: scatter/gather n + 1";
        return;
    case LCAN_COLL_MNB:
        *lb = n + 1;
        *ref = "seed 000 Table 1: multinode broadcast n + 1";
        return;
    case LCAN_COLL_ALLTOALL: {
        int64_t ch = (int64_t)coll_capacity(t, h - 1), cut = (n * n + 4 * ch - 1) / (4 * ch);
        *lb = n + 1;
        *ref = "seed 000 Table 1: total exchange max{n + 1, n^2/4c_log n} (n + 1 binds)";
        if (cut > *lb) {
            *lb = cut;
            *ref = "seed 000 Table 1: total exchange max{n + 1, n^2/4c_log n} (n^2/4c binds)";
        }
        if (is_ebft(t) && h >= 1) {
            double lg = (double)h, llg = h >= 2 ? log2(lg) : 0.0;
            int64_t l3 = (int64_t)ceil((double)n + 2.0 * lg - 2.0 * llg - 2.0 - 1e-9);
            if (l3 > *lb) {
                *lb = l3;
                *ref = "seed 000 Lemma 3 (EBFT): n + 2 log n - 2 log log n - 2";
            }
        }
        return;
    }
    default:
        return;
    }
}
