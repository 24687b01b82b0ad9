/*
 * lcan_study.h - route studies shared by the `lcan route` tool and the RTL harness (tb/):
 * T trials of spec 10.1 (pattern + network seed per trial) through the spec 7.5 pass driver on any
 * engine, aggregated into first-pass statistics, and printed in `lcan route`'s format (text or
 * JSON). With the same seed every engine routes the same permutations with the same network
 * seeds, so a correct RTL prints exactly the numbers of the model engine.
 */
#ifndef LCAN_STUDY_H
#define LCAN_STUDY_H

#include <stdio.h>
#include "lcan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    long trials;
    uint64_t seed;
    lcan_up_choice up_choice; /* the model engine's UP_CHOICE (printed as "up_choice"); the RTL
                                 engine's is its own parameter: a harness sets this field to it */
    double first_pass_mean;  /* mean over trials of (sources satisfied in pass 0) / N */
    double first_pass_sem;   /* sample standard deviation / sqrt(trials) (0 for one trial) */
    double passes_mean;
    int passes_max;
    long *passes_hist;       /* passes_max + 1 entries: trials that needed p passes */
    double *stage_occupancy; /* h entries, top level first, mean over trials */
    int has_recurrence;      /* the network is an LCAN / k-ary tree (spec 10.2) */
    double recurrence;       /* p(h) */
    int has_faults;          /* routed under a fault set (lcan_study_route_faults): printed with */
    uint64_t faults;         /* its element count and */
    uint64_t cut;            /* the cut sources summed over the trials (spec 14.5) */
} lcan_study_route_stats;

/* Runs trials k = 0..trials-1: rng = lcan_trial_rng(seed, k), perm = lcan_pattern(pattern, &rng),
 * net seed = lcan_trial_net_seed(seed, k); routes with lcan_route_perm on (tick, engine), or with
 * lcan_route_perm_fast when tick is NULL. On failure err holds one line (no newline). Always call
 * lcan_study_route_free on *s afterwards. */
lcan_status lcan_study_route(const lcan_topo *t, int payload_w, const char *pattern, long trials, uint64_t seed,
                             int max_passes, lcan_tick_fn tick, void *engine, lcan_study_route_stats *s,
                             char *err, size_t errlen);
void lcan_study_route_free(lcan_study_route_stats *s);

/* The same, calling progress(ctx, k, trials) after trial k - 1 (k = 1..trials) when progress is not
 * NULL: the caller decides whether and how to show it (the library never prints). */
typedef void (*lcan_study_progress_fn)(void *ctx, long done, long total);
lcan_status lcan_study_route_progress(const lcan_topo *t, int payload_w, const char *pattern, long trials,
                                      uint64_t seed, int max_passes, lcan_tick_fn tick, void *engine,
                                      lcan_study_route_stats *s, char *err, size_t errlen,
                                      lcan_study_progress_fn progress, void *ctx);

/* The same with the model engine's UP_CHOICE (used by lcan_route_perm_fast when tick is NULL, and
 * recorded in s->up_choice); the two functions above use LCAN_UP_UNIFORM, the default. */
lcan_status lcan_study_route_uc(const lcan_topo *t, int payload_w, const char *pattern, long trials, uint64_t seed,
                                int max_passes, lcan_up_choice up_choice, lcan_tick_fn tick, void *engine,
                                lcan_study_route_stats *s, char *err, size_t errlen,
                                lcan_study_progress_fn progress, void *ctx);

/* The same under a fault set (spec 14.5; NULL = lcan_study_route_uc): every trial through
 * lcan_route_perm_faults on (tick, engine) - the event-driven router takes no faults, so tick must
 * not be NULL when faults is given. */
struct lcan_faults;
lcan_status lcan_study_route_faults(const lcan_topo *t, int payload_w, const char *pattern, long trials,
                                    uint64_t seed, int max_passes, lcan_up_choice up_choice,
                                    const struct lcan_faults *faults, lcan_tick_fn tick, void *engine,
                                    lcan_study_route_stats *s, char *err, size_t errlen,
                                    lcan_study_progress_fn progress, void *ctx);
/* Prints the result as `lcan route` does: one JSON object (json != 0) or the text table. */
void lcan_study_route_print(FILE *f, const lcan_topo *t, const char *pattern, const char *engine,
                            const lcan_study_route_stats *s, int json);

#ifdef __cplusplus
}
#endif
#endif
