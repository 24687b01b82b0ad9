/*
 * tb_switch.c - the switch-level lockstep harness (tb/switch, docs/spec.md 13.1): the DPI-C side of
 * tb/switch/tb_switch_top.v. For every instance (unit) of the top it builds the model's switch unit
 * (cmodel/include/lcan_switch.h) with the parameters and straps lcan_sw_cfg_of gives that switch of
 * its network, checks them against the ones the Verilog derived (rtl/lcan_geom.vh), and then, every
 * cycle, draws constrained-random legal inputs (spec 13.1: anything a switch can see, including what
 * no network driver produces), ticks the model with them, hands them to the RTL, and compares every
 * output of the RTL after the edge with the model's.
 *
 * Stimuli (per unit, from its own generator seeded by the run seed and the unit number):
 * - phases of 20..400 cycles with their own load (idle .. saturated), header share, ack / credit
 *   return rate, broadcast share and fault rates, so that FIFOs fill and drain;
 * - circuit: headers with random destinations (any ADDR_W bits, so digits >= m_l where the field
 *   allows, destinations outside the subtree on uppers; valid leaves; leaves of the own subtree),
 *   headers on inputs that own a circuit, data on any input, random bcast bits (ignored), acks on any
 *   output, clear and reset at random times;
 * - packet: an upstream credit counter per input (DEPTH after reset, -1 per flit sent, +1 per
 *   rx_ret): a flit (unicast, tree broadcast, flooding broadcast, any destination) only when it is
 *   > 0; per output, flits written minus credits returned: tx_ret only while that is > 0 (level-1
 *   downers hold no credits: random); clear at random (no effect in packet mode);
 * - both: the seed input random on every tick (sampled on reset ticks only), on reset ticks sometimes
 *   the salt itself (seed ^ salt = 0: the LFSR loads 1) or lcan_sw_seed_of of a network seed;
 * - FAULTS = 1: port_off redrawn every few cycles, reach-row writes at random addresses (the
 *   switch's rows, its neighbours', anything); FAULTS = 0: port_off = 0, cfg_we = 0 (the RTL ignores
 *   them, the model would not);
 * - FLOOD_Q > 0 (packet mode, spec 8.7): phases with a larger broadcast share, mostly flooding, so
 *   that the flood queues fill (every output's credits run out while floods keep arriving); the
 *   debug view's second half (q_o) is compared too.
 * On the first difference of a unit it prints one report (unit, configuration, cycle, every
 * differing signal and port, the inputs of that cycle and the three before, seed, rerun command)
 * and stops checking that unit; the run exits 1. Otherwise one summary line per unit and a total.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan.h"
#include "lcan_switch.h"
#include "svdpi.h"

#define TBSW_MAXP 128 /* LCAN_MAX_PORTS (spec 1.1: D_l + U_l <= 128) */
#define TBSW_HIST 4   /* cycles of inputs shown in a report */

/* prm fields of tb_switch_unit.v */
enum {
    PRM_H, PRM_LEVEL, PRM_INDEX, PRM_MODE, PRM_PW, PRM_DEPTH, PRM_UPC, PRM_FAULTS, PRM_ML, PRM_PDN, PRM_WUP,
    PRM_PUP, PRM_AW, PRM_DOFF, PRM_DW, PRM_LABEL, PRM_SALT, PRM_ROW, PRM_P, PRM_FW, PRM_FLOOD_Q, PRM_LISTS
};
#define MAXH 16

typedef struct {
    int rst, clear;
    uint32_t seed;
    uint8_t rx_valid[TBSW_MAXP];
    uint64_t rx_flit[TBSW_MAXP];
    uint8_t tx_ret[TBSW_MAXP];
    uint8_t port_off[TBSW_MAXP];
    int cfg_we;
    uint32_t cfg_addr;
} tick_in;

typedef struct {
    int id;
    char spec[160];
    lcan_topo *topo;
    lcan_sw_cfg sc;
    lcan_sw *sw;
    int h, level, mode, faults, up_choice, depth, pw, flood_q;
    uint32_t index;
    int P, D, U, FW, AW;
    int ndbg; /* debug bytes: P, 2P with flood queues (q_o at P + o, spec 13.1) */
    uint64_t fmask;
    uint64_t rng;
    /* the tick being applied and the model's outputs after it */
    tick_in in;
    uint64_t *row;   /* ceil(2^ADDR_W / 64) words: cfg_row of the tick */
    int row_words;
    uint8_t e_rx_ret[TBSW_MAXP], e_tx_valid[TBSW_MAXP], e_dbg[2 * TBSW_MAXP];
    uint64_t e_tx_flit[TBSW_MAXP];
    uint32_t e_cnt[3], prev_cnt[3];
    /* stimulus state */
    int up_cr[TBSW_MAXP];    /* packet: the upstream sender's credits for input i */
    int out_pend[TBSW_MAXP]; /* packet: flits written on output o not yet credited back */
    uint8_t owner[TBSW_MAXP];/* circuit: input i owns a circuit (from the last dbg view) */
    int phase_left;
    double load, hdr, ret, bcast, flood, off_p, we_p, clear_p, rst_p;
    double in_load[TBSW_MAXP];
    int off_left;
    /* history of inputs (reports) */
    tick_in hist[TBSW_HIST];
    uint64_t hist_row0[TBSW_HIST];
    /* statistics */
    uint64_t cycles, resets, clears, hdrs, hdr_owner, data, flits, bcasts, floods, grants, drops, rets, offs, writes;
    uint64_t qfull; /* FLOOD_Q > 0: output-cycles with a full flood queue (the model's q_o = FLOOD_Q) */
    int failed, active;
} unit;

typedef struct {
    int ni, only, maxp, maxrw, status;
    uint32_t seed;
    uint64_t cycle, cycles;
    unit *u;
} tbsw;

static tbsw g;

/* ------------------------------------------------------------------ random numbers (splitmix64) */

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t below(uint64_t *s, uint32_t n) { return n ? (uint32_t)(rnd(s) % n) : 0; }
static int chance(uint64_t *s, double p) { return (double)(rnd(s) >> 11) * (1.0 / 9007199254740992.0) < p; }
static double pick(uint64_t *s, const double *v, int n) { return v[below(s, (uint32_t)n)]; }

/* ------------------------------------------------------------------ set-up */

int lcan_tbsw_begin(int ni, int seed, int cycles, int only, int maxp, int maxrw);
int lcan_tbsw_init(int k, const svBitVecVal *prm);
void lcan_tbsw_inputs(int k, int *rst, int *clear, int *seed, svBitVecVal *rx_valid, svBitVecVal *rx_flit,
                      svBitVecVal *tx_ret, svBitVecVal *port_off, int *cfg_we, int *cfg_addr, svBitVecVal *cfg_row);
void lcan_tbsw_outputs(int k, const svBitVecVal *rx_ret, const svBitVecVal *tx_valid, const svBitVecVal *tx_flit,
                       const svBitVecVal *cnt, const svBitVecVal *dbg);
int lcan_tbsw_cycle_done(void);
void lcan_tbsw_final(void);

int lcan_tbsw_begin(int ni, int seed, int cycles, int only, int maxp, int maxrw)
{
    memset(&g, 0, sizeof g);
    g.ni = ni;
    g.seed = (uint32_t)seed;
    g.cycles = cycles > 0 ? (uint64_t)cycles : 1;
    g.only = only;
    g.maxp = maxp;
    g.maxrw = maxrw;
    if (ni < 1 || maxp < 1 || maxp > TBSW_MAXP || maxrw < 1) {
        fprintf(stderr, "tb-switch: bad sizes (NI %d, MAXP %d, MAXRW %d)\n", ni, maxp, maxrw);
        return 2;
    }
    if (only >= ni) {
        fprintf(stderr, "tb-switch: +only=%d: there are %d units (0..%d)\n", only, ni, ni - 1);
        return 2;
    }
    g.u = calloc((size_t)ni, sizeof *g.u);
    if (!g.u)
        return 2;
    printf("tb-switch: %d units, seed %u, %" PRIu64 " cycles%s\n", ni, g.seed, g.cycles,
           only >= 0 ? " (one unit)" : "");
    fflush(stdout);
    return 0;
}

static const char *mode_name(int m) { return m ? "packet" : "circuit"; }

static void describe(const unit *u, char *buf, size_t n)
{
    char fq[24] = "";
    if (u->flood_q)
        snprintf(fq, sizeof fq, " FLOOD_Q=%d", u->flood_q);
    snprintf(buf, n, "unit %d: %s level %d index %u %s UP_CHOICE=%d FAULTS=%d DEPTH=%d PAYLOAD_W=%d%s (P=%d D=%d U=%d)",
             u->id, u->spec, u->level, u->index, mode_name(u->mode), u->up_choice, u->faults, u->depth, u->pw, fq,
             u->P, u->D, u->U);
}

static int check_prm(unit *u, const char *what, long rtl, long model)
{
    if (rtl == model)
        return 0;
    fprintf(stderr, "tb-switch: unit %d (%s level %d index %u): %s: Verilog (rtl/lcan_geom.vh) %ld, "
            "lcan_sw_cfg_of %ld\n", u->id, u->spec, u->level, u->index, what, rtl, model);
    return 1;
}

int lcan_tbsw_init(int k, const svBitVecVal *prm)
{
    unit *u;
    char err[200];
    int l, bad = 0;
    size_t len = 0;
    if (k < 0 || k >= g.ni)
        return 2;
    u = &g.u[k];
    u->id = k;
    u->h = (int)prm[PRM_H];
    u->level = (int)prm[PRM_LEVEL];
    u->index = prm[PRM_INDEX];
    u->mode = (int)prm[PRM_MODE];
    u->pw = (int)prm[PRM_PW];
    u->depth = (int)prm[PRM_DEPTH];
    u->up_choice = (int)prm[PRM_UPC];
    u->faults = (int)prm[PRM_FAULTS];
    u->flood_q = (int)prm[PRM_FLOOD_Q];
    if (u->h < 1 || u->h > MAXH)
        return 2;
    /* the network as its PGFT form */
    len += (size_t)snprintf(u->spec + len, sizeof u->spec - len, "pgft(%d;", u->h);
    for (int list = 0; list < 3; list++)
        for (l = 1; l <= u->h; l++)
            len += (size_t)snprintf(u->spec + len, sizeof u->spec - len, "%u%s",
                                    prm[PRM_LISTS + list * MAXH + l - 1],
                                    l < u->h ? "," : (list < 2 ? ";" : ")"));
    if (lcan_topo_parse(u->spec, &u->topo, err, sizeof err) != LCAN_OK) {
        fprintf(stderr, "tb-switch: unit %d: %s\n", k, err);
        return 2;
    }
    lcan_cfg cfg;
    lcan_cfg_default(&cfg);
    cfg.mode = u->mode ? LCAN_PACKET : LCAN_CIRCUIT;
    cfg.payload_w = u->pw;
    cfg.depth = u->depth;
    cfg.up_choice = u->up_choice ? LCAN_UP_UNIFORM : LCAN_UP_ROTATE;
    cfg.flood_q = u->flood_q;
    lcan_status st = lcan_sw_cfg_of(u->topo, &cfg, u->level, u->index, &u->sc);
    if (st != LCAN_OK) {
        fprintf(stderr, "tb-switch: unit %d: lcan_sw_cfg_of(%s, level %d, index %u): %s\n", k, u->spec,
                u->level, u->index, lcan_strerror(st));
        return 2;
    }
    /* the Verilog's derivation (lcan_network's, rtl/lcan_geom.vh) against the model's */
    bad |= check_prm(u, "LEVEL", u->level, u->sc.level);
    bad |= check_prm(u, "M_L", (long)prm[PRM_ML], u->sc.m);
    bad |= check_prm(u, "P_DN", (long)prm[PRM_PDN], u->sc.p_dn);
    bad |= check_prm(u, "W_UP", (long)prm[PRM_WUP], u->sc.w_up);
    /* P_UP at the top: lcan_network passes 1, any value is fine there (U = 0) */
    if (u->sc.w_up > 0)
        bad |= check_prm(u, "P_UP", (long)prm[PRM_PUP], u->sc.p_up);
    bad |= check_prm(u, "ADDR_W", (long)prm[PRM_AW], u->sc.addr_w);
    bad |= check_prm(u, "DIG_OFF", (long)prm[PRM_DOFF], u->sc.dig_off);
    bad |= check_prm(u, "DIG_W", (long)prm[PRM_DW], u->sc.dig_w);
    bad |= check_prm(u, "label", (long)prm[PRM_LABEL], (long)u->sc.label);
    bad |= check_prm(u, "salt", (long)prm[PRM_SALT], (long)u->sc.salt);
    bad |= check_prm(u, "row_base", (long)prm[PRM_ROW], (long)u->sc.row_base);
    bad |= check_prm(u, "MODE", u->mode, (long)u->sc.cfg.mode);
    bad |= check_prm(u, "PAYLOAD_W", u->pw, u->sc.cfg.payload_w);
    bad |= check_prm(u, "DEPTH", u->depth, u->sc.cfg.depth);
    bad |= check_prm(u, "UP_CHOICE", u->up_choice, (long)u->sc.cfg.up_choice);
    bad |= check_prm(u, "FLOOD_Q", u->flood_q, u->sc.cfg.flood_q);
    if (bad)
        return 1;
    st = lcan_sw_new(&u->sc, &u->sw);
    if (st != LCAN_OK) {
        fprintf(stderr, "tb-switch: unit %d: lcan_sw_new: %s\n", k, lcan_strerror(st));
        return 2;
    }
    u->P = lcan_sw_ports(u->sw);
    u->D = u->sc.m * u->sc.p_dn;
    u->U = u->sc.w_up * u->sc.p_up;
    u->FW = lcan_sw_flit_width(u->sw);
    u->AW = u->sc.addr_w;
    u->ndbg = (u->mode && u->flood_q > 0) ? 2 * u->P : u->P;
    bad |= check_prm(u, "P", (long)prm[PRM_P], u->P);
    bad |= check_prm(u, "P = D + U", u->P, u->D + u->U);
    bad |= check_prm(u, "FW", (long)prm[PRM_FW], u->FW);
    if (bad)
        return 1;
    if (u->P > g.maxp || u->FW > 63 || (u->faults && (1L << u->AW) > g.maxrw)) {
        fprintf(stderr, "tb-switch: unit %d: P %d / FW %d / RW do not fit the top's MAXP %d / 63 / MAXRW %d\n", k,
                u->P, u->FW, g.maxp, g.maxrw);
        return 2;
    }
    u->fmask = (1ull << u->FW) - 1;
    u->row_words = u->AW >= 6 ? 1 << (u->AW - 6) : 1;
    u->row = calloc((size_t)u->row_words, sizeof *u->row);
    if (!u->row)
        return 2;
    u->rng = (uint64_t)g.seed * 0xD1B54A32D192ED03ull ^ ((uint64_t)(k + 1) << 32);
    rnd(&u->rng);
    u->active = g.only < 0 || g.only == k;
    return 0;
}

/* ------------------------------------------------------------------ stimuli */

static void new_phase(unit *u)
{
    static const double loads[] = {0.0, 0.05, 0.2, 0.5, 0.8, 1.0, 1.0};
    static const double hdrs[] = {0.05, 0.3, 0.6, 1.0};
    static const double rets[] = {0.0, 0.1, 0.4, 0.8, 1.0};
    static const double bcs[] = {0.0, 0.1, 0.3, 0.6};
    static const double offs[] = {0.0, 0.0, 0.1, 0.3, 0.6};
    static const double wes[] = {0.0, 0.02, 0.1, 0.5};
    static const double clrs[] = {0.0, 0.002, 0.02, 0.1};
    u->phase_left = 20 + (int)below(&u->rng, 380);
    u->load = pick(&u->rng, loads, 7);
    u->hdr = pick(&u->rng, hdrs, 4);
    u->ret = pick(&u->rng, rets, 5);
    u->bcast = pick(&u->rng, bcs, 4);
    u->flood = chance(&u->rng, 0.5) ? 0.5 : (chance(&u->rng, 0.5) ? 0.0 : 1.0);
    if (u->mode && u->flood_q > 0) {
        /* flood queues (spec 8.7): mostly flooding broadcasts, often many, so that queues fill */
        static const double fbcs[] = {0.1, 0.3, 0.6, 0.9, 1.0};
        u->bcast = pick(&u->rng, fbcs, 5);
        u->flood = chance(&u->rng, 0.25) ? 0.5 : 1.0;
    }
    u->off_p = u->faults ? pick(&u->rng, offs, 5) : 0.0;
    u->we_p = u->faults ? pick(&u->rng, wes, 4) : 0.0;
    u->clear_p = pick(&u->rng, clrs, 4);
    u->rst_p = chance(&u->rng, 0.2) ? 0.002 : 0.0002;
    /* per input: some inputs hot, some cold */
    for (int i = 0; i < u->P; i++) {
        double f = chance(&u->rng, 0.7) ? 1.0 : (chance(&u->rng, 0.5) ? 0.0 : 0.3);
        u->in_load[i] = u->load * f;
    }
}

/* a destination address: any ADDR_W bits, a valid leaf, or a leaf of the switch's own subtree */
static uint32_t draw_dest(unit *u)
{
    uint32_t amask = u->AW >= 32 ? 0xFFFFFFFFu : ((1u << u->AW) - 1);
    uint32_t r = below(&u->rng, 10);
    if (r < 4)
        return (uint32_t)rnd(&u->rng) & amask;
    if (r < 6)
        return lcan_topo_pack(u->topo, below(&u->rng, lcan_topo_leaves(u->topo)));
    /* own subtree: the label's digits above the level, valid random digits 1..level */
    uint32_t a = u->sc.label;
    for (int l = 1; l <= u->level; l++) {
        uint32_t m = (uint32_t)lcan_topo_m(u->topo, l);
        uint32_t d = below(&u->rng, m);
        /* now and then a digit >= m_l of this level where the field holds one */
        if (l == u->level && chance(&u->rng, 0.1))
            d = below(&u->rng, 1u << lcan_topo_field_width(u->topo, l));
        a |= d << lcan_topo_field_offset(u->topo, l);
    }
    return a & amask;
}

static uint64_t make_flit(unit *u, int head, int bcast, uint32_t dest)
{
    uint64_t pay = rnd(&u->rng) & ((1ull << u->pw) - 1);
    uint64_t f = pay | ((uint64_t)(dest & ((1u << u->AW) - 1)) << u->pw) | ((uint64_t)(bcast & 1) << (u->pw + u->AW)) |
                 ((uint64_t)(head & 1) << (u->pw + u->AW + 1));
    return f & u->fmask;
}

static void draw_rows(unit *u)
{
    int kind = (int)below(&u->rng, 4);
    int bits = 1 << u->AW;
    memset(u->row, 0, (size_t)u->row_words * sizeof *u->row);
    for (int b = 0; b < bits; b++) {
        int one = kind == 0 ? 1 : kind == 1 ? chance(&u->rng, 0.5) : kind == 2 ? chance(&u->rng, 0.9)
                                                                                : chance(&u->rng, 0.1);
        if (one)
            u->row[b >> 6] |= 1ull << (b & 63);
    }
}

static void draw_inputs(unit *u)
{
    tick_in *in = &u->in;
    memset(in, 0, sizeof *in);
    if (!u->active) {
        in->rst = 1;
        return;
    }
    if (--u->phase_left <= 0)
        new_phase(u);
    in->seed = (uint32_t)rnd(&u->rng);
    in->rst = g.cycle == 0 || chance(&u->rng, u->rst_p);
    if (in->rst) {
        uint32_t r = below(&u->rng, 8);
        if (r == 0)
            in->seed = u->sc.salt; /* seed ^ salt = 0: the LFSR loads 1 (spec 13.1) */
        else if (r < 4)
            in->seed = lcan_sw_seed_of((uint32_t)rnd(&u->rng), u->level, u->index);
    }
    in->clear = chance(&u->rng, u->mode ? 0.05 : u->clear_p);
    /* faults */
    if (u->faults) {
        if (--u->off_left <= 0) {
            u->off_left = 1 + (int)below(&u->rng, 40);
            for (int o = 0; o < u->P; o++)
                in->port_off[o] = (uint8_t)chance(&u->rng, u->off_p);
        } else {
            memcpy(in->port_off, u->hist[0].port_off, sizeof in->port_off);
        }
        if (chance(&u->rng, u->we_p)) {
            uint32_t r = below(&u->rng, 10);
            in->cfg_we = 1;
            if (r < 6 && u->U > 0)
                in->cfg_addr = u->sc.row_base + below(&u->rng, (uint32_t)u->U);
            else if (r < 8)
                in->cfg_addr = u->sc.row_base + (uint32_t)u->U + below(&u->rng, 3) - (chance(&u->rng, 0.5) ? 0 : 3u + (uint32_t)u->U);
            else
                in->cfg_addr = chance(&u->rng, 0.5) ? (uint32_t)rnd(&u->rng) : below(&u->rng, 64);
            draw_rows(u);
        }
    }
    /* flits */
    for (int i = 0; i < u->P; i++) {
        int send;
        if (u->mode == 0) {
            send = chance(&u->rng, u->in_load[i]) || (in->rst && chance(&u->rng, 0.3));
            if (!send)
                continue;
            int head = chance(&u->rng, u->hdr);
            in->rx_valid[i] = 1;
            in->rx_flit[i] = make_flit(u, head, (int)below(&u->rng, 2), head || chance(&u->rng, 0.5) ? draw_dest(u) : (uint32_t)rnd(&u->rng));
            if (!in->rst && !in->clear) {
                if (head) {
                    u->hdrs++;
                    u->hdr_owner += u->owner[i];
                } else {
                    u->data++;
                }
            }
        } else {
            /* packet: only with an upstream credit (on a reset tick anything: the FIFOs reset) */
            send = in->rst ? chance(&u->rng, 0.3) : (u->up_cr[i] > 0 && chance(&u->rng, u->in_load[i]));
            if (!send)
                continue;
            int bc = chance(&u->rng, u->bcast);
            int fl = bc && chance(&u->rng, u->flood);
            int head = bc ? fl : (int)below(&u->rng, 2); /* the head bit of a unicast is ignored */
            uint32_t dest = bc ? (uint32_t)rnd(&u->rng) & ((1u << u->AW) - 1) : draw_dest(u);
            in->rx_valid[i] = 1;
            in->rx_flit[i] = make_flit(u, head, bc, dest);
            if (!in->rst) {
                u->up_cr[i]--;
                u->flits++;
                u->bcasts += (uint64_t)(bc && !fl);
                u->floods += (uint64_t)fl;
            }
        }
    }
    /* acks / credits back on the outputs */
    for (int o = 0; o < u->P; o++) {
        if (u->mode == 0 || in->rst || (u->level == 1 && o < u->D)) {
            in->tx_ret[o] = (uint8_t)chance(&u->rng, u->mode == 0 ? u->ret * 0.5 : 0.5);
        } else if (u->out_pend[o] > 0 && chance(&u->rng, u->ret)) {
            in->tx_ret[o] = 1;
            u->out_pend[o]--;
        }
        u->rets += in->tx_ret[o];
    }
    if (in->rst) {
        for (int i = 0; i < u->P; i++) {
            u->up_cr[i] = u->depth;
            u->out_pend[i] = 0;
            u->owner[i] = 0;
        }
        u->resets++;
    }
    u->clears += (uint64_t)(in->clear && !in->rst);
    u->writes += (uint64_t)in->cfg_we;
    for (int o = 0; o < u->P; o++)
        u->offs += in->port_off[o];
    /* history */
    memmove(&u->hist[1], &u->hist[0], (TBSW_HIST - 1) * sizeof u->hist[0]);
    memmove(&u->hist_row0[1], &u->hist_row0[0], (TBSW_HIST - 1) * sizeof u->hist_row0[0]);
    u->hist[0] = *in;
    u->hist_row0[0] = in->cfg_we ? u->row[0] : 0;
}

static void tick_model(unit *u)
{
    lcan_sw_in in;
    lcan_sw_out out;
    memset(&in, 0, sizeof in);
    in.rst = u->in.rst;
    in.clear = u->in.clear;
    in.seed = u->in.seed;
    in.rx_valid = u->in.rx_valid;
    in.rx_flit = u->in.rx_flit;
    in.tx_ret = u->in.tx_ret;
    in.port_off = u->in.port_off;
    in.cfg_we = u->in.cfg_we;
    in.cfg_addr = u->in.cfg_addr;
    in.cfg_row = u->row;
    memset(&out, 0, sizeof out);
    out.rx_ret = u->e_rx_ret;
    out.tx_valid = u->e_tx_valid;
    out.tx_flit = u->e_tx_flit;
    out.dbg = u->e_dbg;
    memcpy(u->prev_cnt, u->e_cnt, sizeof u->prev_cnt);
    lcan_sw_tick(u->sw, &in, &out);
    u->e_cnt[0] = out.cnt_up;
    u->e_cnt[1] = out.cnt_down;
    u->e_cnt[2] = out.cnt_drop;
    if (!u->in.rst) {
        u->grants += (uint32_t)(u->e_cnt[0] - u->prev_cnt[0]) + (uint32_t)(u->e_cnt[1] - u->prev_cnt[1]);
        u->drops += (uint32_t)(u->e_cnt[2] - u->prev_cnt[2]);
    }
}

static void put_bits(svBitVecVal *v, int nbits, const uint8_t *b, int n)
{
    for (int w = 0; w < (nbits + 31) / 32; w++)
        v[w] = 0;
    for (int i = 0; i < n; i++)
        if (b[i])
            v[i >> 5] |= 1u << (i & 31);
}

void lcan_tbsw_inputs(int k, int *rst, int *clear, int *seed, svBitVecVal *rx_valid, svBitVecVal *rx_flit,
                      svBitVecVal *tx_ret, svBitVecVal *port_off, int *cfg_we, int *cfg_addr, svBitVecVal *cfg_row)
{
    unit *u = &g.u[k];
    if (u->failed) { /* no longer checked: held in reset */
        memset(&u->in, 0, sizeof u->in);
        u->in.rst = 1;
    } else {
        draw_inputs(u);
        tick_model(u);
    }
    *rst = u->in.rst;
    *clear = u->in.clear;
    *seed = (int)u->in.seed;
    *cfg_we = u->in.cfg_we;
    *cfg_addr = (int)u->in.cfg_addr;
    put_bits(rx_valid, g.maxp, u->in.rx_valid, u->P);
    put_bits(tx_ret, g.maxp, u->in.tx_ret, u->P);
    put_bits(port_off, g.maxp, u->in.port_off, u->P);
    for (int i = 0; i < g.maxp; i++) {
        uint64_t f = i < u->P && u->in.rx_valid[i] ? u->in.rx_flit[i] : 0;
        rx_flit[2 * i] = (svBitVecVal)f;
        rx_flit[2 * i + 1] = (svBitVecVal)(f >> 32);
    }
    for (int w = 0; w < (g.maxrw + 31) / 32; w++) {
        int word = w / 2;
        uint64_t v = u->faults && word < u->row_words ? u->row[word] : 0;
        cfg_row[w] = (svBitVecVal)(w & 1 ? v >> 32 : v);
    }
}

/* ------------------------------------------------------------------ comparison */

static void print_tick(const unit *u, const tick_in *t, uint64_t cyc, uint64_t row0)
{
    fprintf(stderr, "tb-switch:   cycle %" PRIu64 ": rst %d clear %d seed 0x%08x rx_valid ", cyc, t->rst, t->clear,
            t->seed);
    for (int i = u->P - 1; i >= 0; i--)
        fputc('0' + t->rx_valid[i], stderr);
    fputs(" tx_ret ", stderr);
    for (int i = u->P - 1; i >= 0; i--)
        fputc('0' + t->tx_ret[i], stderr);
    if (u->faults) {
        fputs(" port_off ", stderr);
        for (int i = u->P - 1; i >= 0; i--)
            fputc('0' + t->port_off[i], stderr);
        if (t->cfg_we)
            fprintf(stderr, " cfg_we row %u := 0x..%016" PRIx64, t->cfg_addr, row0);
    }
    fputc('\n', stderr);
    for (int i = 0; i < u->P; i++)
        if (t->rx_valid[i]) {
            uint64_t f = t->rx_flit[i];
            fprintf(stderr, "tb-switch:     rx %2d: head %d bcast %d dest 0x%" PRIx64 " payload 0x%" PRIx64 "\n", i,
                    (int)(f >> (u->pw + u->AW + 1)) & 1, (int)(f >> (u->pw + u->AW)) & 1,
                    (uint64_t)((f >> u->pw) & ((1ull << u->AW) - 1)), (uint64_t)(f & ((1ull << u->pw) - 1)));
        }
}

static int get_bit(const svBitVecVal *v, int i) { return (int)((v[i >> 5] >> (i & 31)) & 1u); }

void lcan_tbsw_outputs(int k, const svBitVecVal *rx_ret, const svBitVecVal *tx_valid, const svBitVecVal *tx_flit,
                       const svBitVecVal *cnt, const svBitVecVal *dbg)
{
    unit *u = &g.u[k];
    char line[4096];
    size_t len = 0;
    int nd = 0;
    if (!u->active || u->failed)
        return;
    u->cycles++;
#define DIFF(...)                                                                                                      \
    do {                                                                                                               \
        if (nd++ < 24 && len < sizeof line - 200)                                                                      \
            len += (size_t)snprintf(line + len, sizeof line - len, __VA_ARGS__);                                       \
    } while (0)
    for (int o = 0; o < u->P; o++) {
        int v = get_bit(tx_valid, o);
        uint64_t f = (uint64_t)tx_flit[2 * o] | ((uint64_t)tx_flit[2 * o + 1] << 32);
        int r = get_bit(rx_ret, o);
        int d = (int)((dbg[o >> 2] >> ((o & 3) * 8)) & 0xFFu);
        if (v != u->e_tx_valid[o])
            DIFF("tb-switch:   tx_valid[%d]: rtl %d model %d\n", o, v, u->e_tx_valid[o]);
        if (f != (u->e_tx_flit[o] & u->fmask))
            DIFF("tb-switch:   tx_flit[%d]: rtl 0x%" PRIx64 " model 0x%" PRIx64 "\n", o, f, u->e_tx_flit[o]);
        if (r != u->e_rx_ret[o])
            DIFF("tb-switch:   rx_ret[%d] (%s): rtl %d model %d\n", o, u->mode ? "credit" : "ack", r, u->e_rx_ret[o]);
        if (d != u->e_dbg[o])
            DIFF("tb-switch:   dbg[%d] (%s): rtl 0x%02x model 0x%02x\n", o, u->mode ? "cr_o" : "{set_o, src_o}", d,
                 u->e_dbg[o]);
        if (u->ndbg > u->P) { /* the flood queue's count at byte MAXP + o of the padded view */
            int b = g.maxp + o;
            int dq = (int)((dbg[b >> 2] >> ((b & 3) * 8)) & 0xFFu);
            if (dq != u->e_dbg[u->P + o])
                DIFF("tb-switch:   dbg[%d] (q_o, flood queue of output %d): rtl %d model %d\n", u->P + o, o, dq,
                     u->e_dbg[u->P + o]);
        }
    }
    static const char *cn[3] = {"cnt_up", "cnt_down", "cnt_drop"};
    for (int c = 0; c < 3; c++)
        if (cnt[c] != u->e_cnt[c])
            DIFF("tb-switch:   %s: rtl %u model %u\n", cn[c], (unsigned)cnt[c], (unsigned)u->e_cnt[c]);
#undef DIFF
    if (nd) {
        char d[400];
        describe(u, d, sizeof d);
        fprintf(stderr, "tb-switch: MISMATCH %s\ntb-switch:   at cycle %" PRIu64 " (outputs after the edge), %d signal(s):\n",
                d, g.cycle, nd);
        fputs(line, stderr);
        if (nd > 24)
            fprintf(stderr, "tb-switch:   ... %d more\n", nd - 24);
        fprintf(stderr, "tb-switch:   inputs (newest first):\n");
        for (int h = 0; h < TBSW_HIST && (uint64_t)h <= g.cycle; h++)
            print_tick(u, &u->hist[h], g.cycle - (uint64_t)h, u->hist_row0[h]);
        fprintf(stderr, "tb-switch:   seed %u; rerun: tb/switch/tb-switch run --seed %u --cycles %" PRIu64 " --only %d"
                "; add --form full for a unit of the full form\n", g.seed, g.seed, g.cycle + 1, u->id);
        u->failed = 1;
        g.status = 1;
        return;
    }
    /* the stimulus state follows the outputs */
    for (int o = 0; u->ndbg > u->P && o < u->P; o++)
        u->qfull += (uint64_t)(u->e_dbg[u->P + o] == u->flood_q);
    for (int o = 0; o < u->P; o++) {
        if (u->mode) {
            u->up_cr[o] += get_bit(rx_ret, o);
            u->out_pend[o] += get_bit(tx_valid, o);
        }
    }
    if (u->mode == 0) {
        memset(u->owner, 0, sizeof u->owner);
        for (int o = 0; o < u->P; o++)
            if (u->e_dbg[o] & 0x80)
                u->owner[u->e_dbg[o] & 0x7F] = 1;
    }
}

int lcan_tbsw_cycle_done(void)
{
    g.cycle++;
    return g.cycle >= g.cycles;
}

void lcan_tbsw_final(void)
{
    int pass = 0, fail = 0;
    uint64_t tc = 0, ts = 0, tg = 0, td = 0;
    for (int k = 0; k < g.ni; k++) {
        unit *u = &g.u[k];
        char d[400];
        if (!u->active)
            continue;
        describe(u, d, sizeof d);
        if (u->mode == 0)
            printf("tb-switch: %s %s: %" PRIu64 " cycles, %" PRIu64 " resets, %" PRIu64 " clears, %" PRIu64
                   " headers (%" PRIu64 " on an input owning a circuit), %" PRIu64 " data, %" PRIu64 " grants, %" PRIu64
                   " drops, %" PRIu64 " acks, %" PRIu64 " off port-cycles, %" PRIu64 " row writes\n",
                   u->failed ? "FAIL" : "ok  ", d, u->cycles, u->resets, u->clears, u->hdrs, u->hdr_owner, u->data,
                   u->grants, u->drops, u->rets, u->offs, u->writes);
        else if (u->ndbg > u->P)
            printf("tb-switch: %s %s: %" PRIu64 " cycles, %" PRIu64 " resets, %" PRIu64 " flits (%" PRIu64
                   " tree, %" PRIu64 " flooding broadcasts), %" PRIu64 " grants, %" PRIu64 " drops, %" PRIu64
                   " credits, %" PRIu64 " off port-cycles, %" PRIu64 " row writes, %" PRIu64
                   " full flood queue output-cycles\n",
                   u->failed ? "FAIL" : "ok  ", d, u->cycles, u->resets, u->flits, u->bcasts, u->floods, u->grants,
                   u->drops, u->rets, u->offs, u->writes, u->qfull);
        else
            printf("tb-switch: %s %s: %" PRIu64 " cycles, %" PRIu64 " resets, %" PRIu64 " flits (%" PRIu64
                   " tree, %" PRIu64 " flooding broadcasts), %" PRIu64 " grants, %" PRIu64 " drops, %" PRIu64
                   " credits, %" PRIu64 " off port-cycles, %" PRIu64 " row writes\n",
                   u->failed ? "FAIL" : "ok  ", d, u->cycles, u->resets, u->flits, u->bcasts, u->floods, u->grants,
                   u->drops, u->rets, u->offs, u->writes);
        tc += u->cycles;
        ts += u->mode ? u->flits : u->hdrs + u->data;
        tg += u->grants;
        td += u->drops;
        if (u->failed)
            fail++;
        else
            pass++;
    }
    printf("tb-switch: total %" PRIu64 " unit-cycles, %" PRIu64 " flits in, %" PRIu64 " grants, %" PRIu64
           " drops; seed %u\n", tc, ts, tg, td, g.seed);
    printf("%d passed, %d failed\n", pass, fail);
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < g.ni; k++) {
        lcan_sw_free(g.u[k].sw);
        lcan_topo_free(g.u[k].topo);
        free(g.u[k].row);
    }
    free(g.u);
    exit(g.status ? 1 : (fail ? 1 : 0));
}
