/*
 * lcan_collective.h - collective operations in packet mode (spec 8) on any engine, with the step
 * counts of the papers next to the measured ones (docs/collectives.md).
 *
 * lcan_collective_run is an engine-agnostic driver, like lcan_route_perm: it presents a reset tick
 * (tick 0), then on every tick t = 1, 2, .. decides what each leaf port injects (only when the
 * port's inj_ready, an output of tick t-1, is 1), reads what is ejected, and checks every delivery.
 * steps = the index of the tick whose outputs show the last delivery; the first injection is on
 * tick 1, so a lone packet of LCA level L gives steps = 2L (spec 8.4) and one broadcast 2h.
 *
 * Payloads: unicast and hardware-broadcast packets carry their message number (the driver's table
 * holds source, destination and index); reduce / prefix / leaf broadcast carry the data value
 * itself (leaves combine, switches only forward). Every destination must receive exactly its
 * messages, once, with the right dest field; reduce/prefix results are compared with a direct
 * computation.
 *
 * max_queue comes from the debug view only (spec 9: packet mode byte = cr_o), so it is the same on
 * every engine; lcan_collective.c's header says exactly what is inferred from it.
 *
 * Seed 003 (processors at the inner nodes of a complete binary tree) does not fit our networks; its
 * algorithms run in a separate round-model simulator, lcan_tree003_* below (model only).
 */
#ifndef LCAN_COLLECTIVE_H
#define LCAN_COLLECTIVE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "lcan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    LCAN_COLL_BCAST = 0, /* one root, K flits on hardware trees (or --algo leaves) */
    LCAN_COLL_SCATTER,   /* root sends a different packet to every other leaf, farthest first */
    LCAN_COLL_GATHER,    /* the time-reversed scatter schedule */
    LCAN_COLL_MNB,       /* every leaf broadcasts (hardware trees) */
    LCAN_COLL_ALLTOALL,  /* total exchange, seed 000 section 5 */
    LCAN_COLL_REDUCE,    /* product (+ or max) to the root, leaves combine (seed 001 round model) */
    LCAN_COLL_PREFIX     /* inclusive prefix (+ or max) in leaf order, up-sweep / down-sweep */
} lcan_coll_op;

typedef enum { LCAN_COMB_SUM = 0, LCAN_COMB_MAX } lcan_coll_combine;

/* Writes up to len bytes of the engine's debug view (spec 9 order) into buf, returns its length
 * (buf may be NULL to ask for the length) - lcan_net_debug_dump has this shape. */
typedef size_t (*lcan_debug_fn)(void *engine, uint8_t *buf, size_t len);

typedef struct {
    uint32_t root;        /* bcast / scatter / gather / reduce / leaf-bcast root leaf (default 0) */
    int flits;            /* bcast: K flits (default 1) */
    int trees;            /* bcast: spread the K flits over T edge-disjoint trees, 1..w1 (default 1) */
    int sw_bcast;         /* bcast: 1 = leaves forward (binomial, seed 001 round model), no hw trees */
    int phased;           /* alltoall: 1 = phases one after the other (formula 1), 0 = pipelined (2) */
    lcan_coll_combine combine; /* reduce / prefix */
    int recursive;        /* bcast --algo leaves / reduce / prefix: 1 = seed 001's recursive
                             Broadcast (Algorithms 1-2) / its time reverse (product) / the prefix
                             built on both (spec 10.3), 0 = binomial */
    int compact;          /* reduce: after this many binomial rounds move the partials into one dense
                             subtree in one round (uses channel capacity; 0 = plain binomial) */
    int depth;            /* DEPTH of the engine (packet mode); needed to read cr as occupancy */
    int payload_w;        /* PAYLOAD_W of the engine */
    uint32_t net_seed;    /* seed presented on the reset tick */
    uint64_t value_seed;  /* reduce / prefix input values */
    uint64_t max_ticks;   /* give up (LCAN_ERR_STALL) after this many ticks; 0 = automatic */
    lcan_debug_fn debug;  /* may be NULL: max_queue is then -1 */
    int flood;            /* bcast (hw) / mnb: 1 = flooding broadcasts (spec 8.6, head = 1: every leaf
                             but the source, n - 1 copies; seed 000 section 4), 0 = tree broadcasts
                             (spec 8.5: every leaf, the source included, n copies) */
    lcan_up_choice up_choice; /* UP_CHOICE of the engine (spec 6; the model engine is built with it,
                             printed as "up_choice") */
    int flood_q;          /* FLOOD_Q of the engine (spec 8.7: a flood queue per outgoing link, 0..255);
                             -1 = lcan_collective_engine_cfg's choice. The queues are read from the
                             debug view's second block, which the engine shows when FLOOD_Q > 0 */
    const struct lcan_faults *faults; /* NULL: none; else spec 14.5 (bcast on every usable tree) */
} lcan_coll_opts;

/* Defaults: root 0, 1 flit, 1 tree, hw broadcast, pipelined, sum, no compaction, depth 4,
 * payload_w 16, net_seed 1, value_seed 1, automatic tick limit, no debug view, flooding
 * broadcasts, UP_CHOICE uniform, flood_q -1 (the driver's choice). */
void lcan_coll_opts_default(lcan_coll_opts *o);

/* The engine configuration an op needs: PAYLOAD_W large enough for the message numbers (16 or 32),
 * the DEPTH the model engine uses (4; mnb: min(255, max(4, N)) so that its queues can grow) and
 * FLOOD_Q (o->flood_q when >= 0; else mnb with flooding broadcasts: min(255, max(4, N)), the
 * paper's queue per outgoing link with room for every message; else 0). Any pointer may be NULL. */
void lcan_collective_engine_cfg(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o,
                                int *payload_w, int *depth, int *flood_q);

typedef struct {
    uint64_t steps;          /* tick of the last delivery (first injection on tick 1) */
    int64_t paper_steps;     /* the paper's exact count or bound for this case, -1 if none */
    const char *paper_ref;   /* which paper, which result (static string) */
    int paper_is_bound;      /* 1: paper_steps is a lower bound, not an exact count */
    int64_t expect_steps;    /* our own independently derived count for this case, -1 if none */
    const char *expect_ref;  /* how expect_steps is derived (static string) */
    int64_t lower_bound;     /* the papers' lower bound for this op on this network, -1 if none
                                (seed 000 Table 1 / Lemma 3, seed 001 Thm 2 / (8); collective_bounds.c) */
    const char *lower_bound_ref; /* which result gives it, or why there is none (static string) */
    int max_queue;           /* largest FIFO occupancy inferred from the debug view (-1: no view) */
    int max_queue_ub;        /* upper bound on it from the same view */
    int max_outstanding;     /* largest DEPTH - cr_o seen */
    int queue_up[LCAN_MAX_LEVELS + 1];   /* max_queue per level of the sending switch, up channels */
    int queue_down[LCAN_MAX_LEVELS + 1]; /* ... down channels (level 1 downers feed leaves: 0) */
    int queue_peak[LCAN_MAX_LEVELS + 1];    /* per level i = 1..h: the largest occupancy inferred (as
                                               max_queue) of an input FIFO of a level-i switch fed by a
                                               switch: upper inputs, and downer inputs for i >= 2 =
                                               max(queue_up[i-1], queue_down[i+1]); -1: no view */
    int queue_peak_ub[LCAN_MAX_LEVELS + 1]; /* the same from max_queue_ub's upper bounds */
    int flood_up[LCAN_MAX_LEVELS + 1];   /* FLOOD_Q > 0 (spec 8.7): per level i = 1..h, the largest q_o
                                            after a tick over the flood queues of level-i upper
                                            outputs (seed 000 4.1: 2^(i-1) on a CBFT); -1: none */
    int flood_down[LCAN_MAX_LEVELS + 1]; /* ... of level-i downer outputs; -1: none */
    uint64_t messages;       /* packets injected */
    uint64_t deliveries;     /* flits ejected */
    uint64_t errors;         /* missing, duplicate, misplaced or wrong deliveries / results */
    uint64_t inj_stalls;     /* (leaf, tick) pairs where a due packet waited for inj_ready */
    int rounds;              /* round-model ops: rounds executed */
    int correct;             /* errors == 0 and everything delivered (under faults: every leaf not cut
                                from the root reached) */
    /* Faults (opts.faults, spec 14.5: bcast only, one flit sent on every tree t whose leaf port
     * t*p_1 at the root is not off; copies may vanish, so missing copies are not errors): */
    uint32_t reached;        /* leaves holding the message at the end (the root included) */
    uint32_t unreached;      /* N - reached */
    uint32_t cut;            /* leaves b whose pair (root, b) is cut (lcan_reach_cut) */
    int trees_used;          /* trees the root sent on */
    uint64_t fault_rows;     /* rows written on ticks 1..fault_rows, before the first injection */
    char err[256];           /* why the op was refused (e.g. a capacity violation), or "" */
} lcan_coll_result;

/* Run one collective on an engine that has just been built (its reset happens on tick 0).
 * LCAN_ERR_PATTERN: the op does not apply to this network or violates the channel capacity of
 * seed 001's model (res->err says which round, channel, load and capacity; nothing is injected).
 * LCAN_ERR_STALL: not finished within max_ticks. */
lcan_status lcan_collective_run(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o,
                                lcan_tick_fn tick, void *engine, lcan_coll_result *res);

/* Convenience: build the model (packet mode, lcan_collective_engine_cfg's depth unless o->depth is
 * larger than 4, its payload width and FLOOD_Q), run, free. o's depth / payload_w / flood_q / debug
 * are overridden. */
lcan_status lcan_collective_run_model(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o,
                                      lcan_coll_result *res);

/* The model lcan_collective_run_model builds, for a caller that builds it itself (e.g. to watch
 * the ticks): *cfg is packet mode with lcan_collective_engine_cfg's payload width, depth (o->depth
 * when that is larger) and FLOOD_Q, *run is *o with the same payload_w, depth and flood_q (debug is
 * left to the caller). */
void lcan_collective_model_cfg(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o, lcan_cfg *cfg,
                               lcan_coll_opts *run);

/* Names: "bcast" "scatter" "gather" "mnb" "alltoall" "reduce" "prefix". */
const char *lcan_coll_op_name(lcan_coll_op op);

/* The result as `lcan collective` prints it: one JSON object (json != 0) or text. engine is the
 * name printed ("model", "rtl", "icarus"). */
void lcan_collective_print(FILE *f, const lcan_topo *t, lcan_coll_op op, const char *engine,
                           const lcan_coll_opts *o, const lcan_coll_result *r, int json);
int lcan_coll_op_parse(const char *name, lcan_coll_op *op); /* 1 ok, 0 unknown */

/* ------------------------------------------------------------- seed 001: the ideal fat-tree
 * N = 2^h leaves at the bottom of a complete binary tree; w[l] (l = 0..h-1) is the capacity of the
 * channel above a subtree of 2^l leaves (seed 001's w(n), n = 2^l), w[h] of the whole tree is taken
 * as min(2 w[h-1], N) (the largest value the constraint w(2n) <= 2 w(n) allows). Broadcast from
 * leaf 0 as a schedule of leaf-to-leaf messages (docs/spec.md 10.4, docs/collectives.md):
 *   LCAN_FT_BINOMIAL   the "obvious algorithm using one unit of capacity per channel": round
 *                      k = h..1, every holder v = 0 mod 2^k sends to v + 2^(k-1);
 *   LCAN_FT_RECURSIVE  Algorithm 1 (Broadcast) on Algorithm 2 (Sparse-Broadcast), round model;
 *   LCAN_FT_PIPELINED  section 3.3, recurrence (4): after each Sparse-Broadcast every copy holder
 *                      sends 2^floor(log log n) - 1 further copies into its block in pipeline (one
 *                      per period, farthest first), then recursion on the sub-blocks.
 * A round (burst 1) is seed 001's round-model round: its time is 2 x its height. A pipelined phase
 * (burst q > 1: a leaf sends up to q messages, one per period) takes max over its messages of
 * (index in the sender's sequence + 2 x height). Messages are listed in round order, and per
 * sender in send order. */
/* Seed 000 §4: multinode broadcast by flooding in the paper's own model (multiport steps, a FIFO
 * queue per outgoing link direction, capacity = parallel links), on the network's graph; model
 * only (src/collective_flood000.c says exactly what is simulated). Trees only (every w_l = 1),
 * 2..4096 leaves. queue_peak_up/down[i]: the longest queue of an outgoing up / down link of a
 * level-i node (i = 0 leaves .. h). */
typedef struct {
    int steps;                                  /* step of the last delivery */
    uint64_t deliveries;                        /* n(n-1) */
    int queue_peak_up[LCAN_MAX_LEVELS + 1];
    int queue_peak_down[LCAN_MAX_LEVELS + 1];
} lcan_flood000_result;

lcan_status lcan_flood000_mnb(const lcan_topo *t, lcan_flood000_result *r, char *err, size_t errlen);

typedef enum { LCAN_FT_BINOMIAL = 0, LCAN_FT_RECURSIVE, LCAN_FT_PIPELINED } lcan_ft_algo;

typedef struct {
    int h;
    uint32_t N;
    int nrounds;
    size_t *first;     /* nrounds + 1: messages of round k are first[k] .. first[k+1]-1 */
    uint32_t *burst;   /* per round: 1 = round-model round, q > 1 = pipelined phase */
    uint32_t *src, *dst;
    size_t nmsg;
    int64_t steps;     /* sum over rounds of the round's time (see above) */
} lcan_ft_sched;

/* Build the schedule of algo on the ideal fat-tree of 2^h leaves (h = 1..24) with capacities w[0..h-1]
 * (each >= 1). LCAN_ERR_ARG with err filled on bad arguments; LCAN_ERR_NOMEM. */
lcan_status lcan_ft_schedule(int h, const uint64_t *w, lcan_ft_algo algo, lcan_ft_sched *s, char *err, size_t errlen);
void lcan_ft_sched_free(lcan_ft_sched *s);

typedef struct {
    int64_t steps;        /* recomputed from the messages (equal to sched.steps) */
    uint64_t violations;  /* (channel, period) pairs carrying more messages than the capacity */
    uint64_t bad_sends;   /* messages whose sender does not hold the message when its round starts,
                             or a round-model leaf sending / receiving twice in one round */
    uint64_t duplicates;  /* deliveries to a leaf that already holds the message */
    uint64_t missing;     /* leaves without the message at the end */
    int correct;          /* all four are 0 */
    char err[256];        /* the first problem found, or "" */
} lcan_ft_check_result;

/* Replay s period by period on the ideal fat-tree (seed 001 section 2: a message moves one channel
 * per period, up to the LCA and down; a channel may carry w messages per period, "if capacity is
 * exceeded, the system halts"): counts capacity violations, bad sends, duplicate and missing
 * deliveries. */
lcan_status lcan_ft_check(const lcan_ft_sched *s, const uint64_t *w, lcan_ft_check_result *r);

/* Seed 001's recurrences evaluated for the same tree (w[h] as above; rho = log r, r = max(w, 2)
 * rounded down to a power of two; m = w^-1(sqrt r)):
 *   (2) S(n) = 2 S(m) + 4 log n, S = 2 log n when r = 2;   (3) T(n) = S(n) + T(n / r), T(1) = 0;
 *   (4) T'(n) = S(n) + T'(n / (r 2^floor(log log n))) + gamma log n, gamma = 3 (our pipelined phase
 *       takes at most 2 log n + log n), T'(n) = 0 for n <= 1.
 * which: 2, 3 or 4; returns the value for n = 2^h. */
int64_t lcan_ft_recurrence(int h, const uint64_t *w, int which);

/* Seed 001 Theorem 3 relation (8), the round-model lower bound:
 * sum_{i=0..log H} 2^i ceil((h - 2^i) / log2(w[2^i] + 1)), H the largest power of two below h;
 * -1 when h < 2. */
int64_t lcan_ft_round_bound(int h, const uint64_t *w);

/* Prefix (Theorem 6) built on the recursive Broadcast: Blelloch's up-sweep (the time reverse of
 * Broadcast / Sparse-Broadcast) and down-sweep (the broadcast itself) over their recursion, spec
 * 10.3. A register program: each leaf holds registers; a message copies register rs (on src), as
 * it is when its round starts, into register rd (on dst); local steps on one leaf between rounds.
 * Inclusive prefix in leaf order, for sum (mod 2^32) or max; identity 0. */
#define LCAN_FT_NOREG UINT32_MAX
typedef struct {
    int h;
    uint32_t N;
    int nrounds;
    size_t *first;          /* nrounds + 1 */
    uint32_t *src, *dst;    /* leaves */
    uint32_t *rs, *rd;      /* registers */
    size_t nmsg;
    size_t *lfirst;         /* nrounds + 2: local steps before round k are lfirst[k] .. lfirst[k+1]-1;
                               k = nrounds: after the last round */
    uint32_t *ld, *la, *lb; /* register ld = la, or la (+) lb (lb != LCAN_FT_NOREG) */
    size_t nloc;
    uint32_t nreg;
    uint32_t *reg_leaf;     /* the leaf of each register */
    uint32_t *reg_input;    /* the leaf whose input the register starts with, or LCAN_FT_NOREG (identity) */
    uint32_t *result;       /* per leaf: the register with its inclusive prefix at the end */
    int64_t steps;          /* sum over rounds of 2 x the round's height */
} lcan_ft_prefix_prog;

lcan_status lcan_ft_prefix(int h, const uint64_t *w, lcan_ft_prefix_prog *p, char *err, size_t errlen);
void lcan_ft_prefix_free(lcan_ft_prefix_prog *p);
/* Run p on a[0..N-1] (use_max: max, else sum mod 2^32) into out[0..N-1], checking the round model
 * (res: bad_sends = registers of two leaves in a local step or a leaf sending / receiving twice in a
 * round, violations = whole-round channel loads above w; steps = p->steps). */
lcan_status lcan_ft_prefix_eval(const lcan_ft_prefix_prog *p, const uint64_t *w, const uint32_t *a, int use_max,
                                uint32_t *out, lcan_ft_check_result *res);

/* Capacity functions for --ideal: "n" (w(n) = n, EBFT-like), "1" (CBFT), "sqrt" (2^ceil(log n / 2),
 * area-universal), "log" (log n + 1, seed 001's Figure 1). Fills w[0..h-1]; 0 on an unknown name. */
int lcan_ft_capacity(const char *name, int h, uint64_t *w);

/* ------------------------------------------------------------- seed 003: tree of processors
 * A complete binary tree of n = 2^(H+1) - 1 processors (height H, heap labels: children of i are
 * 2i+1, 2i+2), store-and-forward, one hop per step. single I/O: each processor sends at most one
 * and receives at most one message per step; multiple I/O: one message per link and direction per
 * step. THESE RUN IN THE MODEL ONLY: our networks have no processors at inner nodes. */

typedef struct {
    const char *op;       /* "bcast", "mnb", "scatter", "alltoall" */
    const char *algo;     /* "A1" .. "A7" with variant, e.g. "A4 ring=shaw" */
    const char *io;       /* "single" or "multiple" */
    const char *source;   /* "root", "worst" (max over all sources), "all" */
    long steps;           /* simulated */
    double paper_claim;   /* the paper's stated count / upper bound for this algorithm, < 0 none */
    const char *claim_ref;
    double lower_bound;   /* Table 1 (or the result giving it), < 0 none */
    const char *bound_ref;
    int correct;          /* every processor got every item it should, exactly once */
} lcan_tree003_row;

/* Relaying order: LCAN_T3_FARTHEST (the paper's: a processor forwards the packet with the most tree
 * hops left, oldest among equals; single I/O serves the senders in that order, a greedy
 * max-weight matching) or LCAN_T3_OLDEST (the packet that reached its processor first). Flooding
 * packets (A1-A3) are always oldest first. */
#define LCAN_T3_OLDEST 0
#define LCAN_T3_FARTHEST 1

/* Fill rows (at most max) for height H (1..10) with schedule sched; returns the number of rows, or
 * -1 on bad H / sched or out of memory. The last row (op "receivers") is Result 9: steps = the most
 * processors receiving in one step over the single-I/O runs, paper_claim 5n/8 (an upper bound). */
int lcan_tree003_table_sched(int H, int sched, lcan_tree003_row *rows, int max);
/* lcan_tree003_table_sched(H, LCAN_T3_FARTHEST, ...) */
int lcan_tree003_table(int H, lcan_tree003_row *rows, int max);

/* Ring orders used by A4-A7: in-order labelling, and a ring whose neighbours are at most 3 tree
 * hops apart (Sekanina's construction, standing in for Shaw's figure 3). ring[k] = processor at
 * ring position k. Returns the largest tree distance between ring neighbours. */
int lcan_tree003_ring(int H, int shaw, uint32_t *ring);

#ifdef __cplusplus
}
#endif
#endif
