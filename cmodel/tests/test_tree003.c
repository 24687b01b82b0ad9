/*
 * test_tree003.c - seed 003's schedules that meet its claims (issue 13 part 3). Expected values are
 * the paper's formulas evaluated here, and one independent computation:
 *   farthest-first relaying (the default): A5 option A within 3(n-1) at n = 15 (Corollary), option
 *   B from the root within 3*(n/2) = 3 floor(n/2) = 45 at n = 31 (Corollary), A6 within 3n/2 for
 *   every source at n = 7..63 (A6); never slower than the oldest-first schedule on A5 / A6;
 *   Result 9: the most processors receiving in one step of any single-I/O run is at most the exact
 *   maximum for a complete binary tree (one send and one receive per processor, over tree edges),
 *   computed here by a small tree DP; Result 9's own count ~5n/8 is printed for comparison;
 *   the A3 row states no paper count (the former "6h" was an inference, not the paper's).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lcan_collective.h"

/* Exact maximum number of receivers in one single-I/O step on a complete binary tree of n nodes:
 * dp[v][s][r] = best in v's subtree when v sends to its parent (s) / receives from it (r). */
static long max_receivers(long n)
{
    static long dp[1024][2][2];
    long v;
    for (v = n - 1; v >= 0; v--) {
        int s, r;
        for (s = 0; s < 2; s++)
            for (r = 0; r < 2; r++) {
                long best = -1, c1 = 2 * v + 1, c2 = 2 * v + 2;
                int tgt, src; /* 0 none/parent, 1 left, 2 right */
                for (tgt = 0; tgt < 3; tgt++)
                    for (src = 0; src < 3; src++) {
                        long val;
                        if (c1 >= n && (tgt || src))
                            continue;
                        if ((s && tgt) || (r && src))
                            continue; /* the slot is taken by the parent */
                        /* tgt == src (a swap with one child) is allowed: one send, one receive */
                        val = (r || src) ? 1 : 0;
                        if (c1 < n)
                            val += dp[c1][src == 1][tgt == 1] + dp[c2][src == 2][tgt == 2];
                        if (val > best)
                            best = val;
                    }
                dp[v][s][r] = best;
            }
    }
    return dp[0][0][0];
}

static const lcan_tree003_row *find(const lcan_tree003_row *rows, int nr, const char *algo, const char *src)
{
    int k;
    for (k = 0; k < nr; k++)
        if (strcmp(rows[k].algo, algo) == 0 && strcmp(rows[k].source, src) == 0)
            return &rows[k];
    return NULL;
}

int main(void)
{
    check_ctx c = {"test_tree003", 0, 0};
    int H;
    for (H = 2; H <= 5; H++) {
        lcan_tree003_row f[32], o[32];
        int nf = lcan_tree003_table_sched(H, LCAN_T3_FARTHEST, f, 32), no = lcan_tree003_table_sched(H, LCAN_T3_OLDEST, o, 32);
        long n = (1L << (H + 1)) - 1, k;
        const char *algos[] = {"A5 option A ring=shaw", "A5 option B ring=shaw", "A6 ring=shaw"};
        const lcan_tree003_row *a, *b, *rx = NULL;
        check(&c, nf > 0 && no == nf, "H=%d: %d / %d rows", H, nf, no);
        if (nf <= 0 || no != nf)
            continue;
        for (k = 0; k < nf; k++) {
            check(&c, f[k].correct, "H=%d %s %s: not correct", H, f[k].algo, f[k].source);
            if (strcmp(f[k].op, "receivers") == 0)
                rx = &f[k];
            if (strncmp(f[k].algo, "A3", 2) == 0)
                check(&c, f[k].paper_claim < 0, "H=%d %s: the paper states no count", H, f[k].algo);
        }
        for (k = 0; k < 3; k++) {
            int w;
            for (w = 0; w < 2; w++) {
                const char *src = w ? "worst" : "root";
                a = find(f, nf, algos[k], src);
                b = find(o, no, algos[k], src);
                check(&c, a != NULL && b != NULL && a->steps <= b->steps, "H=%d %s %s: farthest %ld > oldest %ld", H,
                      algos[k], src, a ? a->steps : -1, b ? b->steps : -1);
                check(&c, a != NULL && a->steps >= n - 1 - (k == 2 ? 2 * (n - 1) / 3 : 0),
                      "H=%d %s %s: below Table 1's bound", H, algos[k], src);
            }
        }
        a = find(f, nf, "A6 ring=shaw", "worst");
        check(&c, a != NULL && 2 * a->steps <= 3 * n, "H=%d A6 worst %ld > 3n/2 = %.1f", H, a ? a->steps : -1, 1.5 * n);
        if (H == 3) {
            a = find(f, nf, "A5 option A ring=shaw", "root");
            check(&c, a != NULL && a->steps <= 3 * (n - 1), "n=15 A5 option A root %ld > 3(n-1) = %ld", a ? a->steps : -1,
                  3 * (n - 1));
        }
        if (H == 4) {
            a = find(f, nf, "A5 option B ring=shaw", "root");
            check(&c, a != NULL && a->steps <= 3 * (n / 2), "n=31 A5 option B root %ld > 3*(n/2) = %ld",
                  a ? a->steps : -1, 3 * (n / 2));
        }
        check(&c, rx != NULL && rx->steps > 0 && rx->steps <= max_receivers(n),
              "H=%d: %ld receivers in one step, the exact maximum is %ld", H, rx ? rx->steps : -1, max_receivers(n));
        printf("test_tree003: n = %ld: most receivers in a step %ld, exact maximum %ld, Result 9 ~5n/8 = %.1f\n", n,
               rx ? rx->steps : -1, max_receivers(n), 5.0 * n / 8.0);
    }
    /* the DP on the smallest tree, checked by hand: n = 3: 2 (at most one leaf can be served) */
    check(&c, max_receivers(3) == 2, "max_receivers(3) = %ld", max_receivers(3));
    return check_done(&c);
}
