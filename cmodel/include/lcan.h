/*
 * lcan.h - public API of the LCAN / fat-tree golden model (pure C99).
 *
 * Everything here implements docs/spec.md; section numbers below refer to it.
 * One prefix (lcan_), opaque handles, status codes, no globals: two networks can live in
 * one process. The caller owns every buffer it passes in.
 *
 * Three layers:
 *   topology  (lcan_topo)  - parse a spec string, counts, labels, addresses, wiring  (spec 1-2)
 *   network   (lcan_net)   - cycle-accurate state; one tick = one call              (spec 3-9)
 *   studies                - permutation patterns, pass-based routing, recurrence   (spec 7.5, 10)
 */
#ifndef LCAN_H
#define LCAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    LCAN_OK = 0,
    LCAN_ERR_PARSE,   /* spec string does not parse */
    LCAN_ERR_PARAM,   /* parses, but violates a rule or limit of spec 1 */
    LCAN_ERR_ARG,     /* bad argument to an API call (NULL, out of range) */
    LCAN_ERR_NOMEM,
    LCAN_ERR_IO,      /* a file could not be read */
    LCAN_ERR_PATTERN, /* pattern unknown or not applicable to this network */
    LCAN_ERR_STALL    /* routing did not finish within the pass limit */
} lcan_status;

const char *lcan_strerror(lcan_status st);

/* ------------------------------------------------------------------ topology (spec 1-2) */

#define LCAN_MAX_LEVELS 16

typedef struct lcan_topo lcan_topo;

/* Parse and build. On failure *out is NULL and, if err != NULL, a one-line message (no newline)
 * naming the character position or the violated rule is written into err (errlen bytes). */
lcan_status lcan_topo_parse(const char *spec, lcan_topo **out, char *err, size_t errlen);
void lcan_topo_free(lcan_topo *t);

const char *lcan_topo_canonical(const lcan_topo *t); /* e.g. "lcan(4,4,256)", "cm5" */
const char *lcan_topo_pgft(const lcan_topo *t);      /* "pgft(h;m..;w..;p..)" */
int lcan_topo_is_lcan(const lcan_topo *t, int *d, int *u); /* 1 if all m equal d, w1 = 1, other w = u, p = 1 */

int lcan_topo_levels(const lcan_topo *t);            /* h */
int lcan_topo_m(const lcan_topo *t, int level);      /* m_level, level 1..h */
int lcan_topo_w(const lcan_topo *t, int level);
int lcan_topo_p(const lcan_topo *t, int level);
uint32_t lcan_topo_leaves(const lcan_topo *t);       /* N */
int lcan_topo_leaf_ports(const lcan_topo *t);        /* U_0 = w1 * p1 */
uint32_t lcan_topo_ports(const lcan_topo *t);        /* NP = N * U_0 */
uint32_t lcan_topo_switches(const lcan_topo *t, int level); /* S_level, level 1..h (0 -> N) */
uint64_t lcan_topo_links(const lcan_topo *t, int level);    /* L_level: links between level-1 and level */
int lcan_topo_downers(const lcan_topo *t, int level);       /* D_level */
int lcan_topo_uppers(const lcan_topo *t, int level);        /* U_level (0 at h) */
int lcan_topo_diameter(const lcan_topo *t);                 /* 2h */
double lcan_topo_avg_distance(const lcan_topo *t);
uint64_t lcan_topo_root_cut(const lcan_topo *t);

int lcan_topo_addr_width(const lcan_topo *t);               /* ADDR_W */
int lcan_topo_field_offset(const lcan_topo *t, int level);  /* O_level */
int lcan_topo_field_width(const lcan_topo *t, int level);   /* B_level */
uint32_t lcan_topo_pack(const lcan_topo *t, uint32_t leaf); /* leaf number -> packed address */
uint32_t lcan_topo_unpack(const lcan_topo *t, uint32_t addr);/* packed address -> leaf number;
                                                               UINT32_MAX if addr is none (a digit
                                                               >= m_l, or bits above ADDR_W) */
int lcan_topo_lca_level(const lcan_topo *t, uint32_t s, uint32_t d); /* spec 4; 1 when s == d */

/* Switch labels (spec 2.2): digit[j] for j = 1..h; for j > level it is a_j, for j <= level b_j. */
void lcan_topo_switch_label(const lcan_topo *t, int level, uint32_t index, int digit[LCAN_MAX_LEVELS + 1]);
uint32_t lcan_topo_switch_index(const lcan_topo *t, int level, const int digit[LCAN_MAX_LEVELS + 1]);

/* Wiring (spec 2.3). The node at the far end of a port:
 * level 0 means a leaf (node = leaf number, port = leaf port 0..U_0-1);
 * otherwise node = switch index and port = local port (downers 0..D-1, uppers D..P-1). */
typedef struct { int level; uint32_t node; int port; } lcan_end;
lcan_status lcan_topo_neighbor(const lcan_topo *t, lcan_end from, lcan_end *to);

/* ------------------------------------------------------------------ network (spec 3-9) */

typedef enum { LCAN_CIRCUIT = 0, LCAN_PACKET = 1 } lcan_mode;

/* Which upper a header going up gets (spec 6, UP_CHOICE): a uniformly random permutation of the
 * uppers (the paper's random upper, the default) or a random rotation (the behaviour before). */
typedef enum { LCAN_UP_ROTATE = 0, LCAN_UP_UNIFORM = 1 } lcan_up_choice;

typedef struct {
    lcan_mode mode;
    int payload_w;   /* PAYLOAD_W, 1..32, default 16 */
    int depth;       /* DEPTH (packet mode), >= 1, default 4 */
    lcan_up_choice up_choice; /* UP_CHOICE, default LCAN_UP_UNIFORM */
    int flood_q;     /* FLOOD_Q (packet mode), 0..255, default 0: flood queues of spec 8.7 */
    int unicast_only; /* UNICAST_ONLY (packet mode), 0 or 1, default 0: spec 8.8 (switches read no
                         bcast / head bits: every flit a unicast to its dest field); needs FLOOD_Q 0 */
} lcan_cfg;

void lcan_cfg_default(lcan_cfg *c);

typedef struct lcan_net lcan_net;

/* cfg NULL: the defaults. LCAN_ERR_ARG for a mode or UP_CHOICE not listed, PAYLOAD_W outside 1..32,
 * DEPTH outside 1..255, FLOOD_Q outside 0..255 (in either mode; circuit mode ignores it);
 * LCAN_ERR_PARAM when FW > 63, UNICAST_ONLY is neither 0 nor 1, UNICAST_ONLY = 1 with FLOOD_Q > 0
 * (spec 8.8: flood queues serve flooding broadcasts only; in either mode), or in packet mode when
 * FLOOD_Q is neither 0 nor at least lcan_net_flood_q_min(t). Nothing is allocated on failure. */
lcan_status lcan_net_new(const lcan_topo *t, const lcan_cfg *cfg, lcan_net **out);
/* The smallest FLOOD_Q > 0 a network of t accepts (spec 8.7): the largest m_l. */
int lcan_net_flood_q_min(const lcan_topo *t);
void lcan_net_free(lcan_net *n);
int lcan_net_flit_width(const lcan_net *n); /* FW = 2 + ADDR_W + PAYLOAD_W (<= 64) */

/* Flit field packing (spec 3). Flits are held in uint64_t, bit 0 = payload bit 0. */
uint64_t lcan_flit(const lcan_net *n, int head, int bcast, uint32_t dest, uint32_t payload);
int lcan_flit_head(const lcan_net *n, uint64_t f);
int lcan_flit_bcast(const lcan_net *n, uint64_t f);
uint32_t lcan_flit_dest(const lcan_net *n, uint64_t f);
uint32_t lcan_flit_payload(const lcan_net *n, uint64_t f);

/* Pins of one tick. Arrays have NP = lcan_topo_ports() entries, indexed by network port
 * (leaf_number * U_0 + leaf port). Inputs are read, outputs written, by lcan_net_tick. */
typedef struct {
    int rst;                 /* synchronous reset: loads the LFSRs from seed (spec 5) */
    int clear;               /* circuit mode: release all circuits (spec 7.2) */
    uint32_t seed;
    const uint8_t *inj_valid;
    const uint64_t *inj_flit;
    const uint8_t *ej_ack;
    /* Faults (spec 14.1-14.2); NULL / 0 = none. link_off: NL entries, sw_off: NS entries (level 1
     * first), cfg_we: write reach row cfg_addr (0..NR-1) := cfg_row, RW bits as ceil(RW / 64)
     * words, bit a of the row = bit (a % 64) of word a / 64. NL, NS, NR, RW: lcan_faults.h. */
    const uint8_t *link_off;
    const uint8_t *sw_off;
    int cfg_we;
    uint32_t cfg_addr;
    const uint64_t *cfg_row;
    /* Optional (NULL = none): the n_inj network ports whose inj_valid is set, each once, in any
     * order; the model then reads them from the list instead of scanning inj_valid. */
    const uint32_t *inj_list;
    uint32_t n_inj;
} lcan_in;

typedef struct {
    uint8_t *inj_ready;
    uint8_t *inj_ack;
    uint8_t *ej_valid;
    uint64_t *ej_flit;
    /* per level l = 1..h at index l-1; may be NULL if not wanted */
    uint32_t *cnt_up;
    uint32_t *cnt_down;
    uint32_t *cnt_drop;
} lcan_out;

/* One clock edge: consumes the inputs valid during this tick and returns the register values after
 * the edge (what the RTL shows as outputs during the next tick). */
lcan_status lcan_net_tick(lcan_net *n, const lcan_in *in, lcan_out *out);
/* lcan_net_tick with the engine's signature (lcan_tick_fn below; engine = the lcan_net): the model as
 * the engine of the drivers (route, collectives, traffic, embedding exchange). */
lcan_status lcan_net_engine_tick(void *engine, const lcan_in *in, lcan_out *out);

/* Debug view (spec 9): the 8-bit field of local output `port` of switch (level, index). */
uint8_t lcan_net_debug(const lcan_net *n, int level, uint32_t index, int port);
/* The count q_o of the flood queue of local output `port` of switch (level, index) (spec 8.7): the
 * second block's field of the debug view; 0 for an output without a flood queue, in circuit mode,
 * with FLOOD_Q = 0 and for arguments out of range. */
uint8_t lcan_net_flood_q(const lcan_net *n, int level, uint32_t index, int port);
/* The whole debug view as one byte array in spec 9's order; returns its length: DBG_BYTES (the
 * number of switch ports), 2 * DBG_BYTES in packet mode with FLOOD_Q > 0 (the second block: q_o of
 * every output in the same order). buf may be NULL to ask for the length; at most len bytes are
 * written. */
size_t lcan_net_debug_dump(const lcan_net *n, uint8_t *buf, size_t len);

/* ------------------------------------------------------------------ studies (spec 7.5, 10) */

/* Fill perm[0..N-1]. pattern: identity random worst bitrev transpose shuffle file:PATH.
 * rng_state: the driver's generator state (splitmix64), advanced by random patterns. */
lcan_status lcan_pattern(const lcan_topo *t, const char *pattern, uint64_t *rng_state,
                         uint32_t *perm, char *err, size_t errlen);
uint64_t lcan_rng_next(uint64_t *state); /* splitmix64 */

/* Engine = something that ticks like lcan_net_tick (the model itself, or the RTL through tb/). */
typedef lcan_status (*lcan_tick_fn)(void *engine, const lcan_in *in, lcan_out *out);

typedef struct {
    int passes;               /* passes to complete */
    uint32_t first_pass;      /* sources satisfied in pass 0 */
    double *stage_occ;        /* caller-provided, h entries, top level first: pass-0 occupancy */
    uint64_t ticks;           /* ticks used */
    uint64_t data_errors;     /* data flits missing, misplaced or wrong (must be 0) */
    uint32_t cut;             /* sources whose pair is cut by faults (spec 14.5), never active */
} lcan_route_result;

/* Route one permutation with the pass driver of spec 7.5 on any engine (circuit mode).
 * net_seed is the 32-bit seed presented on the reset tick. max_passes bounds the run. */
lcan_status lcan_route_perm(const lcan_topo *t, int payload_w, lcan_tick_fn tick, void *engine,
                            const uint32_t *perm, uint32_t net_seed, int max_passes,
                            lcan_route_result *res);

/* lcan_route_perm under a fault set (spec 14.5; NULL = lcan_route_perm): the rows are written after
 * the reset tick, cut sources are never active and are counted in res->cut. */
struct lcan_faults;
lcan_status lcan_route_perm_faults(const lcan_topo *t, int payload_w, lcan_tick_fn tick,
                                   void *engine, const uint32_t *perm, uint32_t net_seed,
                                   int max_passes, const struct lcan_faults *faults,
                                   lcan_route_result *res);

/* The same result as lcan_route_perm on the model with cfg.up_choice = up_choice, computed
 * event-driven (only switches holding headers are visited) - used for large networks; tested equal
 * to the tick-level driver. */
lcan_status lcan_route_perm_fast(const lcan_topo *t, const uint32_t *perm, uint32_t net_seed,
                                 int max_passes, lcan_up_choice up_choice, lcan_route_result *res);

/* Seeds of trial k (spec 10.1): the driver rng for the pattern and the network seed. */
uint64_t lcan_trial_rng(uint64_t seed, uint32_t trial);
uint32_t lcan_trial_net_seed(uint64_t seed, uint32_t trial);

/* Recurrence (spec 10.2): fills p[0..stages]; p0 < 0 means the paper's default start. */
void lcan_recurrence(int d, int u, int stages, double p0, double *p);

#ifdef __cplusplus
}
#endif
#endif
