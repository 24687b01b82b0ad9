/*
 * study.c - route studies on any engine (lcan_study.h). The arithmetic follows `lcan route`
 * (cmodel/tool/cmd_route.c) operation for operation, so the RTL engine's figures are bit-identical
 * to the model engine's for the same seed.
 */
#include "lcan_study.h"
#include "lcan_faults.h"
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void fail(char *err, size_t errlen, const char *msg, long k, const char *detail)
{
    if (err != NULL && errlen > 0) {
        if (k >= 0)
            snprintf(err, errlen, "trial %ld: %s%s%s", k, msg, detail ? ": " : "", detail ? detail : "");
        else
            snprintf(err, errlen, "%s%s%s", msg, detail ? ": " : "", detail ? detail : "");
    }
}

lcan_status lcan_study_route(const lcan_topo *t, int payload_w, const char *pattern, long trials, uint64_t seed,
                             int max_passes, lcan_tick_fn tick, void *engine, lcan_study_route_stats *s,
                             char *err, size_t errlen)
{
    return lcan_study_route_progress(t, payload_w, pattern, trials, seed, max_passes, tick, engine, s, err, errlen,
                                     NULL, NULL);
}

lcan_status lcan_study_route_progress(const lcan_topo *t, int payload_w, const char *pattern, long trials,
                                      uint64_t seed, int max_passes, lcan_tick_fn tick, void *engine,
                                      lcan_study_route_stats *s, char *err, size_t errlen,
                                      lcan_study_progress_fn progress, void *ctx)
{
    return lcan_study_route_uc(t, payload_w, pattern, trials, seed, max_passes, LCAN_UP_UNIFORM, tick, engine, s,
                               err, errlen, progress, ctx);
}

lcan_status lcan_study_route_uc(const lcan_topo *t, int payload_w, const char *pattern, long trials, uint64_t seed,
                                int max_passes, lcan_up_choice up_choice, lcan_tick_fn tick, void *engine,
                                lcan_study_route_stats *s, char *err, size_t errlen,
                                lcan_study_progress_fn progress, void *ctx)
{
    return lcan_study_route_faults(t, payload_w, pattern, trials, seed, max_passes, up_choice, NULL, tick, engine,
                                   s, err, errlen, progress, ctx);
}

lcan_status lcan_study_route_faults(const lcan_topo *t, int payload_w, const char *pattern, long trials,
                                    uint64_t seed, int max_passes, lcan_up_choice up_choice,
                                    const struct lcan_faults *faults, lcan_tick_fn tick, void *engine,
                                    lcan_study_route_stats *s, char *err, size_t errlen,
                                    lcan_study_progress_fn progress, void *ctx)
{
    uint32_t n;
    int h, l, d, u;
    uint32_t *perm = NULL;
    double *occ = NULL, *fp = NULL;
    int *passes = NULL;
    double sum = 0.0, ss = 0.0, psum = 0.0;
    lcan_status st = LCAN_OK;
    char perr[256];
    long k;

    if (s == NULL)
        return LCAN_ERR_ARG;
    memset(s, 0, sizeof *s);
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (t == NULL || pattern == NULL || trials < 1 || (faults != NULL && tick == NULL)) {
        fail(err, errlen, "bad argument", -1, NULL);
        return LCAN_ERR_ARG;
    }
    if (faults != NULL) {
        s->has_faults = 1;
        s->faults = faults->count;
    }
    n = lcan_topo_leaves(t);
    h = lcan_topo_levels(t);
    s->trials = trials;
    s->seed = seed;
    s->up_choice = up_choice;
    perm = malloc((size_t)n * sizeof *perm);
    occ = malloc((size_t)h * sizeof *occ);
    fp = malloc((size_t)trials * sizeof *fp);
    passes = malloc((size_t)trials * sizeof *passes);
    s->stage_occupancy = calloc((size_t)h, sizeof *s->stage_occupancy);
    if (perm == NULL || occ == NULL || fp == NULL || passes == NULL || s->stage_occupancy == NULL) {
        st = LCAN_ERR_NOMEM;
        fail(err, errlen, "out of memory", -1, NULL);
        goto done;
    }
    for (k = 0; k < trials; k++) {
        uint64_t rng = lcan_trial_rng(seed, (uint32_t)k);
        uint32_t ns = lcan_trial_net_seed(seed, (uint32_t)k);
        lcan_route_result res;
        perr[0] = 0;
        /* a file pattern is the same permutation for every trial: read it once (stdin, a FIFO) */
        if (k > 0 && (strncmp(pattern, "file:", 5) == 0 || strncmp(pattern, "FILE:", 5) == 0))
            st = LCAN_OK;
        else
            st = lcan_pattern(t, pattern, &rng, perm, perr, sizeof perr);
        if (st != LCAN_OK) {
            fail(err, errlen, perr[0] ? perr : lcan_strerror(st), -1, NULL);
            goto done;
        }
        memset(&res, 0, sizeof res);
        res.stage_occ = occ;
        if (tick != NULL)
            st = lcan_route_perm_faults(t, payload_w, tick, engine, perm, ns, max_passes, faults, &res);
        else
            st = lcan_route_perm_fast(t, perm, ns, max_passes, up_choice, &res);
        if (st != LCAN_OK) {
            fail(err, errlen, lcan_strerror(st), k, NULL);
            goto done;
        }
        if (res.data_errors != 0) {
            st = LCAN_ERR_STALL;
            snprintf(perr, sizeof perr, "%llu data flits missing, misplaced or wrong",
                     (unsigned long long)res.data_errors);
            fail(err, errlen, perr, k, NULL);
            goto done;
        }
        s->cut += res.cut;
        fp[k] = (double)res.first_pass / (double)n;
        passes[k] = res.passes;
        if (res.passes > s->passes_max)
            s->passes_max = res.passes;
        sum += fp[k];
        psum += res.passes;
        for (l = 0; l < h; l++)
            s->stage_occupancy[l] += occ[l];
        if (progress != NULL)
            progress(ctx, k + 1, trials);
    }
    s->first_pass_mean = sum / (double)trials;
    for (k = 0; k < trials; k++)
        ss += (fp[k] - s->first_pass_mean) * (fp[k] - s->first_pass_mean);
    s->first_pass_sem = trials > 1 ? sqrt(ss / (double)(trials - 1)) / sqrt((double)trials) : 0.0;
    s->passes_mean = psum / (double)trials;
    for (l = 0; l < h; l++)
        s->stage_occupancy[l] /= (double)trials;
    s->passes_hist = calloc((size_t)s->passes_max + 1, sizeof *s->passes_hist);
    if (s->passes_hist == NULL) {
        st = LCAN_ERR_NOMEM;
        fail(err, errlen, "out of memory", -1, NULL);
        goto done;
    }
    for (k = 0; k < trials; k++)
        if (passes[k] >= 0)
            s->passes_hist[passes[k]]++;
    s->has_recurrence = lcan_topo_is_lcan(t, &d, &u);
    if (s->has_recurrence) {
        double *p = malloc(((size_t)h + 1) * sizeof *p);
        if (p == NULL) {
            st = LCAN_ERR_NOMEM;
            fail(err, errlen, "out of memory", -1, NULL);
            goto done;
        }
        lcan_recurrence(d, u, h, -1.0, p);
        s->recurrence = p[h];
        free(p);
    }
done:
    free(perm);
    free(occ);
    free(fp);
    free(passes);
    return st;
}

void lcan_study_route_free(lcan_study_route_stats *s)
{
    if (s == NULL)
        return;
    free(s->passes_hist);
    free(s->stage_occupancy);
    s->passes_hist = NULL;
    s->stage_occupancy = NULL;
}

void lcan_study_route_print(FILE *f, const lcan_topo *t, const char *pattern, const char *engine,
                            const lcan_study_route_stats *s, int json)
{
    int h = lcan_topo_levels(t), l, p, first = 1;
    if (json) {
        fprintf(f, "{\"spec\": ");
        lcan_json_string(f, lcan_topo_canonical(t));
        fprintf(f, ", \"pattern\": ");
        lcan_json_string(f, pattern);
        fprintf(f, ", \"engine\": ");
        lcan_json_string(f, engine);
        fprintf(f, ", \"up_choice\": \"%s\"", s->up_choice == LCAN_UP_ROTATE ? "rotate" : "uniform");
        fprintf(f, ", \"trials\": %ld, \"seed\": %llu, \"first_pass_mean\": ", s->trials, (unsigned long long)s->seed);
        lcan_json_double(f, s->first_pass_mean);
        fprintf(f, ", \"first_pass_sem\": ");
        lcan_json_double(f, s->first_pass_sem);
        fprintf(f, ", \"passes_mean\": ");
        lcan_json_double(f, s->passes_mean);
        fprintf(f, ", \"passes_max\": %d, \"passes_hist\": {", s->passes_max);
        for (p = 0; p <= s->passes_max; p++)
            if (s->passes_hist[p] != 0) {
                fprintf(f, "%s\"%d\": %ld", first ? "" : ", ", p, s->passes_hist[p]);
                first = 0;
            }
        fprintf(f, "}, \"recurrence\": ");
        if (s->has_recurrence)
            lcan_json_double(f, s->recurrence);
        else
            fprintf(f, "null");
        fprintf(f, ", \"stage_occupancy\": [");
        for (l = 0; l < h; l++) {
            if (l > 0)
                fprintf(f, ", ");
            lcan_json_double(f, s->stage_occupancy[l]);
        }
        fprintf(f, "]");
        if (s->has_faults)
            fprintf(f, ", \"faults\": %llu, \"cut\": %llu", (unsigned long long)s->faults,
                    (unsigned long long)s->cut);
        fprintf(f, "}\n");
        return;
    }
    fprintf(f, "spec             %s\n", lcan_topo_canonical(t));
    fprintf(f, "pattern          %s\n", pattern);
    fprintf(f, "engine           %s\n", engine);
    fprintf(f, "up_choice        %s\n", s->up_choice == LCAN_UP_ROTATE ? "rotate" : "uniform");
    fprintf(f, "trials           %ld\n", s->trials);
    fprintf(f, "seed             %llu\n", (unsigned long long)s->seed);
    fprintf(f, "first_pass_mean  %.6f (sem %.6f)\n", s->first_pass_mean, s->first_pass_sem);
    fprintf(f, "passes_mean      %.3f\n", s->passes_mean);
    fprintf(f, "passes_max       %d\n", s->passes_max);
    fprintf(f, "passes_hist     ");
    for (p = 0; p <= s->passes_max; p++)
        if (s->passes_hist[p] != 0)
            fprintf(f, " %d:%ld", p, s->passes_hist[p]);
    fprintf(f, "\n");
    if (s->has_recurrence)
        fprintf(f, "recurrence       %.6f (p(h), seed 004)\n", s->recurrence);
    else
        fprintf(f, "recurrence       n/a (not an LCAN)\n");
    fprintf(f, "stage_occupancy ");
    for (l = 0; l < h; l++)
        fprintf(f, " %.6f", s->stage_occupancy[l]);
    fprintf(f, "  (levels %d..1)\n", h);
    if (s->has_faults)
        fprintf(f, "faults           %llu elements; cut %llu sources (summed over the trials, never active)\n",
                (unsigned long long)s->faults, (unsigned long long)s->cut);
}
