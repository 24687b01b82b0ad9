/*
 * test_flood000.c - seed 000 §4's flooding multinode broadcast in the paper's step model
 * (src/collective_flood000.c) against the paper's numbers: n + 1 steps on a CBFT and on an EBFT
 * (Theorem 2; "increasing the capacities of branches offers no advantage"), n(n-1) deliveries,
 * and queues of 2^(i-1) messages at the outgoing up link of a level-i node of a CBFT (§4.1); trees
 * only (a network with several parents is refused).
 */
#include <stdio.h>

#include "check.h"
#include "lcan_collective.h"

static void run(check_ctx *c, int h, int ebft)
{
    char spec[160], err[256];
    int l, n = 1 << h;
    size_t k = 0;
    lcan_topo *t;
    lcan_flood000_result r;
    k += (size_t)snprintf(spec + k, sizeof spec - k, "bft(%d;", h);
    for (l = 1; l <= h; l++) /* EBFT: capacity 2^(l-1), up to the limit c <= 64 of spec 1.1 */
        k += (size_t)snprintf(spec + k, sizeof spec - k, "%s%d", l > 1 ? "," : "",
                              ebft ? (l - 1 < 6 ? 1 << (l - 1) : 32) : 1);
    snprintf(spec + k, sizeof spec - k, ")");
    if (lcan_topo_parse(spec, &t, err, sizeof err) != LCAN_OK) {
        check(c, 0, "%s: %s", spec, err);
        return;
    }
    check(c, lcan_flood000_mnb(t, &r, err, sizeof err) == LCAN_OK, "%s: %s", spec, err);
    check(c, r.steps == n + 1, "%s: %d steps, the paper's n + 1 = %d", spec, r.steps, n + 1);
    check(c, r.deliveries == (uint64_t)n * (uint64_t)(n - 1), "%s: %llu deliveries", spec,
          (unsigned long long)r.deliveries);
    if (!ebft)
        for (l = 1; l < h; l++)
            check(c, r.queue_peak_up[l] == 1 << (l - 1), "%s: level %d up-queue peak %d, the paper's 2^(i-1) = %d",
                  spec, l, r.queue_peak_up[l], 1 << (l - 1));
    check(c, r.queue_peak_up[0] == 0 && r.queue_peak_up[h] == 0, "%s: leaves and the top have no up queue", spec);
    lcan_topo_free(t);
}

int main(void)
{
    check_ctx c = {"test_flood000", 0, 0};
    const char *bad[] = {"kary(4,3)", "cm5", "gft(2,2,2)"};
    int h, k;
    for (h = 2; h <= 10; h++)
        run(&c, h, 0);
    for (h = 2; h <= 8; h++)
        run(&c, h, 1);
    for (k = 0; k < 3; k++) {
        lcan_topo *t;
        lcan_flood000_result r;
        char err[256] = "";
        lcan_topo_parse(bad[k], &t, err, sizeof err);
        check(&c, lcan_flood000_mnb(t, &r, err, sizeof err) == LCAN_ERR_ARG && err[0] != '\0',
              "%s: refused (several parents)", bad[k]);
        lcan_topo_free(t);
    }
    return check_done(&c);
}
