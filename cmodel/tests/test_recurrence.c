/*
 * test_recurrence.c - lcan_recurrence (spec 10.2, seed 004 section 5) against hand values and
 * against the recurrence evaluated here with its own loop:
 *   p(i+1) = 1 - (1 - p(i)/d)^u, p(0) = 1 (d >= u) or (d/u)^stages (d < u).
 * Also the qualitative claims of seed 004 Figures 10-12.
 */
#include <math.h>
#include <stdio.h>

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

#define MAXS 40

/* (1 - x)^u by repeated multiplication, independent of pow() for integer u */
static double pow_int(double x, int u)
{
    double r = 1.0;
    int k;
    for (k = 0; k < u; k++)
        r *= x;
    return r;
}

int main(void)
{
    tally tl = {0, 0};
    double p[MAXS + 2], q[MAXS + 2];
    static const int du[][3] = {{2, 2, 16}, {4, 4, 4}, {16, 16, 4}, {3, 2, 4}, {2, 3, 4}, {4, 2, 4},
                                {2, 4, 8}, {8, 2, 3}, {2, 1, 3}, {64, 64, 1}, {3, 3, 0}};
    size_t k;
    int i;

    /* hand values, d = u = 2, start 1: 1, 3/4, 39/64 = 1 - (5/8)^2, 1 - (1 - 39/128)^2 */
    lcan_recurrence(2, 2, 3, -1.0, p);
    CHECK(&tl, p[0] == 1.0 && p[1] == 0.75 && p[2] == 0.609375 && fabs(p[3] - (1.0 - (89.0 / 128) * (89.0 / 128))) < 1e-15,
          "d=u=2: %g %g %g %g", p[0], p[1], p[2], p[3]);
    /* d = 3 > u = 2: p0 = 1, p1 = 1 - (2/3)^2 = 5/9 */
    lcan_recurrence(3, 2, 1, -1.0, p);
    CHECK(&tl, p[0] == 1.0 && fabs(p[1] - 5.0 / 9.0) < 1e-15, "d=3,u=2: %g %g", p[0], p[1]);
    /* d = 2 < u = 3, 4 stages (LCAN(2,3,16)): p0 = (2/3)^4 = 16/81 */
    lcan_recurrence(2, 3, 4, -1.0, p);
    CHECK(&tl, fabs(p[0] - 16.0 / 81.0) < 1e-15, "d=2,u=3: p0 = %.17g, expected 16/81", p[0]);
    CHECK(&tl, fabs(p[1] - (1.0 - pow_int(1.0 - 8.0 / 81.0, 3))) < 1e-15, "d=2,u=3: p1 = %.17g", p[1]);
    /* explicit start */
    lcan_recurrence(4, 4, 2, 0.5, p);
    CHECK(&tl, p[0] == 0.5 && fabs(p[1] - (1.0 - pow_int(0.875, 4))) < 1e-15, "start 0.5: %g %g", p[0], p[1]);
    lcan_recurrence(4, 4, 1, 0.0, p);
    CHECK(&tl, p[0] == 0.0 && p[1] == 0.0, "start 0 stays 0");

    for (k = 0; k < sizeof du / sizeof du[0]; k++) {
        int d = du[k][0], u = du[k][1], st = du[k][2], bad = 0;
        double p0 = 1.0;
        for (i = 0; i < st; i++)
            p0 *= d >= u ? 1.0 : (double)d / (double)u;
        q[0] = p0;
        for (i = 0; i < st; i++)
            q[i + 1] = 1.0 - pow_int(1.0 - q[i] / d, u);
        p[st + 1] = -42.0; /* must not be written */
        lcan_recurrence(d, u, st, -1.0, p);
        for (i = 0; i <= st; i++)
            if (fabs(p[i] - q[i]) > 1e-12 || p[i] < 0.0 || p[i] > 1.0)
                bad++;
        CHECK(&tl, bad == 0, "d=%d u=%d stages=%d: %d values differ from the loop here", d, u, st, bad);
        CHECK(&tl, p[st + 1] == -42.0, "d=%d u=%d: wrote past p[stages]", d, u);
    }
    /* seed 004 Figure 10 (d = u): decreasing, and larger switches fall faster per stage */
    lcan_recurrence(2, 2, 16, -1.0, p);
    lcan_recurrence(16, 16, 16, -1.0, q);
    for (i = 0; i < 16; i++)
        CHECK(&tl, p[i + 1] < p[i] && q[i + 1] < q[i], "d=u: p must decrease (i=%d)", i);
    CHECK(&tl, q[16] < p[16], "Figure 10: d=u=16 must be below d=u=2 at i=16");
    /* ... but at equal N = 2^16 (16 stages of 2 vs 4 stages of 16) the big switch wins */
    CHECK(&tl, q[4] > p[16], "Figure 10 text: p_4(16) = %g must exceed p_16(2) = %g", q[4], p[16]);
    /* Figure 12 (d < u): from (d/u)^stages the p_i increase */
    lcan_recurrence(2, 4, 8, -1.0, p);
    for (i = 0; i < 8; i++)
        CHECK(&tl, p[i + 1] > p[i], "d<u: p must increase (i=%d: %g -> %g)", i, p[i], p[i + 1]);
    /* bad arguments leave the buffer alone */
    p[0] = -7.0;
    lcan_recurrence(0, 2, 3, -1.0, p);
    lcan_recurrence(2, 2, -1, -1.0, p);
    lcan_recurrence(2, 2, 3, -1.0, NULL);
    CHECK(&tl, p[0] == -7.0, "bad arguments must not write");

    printf("test_recurrence: %d passed, %d failed\n", tl.pass, tl.fail);
    return tl.fail != 0;
}
