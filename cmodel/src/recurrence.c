/*
 * recurrence.c - the throughput recurrence of seed 004 section 5 (spec 10.2):
 *   p(i+1) = 1 - (1 - p(i)/d)^u,  i = 0..stages-1,
 *   p(0) = the given load, or (p0 < 0) the paper's start: 1 for d >= u, (d/u)^stages for d < u.
 */
#include <math.h>

#include "lcan.h"

void lcan_recurrence(int d, int u, int stages, double p0, double *p)
{
    int i;
    if (p == NULL || stages < 0 || d < 1 || u < 1)
        return;
    if (p0 < 0.0)
        p0 = d >= u ? 1.0 : pow((double)d / (double)u, (double)stages);
    p[0] = p0;
    for (i = 0; i < stages; i++)
        p[i + 1] = 1.0 - pow(1.0 - p[i] / (double)d, (double)u);
}
