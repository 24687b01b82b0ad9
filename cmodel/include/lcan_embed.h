/*
 * lcan_embed.h - graph embeddings into the fat trees (seed 002 section 6, Theorems 4-10;
 * docs/embeddings.md).
 *
 * A guest graph (ring, mesh, torus, hypercube, complete binary tree, pyramids) is mapped onto the
 * leaves of a host network (map[guest node] = leaf number, spec 2.1); every guest edge is routed on
 * a legal path of the host (up to an LCA switch, then down) and the embedding's load, dilation,
 * congestion and expansion are measured, beside the paper's bound for the same guest and host.
 * The nearest-neighbour exchange (one packet each way over every guest edge) then runs on a
 * packet-mode network (spec 8) and its steps are counted: an engine-agnostic driver, run on the
 * model here and on the RTL by the lockstep harness (tb/harness/tb_drive.c).
 *
 * Path rule (docs/embeddings.md "Routing"): guest edges are routed one after another, lower LCA
 * level first (ties: guest edge order); each takes, among all its up-then-down paths (one per LCA
 * switch and parallel-link choice), one whose largest current link load is smallest, ties broken
 * by the smallest sum of loads, then by the first choice vector (y_1, .., y_L) in lexicographic
 * order, level 1's choice first (lowest choices first: the paper's "left one").
 * Edges of an LCA level with more than LCAN_EMBED_MAX_PATHS paths, or beyond a total search budget
 * (LCA levels in increasing order, running sum of edges x paths x L <= LCAN_EMBED_MAX_WORK), choose
 * level by level instead (the least-loaded up link at each level, lowest choice on ties).
 * A link carries both directions of each guest edge routed over it, so congestion per link =
 * congestion per link direction of the exchange.
 *
 * The library never reads files: the tool reads a map file and hands its text to
 * lcan_embed_parse_map.
 */
#ifndef LCAN_EMBED_H
#define LCAN_EMBED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lcan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LCAN_EMBED_MAX_DIMS 8
#define LCAN_EMBED_MAX_NODES (1u << 22)
#define LCAN_EMBED_MAX_PATHS 4096u
#define LCAN_EMBED_MAX_WORK ((uint64_t)1 << 28)

typedef enum {
    LCAN_GUEST_RING = 0,   /* ring:N, N >= 3, edges (i, i+1 mod N) */
    LCAN_GUEST_MESH,       /* mesh:A1xA2x..xAk, node x1 + A1*(x2 + A2*(..)) */
    LCAN_GUEST_TORUS,      /* torus:A1x..: the mesh plus wraparound edges (sides >= 3) */
    LCAN_GUEST_HYPERCUBE,  /* hypercube:k, 2^k nodes, v -- v ^ 2^i */
    LCAN_GUEST_CBT,        /* cbt:h, complete binary tree of height h, heap order (children 2i+1, 2i+2) */
    LCAN_GUEST_PYRAMID     /* pyramid:h[:c], c copies of PR(h) (4-ary tree whose levels are meshes) */
} lcan_guest_kind;

typedef struct lcan_guest lcan_guest;

/* Parse "ring:N", "mesh:AxB[xC..]", "torus:AxB[..]", "hypercube:k", "cbt:h", "pyramid:h[:c]"
 * (case-insensitive). On failure *out is NULL and err holds one line saying what is wrong. */
lcan_status lcan_guest_parse(const char *text, lcan_guest **out, char *err, size_t errlen);
void lcan_guest_free(lcan_guest *g);
lcan_guest_kind lcan_guest_kind_of(const lcan_guest *g);
const char *lcan_guest_name(const lcan_guest *g); /* canonical, e.g. "mesh:4x16" */
uint32_t lcan_guest_nodes(const lcan_guest *g);
uint32_t lcan_guest_edges(const lcan_guest *g);
void lcan_guest_edge(const lcan_guest *g, uint32_t e, uint32_t *u, uint32_t *v);
/* The guest's edge bisection b (Theorem 10's b) when known exactly, else -1. */
int64_t lcan_guest_bisection(const lcan_guest *g);

/* The default map (the paper's construction for the guest, docs/embeddings.md "Maps"): fills
 * map[0..nodes-1] with leaf numbers; *ref names the construction (static string).
 * LCAN_ERR_PARAM (err set) when the guest has more nodes than the host has leaves. */
lcan_status lcan_embed_default_map(const lcan_topo *t, const lcan_guest *g, uint32_t *map,
                                   const char **ref, char *err, size_t errlen);

/* A user's map: text of lines "GUEST_NODE LEAF" ('#' starts a comment, blank lines ignored), every
 * guest node exactly once. LCAN_ERR_PARAM with a one-line err naming the line on any fault. */
lcan_status lcan_embed_parse_map(const char *text, const lcan_topo *t, const lcan_guest *g, uint32_t *map,
                                 char *err, size_t errlen);

/* The paper's values for this guest on this host (-1 / negative: no theorem applies). */
typedef struct {
    int64_t load, dilation, congestion; /* congestion: the theorem's value (an upper bound for Thm 9) */
    double expansion;
    const char *ref;                    /* e.g. "seed 002 Theorem 4", or why there is none */
} lcan_embed_paper;

typedef struct {
    uint32_t nodes, edges, leaves;
    uint32_t load;                       /* most guest nodes on one leaf */
    int dilation;                        /* longest path, links (2 x LCA level) */
    uint32_t congestion;                 /* most guest edges over one host link (= per direction) */
    uint32_t congestion_level[LCAN_MAX_LEVELS + 1]; /* [l]: the largest over links level l-1 -- l */
    double expansion;                    /* leaves / guest nodes */
    double avg_dilation;                 /* mean path length over guest edges */
    int64_t bisection;                   /* guest edge bisection, -1 unknown */
    double lower_bound;                  /* Theorem 10: 2b / (links between levels h-1 and h), -1 none */
    lcan_embed_paper paper;
    int greedy_levels;                   /* 1 if some pair was routed level by level (too many paths) */
} lcan_embed_result;

/* Route every guest edge (the rule above) and measure. LCAN_ERR_PARAM (err set) if a map entry is
 * not a leaf of the host. port, if not NULL (2 x edges entries), receives the leaf port (0..U_0-1)
 * each direction of each edge leaves its source leaf on along its path: port[2e] for u -> v of
 * edge e = (u, v), port[2e+1] for v -> u (0 when both ends share a leaf). */
lcan_status lcan_embed_route(const lcan_topo *t, const lcan_guest *g, const uint32_t *map,
                             lcan_embed_result *res, uint16_t *port, char *err, size_t errlen);

/* The paper's bound for this guest on this host (filled by lcan_embed_route too). */
void lcan_embed_paper_bound(const lcan_topo *t, const lcan_guest *g, lcan_embed_paper *p);

/* Nearest-neighbour exchange on the packet-mode model (DEPTH 4): one packet each way over every
 * guest edge whose ends sit on different leaves, all queued at tick 1. With port == NULL each leaf
 * injects its next packet on its lowest-numbered ready port; otherwise packet u -> v of edge e waits
 * for port[2e] (v -> u for port[2e+1]; lcan_embed_route's first hops), in edge order per port, so
 * that the first hop - and for an LCA level 1 the whole path - is the embedding's; above level 1 the
 * network chooses its uppers itself (spec 6). steps = tick whose outputs show the last delivery
 * (first injection on tick 1, as lcan_collective_run). errors counts missing, duplicate or
 * misplaced deliveries. LCAN_ERR_STALL if not done within max_ticks (0 = automatic); LCAN_ERR_ARG
 * if a map entry is not a leaf. */
typedef struct {
    uint64_t packets;  /* 2 x guest edges between different leaves */
    uint64_t steps;    /* tick of the last delivery */
    uint64_t errors;   /* missing, duplicate or misplaced deliveries (must be 0) */
    uint64_t backlog;  /* (queue, tick) pairs with packets still queued after the tick's injections */
} lcan_embed_exchange_result;

lcan_status lcan_embed_exchange(const lcan_topo *t, const lcan_guest *g, const uint32_t *map, const uint16_t *port,
                                uint32_t net_seed, uint64_t max_ticks, lcan_embed_exchange_result *res);

/* The engine the exchange needs (packet mode): PAYLOAD_W 16, or 32 when there are more than 65535
 * packets (the payload carries the message number), and DEPTH 4. Either pointer may be NULL. */
void lcan_embed_exchange_cfg(const lcan_guest *g, const uint32_t *map, int *payload_w, int *depth);

/* The exchange as an engine-agnostic driver (like lcan_collective_run): on an engine that has just
 * been built in packet mode with lcan_embed_exchange_cfg's configuration (the model, or the RTL in
 * the lockstep harness, tb/harness/tb_drive.c), ticked through `tick`; it presents the reset tick
 * (tick 0, seed net_seed) itself and looks only at the engine's outputs. lcan_embed_exchange is this
 * on the model. LCAN_ERR_ARG also when the message numbers do not fit payload_w. */
lcan_status lcan_embed_exchange_run(const lcan_topo *t, const lcan_guest *g, const uint32_t *map,
                                    const uint16_t *port, int payload_w, uint32_t net_seed, uint64_t max_ticks,
                                    lcan_tick_fn tick, void *engine, lcan_embed_exchange_result *res);

/* The result as `lcan embed` prints it, text or one JSON object (one printer for every engine, so
 * that the model's and the RTL's outputs can be compared byte for byte). map: the --map text as
 * given; map_ref: its construction; x: the exchange or NULL (--no-exchange); inject: "path" or
 * "any"; engine: the name printed with the exchange (model, rtl, icarus). */
void lcan_embed_print(FILE *f, const lcan_topo *t, const lcan_guest *g, const char *map, const char *map_ref,
                      const lcan_embed_result *r, const lcan_embed_exchange_result *x, const char *inject,
                      const char *engine, int json);

#ifdef __cplusplus
}
#endif
#endif
