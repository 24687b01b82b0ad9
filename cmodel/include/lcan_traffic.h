/*
 * lcan_traffic.h - open-loop traffic studies in packet mode (spec 8), the way BookSim users measure
 * a network: latency against offered load, accepted throughput, saturation (docs/traffic.md).
 *
 * lcan_traffic_run is an engine-agnostic driver like lcan_collective_run: it presents a reset tick
 * (tick 0), then on every tick t = 1, 2, .. creates packets, injects the heads of the source
 * queues on ports whose inj_ready (an output of tick t-1) is 1, and reads the ejections.
 *
 * Definitions (all cycles are tick numbers; tick 0 is the reset):
 *   - every packet is one flit. Node s creates packets by a Bernoulli process of rate `load`
 *     (flits/node/cycle; or an on/off process with the same mean, `burst` = mean ON length, one
 *     packet per ON cycle) and appends them to its unbounded FIFO source queue;
 *   - on tick t a node injects the head of its queue (and the next ones) on its leaf ports whose
 *     inj_ready is 1, at most one packet per port, unicasts on any port (rotating start),
 *     broadcasts of tree k only on leaf port k*p_1 (spec 8.5); a packet created on tick t may be
 *     injected on tick t;
 *   - creation tick c, injection tick i, ejection tick e (the tick whose outputs show the flit on
 *     ej; for a broadcast the last of its N copies): latency = e - c, network latency = e - i,
 *     source queueing = i - c. On an idle network a unicast of LCA level L has latency exactly
 *     2L - 1 (spec 8.4: injected on tick c = i, on ej as an output of tick i + 2L - 1), a
 *     broadcast 2h - 1 (spec 8.5). zero_load = the mean of that ideal over the measured packets;
 *   - phases: warm-up ticks 1..W, measurement ticks W+1..W+M, then a drain that keeps creating
 *     packets (open loop) until every packet created in the measurement window (the measured
 *     packets) is delivered, within drain_max ticks, else LCAN_ERR_STALL. With drain_all the
 *     creation then stops and the network and the queues are emptied too (again within drain_max),
 *     so that every packet ever created is accounted for;
 *   - offered = packets created in the window / (N * M); accepted = flits ejected in the window /
 *     (N * M), a broadcast copy counting 1/N (a broadcast is one offered flit); per-node accepted =
 *     the same per destination node (min and max over the nodes);
 *   - packets are identified by a tag in the flit's payload (PAYLOAD_W bits): the driver keeps a
 *     table of slots, recycled in FIFO order: the smallest power of two >= 1,024 and >= 4 times the
 *     flits the network can hold (every switch port's DEPTH-flit FIFO and flit register, every
 *     injection and ej register), at most 2^min(PAYLOAD_W, 20); an ejected flit whose tag is free
 *     counts as duplicated, one whose slot is for another destination / tree / port as misrouted
 *     (so a flit ejected again after its slot was reused is caught too), and a packet not
 *     delivered by the end of the run as lost. If every slot is in flight the injection waits
 *     (counted in tag_stalls; impossible unless PAYLOAD_W is too narrow for the network).
 * Random draws: splitmix64 streams per node (lcan_rng_next) from `seed`, so both engines see the
 * same packets; inter-arrival times are geometric (log), the same code on both engines.
 */
#ifndef LCAN_TRAFFIC_H
#define LCAN_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lcan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lcan_traffic_pattern lcan_traffic_pattern;

/* Pattern names (leaf numbers 0..N-1, N leaves):
 *   uniform            destination uniform over all N leaves (itself included, as in BookSim)
 *   bitcomp            d = ~s (N a power of two)
 *   bitrev transpose shuffle   as spec 10.1 (N a power of two; transpose: of four)
 *   tornado            every digit l (radix m_l): x -> (x + ceil(m_l/2) - 1) mod m_l
 *   neighbor           d = (s + 1) mod N
 *   hotspot:NODE:F     with probability F the destination is NODE, else uniform
 *   file:PATH          file_text (the caller reads PATH; the library reads no file) holds either
 *                      N integers: the destination of every source (a destination list), or
 *                      N*N non-negative numbers: row s = relative weights of the destinations of
 *                      s (a traffic matrix; a row of zeros makes node s silent)
 * '#' starts a comment in the file. */
lcan_status lcan_traffic_pattern_new(const lcan_topo *t, const char *name, const char *file_text,
                                     lcan_traffic_pattern **out, char *err, size_t errlen);
void lcan_traffic_pattern_free(lcan_traffic_pattern *p);
const char *lcan_traffic_pattern_name(const lcan_traffic_pattern *p);

typedef struct {
    double load;         /* offered flits/node/cycle, 0 < load <= 1 */
    double bcast;        /* fraction of the created packets that are broadcasts, 0..1 */
    double burst;        /* 0: Bernoulli; > 1: on/off, mean ON length in cycles (load < 1) */
    uint64_t warmup;     /* W (default 10000) */
    uint64_t measure;    /* M (default 10000) */
    uint64_t drain_max;  /* bound on each drain phase; 0 = automatic: max(10000, 10 (W + M)) */
    int drain_all;       /* 1: empty the network after the measured packets (every packet checked) */
    uint64_t seed;       /* driver seed (packets); the network seed on the reset tick is
                            lcan_trial_net_seed(seed, 0) */
    int payload_w;       /* PAYLOAD_W of the engine (default 16) */
    int depth;           /* DEPTH of the engine (default 4) */
    lcan_up_choice up_choice; /* UP_CHOICE of the engine (default LCAN_UP_UNIFORM; printed as
                            "up_choice"; the model engine is built with it) */
    const struct lcan_faults *faults; /* NULL: none; else spec 14.5 (lcan_faults.h); unicast only */
    uint64_t fault_at;   /* tick at which the faults are applied (spec 14.4); 0 or 1: from the start */
    uint64_t max_queued; /* bound on the packets waiting in all source queues together (far above
                            saturation they grow without end): beyond it the run stops with
                            LCAN_ERR_STALL and queue_overflow = 1; 0 = automatic, 2^24 (256 MB) */
} lcan_traffic_opts;

void lcan_traffic_opts_default(lcan_traffic_opts *o);

#define LCAN_TRAFFIC_HIST_BINS 32

typedef struct {
    double load;               /* the requested load */
    double offered, accepted;  /* flits/node/cycle in the measurement window */
    double accepted_min, accepted_max; /* per destination node */
    double latency_avg, net_latency_avg, queue_avg, zero_load;
    uint64_t latency_min, latency_p50, latency_p99, latency_max;
    uint64_t net_latency_min, net_latency_p50, net_latency_p99, net_latency_max;
    uint64_t hist_start, hist_width;               /* bin b: [start + b*width, start + (b+1)*width) */
    uint64_t hist[LCAN_TRAFFIC_HIST_BINS];         /* latency histogram of the measured packets */
    uint64_t packets;          /* measured packets (created in the window) */
    uint64_t created, injected, delivered;         /* all packets of the run */
    uint64_t bcast_packets;    /* measured broadcasts */
    uint64_t lost, duplicated, misrouted, tag_stalls;
    /* Faults (opts.faults, spec 14.5; all 0 without): unicasts not created because their pair is
     * cut (cut), created but removed from a source queue because the faults applied at fault_at cut
     * their pair (discarded), and dropped in the network (sum of cnt_drop over the levels). Under
     * faults the run always ends with an empty network: the measured packets are drained as usual;
     * then creation stops and, unless drain_all, the packets still waiting in the source queues are
     * removed (unsent: they never entered the network, so they need not cross it — at loads above
     * saturation that would take longer than the run). Checks: injected = delivered + dropped,
     * created = injected + discarded + unsent, duplicated = 0; lost = created - discarded - unsent
     * - delivered - dropped (neither delivered nor dropped). */
    uint64_t cut, discarded, dropped, unsent;
    int queue_overflow;        /* the run stopped because the source queues exceeded max_queued */
    uint64_t drain_cycles;     /* ticks after the window until the measured packets were delivered */
    uint64_t cycles;           /* ticks presented, reset tick included */
    double cycles_per_s;       /* filled by the caller (timing is not the library's business) */
} lcan_traffic_result;

/* Run one load point on an engine that has just been built (its reset happens on tick 0).
 * LCAN_ERR_ARG: bad options (res untouched). LCAN_ERR_STALL: a drain did not finish within
 * drain_max, or the source queues exceeded max_queued (res is filled; lost > 0). */
lcan_status lcan_traffic_run(const lcan_topo *t, const lcan_traffic_pattern *p, const lcan_traffic_opts *o,
                             lcan_tick_fn tick, void *engine, lcan_traffic_result *res);

/* The model as the driver runs it: packet mode, o->payload_w, o->depth, o->up_choice (lcan_net_free
 * it). LCAN_ERR_ARG without options; otherwise lcan_net_new's status. */
lcan_status lcan_traffic_model_new(const lcan_topo *t, const lcan_traffic_opts *o, lcan_net **out);

/* Convenience: build the model (lcan_traffic_model_new), run, free. */
lcan_status lcan_traffic_run_model(const lcan_topo *t, const lcan_traffic_pattern *p, const lcan_traffic_opts *o,
                                   lcan_traffic_result *res);

/* Saturation of a sweep (points in increasing load): the index of the first point with
 * accepted < 0.99 * offered or latency_avg > 3 * zero_load, or -1 if none. */
int lcan_traffic_saturation(const lcan_traffic_result *pts, int n);

/* Loads of "A:B:STEP" (A, A+STEP, .. <= B + STEP/1000), 0 < A <= B <= 1, STEP > 0: writes up to max
 * loads into loads (may be NULL) and returns their count, or -1 if the text is malformed. */
int lcan_traffic_sweep_loads(const char *text, double *loads, int max);

typedef enum { LCAN_TRAFFIC_TEXT = 0, LCAN_TRAFFIC_JSON, LCAN_TRAFFIC_CSV } lcan_traffic_format;

/* The result as `lcan traffic` prints it (one printer for every engine). sweep = 0: one point
 * (n must be 1); sweep = 1: points + saturation. engine is the name printed. */
void lcan_traffic_print(FILE *f, const lcan_topo *t, const lcan_traffic_pattern *p, const char *engine,
                        const lcan_traffic_opts *o, const lcan_traffic_result *pts, int n, int sweep,
                        lcan_traffic_format fmt);

#ifdef __cplusplus
}
#endif
#endif
